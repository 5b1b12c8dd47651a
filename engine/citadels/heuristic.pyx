# A hand-written Citadels policy, in C for playouts. It reads only what the
# player to move knows: its hand and gold, the cities, revealed characters and
# the sets it was shown in the draft. Its judgement is a table of weights, so that
# bench/balance_heuristic.py can fit them. The heuristic player plays by the hand-set values;
# the playouts by the fits in fits/, each at the player counts it names (between them 2 to 7:
# weights fitted to a search's moves, part of the defaults that won SPRTs, docs/strength.md,
# "The default bots").
from engine.resources import package_folder

from libc.stdint cimport int16_t, uint8_t, uint64_t

from engine.citadels.core cimport (
    A_BUILD, A_CARDS, A_DECLINE, A_DESTROY, A_DISCARD, A_END_TURN, A_GOLD, A_GRAVEYARD,
    A_INCOME, A_KEEP, A_KILL, A_LAB, A_PICK, A_REDRAW, A_REDRAW_DONE, A_RETURN, A_ROB, A_SMITHY, A_SWAP,
    ARCHITECT, ASSASSIN, BISHOP, CT_COLOUR, CT_COST, CT_KIND, K_DRAGON_GATE,
    K_SCHOOL_OF_MAGIC, K_UNIVERSITY, KING, MAGICIAN, MAX_LEGAL, MERCHANT, NUM_CHARS,
    NUM_DKINDS, PH_DISCARD, PH_GRAVEYARD, PH_KEEP, PH_MAIN, PH_PICK, PH_REDRAW, PH_RESOURCE,
    THIEF, UNIQUE, WARLORD, CTState, ct_destroy_price, ct_has, ct_income, ct_legal_actions,
)
from engine.rng cimport rng_below
from engine.weights cimport WeightTable

# The weights, by name, with their hand-set values: W[i] is WEIGHTS[i]'s value.
WEIGHTS = (
    # How much each character is worth before the position is looked at.
    ("base_assassin", 3.0), ("base_thief", 3.0), ("base_magician", 2.0), ("base_king", 4.0),
    ("base_bishop", 2.0), ("base_merchant", 3.0), ("base_architect", 3.0), ("base_warlord", 3.0),
    # Per gold a character's colour brings in this round.
    ("income", 1.0),
    # What each character's power adds when the position calls for it.
    ("merchant", 1.0), ("architect", 2.0), ("magician_swap", 3.0), ("thief_poor", 1.0),
    ("threat", 2.0), ("king_crown", 1.0),
    # How far the leader is from the end when the Warlord and the Assassin gain `threat`.
    ("threat_distance", 2.0),
    # Choosing the district to keep: a duplicate's penalty, a purple card's bonus, and the
    # penalty for a card costing more than `keep_reach` above the gold in hand.
    ("keep_duplicate", 20.0), ("keep_unique", 1.0), ("keep_costly", 3.0), ("keep_reach", 4.0),
    # Choosing the district to build: per point, and for a purple card.
    ("build_points", 2.0), ("build_unique", 1.0),
    # The Warlord destroys at or below this price, or any price near the end.
    ("warlord_price", 1.0),
)
cdef enum:
    W_BASE = 0
    W_INCOME = 8
    W_MERCHANT
    W_ARCHITECT
    W_MAGICIAN_SWAP
    W_THIEF_POOR
    W_THREAT
    W_KING_CROWN
    W_THREAT_DISTANCE
    W_KEEP_DUPLICATE
    W_KEEP_UNIQUE
    W_KEEP_COSTLY
    W_KEEP_REACH
    W_BUILD_POINTS
    W_BUILD_UNIQUE
    W_WARLORD_PRICE
    NUM_WEIGHTS

TABLE = WeightTable(WEIGHTS, fits=package_folder("engine.citadels", "fits"))
cdef double* ROWS = (<WeightTable>TABLE).values_for(NUM_WEIGHTS)


cdef inline const double* weights(const CTState* s, bint playout) noexcept nogil:
    """The hand-set weights, or (`playout`) the playouts' at the game's player count: W[i] is
    WEIGHTS[i]'s value."""
    return ROWS + (s.num_players if playout else 0) * NUM_WEIGHTS

# How likely each character is to be a good target for the Assassin and the Thief
# (whole numbers: they are drawn in proportion).
cdef int KILL_WEIGHT[8]
KILL_WEIGHT[:] = [0, 2, 2, 3, 1, 3, 3, 2]
cdef int ROB_WEIGHT[8]
ROB_WEIGHT[:] = [0, 0, 1, 2, 2, 3, 2, 2]


cdef inline int points(int kind) noexcept nogil:
    return 8 if (kind == K_UNIVERSITY or kind == K_DRAGON_GATE) else CT_COST[kind]


