# Kuhn poker behind the generic GameApi that search/ drives.
from libc.stdint cimport int16_t, uint64_t

from engine.game_api cimport GameApi
from engine.kuhn_poker.core cimport (
    KP_PLAYERS, NUM_ACTIONS, KPState, kp_apply, kp_current_player, kp_evaluate, kp_is_terminal,
    kp_legal_actions, kp_margins, kp_observed_action, kp_resample, kp_returns, kp_start,
)
from engine.kuhn_poker.heuristic cimport kp_heuristic_action


cdef int _num_players(const void* s) noexcept nogil:
    return KP_PLAYERS


cdef int _current_player(const void* s) noexcept nogil:
    return kp_current_player(<const KPState*>s)


cdef bint _is_terminal(const void* s) noexcept nogil:
    return kp_is_terminal(<const KPState*>s)


cdef int _legal_actions(const void* s, int16_t* out) noexcept nogil:
    return kp_legal_actions(<const KPState*>s, out)


cdef void _apply_action(void* s, int action) noexcept nogil:
    kp_apply(<KPState*>s, action)


cdef void _returns(const void* s, double* out) noexcept nogil:
    kp_returns(<const KPState*>s, out)


cdef void _margins(const void* s, double* out) noexcept nogil:
    kp_margins(<const KPState*>s, out)


cdef void _evaluate(const void* s, double* out) noexcept nogil:
    kp_evaluate(<const KPState*>s, out)


cdef void _resample(void* s, int player, uint64_t* rng) noexcept nogil:
    kp_resample(<KPState*>s, player, rng)


cdef int _observed_action(const void* s, int action, int observer) noexcept nogil:
    return kp_observed_action(<const KPState*>s, action, observer)


cdef int _heuristic_action(const void* s, uint64_t* rng, bint playout) noexcept nogil:
    # One judgement, no weights: the playouts play as the heuristic player does.
    return kp_heuristic_action(<const KPState*>s, rng)


cdef void _start(const void* s, void* out, uint64_t* rng) noexcept nogil:
    kp_start(<const KPState*>s, <KPState*>out, rng)


cdef int _history(const void* s, int16_t* out) noexcept nogil:
    # An action's id is its history entry.
    cdef const KPState* k = <const KPState*>s
    cdef int i
    for i in range(k.n_moves):
        out[i] = k.history[i]
    return k.n_moves


cdef int _private_key(const void* s, int player) noexcept nogil:
    return (<const KPState*>s).card[player]


cdef GameApi KP_API
KP_API.state_size = sizeof(KPState)
KP_API.num_actions = NUM_ACTIONS
KP_API.num_players = _num_players
KP_API.current_player = _current_player
KP_API.is_terminal = _is_terminal
KP_API.legal_actions = _legal_actions
KP_API.apply_action = _apply_action
KP_API.returns = _returns
KP_API.margins = _margins
KP_API.evaluate = _evaluate
KP_API.resample = _resample
KP_API.observed_action = _observed_action
KP_API.heuristic_action = _heuristic_action
KP_API.start = _start
KP_API.history = _history
KP_API.private_key = _private_key


cdef const GameApi* kp_game_api() noexcept nogil:
    return &KP_API
