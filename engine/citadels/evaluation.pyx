# Citadels: each player's share of the win estimated from a position, for
# truncated playouts. It reads the whole state (the search evaluates a world it
# dealt itself): the score so far (completed-city bonuses included), districts
# built toward the end, gold, cards in hand, the points its gold could build from
# them and whether the player still has a turn this round, each weighed by how far
# the game has come.
from libc.stdint cimport uint8_t

from engine.citadels.core cimport (
    CT_COST, NUM_CHARS, NUM_DKINDS, PH_DISCARD, PH_PICK, CTState, ct_is_terminal,
    ct_returns, ct_scores,
)
from engine.cstate cimport CState
from engine.evaluation cimport MAX_EVAL_FEATURES, logit_shares, split_by_progress
from engine.game_api cimport MAX_GAME_PLAYERS

cdef enum:
    CT_FEATURES = 6                     # per player, before split_by_progress
    CT_WIDTH = 2 * CT_FEATURES

#: Late then early weights, each in the order of ct_features. Fitted by
#: `python -m bench.fit_evaluation --game citadels --games 1000 --seed 1`.
cdef double CT_WEIGHTS[CT_WIDTH]
CT_WEIGHTS[:] = [0.246842, 0.862178, 0.205484, 0.189484, 0.04516, 1.06102,
                 0.0074343, 0.105084, 0.0315017, 0.00679365, 0.0603481, 0.0792208]


cdef double remaining(const CTState* s) noexcept nogil:
    """The part of the game still to play, read from the biggest city: 1 with
    nothing built, 0 once a city is complete."""
    cdef int p, most = 0
    for p in range(s.num_players):
        if s.city_n[p] > most:
            most = s.city_n[p]
    return 1.0 - most / <double>s.end_size if most < s.end_size else 0.0


cdef uint8_t BY_COST[NUM_DKINDS]       # the district kinds, cheapest first
BY_COST[:] = sorted(range(NUM_DKINDS), key=lambda k: CT_COST[k])


cdef int affordable(const CTState* s, int p) noexcept nogil:
    """The points `p` could build with the gold it has: its hand's cheapest districts
    first, one of each kind it has not built."""
    cdef int i, k, gold = s.gold[p], points = 0
    for i in range(NUM_DKINDS):
        k = BY_COST[i]
        if s.hand_kind[p][k] and not ((s.city_kinds[p] >> k) & 1):
            if CT_COST[k] > gold:
                break
            gold -= CT_COST[k]
            points += CT_COST[k]
    return points


cdef bint turn_to_come(const CTState* s, int p) noexcept nogil:
    """`p` still has a turn this round: in the draft, or holding a character not yet
    called and not killed (the one called now counts while its turn runs)."""
    cdef int c
    if s.phase == PH_PICK or s.phase == PH_DISCARD:
        return True
    for c in range(s.call, NUM_CHARS):
        if s.holder[c] == p and c != s.killed:
            return True
    return False


cdef int ct_features(const CTState* s, double* out) noexcept nogil:
    """CT_WIDTH features per player (split_by_progress) into `out`; returns how
    many players. Per player: points so far, districts built, gold, cards in
    hand, the points that gold could build from them, a turn still to come this
    round. (The crown was one too: no fit ever gave it weight.)"""
    cdef int scores[MAX_GAME_PLAYERS]
    cdef int p
    cdef double* row
    cdef double left = remaining(s)
    ct_scores(s, scores)
    for p in range(s.num_players):
        row = out + p * CT_WIDTH
        row[0] = scores[p]
        row[1] = s.city_n[p]
        row[2] = s.gold[p]
        row[3] = s.hand_n[p]
        row[4] = affordable(s, p)
        row[5] = 1.0 if turn_to_come(s, p) else 0.0
        split_by_progress(row, CT_FEATURES, left)
    return s.num_players


cdef void ct_evaluate(const CTState* s, double* out) noexcept nogil:
    """Per player, the estimated share of the win, in [0, 1]; the returns once the
    game is over."""
    cdef double features[MAX_GAME_PLAYERS * MAX_EVAL_FEATURES]
    if ct_is_terminal(s):
        ct_returns(s, out)
        return
    logit_shares(features, ct_features(s, features), CT_WIDTH, CT_WEIGHTS, out)


def features(state) -> list[list[float]]:
    """The evaluation's features of a Citadels state, one row per player (the
    fitting script reads them)."""
    from engine.citadels.state import CitadelsState

    if not isinstance(state, CitadelsState):
        raise TypeError(f"a Citadels state, not {type(state).__name__}")
    cdef double out[MAX_GAME_PLAYERS * MAX_EVAL_FEATURES]
    cdef int players = ct_features(<const CTState*>(<CState>state).ptr, out)
    return [[out[p * CT_WIDTH + j] for j in range(CT_WIDTH)] for p in range(players)]