cdef int leader(const CTState* s, int me) noexcept nogil:
    """The opponent with the most districts (then gold)."""
    cdef int q, best = -1
    for q in range(s.num_players):
        if q != me and (best < 0 or s.city_n[q] > s.city_n[best] or (
                s.city_n[q] == s.city_n[best] and s.gold[q] > s.gold[best])):
            best = q
    return best


cdef double char_value(const CTState* s, const double* W, int p, int c) noexcept nogil:
    cdef double v = W[W_BASE + c] + W[W_INCOME] * ct_income(s, p, c)
    cdef int q, most = 0
    if c == MERCHANT:
        v += W[W_MERCHANT]
    elif c == ARCHITECT and s.hand_n[p] >= 2 and s.gold[p] >= 4:
        v += W[W_ARCHITECT]
    elif c == MAGICIAN:
        for q in range(s.num_players):
            if q != p and s.hand_n[q] > most:
                most = s.hand_n[q]
        if s.hand_n[p] <= 1 and most >= 3:
            v += W[W_MAGICIAN_SWAP]
    elif c == THIEF and s.gold[p] < 3:
        v += W[W_THIEF_POOR]
    elif c == WARLORD or c == ASSASSIN:
        if s.city_n[leader(s, p)] >= s.end_size - W[W_THREAT_DISTANCE]:
            v += W[W_THREAT]
    elif c == KING and s.crown != p:
        v += W[W_KING_CROWN]
    return v


cdef int best_char(const CTState* s, const double* W, int p, uint8_t pool) noexcept nogil:
    cdef int c, best = -1
    cdef double value, best_value = -1e300
    for c in range(NUM_CHARS):
        if (pool >> c) & 1:
            value = char_value(s, W, p, c)
            if value > best_value:
                best_value = value
                best = c
    return best


cdef double keep_value(const CTState* s, const double* W, int p, int kind) noexcept nogil:
    cdef double v = points(kind)
    if ct_has(s, p, kind) or s.hand_kind[p][kind] > 0:
        v -= W[W_KEEP_DUPLICATE]
    if CT_COLOUR[kind] == UNIQUE:
        v += W[W_KEEP_UNIQUE]
    if CT_COST[kind] > s.gold[p] + W[W_KEEP_REACH]:
        v -= W[W_KEEP_COSTLY]
    return v


cdef inline double keep_worth(const CTState* s, const double* W, int kind) noexcept nogil:
    """How much the player to move wants its keep move for `kind`: the card's keep value
    when keeping one, less it when putting one back (keeping two of three)."""
    cdef double v = keep_value(s, W, s.cur, kind)
    return v if s.keep_left == 1 else -v


cdef inline int keep_kind(const CTState* s, int action) noexcept nogil:
    """The drawn card's kind a keep move names (kept, or put back when keeping two of three)."""
    return action - (A_KEEP if s.keep_left == 1 else A_RETURN)


cdef int ct_keep_rank(const CTState* s, int action) noexcept nogil:
    """A keep move's rank among the legal ones by the heuristic's hand-set judgement: 0 for
    the one it plays (keeping the best card, or putting back the worst), ties by kind."""
    cdef const double* W = weights(s, False)
    cdef int kind = keep_kind(s, action), other, i, rank = 0
    cdef double mine = keep_worth(s, W, kind), theirs
    cdef uint64_t seen = 1ULL << kind
    for i in range(s.drawn_n):
        other = CT_KIND[s.drawn[i]]
        if (seen >> other) & 1:
            continue
        seen |= 1ULL << other
        theirs = keep_worth(s, W, other)
        if theirs > mine or (theirs == mine and other < kind):
            rank += 1
    return rank


cdef bint useful(const CTState* s, int p, int kind) noexcept nogil:
    return not ct_has(s, p, kind)


cdef int weighted_target(const CTState* s, int p, const int* weights, uint64_t* rng) noexcept nogil:
    """A character that someone else may hold, weighted by how good a target it is."""
    cdef int c, total = 0, pick, i
    cdef int w[8]
    for c in range(NUM_CHARS):
        w[c] = weights[c]
        if (s.faceup >> c) & 1 or s.holder[c] == p or c == s.killed:
            w[c] = 0
        total += w[c]
    if total == 0:
        return -1
    pick = rng_below(rng, total)
    for c in range(NUM_CHARS):
        if pick < w[c]:
            return c
        pick -= w[c]
    return -1


