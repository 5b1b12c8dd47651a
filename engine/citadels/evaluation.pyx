# Citadels: each player's share of the win estimated from a position, for
# truncated playouts. It reads the whole state (the search evaluates a world it
# dealt itself): the score so far (completed-city bonuses included), districts
# built toward the end, gold, cards in hand and the crown, each also scaled by
# the part of the game still to play.
from engine.citadels.core cimport CTState, ct_is_terminal, ct_returns, ct_scores
from engine.cstate cimport CState
from engine.evaluation cimport MAX_EVAL_FEATURES, logit_shares, with_remaining
from engine.game_api cimport MAX_GAME_PLAYERS

cdef enum:
    CT_FEATURES = 5                     # per player, before the scaled copies
    CT_WIDTH = 2 * CT_FEATURES

#: The order of ct_features, then their scaled copies. Fitted by
#: `python -m bench.fit_evaluation --game citadels --games 1000 --seed 1`.
cdef double CT_WEIGHTS[CT_WIDTH]
CT_WEIGHTS[:] = [0.237791, 0.766467, 0.22272, 0.177232, -0.123728,
                 -0.236309, -0.618618, -0.143435, -0.144688, 0.0691004]


cdef double remaining(const CTState* s) noexcept nogil:
    """The part of the game still to play, read from the biggest city: 1 with
    nothing built, 0 once a city is complete."""
    cdef int p, most = 0
    for p in range(s.num_players):
        if s.city_n[p] > most:
            most = s.city_n[p]
    return 1.0 - most / <double>s.end_size if most < s.end_size else 0.0


cdef int ct_features(const CTState* s, double* out) noexcept nogil:
    """CT_WIDTH features per player into `out`; returns how many players. Per
    player: points so far, districts built, gold, cards in hand, the crown."""
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
        row[4] = 1.0 if s.crown == p else 0.0
        with_remaining(row, CT_FEATURES, left)
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
