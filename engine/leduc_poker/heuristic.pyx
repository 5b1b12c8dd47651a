# A hand-written Leduc poker policy, in C for playouts: in round one bet and raise with
# the King, check and call with the Queen, check and fold with the Jack (calling a single
# bet half the time); in round two bet and raise with a pair, check and call with the
# King, check and fold otherwise. It reads only the player's own card, the public card once
# it is up and the public betting.
from libc.stdint cimport uint64_t

from engine.leduc_poker.core cimport (
    A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE, KING, LP_MAX_RAISES, NUM_MOVES, PH_OPEN, QUEEN,
    LPState, lp_board, lp_phase,
)
from engine.rng cimport rng_below


cdef int lp_heuristic_action(const LPState* s, uint64_t* rng) noexcept nogil:
    cdef int card = s.card[s.cur], base = NUM_MOVES * lp_board(s)
    cdef bint open_ = lp_phase(s) == PH_OPEN
    cdef bint strong, fair
    if s.round == 0:
        strong = card == KING
        fair = card == QUEEN or (s.raises == 1 and rng_below(rng, 2) == 0)
    else:
        strong = card == s.public_card
        fair = card == KING
    if strong:
        if open_:
            return base + A_BET
        return base + (A_RAISE if s.raises < LP_MAX_RAISES else A_CALL)
    if open_:
        return base + A_CHECK
    return base + (A_CALL if fair else A_FOLD)
