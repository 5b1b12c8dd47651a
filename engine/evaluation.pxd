# Shares of the win read from a position, shared by every game's evaluate: a
# conditional logit (softmax over the players) of a few features per player, each
# feature split in two by how much of the game remains (its weight moves from the
# early one to the late one as the end nears; bench/fit_evaluation.py fits both,
# never negative: more of a feature never lowers a player's share).
from libc.math cimport exp

from engine.game_api cimport MAX_GAME_PLAYERS

cdef enum:
    MAX_EVAL_FEATURES = 16      # per player, after the scaled copies


cdef inline void split_by_progress(double* row, int k, double remaining) noexcept nogil:
    """Turn the `k` features of `row` into 2k: each times the part of the game
    played (1 - remaining), then each times the part remaining."""
    cdef int j
    for j in range(k):
        row[k + j] = row[j] * remaining
        row[j] *= 1.0 - remaining


cdef inline void logit_shares(const double* features, int owners, int width,
                              const double* weights, double* out) noexcept nogil:
    """out[o] = exp(u_o) / sum exp(u), u_o = weights . features[o * width ...]."""
    cdef double u[MAX_GAME_PLAYERS]
    cdef double best = -1e300, total = 0.0
    cdef int o, j
    for o in range(owners):
        u[o] = 0.0
        for j in range(width):
            u[o] += weights[j] * features[o * width + j]
        if u[o] > best:
            best = u[o]
    for o in range(owners):
        u[o] = exp(u[o] - best)
        total += u[o]
    for o in range(owners):
        out[o] = u[o] / total
