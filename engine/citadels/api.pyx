# Citadels behind the generic GameApi that search/ drives.
from libc.stdint cimport int16_t, uint64_t

from engine.game_api cimport GameApi
from engine.citadels.core cimport (
    NUM_ACTIONS, PH_KEEP, CTState, ct_apply, ct_current_player, ct_is_terminal, ct_legal_actions,
    ct_margins, ct_observed_action, ct_resample, ct_returns,
)
from engine.citadels.belief cimport CTDeal, ct_belief_deal, ct_belief_put, ct_belief_ready
from engine.citadels.evaluation cimport ct_evaluate
from engine.citadels.heuristic cimport ct_heuristic_action, ct_keep_rank


cdef int _num_players(const void* s) noexcept nogil:
    return (<const CTState*>s).num_players


cdef int _current_player(const void* s) noexcept nogil:
    return ct_current_player(<const CTState*>s)


cdef bint _is_terminal(const void* s) noexcept nogil:
    return ct_is_terminal(<const CTState*>s)


cdef int _legal_actions(const void* s, int16_t* out) noexcept nogil:
    return ct_legal_actions(<const CTState*>s, out)


cdef void _apply_action(void* s, int action) noexcept nogil:
    ct_apply(<CTState*>s, action)


cdef void _returns(const void* s, double* out) noexcept nogil:
    ct_returns(<const CTState*>s, out)


cdef void _margins(const void* s, double* out) noexcept nogil:
    ct_margins(<const CTState*>s, out)


cdef void _evaluate(const void* s, double* out) noexcept nogil:
    ct_evaluate(<const CTState*>s, out)


cdef void _resample(void* s, int player, uint64_t* rng) noexcept nogil:
    ct_resample(<CTState*>s, player, rng)


cdef int _observed_action(const void* s, int action, int observer) noexcept nogil:
    return ct_observed_action(<const CTState*>s, action, observer)


cdef int _heuristic_action(const void* s, uint64_t* rng, bint playout) noexcept nogil:
    return ct_heuristic_action(<const CTState*>s, rng, playout)


cdef int _own_label(const void* s, int action) noexcept nogil:
    # Which cards a keep offers hangs on the player's own draw: named by rank, one subtree.
    if (<const CTState*>s).phase != PH_KEEP:
        return action
    return NUM_ACTIONS + ct_keep_rank(<const CTState*>s, action)


cdef bint _belief_ready(const void* s) noexcept nogil:
    return ct_belief_ready(<const CTState*>s)


cdef double _belief_deal(const void* root, int player, void* deal, uint64_t* rng) noexcept nogil:
    return ct_belief_deal(<const CTState*>root, player, <CTDeal*>deal, rng)


cdef void _belief_put(void* s, const void* deal, uint64_t* rng) noexcept nogil:
    ct_belief_put(<CTState*>s, <const CTDeal*>deal)


cdef GameApi CT_API
CT_API.state_size = sizeof(CTState)
CT_API.num_actions = NUM_ACTIONS
CT_API.num_players = _num_players
CT_API.current_player = _current_player
CT_API.is_terminal = _is_terminal
CT_API.legal_actions = _legal_actions
CT_API.apply_action = _apply_action
CT_API.returns = _returns
CT_API.margins = _margins
CT_API.evaluate = _evaluate
CT_API.resample = _resample
CT_API.observed_action = _observed_action
CT_API.heuristic_action = _heuristic_action
CT_API.own_label = _own_label
CT_API.belief_size = sizeof(CTDeal)
CT_API.belief_ready = _belief_ready
CT_API.belief_deal = _belief_deal
CT_API.belief_put = _belief_put


cdef const GameApi* ct_game_api() noexcept nogil:
    return &CT_API
