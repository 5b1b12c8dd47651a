from libc.stdint cimport uint64_t

from engine.leduc_poker.core cimport LPState


cdef int lp_heuristic_action(const LPState* s, uint64_t* rng) noexcept nogil
