# The Leduc poker core: one C struct holds a whole hand, and these noexcept nogil
# functions play it. search/ drives them through the GameApi; the Python State wraps them.
from libc.stdint cimport int16_t, uint8_t, uint64_t

cdef enum:
    LP_PLAYERS = 2
    LP_RANKS = 3            # J, Q, K: a card's id is its rank (the two suits never matter)
    LP_COPIES = 2           # cards of each rank in the deck
    LP_ANTE = 1
    LP_MAX_RAISES = 2       # bets and raises in one round
    LP_MAX_MOVES = 8        # check, bet, raise, call in each of the two rounds
    LP_NOBODY = 255         # no player: nobody to act, nobody folded

cpdef enum Card:
    JACK = 0
    QUEEN = 1
    KING = 2

# A player's moves, sorted by id within every decision: check or bet; fold, call or raise.
# An action's id is its move plus NUM_MOVES times the board: 0 in round one, 1 + the public
# card's rank in round two, so that a search's trees, which branch on action ids, tell the
# public cards apart.
cpdef enum Action:
    A_CHECK = 0
    A_BET = 1
    A_FOLD = 2
    A_CALL = 3
    A_RAISE = 4
    NUM_MOVES = 5
    NUM_ACTIONS = 20        # NUM_MOVES * (1 + LP_RANKS)

cpdef enum Phase:
    PH_OPEN = 0             # no bet to answer: check or bet
    PH_FACING_BET = 1       # fold, call or (under the cap) raise
    PH_END = 2

cdef struct LPState:
    uint8_t card[LP_PLAYERS]        # each player's private card
    uint8_t public_card             # dealt with the hands, turned up after round one
    uint8_t round                   # 0 or 1
    uint8_t history[LP_MAX_MOVES]   # the action ids played, in order
    uint8_t n_moves
    uint8_t round_moves             # actions played in this round
    uint8_t raises                  # bets and raises in this round
    uint8_t cur                     # the player to act, or LP_NOBODY once the hand is over
    uint8_t stake[LP_PLAYERS]       # chips each has put in, ante included
    uint8_t folded                  # the player who folded, or LP_NOBODY


cdef void lp_init(LPState* s, uint64_t seed) noexcept nogil
cdef void lp_deal(LPState* s, int card0, int card1, int public_card) noexcept nogil
cdef void lp_deal_random(LPState* s, uint64_t* rng) noexcept nogil
cdef int lp_board(const LPState* s) noexcept nogil
cdef int lp_phase(const LPState* s) noexcept nogil
cdef int lp_legal_actions(const LPState* s, int16_t* out) noexcept nogil
cdef void lp_apply(LPState* s, int action) noexcept nogil
cdef bint lp_is_terminal(const LPState* s) noexcept nogil
cdef int lp_current_player(const LPState* s) noexcept nogil
cdef bint lp_showdown(const LPState* s) noexcept nogil
cdef void lp_scores(const LPState* s, int* out) noexcept nogil
cdef void lp_returns(const LPState* s, double* out) noexcept nogil
cdef void lp_evaluate(const LPState* s, double* out) noexcept nogil
cdef void lp_margins(const LPState* s, double* out) noexcept nogil
cdef int lp_observed_action(const LPState* s, int action, int observer) noexcept nogil
cdef void lp_resample(LPState* s, int player, uint64_t* rng) noexcept nogil
cdef void lp_start(const LPState* s, LPState* out, uint64_t* rng) noexcept nogil
cdef int lp_check(const LPState* s) noexcept nogil
