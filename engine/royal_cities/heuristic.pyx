# A hand-written Royal Cities player, the yardstick for search: it builds what
# it can, buys when the Market is rich, and aims its effects at majorities.
# It reads only what the player to move knows: its own hand, the public board
# and the cards it drew itself. Its judgement is a table of weights, so that
# bench/balance_heuristic.py can fit them. The heuristic player plays by the hand-set values;
# the playouts too, except at the player counts of a fit in fits/ (2 to 4 players: fits that
# won SPRTs against v0.1.0, docs/strength.md, "The default bots").
from engine.resources import package_folder

from libc.stdint cimport int16_t, uint64_t

from engine.bits cimport bits_pop
from engine.rng cimport rng_below
from engine.royal_cities.core cimport (
    A_ADD, A_ADD_HERO, A_BUILD, A_BUY, A_KEEP, A_MARKET_DISCARD, A_MARKET_TAKE, A_OWN_CITY,
    A_PASS, A_PLAY_HAND, A_PURCHASE, A_REGENT, A_STOP, A_TARGET, EFFECT_ASSASSIN,
    EFFECT_ASTROLOGER, EFFECT_EMPTINESS, EFFECT_JESTER, EFFECT_KNIGHT, EFFECT_MERCHANT,
    EFFECT_VILLAGER, MAX_LEGAL, NUM_CITIES, NUM_KINDS, PH_CONSTRUCT, PH_EFFECT, PH_FIRST_BUILD,
    PH_HERO_KEEP, PH_KNIGHT_DEST, PH_PASS, PH_PURCHASE, PH_SOLO_ADD, PH_SOLO_OWN, PH_SOLO_REGENT,
    PH_TURN, REGENT, WHITE, RCState, rc_card_colour, rc_card_kind, rc_card_value,
    rc_city_top_value, rc_influence, rc_legal_actions,
)
from engine.weights cimport WeightTable

# The weights, by name, with their hand-set values: W[i] is WEIGHTS[i]'s value.
WEIGHTS = (
    # A card's use in hand: a white card that some City can take (added to its value) and
    # one that none can; a coloured card its City can take (added to its value), more when
    # it is the only one of its kind in hand; per point of a coloured card that cannot be built.
    ("use_white", 0.5), ("use_white_dead", 0.5), ("use_buildable", 1.0), ("use_new", 2.0),
    ("use_dead", 0.25),
    # An Assassin or Knight on a City's top card: per point of the card, for breaking the
    # owner's majority, against an own City (beyond its points); a Knight's card moved to
    # an own City, per step of majority gained, or per point for a white card.
    ("target_points", 0.5), ("target_break", 4.0), ("target_own", 1.0), ("knight_gain", 3.0),
    ("knight_white", 0.5),
    # A card is bought only when its use is above this.
    ("buy_use", 0.9),
    # The Market is rich at this total use, or with this many cards; a purchase then, and
    # a purchase otherwise (adding a card scores 0).
    ("rich_use", 14.0), ("rich_cards", 9.0), ("purchase_rich", 5.0), ("purchase_poor", -1.0),
    # Adding a Hero with at least this many cards in the Market, and with fewer.
    ("hero_cards", 6.0), ("hero_full", 0.5), ("hero_early", -0.5),
    # Playing a hand card for its effect, and an own City's top card.
    ("play_hand", -1.0), ("play_city", -2.0),
    # An Assassin or Knight is played when a target scores this much: then it scores
    # `strike`, less `strike_use` per point of the card's use.
    ("strike_target", 4.0), ("strike", 2.0), ("strike_use", 0.1),
    # A Jester is played when its use is below `jester_use`.
    ("jester", 0.5), ("jester_use", 1.0),
)
cdef enum:
    W_USE_WHITE
    W_USE_WHITE_DEAD
    W_USE_BUILDABLE
    W_USE_NEW
    W_USE_DEAD
    W_TARGET_POINTS
    W_TARGET_BREAK
    W_TARGET_OWN
    W_KNIGHT_GAIN
    W_KNIGHT_WHITE
    W_BUY_USE
    W_RICH_USE
    W_RICH_CARDS
    W_PURCHASE_RICH
    W_PURCHASE_POOR
    W_HERO_CARDS
    W_HERO_FULL
    W_HERO_EARLY
    W_PLAY_HAND
    W_PLAY_CITY
    W_STRIKE_TARGET
    W_STRIKE
    W_STRIKE_USE
    W_JESTER
    W_JESTER_USE
    NUM_WEIGHTS

TABLE = WeightTable(WEIGHTS, fits=package_folder("engine.royal_cities", "fits"))
cdef double* ROWS = (<WeightTable>TABLE).values_for(NUM_WEIGHTS)


cdef inline const double* weights(const RCState* s, bint playout) noexcept nogil:
    """The hand-set weights, or (`playout`) the playouts' at the game's player count: W[i] is
    WEIGHTS[i]'s value."""
    return ROWS + (s.num_players if playout else 0) * NUM_WEIGHTS


