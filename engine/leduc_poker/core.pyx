# The rules of Leduc poker (Southey et al. 2005): six cards, two each of J < Q < K, two
# players, an ante of 1 each, one private card each and one public card. Two betting
# rounds, bets of 2 in the first and 4 in the second, at most two bets and raises a round;
# player 0 acts first in both. A round ends when a bet is called or both check; after the
# first the public card is turned up. At the showdown a card that pairs the public card
# wins, else the higher card; equal cards split the pot.
from libc.stdint cimport int16_t, uint64_t

from engine.rng cimport rng_below, rng_seed


cdef void lp_init(LPState* s, uint64_t seed) noexcept nogil:
    """A new hand dealt from `seed`: every deal of the six cards equally likely."""
    cdef uint64_t rng[4]
    rng_seed(rng, seed)
    lp_deal_random(s, rng)


cdef int draw(int* left, int total, uint64_t* rng) noexcept nogil:
    """One card drawn uniformly from the `total` left, `left[rank]` of each rank."""
    cdef int pick = rng_below(rng, total), rank
    for rank in range(LP_RANKS):
        if pick < left[rank]:
            left[rank] -= 1
            return rank
        pick -= left[rank]
    return LP_RANKS - 1


cdef void lp_deal_random(LPState* s, uint64_t* rng) noexcept nogil:
    cdef int left[LP_RANKS]
    cdef int c0, c1, rank
    for rank in range(LP_RANKS):
        left[rank] = LP_COPIES
    c0 = draw(left, LP_RANKS * LP_COPIES, rng)
    c1 = draw(left, LP_RANKS * LP_COPIES - 1, rng)
    lp_deal(s, c0, c1, draw(left, LP_RANKS * LP_COPIES - 2, rng))


cdef void lp_deal(LPState* s, int card0, int card1, int public_card) noexcept nogil:
    """A new hand with these cards: antes in, player 0 to act."""
    s.card[0] = card0
    s.card[1] = card1
    s.public_card = public_card
    s.round = 0
    s.n_moves = 0
    s.round_moves = 0
    s.raises = 0
    s.cur = 0
    s.stake[0] = LP_ANTE
    s.stake[1] = LP_ANTE
    s.folded = LP_NOBODY


cdef int lp_board(const LPState* s) noexcept nogil:
    """What the action ids add to the move: 0 in round one, 1 + the public card after."""
    return 0 if s.round == 0 else 1 + s.public_card


cdef int lp_phase(const LPState* s) noexcept nogil:
    if s.cur == LP_NOBODY:
        return PH_END
    return PH_FACING_BET if s.stake[s.cur] < s.stake[1 - s.cur] else PH_OPEN


cdef int lp_legal_actions(const LPState* s, int16_t* out) noexcept nogil:
    cdef int phase = lp_phase(s), n = 0, base = NUM_MOVES * lp_board(s)
    if phase == PH_END:
        return 0
    if phase == PH_OPEN:
        out[0] = base + A_CHECK
        out[1] = base + A_BET
        return 2
    out[0] = base + A_FOLD
    out[1] = base + A_CALL
    n = 2
    if s.raises < LP_MAX_RAISES:
        out[2] = base + A_RAISE
        n = 3
    return n


cdef void end_round(LPState* s) noexcept nogil:
    if s.round == 0:
        s.round = 1
        s.round_moves = 0
        s.raises = 0
        s.cur = 0
    else:
        s.cur = LP_NOBODY


cdef void lp_apply(LPState* s, int action) noexcept nogil:
    """Play a legal action (the caller checks legality)."""
    cdef int p = s.cur, move = action % NUM_MOVES
    cdef int size = 2 if s.round == 0 else 4
    s.history[s.n_moves] = action
    s.n_moves += 1
    s.round_moves += 1
    if move == A_CHECK:
        if s.round_moves == 2:
            end_round(s)
        else:
            s.cur = 1 - p
    elif move == A_BET or move == A_RAISE:
        s.stake[p] = s.stake[1 - p] + size
        s.raises += 1
        s.cur = 1 - p
    elif move == A_CALL:
        s.stake[p] = s.stake[1 - p]
        end_round(s)
    else:
        s.folded = p
        s.cur = LP_NOBODY


cdef bint lp_is_terminal(const LPState* s) noexcept nogil:
    return s.cur == LP_NOBODY


cdef int lp_current_player(const LPState* s) noexcept nogil:
    return -1 if s.cur == LP_NOBODY else s.cur