cdef int main_action(const CTState* s, const double* W, const int16_t* legal, int n,
                     uint64_t* rng) noexcept nogil:
    cdef int p = s.cur, c = s.call, i, a, kind, best = -1, q, target, price, best_price
    cdef double value, best_value = -1e300
    cdef bint can_income = False
    for i in range(n):
        if legal[i] == A_INCOME:
            can_income = True
    # Build first what raises this turn's income, then collect it.
    if can_income:
        for i in range(n):
            a = legal[i]
            if A_BUILD <= a < A_INCOME:
                kind = a - A_BUILD
                if kind == K_SCHOOL_OF_MAGIC or CT_COLOUR[kind] == colour_for(c):
                    return a
        return A_INCOME
    # Powers that only name a character.
    for i in range(n):
        a = legal[i]
        if A_KILL <= a < A_ROB:
            target = weighted_target(s, p, KILL_WEIGHT, rng)
            if target >= 1:
                return A_KILL + target
        if A_ROB <= a < A_SWAP:
            target = weighted_target(s, p, ROB_WEIGHT, rng)
            if target >= 2:
                return A_ROB + target
    # The Magician: take a bigger hand, or change cards already built.
    if c == MAGICIAN and not s.power_done:
        best = -1
        for q in range(s.num_players):
            if q != p and s.hand_n[q] > s.hand_n[p] + 1 and (best < 0 or s.hand_n[q] > s.hand_n[best]):
                best = q
        if best >= 0:
            return A_SWAP + best
        for kind in range(NUM_DKINDS):
            if s.hand_kind[p][kind] and ct_has(s, p, kind):
                return A_REDRAW + kind
    # Build the best district in hand.
    best = -1
    for i in range(n):
        a = legal[i]
        if A_BUILD <= a < A_INCOME:
            value = points(a - A_BUILD) * W[W_BUILD_POINTS] + (
                W[W_BUILD_UNIQUE] if CT_COLOUR[a - A_BUILD] == UNIQUE else 0.0)
            if value > best_value:
                best_value = value
                best = a
    if best >= 0:
        return best
    # The Warlord: slow down the leader when it is cheap enough.
    if c == WARLORD and not s.power_done:
        q = leader(s, p)
        best = -1
        best_price = 1000
        for i in range(n):
            a = legal[i]
            if A_DESTROY <= a < A_LAB and (a - A_DESTROY) // NUM_DKINDS == q:
                price = ct_destroy_price(s, q, (a - A_DESTROY) % NUM_DKINDS)
                if price < best_price:
                    best_price = price
                    best = a
        if best >= 0 and (best_price <= W[W_WARLORD_PRICE]
                          or s.city_n[q] >= s.end_size - W[W_THREAT_DISTANCE]):
            return best
    # Laboratory: trade a district already built for gold; Smithy when short of cards.
    for i in range(n):
        a = legal[i]
        if A_LAB <= a < A_SMITHY and ct_has(s, p, a - A_LAB):
            return a
        if a == A_SMITHY and s.gold[p] >= 4 and s.hand_n[p] <= 2:
            return a
    return A_END_TURN


cdef int colour_for(int c) noexcept nogil:
    if c == KING:
        return 0
    if c == BISHOP:
        return 1
    if c == MERCHANT:
        return 2
    if c == WARLORD:
        return 3
    return -1


cdef int ct_heuristic_action(const CTState* s, uint64_t* rng, bint playout) noexcept nogil:
    cdef const double* W = weights(s, playout)
    cdef int16_t legal[MAX_LEGAL]
    cdef int n, p = s.cur, i, kind, best, cheapest
    cdef double value, best_value
    cdef int ph = s.phase
    # The decisions that need no list of legal moves come first: the playouts make
    # many of them, and the list is what costs.
    if ph == PH_PICK:
        return A_PICK + best_char(s, W, p, s.pool)
    if ph == PH_DISCARD:
        return A_DISCARD + best_char(s, W, (p + 1) % s.num_players, s.pool)
    if ph == PH_RESOURCE:
        cheapest = 1000
        for kind in range(NUM_DKINDS):
            if s.hand_kind[p][kind] and useful(s, p, kind) and CT_COST[kind] < cheapest:
                cheapest = CT_COST[kind]
        if cheapest == 1000 or (s.hand_n[p] <= 1 and cheapest <= s.gold[p]):
            return A_CARDS
        return A_GOLD
    if ph == PH_GRAVEYARD:
        kind = CT_KIND[s.gy_card]
        return A_GRAVEYARD if CT_COST[kind] >= 3 and not ct_has(s, p, kind) else A_DECLINE
    n = ct_legal_actions(s, legal)
    if ph == PH_KEEP:
        # Keep the best card, or put back the worst when keeping two of three.
        best = legal[0]
        best_value = -1e300
        for i in range(n):
            value = keep_worth(s, W, keep_kind(s, legal[i]))
            if value > best_value:
                best_value = value
                best = legal[i]
        return best
    if ph == PH_MAIN:
        return main_action(s, W, legal, n, rng)
    if ph == PH_REDRAW:
        for i in range(n):
            if A_REDRAW <= legal[i] < A_REDRAW_DONE and ct_has(s, p, legal[i] - A_REDRAW):
                return legal[i]
        return A_REDRAW_DONE
    return legal[rng_below(rng, n)]
