# Royal Cities behind the generic GameApi that search/ drives.
from libc.stdint cimport int16_t, uint64_t

from engine.game_api cimport GameApi
from engine.royal_cities.belief cimport RCDeal, rc_belief_deal, rc_belief_put, rc_belief_ready
from engine.royal_cities.core cimport (
    NUM_ACTIONS, PH_HERO_KEEP, RCState, rc_apply, rc_current_player, rc_is_terminal,
    rc_legal_actions, rc_margins, rc_observed_action, rc_resample, rc_returns,
)
from engine.royal_cities.evaluation cimport rc_evaluate
from engine.royal_cities.heuristic cimport rc_heuristic_action, rc_keep_rank


cdef int _num_players(const void* s) noexcept nogil:
    return (<const RCState*>s).num_players


cdef int _current_player(const void* s) noexcept nogil:
    return rc_current_player(<const RCState*>s)


cdef bint _is_terminal(const void* s) noexcept nogil:
    return rc_is_terminal(<const RCState*>s)


cdef int _legal_actions(const void* s, int16_t* out) noexcept nogil:
    return rc_legal_actions(<const RCState*>s, out)


cdef void _apply_action(void* s, int action) noexcept nogil:
    rc_apply(<RCState*>s, action)


cdef void _returns(const void* s, double* out) noexcept nogil:
    rc_returns(<const RCState*>s, out)


cdef void _margins(const void* s, double* out) noexcept nogil:
    rc_margins(<const RCState*>s, out)


cdef void _evaluate(const void* s, double* out) noexcept nogil:
    rc_evaluate(<const RCState*>s, out)


cdef void _resample(void* s, int player, uint64_t* rng) noexcept nogil:
    rc_resample(<RCState*>s, player, rng)


cdef int _observed_action(const void* s, int action, int observer) noexcept nogil:
    return rc_observed_action(<const RCState*>s, action, observer)


cdef int _heuristic_action(const void* s, uint64_t* rng, bint playout) noexcept nogil:
    return rc_heuristic_action(<const RCState*>s, rng, playout)


cdef int _own_label(const void* s, int action) noexcept nogil:
    # Which cards a Hero's keep offers hangs on the player's own draw: named by rank, one subtree.
    if (<const RCState*>s).phase != PH_HERO_KEEP:
        return action
    return NUM_ACTIONS + rc_keep_rank(<const RCState*>s, action)


cdef bint _belief_ready(const void* s) noexcept nogil:
    return rc_belief_ready(<const RCState*>s)


cdef double _belief_deal(const void* root, int player, void* deal, uint64_t* rng) noexcept nogil:
    return rc_belief_deal(<const RCState*>root, player, <RCDeal*>deal, rng)


cdef void _belief_put(void* s, const void* deal, uint64_t* rng) noexcept nogil:
    rc_belief_put(<RCState*>s, <const RCDeal*>deal, rng)


cdef GameApi RC_API
RC_API.state_size = sizeof(RCState)
RC_API.num_actions = NUM_ACTIONS
RC_API.num_players = _num_players
RC_API.current_player = _current_player
RC_API.is_terminal = _is_terminal
RC_API.legal_actions = _legal_actions
RC_API.apply_action = _apply_action
RC_API.returns = _returns
RC_API.margins = _margins
RC_API.evaluate = _evaluate
RC_API.resample = _resample
RC_API.observed_action = _observed_action
RC_API.heuristic_action = _heuristic_action
RC_API.own_label = _own_label
RC_API.belief_size = sizeof(RCDeal)
RC_API.belief_ready = _belief_ready
RC_API.belief_deal = _belief_deal
RC_API.belief_put = _belief_put


cdef const GameApi* rc_game_api() noexcept nogil:
    return &RC_API
