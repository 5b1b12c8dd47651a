from engine.game_api cimport GameApi


cdef class CState:
    """The base of every game's State: its C interface and a pointer to its struct."""
    cdef const GameApi* api
    cdef void* ptr