cdef bint lp_showdown(const LPState* s) noexcept nogil:
    """The hand ended with both cards shown."""
    return s.cur == LP_NOBODY and s.folded == LP_NOBODY


cdef int winner(const LPState* s) noexcept nogil:
    """The player who takes the pot as the cards stand (a fold decides first), or -1 when
    equal cards split it."""
    if s.folded != LP_NOBODY:
        return 1 - s.folded
    if s.card[0] == s.public_card:
        return 0
    if s.card[1] == s.public_card:
        return 1
    if s.card[0] == s.card[1]:
        return -1
    return 0 if s.card[0] > s.card[1] else 1


cdef void lp_scores(const LPState* s, int* out) noexcept nogil:
    """Chips won per player: the loser's stake to the winner, 0 to the loser (and to both
    at a split pot and before the end)."""
    cdef int w
    out[0] = 0
    out[1] = 0
    if s.cur == LP_NOBODY:
        w = winner(s)
        if w >= 0:
            out[w] = s.stake[1 - w]


cdef void share(int w, double* out) noexcept nogil:
    out[0] = 0.5 if w < 0 else (1.0 if w == 0 else 0.0)
    out[1] = 1.0 - out[0]


cdef void lp_returns(const LPState* s, double* out) noexcept nogil:
    """1 to the winner of the pot, 0 to the loser, 1/2 each at a split pot."""
    out[0] = 0.0
    out[1] = 0.0
    if s.cur == LP_NOBODY:
        share(winner(s), out)


cdef void lp_evaluate(const LPState* s, double* out) noexcept nogil:
    """The pot as the cards stand, the public card included even before it is turned up."""
    share(winner(s), out)


cdef void lp_margins(const LPState* s, double* out) noexcept nogil:
    """Net chips per player: own chips won minus the other's."""
    cdef int scores[LP_PLAYERS]
    lp_scores(s, scores)
    out[0] = scores[0] - scores[1]
    out[1] = scores[1] - scores[0]


cdef int lp_observed_action(const LPState* s, int action, int observer) noexcept nogil:
    """Every bet is public: everyone sees every action as it is."""
    return action


cdef void lp_resample(LPState* s, int player, uint64_t* rng) noexcept nogil:
    """Deal again what `player` cannot see: the other's card, unless a showdown has shown
    it, and the public card until it is turned up, uniformly from the cards left. Reads only
    `player`'s own card and the public card once it is up."""
    cdef int left[LP_RANKS]
    cdef int rank, total = LP_RANKS * LP_COPIES - 1
    if lp_showdown(s):
        return
    for rank in range(LP_RANKS):
        left[rank] = LP_COPIES
    left[s.card[player]] -= 1
    if s.round == 1:
        left[s.public_card] -= 1
        total -= 1
    s.card[1 - player] = draw(left, total, rng)
    if s.round == 0:
        s.public_card = draw(left, total - 1, rng)


cdef void lp_start(const LPState* s, LPState* out, uint64_t* rng) noexcept nogil:
    """The hand at `s` before its first action, with its cards (`rng` NULL) or dealt again."""
    if rng == NULL:
        lp_deal(out, s.card[0], s.card[1], s.public_card)
    else:
        lp_deal_random(out, rng)


cdef int lp_check(const LPState* s) noexcept nogil:
    """0 when the struct is a hand the rules reach (its history replayed from the deal
    gives the same state); else the first broken invariant."""
    cdef LPState again
    cdef int16_t legal[3]
    cdef int i, k, n
    cdef int count[LP_RANKS]
    cdef bint ok
    for i in range(LP_RANKS):
        count[i] = 0
    if s.card[0] >= LP_RANKS or s.card[1] >= LP_RANKS or s.public_card >= LP_RANKS:
        return 1
    count[s.card[0]] += 1
    count[s.card[1]] += 1
    count[s.public_card] += 1
    for i in range(LP_RANKS):
        if count[i] > LP_COPIES:
            return 1
    if s.n_moves > LP_MAX_MOVES:
        return 2
    lp_deal(&again, s.card[0], s.card[1], s.public_card)
    for i in range(s.n_moves):
        n = lp_legal_actions(&again, legal)
        ok = False
        for k in range(n):
            ok = ok or s.history[i] == legal[k]
        if not ok:
            return 3
        lp_apply(&again, s.history[i])
    if again.cur != s.cur or again.folded != s.folded or again.round != s.round:
        return 4
    if again.stake[0] != s.stake[0] or again.stake[1] != s.stake[1]:
        return 5
    if again.raises != s.raises or again.round_moves != s.round_moves:
        return 6
    return 0
