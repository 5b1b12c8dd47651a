from engine.game_api cimport GameApi


cdef const GameApi* rc_game_api() noexcept nogil
