# Shares of the win read from a position, shared by every game's evaluate: a
# conditional logit (softmax over the players) of a few features per player, each
# feature once as it is and once scaled by how much of the game remains, so that a
# fitted weight can grow or fade as the end nears (bench/fit_evaluation.py).
from libc.math cimport exp

from engine.game_api cimport MAX_GAME_PLAYERS

cdef enum:
    MAX_EVAL_FEATURES = 16      # per player, after the scaled copies


cdef inline void with_remaining(double* row, int k, double remaining) noexcept nogil:
    """Append to the `k` features of `row` their copies scaled by `remaining`."""
    cdef int j
    for j in range(k):
        row[k + j] = row[j] * remaining


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
