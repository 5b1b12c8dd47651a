from libc.stdint cimport uint8_t, uint64_t

from engine.citadels.core cimport MAX_PLAYERS, MAX_SLOTS, NUM_CHARS, CTState


# What ct_deal_characters deals: one candidate of the characters a player cannot place.
cdef struct CTDeal:
    uint8_t slot_char[MAX_SLOTS]
    uint8_t slot_owner[MAX_SLOTS]
    uint8_t holder[NUM_CHARS]
    uint8_t obs_set[MAX_PLAYERS][2]
    uint8_t pool


cdef bint ct_belief_ready(const CTState* s) noexcept nogil
cdef double ct_belief_deal(const CTState* root, int player, CTDeal* deal, uint64_t* rng) noexcept nogil
cdef void ct_belief_put(CTState* s, const CTDeal* deal) noexcept nogil
cdef double ct_draft_loglik(const CTState* s, int observer) noexcept nogil
