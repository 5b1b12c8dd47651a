# Royal Cities: each player's share of the win estimated from a position, for
# truncated playouts. It reads the whole state (the search evaluates a world it
# dealt itself): VP, the majorities as they stand, the hand, an unused Hero, the
# Cities built, each weighed by how far the game has come.
from engine.bits cimport bits_count
from engine.cstate cimport CState
from engine.evaluation cimport MAX_EVAL_FEATURES, logit_shares, split_by_progress
from engine.game_api cimport MAX_GAME_PLAYERS
from engine.royal_cities.core cimport (
    NUM_CITIES, REGENT, RCState, rc_cards_built, rc_colour_points, rc_influence, rc_is_terminal,
    rc_returns,
)

cdef enum:
    RC_FEATURES = 5                     # per player, before split_by_progress
    RC_WIDTH = 2 * RC_FEATURES

#: Late then early weights, each in the order of rc_features. Fitted by
#: `python -m bench.fit_evaluation --game royal-cities --games 1000 --seed 1`.
cdef double RC_WEIGHTS[RC_WIDTH]
RC_WEIGHTS[:] = [0.475945, 0.263789, 0.317015, 0.637356, 0.325403,
                 0.0, 0.136221, 0.119878, 0.0, 0.127977]


cdef double remaining(const RCState* s) noexcept nogil:
    """The part of the game still to play, 1 at the start and 0 at the end: the
    Seasons to come, less the share of players who have purchased this Season."""
    cdef double done = s.season + <double>bits_count(s.purchased) / s.num_players
    return 1.0 - done / s.num_seasons


cdef int rc_features(const RCState* s, double* out) noexcept nogil:
    """RC_WIDTH features per owner (the players, then the Regent in solo mode;
    split_by_progress) into `out`; returns how many owners. Per owner: VP, the VP
    of the majorities it holds now, cards in hand, an unused Hero (2 VP at the
    end), cards built."""
    cdef int infl[MAX_GAME_PLAYERS][NUM_CITIES]
    cdef int owner_of[MAX_GAME_PLAYERS]
    cdef int owners = 0, o, c, i, best, own
    cdef double* row
    cdef double left = remaining(s)
    for o in range(s.num_players):
        owner_of[owners] = o
        owners += 1
    if s.num_players == 1:
        owner_of[owners] = REGENT
        owners += 1
    for o in range(owners):
        for c in range(NUM_CITIES):
            infl[o][c] = rc_influence(s, owner_of[o], c)
    for o in range(owners):
        own = owner_of[o]
        row = out + o * RC_WIDTH
        row[0] = s.vp[own]
        row[1] = 0.0
        for c in range(NUM_CITIES):
            best = 0
            for i in range(owners):
                if infl[i][c] > best:
                    best = infl[i][c]
            if best > 0 and infl[o][c] == best:
                row[1] += rc_colour_points(s, own, c, best)
        row[2] = s.hand_n[own] if own != REGENT else 0
        row[3] = (s.hero_up >> own) & 1 if own != REGENT else 0
        row[4] = rc_cards_built(s, own)
        split_by_progress(row, RC_FEATURES, left)
    return owners


cdef void rc_evaluate(const RCState* s, double* out) noexcept nogil:
    """Per player, the estimated share of the win, in [0, 1]; the returns once the
    game is over. Solo: the player's chance against the Regent."""
    cdef double features[MAX_GAME_PLAYERS * MAX_EVAL_FEATURES]
    cdef double shares[MAX_GAME_PLAYERS]
    cdef int p, owners
    if rc_is_terminal(s):
        rc_returns(s, out)
        return
    owners = rc_features(s, features)
    logit_shares(features, owners, RC_WIDTH, RC_WEIGHTS, shares)
    for p in range(s.num_players):
        out[p] = shares[p]


def features(state) -> list[list[float]]:
    """The evaluation's features of a Royal Cities state, one row per owner (the
    fitting script reads them)."""
    from engine.royal_cities.state import RoyalCitiesState

    if not isinstance(state, RoyalCitiesState):
        raise TypeError(f"a Royal Cities state, not {type(state).__name__}")
    cdef double out[MAX_GAME_PLAYERS * MAX_EVAL_FEATURES]
    cdef int owners = rc_features(<const RCState*>(<CState>state).ptr, out)
    return [[out[o * RC_WIDTH + j] for j in range(RC_WIDTH)] for o in range(owners)]
