from engine.game_api cimport GameApi


cdef const GameApi* kp_game_api() noexcept nogil
