# Dealing hidden cards again, shared by every game's resample.
from libc.stdint cimport uint8_t, uint64_t

from engine.rng cimport rng_shuffle


cdef inline void deal_cards(const uint8_t* hidden, int n, uint8_t* out, uint64_t* rng) noexcept nogil:
    """The `n` cards of `hidden` (ascending ids) in a random order from `rng`.
    The game gives out[k] to the k-th hidden place in its own canonical order of
    places (by position, never by the card that was there), so that a deal
    depends only on which cards and places are hidden and on `rng`: two states
    that look the same to the player get the same deal."""
    cdef int i
    for i in range(n):
        out[i] = hidden[i]
    rng_shuffle(out, n, rng)


cdef inline list dealt(list free, uint64_t* rng):
    """The card ids of `free` (ascending, fewer than 256) in the order `deal_cards`
    gives them: the builders from an observation deal the way resample does."""
    cdef uint8_t hidden[256]
    cdef uint8_t cards[256]
    cdef int i, n = len(free)
    for i in range(n):
        hidden[i] = free[i]
    deal_cards(hidden, n, cards, rng)
    return [cards[i] for i in range(n)]