cdef int best_other(const RCState* s, int me, int colour) noexcept nogil:
    """The highest influence among the other owners of a `colour` City."""
    cdef int o, best = 0, infl
    for o in range(s.num_players):
        if o != me:
            infl = rc_influence(s, o, colour)
            if infl > best:
                best = infl
    if s.num_players == 1:
        infl = rc_influence(s, REGENT, colour)
        if infl > best:
            best = infl
    return best


cdef double card_use(const RCState* s, const double* W, int me, int kind) noexcept nogil:
    """How much a card is worth in hand: its value when it can still be built."""
    cdef int colour = kind // 7, value = kind % 7, c
    if colour == WHITE:
        for c in range(NUM_CITIES):
            if value > rc_city_top_value(s, me, c):
                return value + W[W_USE_WHITE]
        return W[W_USE_WHITE_DEAD]
    if value > rc_city_top_value(s, me, colour):
        return value + W[W_USE_BUILDABLE] + (W[W_USE_NEW] if s.hand_kind[me][kind] == 0 else 0.0)
    return W[W_USE_DEAD] * value


cdef double majority_gain(const RCState* s, int me, int colour, int delta) noexcept nogil:
    """How much my standing in `colour` improves when my influence changes by delta."""
    cdef int mine = rc_influence(s, me, colour), other = best_other(s, me, colour)
    cdef double before = 1.0 if mine > other else (0.5 if mine == other and mine > 0 else 0.0)
    mine += delta
    cdef double after = 1.0 if mine > other else (0.5 if mine == other and mine > 0 else 0.0)
    return after - before


cdef double target_value(const RCState* s, const double* W, int me, int owner, int colour,
                         bint knight) noexcept nogil:
    """Assassin or Knight on the top card of a City: hurt a leader, help myself."""
    cdef int n = s.city_n[owner][colour], card, value, mine, theirs, dest
    if n == 0:
        return -100.0
    card = s.city[owner][colour][n - 1]
    value = rc_card_value(card)
    if owner == me:
        return -value - W[W_TARGET_OWN]
    mine = rc_influence(s, me, colour)
    theirs = rc_influence(s, owner, colour)
    cdef double score = value * W[W_TARGET_POINTS]
    if theirs >= mine and theirs - value <= mine:
        score += W[W_TARGET_BREAK]
    if knight:
        dest = rc_card_colour(card)
        if dest != WHITE:
            score += W[W_KNIGHT_GAIN] * majority_gain(s, me, dest, value)
        else:
            score += value * W[W_KNIGHT_WHITE]
    return score


cdef int plan_purchase(const RCState* s, const double* W, int me) noexcept nogil:
    """The lowest kind of a greedy purchase plan (by usefulness per point), or -1."""
    cdef int power = s.power, kind, best_kind, lowest = -1
    cdef int count[NUM_KINDS]
    cdef double best, score
    cdef uint64_t open_kinds = s.mkt_mask & ~((1ULL << s.min_kind) - 1), kinds
    cdef double use[NUM_KINDS]
    kinds = open_kinds
    while kinds:
        kind = bits_pop(&kinds)
        count[kind] = s.mkt_kind[kind]
        use[kind] = card_use(s, W, me, kind)
    while True:
        best = W[W_BUY_USE]
        best_kind = -1
        kinds = open_kinds
        while kinds:
            kind = bits_pop(&kinds)
            if kind % 7 <= power and use[kind] > best:
                best = use[kind]
                best_kind = kind
        if best_kind < 0:
            return lowest
        count[best_kind] -= 1
        if count[best_kind] == 0:
            open_kinds &= ~(1ULL << best_kind)
        power -= best_kind % 7
        if lowest < 0 or best_kind < lowest:
            lowest = best_kind


cdef bint market_is_rich(const RCState* s, const double* W, int me) noexcept nogil:
    cdef int kind
    cdef double total = 0.0
    cdef uint64_t kinds = s.mkt_mask
    while kinds:
        kind = bits_pop(&kinds)
        total += s.mkt_kind[kind] * card_use(s, W, me, kind)
    return total >= W[W_RICH_USE] or s.market_n >= W[W_RICH_CARDS]


