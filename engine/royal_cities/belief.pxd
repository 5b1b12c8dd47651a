from libc.stdint cimport uint8_t, uint64_t

from engine.royal_cities.core cimport NUM_CARDS, RCState


# What rc_belief_deal deals: which other player's hand holds each card `player` cannot see
# (NOT_HELD for a card elsewhere or seen).
cdef struct RCDeal:
    uint8_t owner[NUM_CARDS]
    uint8_t player


cdef bint rc_belief_ready(const RCState* s) noexcept nogil
cdef double rc_belief_deal(const RCState* root, int player, RCDeal* deal, uint64_t* rng) noexcept nogil
cdef void rc_belief_put(RCState* s, const RCDeal* deal, uint64_t* rng) noexcept nogil
cdef double rc_hands_loglik(const RCState* s, int observer) noexcept nogil
