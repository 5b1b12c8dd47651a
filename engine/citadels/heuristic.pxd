from libc.stdint cimport uint64_t

from engine.citadels.core cimport CTState


cdef int ct_heuristic_action(const CTState* s, uint64_t* rng, bint playout) noexcept nogil
cdef int ct_keep_rank(const CTState* s, int action) noexcept nogil
