from engine.game_api cimport GameApi


cdef const GameApi* ct_game_api() noexcept nogil
