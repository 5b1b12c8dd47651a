from libc.stdint cimport uint64_t

from engine.royal_cities.core cimport RCState


cdef int rc_heuristic_action(const RCState* s, uint64_t* rng, bint playout) noexcept nogil
cdef int rc_keep_rank(const RCState* s, int action) noexcept nogil
