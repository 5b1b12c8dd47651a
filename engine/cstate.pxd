from libc.stdint cimport uint64_t

from engine.game_api cimport GameApi


cdef class CState:
    """The base of every game's State: its C interface, a pointer to its struct
    (held by the subclass) and its rules options."""
    cdef const GameApi* api
    cdef void* ptr
    cdef readonly object rules


cdef int api_playout(const GameApi* api, void* s, uint64_t* rng) noexcept nogil
