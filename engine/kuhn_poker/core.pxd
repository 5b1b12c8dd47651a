# The Kuhn poker core: one C struct holds a whole hand, and these noexcept nogil
# functions play it. search/ drives them through the GameApi; the Python State wraps them.
from libc.stdint cimport int16_t, uint8_t, uint64_t

cdef enum:
    KP_PLAYERS = 2
    KP_CARDS = 3            # J, Q, K: the card's id is its rank
    KP_ANTE = 1
    KP_BET = 1
    KP_MAX_MOVES = 3        # check, bet, call is the longest hand
    KP_NOBODY = 255         # no player: nobody to act, nobody folded

cpdef enum Card:
    JACK = 0
    QUEEN = 1
    KING = 2

# Action ids, sorted by id within every decision: check or bet, then fold or call.
cpdef enum Action:
    A_CHECK = 0
    A_BET = 1
    A_FOLD = 2
    A_CALL = 3
    NUM_ACTIONS = 4

cpdef enum Phase:
    PH_OPEN = 0             # no bet to answer: check or bet
    PH_FACING_BET = 1       # fold or call
    PH_END = 2

cdef struct KPState:
    uint8_t card[KP_PLAYERS]
    uint8_t history[KP_MAX_MOVES]   # the actions played, in order
    uint8_t n_moves
    uint8_t cur                     # the player to act, or KP_NOBODY once the hand is over
    uint8_t stake[KP_PLAYERS]       # chips each has put in, ante included
    uint8_t folded                  # the player who folded, or KP_NOBODY


cdef void kp_init(KPState* s, uint64_t seed) noexcept nogil
cdef void kp_deal(KPState* s, int card0, int card1) noexcept nogil
cdef int kp_phase(const KPState* s) noexcept nogil
cdef int kp_legal_actions(const KPState* s, int16_t* out) noexcept nogil
cdef void kp_apply(KPState* s, int action) noexcept nogil
cdef bint kp_is_terminal(const KPState* s) noexcept nogil
cdef int kp_current_player(const KPState* s) noexcept nogil
cdef bint kp_showdown(const KPState* s) noexcept nogil
cdef void kp_scores(const KPState* s, int* out) noexcept nogil
cdef void kp_returns(const KPState* s, double* out) noexcept nogil
cdef void kp_evaluate(const KPState* s, double* out) noexcept nogil
cdef void kp_margins(const KPState* s, double* out) noexcept nogil
cdef int kp_observed_action(const KPState* s, int action, int observer) noexcept nogil
cdef void kp_resample(KPState* s, int player, uint64_t* rng) noexcept nogil
cdef void kp_start(const KPState* s, KPState* out, uint64_t* rng) noexcept nogil
cdef int kp_check(const KPState* s) noexcept nogil
