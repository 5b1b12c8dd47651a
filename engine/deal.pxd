# Dealing hidden cards again, shared by every game's resample.
from libc.stdint cimport uint8_t, uint64_t

from engine.rng cimport rng_shuffle

cdef enum:
    DEAL_MAX_CARDS = 128


cdef inline void deal_again(uint8_t* loc, uint8_t* known, const uint8_t* hidden, int n,
                            uint8_t* perm, int num_cards, uint64_t* rng) noexcept nogil:
    """Deal the `n` cards listed in `hidden` (ascending ids) again among their own
    places: each place keeps its location and who knows what is there. `perm`
    gets, for every card id, the card now at its old place (itself if not hidden),
    so that the game can rewrite its ordered piles."""
    cdef uint8_t cards[DEAL_MAX_CARDS]
    cdef uint8_t old_loc[DEAL_MAX_CARDS]
    cdef uint8_t old_known[DEAL_MAX_CARDS]
    cdef int i
    for i in range(num_cards):
        perm[i] = i
    for i in range(n):
        cards[i] = hidden[i]
        old_loc[i] = loc[hidden[i]]
        old_known[i] = known[hidden[i]]
    rng_shuffle(cards, n, rng)
    for i in range(n):
        perm[hidden[i]] = cards[i]
        loc[cards[i]] = old_loc[i]
        known[cards[i]] = old_known[i]
