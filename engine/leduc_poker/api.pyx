# Leduc poker behind the generic GameApi that search/ drives.
from libc.stdint cimport int16_t, uint64_t

from engine.game_api cimport GameApi
from engine.leduc_poker.core cimport (
    LP_PLAYERS, NUM_ACTIONS, LPState, lp_apply, lp_current_player, lp_evaluate, lp_is_terminal,
    lp_legal_actions, lp_margins, lp_observed_action, lp_resample, lp_returns, lp_start,
)
from engine.leduc_poker.heuristic cimport lp_heuristic_action


cdef int _num_players(const void* s) noexcept nogil:
    return LP_PLAYERS


cdef int _current_player(const void* s) noexcept nogil:
    return lp_current_player(<const LPState*>s)


cdef bint _is_terminal(const void* s) noexcept nogil:
    return lp_is_terminal(<const LPState*>s)


cdef int _legal_actions(const void* s, int16_t* out) noexcept nogil:
    return lp_legal_actions(<const LPState*>s, out)


cdef void _apply_action(void* s, int action) noexcept nogil:
    lp_apply(<LPState*>s, action)


cdef void _returns(const void* s, double* out) noexcept nogil:
    lp_returns(<const LPState*>s, out)


cdef void _margins(const void* s, double* out) noexcept nogil:
    lp_margins(<const LPState*>s, out)


cdef void _evaluate(const void* s, double* out) noexcept nogil:
    lp_evaluate(<const LPState*>s, out)


cdef void _resample(void* s, int player, uint64_t* rng) noexcept nogil:
    lp_resample(<LPState*>s, player, rng)


cdef int _observed_action(const void* s, int action, int observer) noexcept nogil:
    return lp_observed_action(<const LPState*>s, action, observer)


cdef int _heuristic_action(const void* s, uint64_t* rng, bint playout) noexcept nogil:
    # One judgement, no weights: the playouts play as the heuristic player does.
    return lp_heuristic_action(<const LPState*>s, rng)


cdef void _start(const void* s, void* out, uint64_t* rng) noexcept nogil:
    lp_start(<const LPState*>s, <LPState*>out, rng)


cdef int _history(const void* s, int16_t* out) noexcept nogil:
    cdef const LPState* k = <const LPState*>s
    cdef int i
    for i in range(k.n_moves):
        out[i] = k.history[i]
    return k.n_moves


cdef int _private_key(const void* s, int player) noexcept nogil:
    return (<const LPState*>s).card[player]


cdef GameApi LP_API
LP_API.state_size = sizeof(LPState)
LP_API.num_actions = NUM_ACTIONS
LP_API.num_players = _num_players
LP_API.current_player = _current_player
LP_API.is_terminal = _is_terminal
LP_API.legal_actions = _legal_actions
LP_API.apply_action = _apply_action
LP_API.returns = _returns
LP_API.margins = _margins
LP_API.evaluate = _evaluate
LP_API.resample = _resample
LP_API.observed_action = _observed_action
LP_API.heuristic_action = _heuristic_action
LP_API.start = _start
LP_API.history = _history
LP_API.private_key = _private_key


cdef const GameApi* lp_game_api() noexcept nogil:
    return &LP_API
