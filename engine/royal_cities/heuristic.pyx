# A hand-written Royal Cities player, the yardstick for search: it builds what
# it can, buys when the Market is rich, and aims its effects at majorities.
# It reads only what the player to move knows: its own hand, the public board
# and the cards it drew itself.
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


cdef double card_use(const RCState* s, int me, int kind) noexcept nogil:
    """How much a card is worth in hand: its value when it can still be built."""
    cdef int colour = kind // 7, value = kind % 7, c
    if colour == WHITE:
        for c in range(NUM_CITIES):
            if value > rc_city_top_value(s, me, c):
                return value + 0.5
        return 0.5
    if value > rc_city_top_value(s, me, colour):
        return value + 1.0 + (2.0 if s.hand_kind[me][kind] == 0 else 0.0)
    return 0.25 * value


cdef double majority_gain(const RCState* s, int me, int colour, int delta) noexcept nogil:
    """How much my standing in `colour` improves when my influence changes by delta."""
    cdef int mine = rc_influence(s, me, colour), other = best_other(s, me, colour)
    cdef double before = 1.0 if mine > other else (0.5 if mine == other and mine > 0 else 0.0)
    mine += delta
    cdef double after = 1.0 if mine > other else (0.5 if mine == other and mine > 0 else 0.0)
    return after - before


cdef double target_value(const RCState* s, int me, int owner, int colour, bint knight) noexcept nogil:
    """Assassin or Knight on the top card of a City: hurt a leader, help myself."""
    cdef int n = s.city_n[owner][colour], card, value, mine, theirs, dest
    if n == 0:
        return -100.0
    card = s.city[owner][colour][n - 1]
    value = rc_card_value(card)
    if owner == me:
        return -value - 1.0
    mine = rc_influence(s, me, colour)
    theirs = rc_influence(s, owner, colour)
    cdef double score = value * 0.5
    if theirs >= mine and theirs - value <= mine:
        score += 4.0
    if knight:
        dest = rc_card_colour(card)
        if dest != WHITE:
            score += 3.0 * majority_gain(s, me, dest, value)
        else:
            score += value * 0.5
    return score


cdef int plan_purchase(const RCState* s, int me) noexcept nogil:
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
        use[kind] = card_use(s, me, kind)
    while True:
        best = 0.9
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


cdef bint market_is_rich(const RCState* s, int me) noexcept nogil:
    cdef int kind
    cdef double total = 0.0
    cdef uint64_t kinds = s.mkt_mask
    while kinds:
        kind = bits_pop(&kinds)
        total += s.mkt_kind[kind] * card_use(s, me, kind)
    return total >= 14.0 or s.market_n >= 9


cdef bint would_revolt(const RCState* s, int kind) noexcept nogil:
    return s.market_n >= 4 and s.mkt_col[kind // 7] >= 2


cdef bint strike_worthwhile(const RCState* s, int me, bint knight) noexcept nogil:
    """Whether an Assassin (or a Knight) has an opponent's City worth hitting."""
    cdef int owner, colour
    for owner in range(s.num_players):
        if owner == me:
            continue
        for colour in range(NUM_CITIES):
            if target_value(s, me, owner, colour, knight) >= 4.0:
                return True
    return False


cdef int rc_heuristic_action(const RCState* s, uint64_t* rng) noexcept nogil:
    cdef int16_t buf[MAX_LEGAL]
    cdef int n = rc_legal_actions(s, buf), i, a, me = s.cur, best_i = 0, kind, colour, owner
    cdef double best = -1e9, score
    cdef int ph = s.phase
    # Worked out once per decision, not once per candidate move.
    cdef int plan = plan_purchase(s, me) if ph == PH_PURCHASE else -1
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
            kind = a - A_KEEP
            score = -10.0 if would_revolt(s, kind) else kind % 7 * 0.1
        elif ph == PH_TURN:
            if a == A_PURCHASE:
                score = 5.0 if market_is_rich(s, me) else -1.0
            elif a == A_ADD:
                score = 0.0
            elif a == A_ADD_HERO:
                score = 0.5 if s.market_n >= 6 else -0.5
            elif a < A_PLAY_HAND + NUM_KINDS:
                kind = a - A_PLAY_HAND
                score = -1.0
                if kind % 7 == EFFECT_ASSASSIN or kind % 7 == EFFECT_KNIGHT:
                    if strikes < 0:
                        strikes = strike_worthwhile(s, me, False) | strike_worthwhile(s, me, True) << 1
                    if (strikes >> (kind % 7 == EFFECT_KNIGHT)) & 1:
                        score = 2.0 - card_use(s, me, kind) * 0.1
                elif kind % 7 == EFFECT_JESTER and card_use(s, me, kind) < 1.0:
                    score = 0.5
            else:
                score = -2.0
        elif ph == PH_PURCHASE:
            if a == A_STOP:
                score = 1.0 if plan < 0 else -1.0
            else:
                score = 2.0 if a - A_BUY == plan else card_use(s, me, a - A_BUY) * 0.01
        elif ph == PH_EFFECT:
            if s.effect == EFFECT_EMPTINESS:
                score = (a - A_MARKET_DISCARD) % 7
            elif s.effect == EFFECT_MERCHANT:
                score = card_use(s, me, a - A_MARKET_TAKE)
            elif s.effect == EFFECT_VILLAGER:
                score = rc_city_top_value(s, me, a - A_OWN_CITY)
            elif s.effect == EFFECT_ASSASSIN or s.effect == EFFECT_KNIGHT:
                owner = (a - A_TARGET) // 6
                score = target_value(s, me, owner, (a - A_TARGET) % 6, s.effect == EFFECT_KNIGHT)
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
