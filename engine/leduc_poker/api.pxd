from engine.game_api cimport GameApi


cdef const GameApi* lp_game_api() noexcept nogil
