# The rules of Kuhn poker (Kuhn 1950): three cards J < Q < K, two players, an ante
# of 1 each, one card each, one betting round with bets of 1. Player 0 checks or
# bets; after a check player 1 checks (showdown) or bets; a bet is folded or called
# (showdown). At a showdown the higher card takes the pot.
from libc.stdint cimport int16_t, uint64_t

from engine.rng cimport rng_below, rng_seed


cdef void kp_init(KPState* s, uint64_t seed) noexcept nogil:
    """A new hand dealt from `seed`: each of the six deals equally likely."""
    cdef uint64_t rng[4]
    cdef int first
    rng_seed(rng, seed)
    first = rng_below(rng, KP_CARDS)
    kp_deal(s, first, (first + 1 + rng_below(rng, KP_CARDS - 1)) % KP_CARDS)


cdef void kp_deal(KPState* s, int card0, int card1) noexcept nogil:
    """A new hand with these cards: antes in, player 0 to act."""
    s.card[0] = card0
    s.card[1] = card1
    s.n_moves = 0
    s.cur = 0
    s.stake[0] = KP_ANTE
    s.stake[1] = KP_ANTE
    s.folded = KP_NOBODY


cdef int kp_phase(const KPState* s) noexcept nogil:
    if s.cur == KP_NOBODY:
        return PH_END
    return PH_FACING_BET if s.stake[s.cur] < s.stake[1 - s.cur] else PH_OPEN


cdef int kp_legal_actions(const KPState* s, int16_t* out) noexcept nogil:
    cdef int phase = kp_phase(s)
    if phase == PH_END:
        return 0
    if phase == PH_OPEN:
        out[0] = A_CHECK
        out[1] = A_BET
    else:
        out[0] = A_FOLD
        out[1] = A_CALL
    return 2


cdef void kp_apply(KPState* s, int action) noexcept nogil:
    """Play a legal action (the caller checks legality)."""
    cdef int p = s.cur
    cdef bint second_check = action == A_CHECK and s.n_moves > 0
    s.history[s.n_moves] = action
    s.n_moves += 1
    if action == A_BET:
        s.stake[p] += KP_BET
    elif action == A_CALL:
        s.stake[p] = s.stake[1 - p]
    elif action == A_FOLD:
        s.folded = p
    if action == A_FOLD or action == A_CALL or second_check:
        s.cur = KP_NOBODY
    else:
        s.cur = 1 - p


cdef bint kp_is_terminal(const KPState* s) noexcept nogil:
    return s.cur == KP_NOBODY


cdef int kp_current_player(const KPState* s) noexcept nogil:
    return -1 if s.cur == KP_NOBODY else s.cur


cdef bint kp_showdown(const KPState* s) noexcept nogil:
    """The hand ended with both cards shown."""
    return s.cur == KP_NOBODY and s.folded == KP_NOBODY


cdef int winner(const KPState* s) noexcept nogil:
    """The player who takes the pot (the hand is over)."""
    if s.folded != KP_NOBODY:
        return 1 - s.folded
    return 0 if s.card[0] > s.card[1] else 1


cdef void kp_scores(const KPState* s, int* out) noexcept nogil:
    """Chips won per player: the loser's stake to the winner, 0 to the loser (and to
    both before the end)."""
    cdef int w
    out[0] = 0
    out[1] = 0
    if s.cur == KP_NOBODY:
        w = winner(s)
        out[w] = s.stake[1 - w]


cdef void kp_returns(const KPState* s, double* out) noexcept nogil:
    """1 to the winner of the pot, 0 to the loser (there are no ties)."""
    out[0] = 0.0
    out[1] = 0.0
    if s.cur == KP_NOBODY:
        out[winner(s)] = 1.0


cdef void kp_evaluate(const KPState* s, double* out) noexcept nogil:
    """The pot as the cards stand: to the higher card unless someone folded."""
    out[0] = 0.0
    out[1] = 0.0
    out[winner(s)] = 1.0


cdef void kp_margins(const KPState* s, double* out) noexcept nogil:
    """Net chips per player: own chips won minus the other's (+stake, -stake)."""
    cdef int scores[KP_PLAYERS]
    kp_scores(s, scores)
    out[0] = scores[0] - scores[1]
    out[1] = scores[1] - scores[0]


cdef int kp_observed_action(const KPState* s, int action, int observer) noexcept nogil:
    """Every bet is public: everyone sees every action as it is."""
    return action


cdef void kp_resample(KPState* s, int player, uint64_t* rng) noexcept nogil:
    """Deal the other player's card again, uniformly from the two cards `player` does
    not hold, unless a showdown has shown it. Reads only `player`'s own card."""
    if kp_showdown(s):
        return
    s.card[1 - player] = (s.card[player] + 1 + rng_below(rng, KP_CARDS - 1)) % KP_CARDS


cdef void kp_start(const KPState* s, KPState* out, uint64_t* rng) noexcept nogil:
    """The hand at `s` before its first action, with its cards (`rng` NULL) or with each of
    the six deals equally likely."""
    cdef int first
    if rng == NULL:
        kp_deal(out, s.card[0], s.card[1])
        return
    first = rng_below(rng, KP_CARDS)
    kp_deal(out, first, (first + 1 + rng_below(rng, KP_CARDS - 1)) % KP_CARDS)


cdef int kp_check(const KPState* s) noexcept nogil:
    """0 when the struct is a hand the rules reach (its history replayed from the deal
    gives the same stakes, player to act and folder); else the first broken invariant."""
    cdef KPState again
    cdef int16_t legal[2]
    cdef int i, n
    if s.card[0] >= KP_CARDS or s.card[1] >= KP_CARDS or s.card[0] == s.card[1]:
        return 1
    if s.n_moves > KP_MAX_MOVES:
        return 2
    kp_deal(&again, s.card[0], s.card[1])
    for i in range(s.n_moves):
        n = kp_legal_actions(&again, legal)
        if n == 0 or (s.history[i] != legal[0] and s.history[i] != legal[1]):
            return 3
        kp_apply(&again, s.history[i])
    if again.cur != s.cur or again.folded != s.folded:
        return 4
    if again.stake[0] != s.stake[0] or again.stake[1] != s.stake[1]:
        return 5
    return 0
