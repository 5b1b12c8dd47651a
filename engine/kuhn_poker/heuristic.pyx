# A hand-written Kuhn poker policy, in C for playouts: bet and call with the King,
# check and fold with the Jack, check with the Queen and call a bet half the time.
# It reads only the player's own card and the public betting.
from libc.stdint cimport uint64_t

from engine.kuhn_poker.core cimport (
    A_BET, A_CALL, A_CHECK, A_FOLD, JACK, KING, PH_OPEN, KPState, kp_phase,
)
from engine.rng cimport rng_below


cdef int kp_heuristic_action(const KPState* s, uint64_t* rng) noexcept nogil:
    cdef int card = s.card[s.cur]
    if kp_phase(s) == PH_OPEN:
        return A_BET if card == KING else A_CHECK
    if card == KING:
        return A_CALL
    if card == JACK:
        return A_FOLD
    return A_CALL if rng_below(rng, 2) == 0 else A_FOLD