cdef bint would_revolt(const RCState* s, int kind) noexcept nogil:
    return s.market_n >= 4 and s.mkt_col[kind // 7] >= 2


cdef bint strike_worthwhile(const RCState* s, const double* W, int me, bint knight) noexcept nogil:
    """Whether an Assassin (or a Knight) has an opponent's City worth hitting."""
    cdef int owner, colour
    for owner in range(s.num_players):
        if owner == me:
            continue
        for colour in range(NUM_CITIES):
            if target_value(s, W, me, owner, colour, knight) >= W[W_STRIKE_TARGET]:
                return True
    return False


cdef inline double hero_keep_score(const RCState* s, int kind) noexcept nogil:
    """The Hero's card to keep for the Market: the highest, unless it starts a Revolt."""
    return -10.0 if would_revolt(s, kind) else kind % 7 * 0.1


cdef int rc_keep_rank(const RCState* s, int action) noexcept nogil:
    """A Hero's keep move's rank among the legal ones by the heuristic's judgement: 0 for its
    favourite, ties by kind (the order the tie-break noise would leave them in at random)."""
    cdef int kind = action - A_KEEP, other, i, rank = 0
    cdef double mine = hero_keep_score(s, kind), theirs
    cdef uint64_t seen = 1ULL << kind
    for i in range(s.drawn_n):
        other = rc_card_kind(s.drawn[i])
        if (seen >> other) & 1:
            continue
        seen |= 1ULL << other
        theirs = hero_keep_score(s, other)
        if theirs > mine or (theirs == mine and other < kind):
            rank += 1
    return rank


cdef int rc_heuristic_action(const RCState* s, uint64_t* rng, bint playout) noexcept nogil:
    cdef const double* W = weights(s, playout)
    cdef int16_t buf[MAX_LEGAL]
    cdef int n = rc_legal_actions(s, buf), i, a, me = s.cur, best_i = 0, kind, colour, owner
    cdef double best = -1e9, score
    cdef int ph = s.phase
    # Worked out once per decision, not once per candidate move.
    cdef int plan = plan_purchase(s, W, me) if ph == PH_PURCHASE else -1
    cdef int strikes = -1      # bit 0: an Assassin target is worth it, bit 1: a Knight's
    if n == 1:
        return buf[0]
    for i in range(n):
        a = buf[i]
        score = 0.0
        if ph == PH_PASS:
            score = -((a - A_PASS) % 7) * 10.0 - (a - A_PASS) * 0.01
        elif ph == PH_FIRST_BUILD:
            score = -((a - A_BUILD) // 6 % 7) * 10.0
        elif ph == PH_SOLO_OWN:
            score = ((a - A_BUILD) // 6 % 7) if a != A_STOP else -1.0
        elif ph == PH_SOLO_REGENT or ph == PH_SOLO_ADD:
            if a >= A_REGENT:
                score = 10.0 - ((a - A_REGENT) // 6) % 7
            else:
                score = -10.0 if would_revolt(s, a - A_KEEP) else 0.0
        elif ph == PH_HERO_KEEP:
            score = hero_keep_score(s, a - A_KEEP)
        elif ph == PH_TURN:
            if a == A_PURCHASE:
                score = W[W_PURCHASE_RICH] if market_is_rich(s, W, me) else W[W_PURCHASE_POOR]
            elif a == A_ADD:
                score = 0.0
            elif a == A_ADD_HERO:
                score = W[W_HERO_FULL] if s.market_n >= W[W_HERO_CARDS] else W[W_HERO_EARLY]
            elif a < A_PLAY_HAND + NUM_KINDS:
                kind = a - A_PLAY_HAND
                score = W[W_PLAY_HAND]
                if kind % 7 == EFFECT_ASSASSIN or kind % 7 == EFFECT_KNIGHT:
                    if strikes < 0:
                        strikes = (strike_worthwhile(s, W, me, False)
                                   | strike_worthwhile(s, W, me, True) << 1)
                    if (strikes >> (kind % 7 == EFFECT_KNIGHT)) & 1:
                        score = W[W_STRIKE] - card_use(s, W, me, kind) * W[W_STRIKE_USE]
                elif kind % 7 == EFFECT_JESTER and card_use(s, W, me, kind) < W[W_JESTER_USE]:
                    score = W[W_JESTER]
            else:
                score = W[W_PLAY_CITY]
        elif ph == PH_PURCHASE:
            if a == A_STOP:
                score = 1.0 if plan < 0 else -1.0
            else:
                score = 2.0 if a - A_BUY == plan else card_use(s, W, me, a - A_BUY) * 0.01
        elif ph == PH_EFFECT:
            if s.effect == EFFECT_EMPTINESS:
                score = (a - A_MARKET_DISCARD) % 7
            elif s.effect == EFFECT_MERCHANT:
                score = card_use(s, W, me, a - A_MARKET_TAKE)
            elif s.effect == EFFECT_VILLAGER:
                score = rc_city_top_value(s, me, a - A_OWN_CITY)
            elif s.effect == EFFECT_ASSASSIN or s.effect == EFFECT_KNIGHT:
                owner = (a - A_TARGET) // 6
                score = target_value(s, W, me, owner, (a - A_TARGET) % 6, s.effect == EFFECT_KNIGHT)
            elif s.effect == EFFECT_ASTROLOGER:
                score = -1.0 if a == A_STOP else (a - A_BUILD) // 6 % 7
        elif ph == PH_KNIGHT_DEST:
            colour = a - A_OWN_CITY
            score = majority_gain(s, me, colour, 6) + rc_influence(s, me, colour) * 0.01
        elif ph == PH_CONSTRUCT:
            # Build whatever can be built: the first (lowest) build, then stop.
            score = -1.0 if a == A_STOP else 10.0 - i * 0.01
        else:
            score = -i
        score += rng_below(rng, 1000) * 1e-6
        if score > best:
            best = score
            best_i = i
    return buf[best_i]
