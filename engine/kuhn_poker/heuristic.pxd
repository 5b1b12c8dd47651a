from libc.stdint cimport uint64_t

from engine.kuhn_poker.core cimport KPState


cdef int kp_heuristic_action(const KPState* s, uint64_t* rng) noexcept nogil
