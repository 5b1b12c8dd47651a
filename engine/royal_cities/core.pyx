# The Royal Cities rules, in C. Every function here runs without the GIL and
# allocates nothing: a game is one RCState, and the only randomness is the
# xoshiro state passed by pointer (the game's own, or the caller's).
from libc.string cimport memset

from engine.game_api cimport OBSERVED_HIDDEN, OBSERVED_NOTHING
from engine.bits cimport bits_pop
from engine.deal cimport deal_cards
from engine.rng cimport rng_below, rng_reseed, rng_seed, rng_shuffle

#: The owner index of the Regent's Cities, for the Python side.
REGENT_OWNER = REGENT
#: The engine's limit on turns in a game (see core.pxd).
TURN_LIMIT = MAX_TURNS

# Crowns on purple cards, as bitmasks over values.
cdef enum:
    BOTTOM_CROWNS = 0x7D    # purple 0, 2, 3, 4, 5, 6
    TOP_CROWNS = 0x62       # purple 1, 5, 6


# --------------------------------------------------------------------------
# Small helpers over the struct
# --------------------------------------------------------------------------

cdef inline int twin_of(int card) noexcept nogil:
    """The other copy of a coloured card of value 1-6, or NO_CARD."""
    cdef int r
    if card >= 78:
        return NO_CARD
    r = card % 13
    if r == 0:
        return NO_CARD
    return card + 1 if r % 2 == 1 else card - 1


cdef inline int n_owners(const RCState* s) noexcept nogil:
    """Players whose Cities count, plus the Regent in solo mode."""
    return s.num_players if s.num_players > 1 else 1


cdef inline bint is_solo(const RCState* s) noexcept nogil:
    return s.num_players == 1


cdef inline int city_top_value(const RCState* s, int owner, int colour) noexcept nogil:
    cdef int n = s.city_n[owner][colour]
    if n == 0:
        return -1
    return rc_card_value(s.city[owner][colour][n - 1])


cdef inline bint city_has_coloured(const RCState* s, int owner, int colour) noexcept nogil:
    cdef int i
    for i in range(s.city_n[owner][colour]):
        if rc_card_colour(s.city[owner][colour][i]) != WHITE:
            return True
    return False


cdef void city_push(RCState* s, int owner, int colour, int card) noexcept nogil:
    s.city[owner][colour][s.city_n[owner][colour]] = card
    s.city_n[owner][colour] += 1
    s.city_vals[owner][colour] |= 1 << rc_card_value(card)
    s.loc[card] = LOC_CITY + owner * 6 + colour
    s.known[card] = ALL_PLAYERS


cdef int city_pop(RCState* s, int owner, int colour) noexcept nogil:
    s.city_n[owner][colour] -= 1
    cdef int card = s.city[owner][colour][s.city_n[owner][colour]]
    s.city_vals[owner][colour] &= ~(1 << rc_card_value(card))
    return card


cdef void discard(RCState* s, int card) noexcept nogil:
    s.loc[card] = LOC_DISCARD
    s.known[card] = ALL_PLAYERS
    s.discard_n += 1


cdef void regent_place(RCState* s, int colour, int card) noexcept nogil:
    """The Regent's City takes the card at its place in ascending order, or
    discards it when it already holds that value."""
    cdef int value = rc_card_value(card), i, n
    if s.city_vals[REGENT][colour] & (1 << value):
        discard(s, card)
        return
    n = s.city_n[REGENT][colour]
    i = n
    while i > 0 and rc_card_value(s.city[REGENT][colour][i - 1]) > value:
        s.city[REGENT][colour][i] = s.city[REGENT][colour][i - 1]
        i -= 1
    s.city[REGENT][colour][i] = card
    s.city_n[REGENT][colour] = n + 1
    s.city_vals[REGENT][colour] |= 1 << value
    s.loc[card] = LOC_CITY + REGENT * 6 + colour
    s.known[card] = ALL_PLAYERS


cdef inline bint regent_can_take(const RCState* s, int kind, int colour) noexcept nogil:
    cdef int c = kind // 7
    if c != WHITE and c != colour:
        return False
    return not (s.city_vals[REGENT][colour] & (1 << (kind % 7)))


cdef void rc_hand_add(RCState* s, int player, int card, int known) noexcept nogil:
    s.loc[card] = LOC_HAND + player
    s.known[card] = known | (1 << player)
    s.sel_city[card] = -1
    s.hand_n[player] += 1
    s.hand_kind[player][rc_card_kind(card)] += 1
    s.hand_mask[player] |= 1ULL << rc_card_kind(card)


cdef void hand_remove(RCState* s, int player, int card) noexcept nogil:
    """Take a card out of a hand (the caller places it). Whoever could not tell
    the two copies of a kind apart no longer knows that the other one stays."""
    cdef int twin = twin_of(card)
    if twin != NO_CARD and s.loc[twin] == LOC_HAND + player:
        s.known[twin] &= s.known[card]
    s.hand_n[player] -= 1
    s.hand_kind[player][rc_card_kind(card)] -= 1
    if s.hand_kind[player][rc_card_kind(card)] == 0:
        s.hand_mask[player] &= ~(1ULL << rc_card_kind(card))
    s.sel_city[card] = -1


cdef int hand_find(const RCState* s, int player, int kind, bint unselected) noexcept nogil:
    """A copy of `kind` in the player's hand (the lowest id), or NO_CARD."""
    cdef int card = rc_kind_first_id(kind), i
    for i in range(rc_kind_copies(kind)):
        if s.loc[card + i] == LOC_HAND + player and (not unselected or s.sel_city[card + i] < 0):
            return card + i
    return NO_CARD


cdef void rc_market_add(RCState* s, int card) noexcept nogil:
    s.market[s.market_n] = card
    s.market_n += 1
    s.mkt_kind[rc_card_kind(card)] += 1
    s.mkt_mask |= 1ULL << rc_card_kind(card)
    s.mkt_col[rc_card_colour(card)] += 1
    s.loc[card] = LOC_MARKET
    s.known[card] = ALL_PLAYERS


cdef int market_remove_at(RCState* s, int i) noexcept nogil:
    cdef int card = s.market[i]
    s.market_n -= 1
    s.market[i] = s.market[s.market_n]
    s.mkt_kind[rc_card_kind(card)] -= 1
    if s.mkt_kind[rc_card_kind(card)] == 0:
        s.mkt_mask &= ~(1ULL << rc_card_kind(card))
    s.mkt_col[rc_card_colour(card)] -= 1
    return card


cdef int market_take(RCState* s, int kind) noexcept nogil:
    cdef int i
    for i in range(s.market_n):
        if rc_card_kind(s.market[i]) == kind:
            return market_remove_at(s, i)
    return NO_CARD


cdef void reshuffle(RCState* s) noexcept nogil:
    """The discard pile and the Reserve become a new pile; a new Reserve is dealt."""
    cdef int card, n = 0, i
    for card in range(NUM_CARDS):
        if s.loc[card] == LOC_DISCARD or s.loc[card] == LOC_RESERVE:
            s.pile[n] = card
            n += 1
            s.loc[card] = LOC_PILE
            s.known[card] = 0
    s.pile_n = n
    s.discard_n = 0
    rng_shuffle(s.pile, n, s.rng)
    s.reserve_n = 0
    for i in range(RESERVE_SIZE):
        if s.pile_n == 0:
            break
        s.pile_n -= 1
        card = s.pile[s.pile_n]
        s.reserve[i] = card
        s.reserve_n += 1
        s.loc[card] = LOC_RESERVE


cdef inline bint can_draw(const RCState* s) noexcept nogil:
    """Whether a card can be drawn: from the pile, or after a reshuffle (the discard
    pile and the Reserve together must leave a card once a new Reserve of four is dealt)."""
    return s.pile_n > 0 or s.discard_n + s.reserve_n > RESERVE_SIZE


cdef int draw(RCState* s) noexcept nogil:
    """The top card of the pile (the caller places it), or NO_CARD when neither
    the pile nor a reshuffle can supply one."""
    if not can_draw(s):
        return NO_CARD
    if s.pile_n == 0:
        reshuffle(s)
    s.pile_n -= 1
    return s.pile[s.pile_n]


cdef void draw_to_hand(RCState* s, int player, int count) noexcept nogil:
    cdef int i, card
    for i in range(count):
        card = draw(s)
        if card == NO_CARD:
            return
        rc_hand_add(s, player, card, 0)


cdef int draw_pending(RCState* s, int count) noexcept nogil:
    """Draw up to `count` cards that only the player to move sees for now."""
    cdef int i, card
    s.drawn_n = 0
    for i in range(count):
        card = draw(s)
        if card == NO_CARD:
            break
        s.drawn[s.drawn_n] = card
        s.drawn_n += 1
        s.loc[card] = LOC_DRAWN
        s.known[card] = 1 << s.cur
        s.sel_city[card] = -1
    return s.drawn_n


cdef bint colour_still_drawable(const RCState* s, int colour_mask) noexcept nogil:
    """Whether a card of a colour outside `colour_mask` may still come off the pile."""
    cdef int card, l
    for card in range(NUM_CARDS):
        l = s.loc[card]
        if (l == LOC_PILE or l == LOC_RESERVE or l == LOC_DISCARD) and \
                not (colour_mask & (1 << rc_card_colour(card))):
            return True
    return False


cdef void refill_market(RCState* s) noexcept nogil:
    """Draw until four face-up cards; a card of a colour already face up is
    discarded and replaced."""
    cdef int card, mask, c
    while s.market_n < 4:
        mask = 0
        for c in range(NUM_COLOURS):
            if s.mkt_col[c]:
                mask |= 1 << c
        if not colour_still_drawable(s, mask):
            return
        card = draw(s)
        if card == NO_CARD:
            return
        if s.mkt_col[rc_card_colour(card)]:
            discard(s, card)
        else:
            rc_market_add(s, card)


# --------------------------------------------------------------------------
# Construction rules
# --------------------------------------------------------------------------

cdef void selection_clear(RCState* s, int player) noexcept nogil:
    s.con_last[player] = -1
    s.con_n[player] = 0
    memset(s.con_vals[player], 0, NUM_CITIES)
    memset(s.con_colored[player], 0, NUM_CITIES)


cdef bint rc_can_select(const RCState* s, int player, int kind, int colour) noexcept nogil:
    """Whether `kind` may join the player's current selection for City `colour`:
    the selection is checked as a whole, cards going on in ascending order."""
    cdef int c = kind // 7, value = kind % 7
    if c != WHITE and c != colour:
        return False
    if kind * 6 + colour <= s.con_last[player]:
        return False
    if value <= city_top_value(s, player, colour):
        return False
    if s.con_vals[player][colour] & (1 << value):
        return False
    if c == WHITE:
        # Whites sort after every coloured kind, so the partner is already chosen.
        return s.con_colored[player][colour] != 0 or (
            s.rules.white_with_existing_partner and city_has_coloured(s, player, colour))
    return True


cdef void rc_select_card(RCState* s, int player, int card, int colour) noexcept nogil:
    cdef int kind = rc_card_kind(card), value = kind % 7
    s.sel_city[card] = colour
    s.con_last[player] = kind * 6 + colour
    s.con_n[player] += 1
    s.con_vals[player][colour] |= 1 << value
    if kind // 7 != WHITE:
        s.con_colored[player][colour] |= 1 << value


cdef int build_options(const RCState* s, int player, const uint8_t* pool, int pool_n,
                       int16_t* out, int n) noexcept nogil:
    """Append the BUILD actions open to `player` from the cards of `pool`
    (NULL: the player's hand), in ascending id order."""
    cdef int kind, colour, i, first, last
    cdef uint64_t kinds = 0
    if pool == NULL:
        kinds = s.hand_mask[player]
    else:
        for i in range(pool_n):
            if s.sel_city[pool[i]] < 0:
                kinds |= 1ULL << rc_card_kind(pool[i])
    while kinds:
        kind = bits_pop(&kinds)
        if pool == NULL and hand_find(s, player, kind, True) == NO_CARD:
            continue    # every copy in hand is already selected
        # A coloured card goes only in its own City, a white one in any.
        first = 0 if kind // 7 == WHITE else kind // 7
        last = NUM_CITIES if kind // 7 == WHITE else kind // 7 + 1
        for colour in range(first, last):
            if rc_can_select(s, player, kind, colour):
                out[n] = A_BUILD + kind * 6 + colour
                n += 1
    return n


cdef void build_selection(RCState* s, int player, const uint8_t* pool, int pool_n) noexcept nogil:
    """Build every selected card of the pool (NULL: hand), ascending per City."""
    cdef int colour, value, card, i, kind, j
    for colour in range(NUM_CITIES):
        for value in range(7):
            if not (s.con_vals[player][colour] & (1 << value)):
                continue
            card = NO_CARD
            if pool == NULL:
                for j in range(2):
                    kind = colour * 7 + value if j == 0 else WHITE * 7 + value
                    for i in range(rc_kind_copies(kind)):
                        if s.loc[rc_kind_first_id(kind) + i] == LOC_HAND + player and \
                                s.sel_city[rc_kind_first_id(kind) + i] == colour:
                            card = rc_kind_first_id(kind) + i
                if card != NO_CARD:
                    hand_remove(s, player, card)
            else:
                for i in range(pool_n):
                    if s.sel_city[pool[i]] == colour and rc_card_value(pool[i]) == value:
                        card = pool[i]
            if card != NO_CARD:
                s.sel_city[card] = -1
                city_push(s, player, colour, card)
    selection_clear(s, player)


# --------------------------------------------------------------------------
# Flow: turns, Seasons, the end
# --------------------------------------------------------------------------

cdef void game_end(RCState* s) noexcept nogil:
    cdef int p
    for p in range(s.num_players):
        if (s.hero_up >> p) & 1:
            s.vp[p] += 2
    s.phase = PH_END


cdef void end_turn(RCState* s) noexcept nogil:
    s.turns += 1
    if s.turns >= MAX_TURNS:
        game_end(s)
        return
    s.turn_played = 0
    if not is_solo(s):
        s.cur = (s.cur + 1) % s.num_players
    s.phase = PH_TURN


cdef void start_turns(RCState* s, int starter) noexcept nogil:
    s.starter = starter
    s.cur = starter
    s.turn_played = 0
    s.phase = PH_TURN


cdef bint knight_source_ok(const RCState* s, int owner, int colour) noexcept nogil:
    cdef int n = s.city_n[owner][colour], card, value, d
    if n == 0:
        return False
    card = s.city[owner][colour][n - 1]
    value = rc_card_value(card)
    if rc_card_colour(card) != WHITE:
        d = rc_card_colour(card)
        return not (owner == s.cur and d == colour) and value > city_top_value(s, s.cur, d)
    for d in range(NUM_CITIES):
        if not (owner == s.cur and d == colour) and value > city_top_value(s, s.cur, d):
            return True
    return False


cdef bint effect_has_target(const RCState* s, int effect) noexcept nogil:
    cdef int owner, colour
    if effect == EFFECT_EMPTINESS or effect == EFFECT_MERCHANT:
        return s.market_n > 0
    if effect == EFFECT_VILLAGER:
        for colour in range(NUM_CITIES):
            if s.city_n[s.cur][colour]:
                return True
        return False
    for owner in range(NUM_OWNERS):
        if owner >= s.num_players and not (owner == REGENT and is_solo(s)):
            continue
        for colour in range(NUM_CITIES):
            if effect == EFFECT_ASSASSIN and s.city_n[owner][colour]:
                return True
            if effect == EFFECT_KNIGHT and knight_source_ok(s, owner, colour):
                return True
    return False


cdef void effect_done(RCState* s) noexcept nogil:
    if s.effect_src == SRC_PLAY:
        s.phase = PH_TURN
    else:
        end_turn(s)


cdef void start_effect(RCState* s, int effect, int source) noexcept nogil:
    cdef int card
    s.effect = effect
    s.effect_src = source
    if effect == EFFECT_JESTER:
        card = draw(s)
        if card != NO_CARD:
            rc_hand_add(s, s.cur, card, 0)
        effect_done(s)
    elif effect == EFFECT_ASTROLOGER:
        if draw_pending(s, 3) == 0:
            effect_done(s)
            return
        selection_clear(s, s.cur)
        s.phase = PH_EFFECT
    elif effect_has_target(s, effect):
        s.phase = PH_EFFECT
    else:
        effect_done(s)


cdef void start_purchase(RCState* s) noexcept nogil:
    s.power = s.market_n + s.reserve_n
    s.min_kind = 0
    s.taken = 0
    s.phase = PH_PURCHASE


#: The last row the rulebook prints. Row 2 may hold four cards of one colour, so a 17th
#: face-up card can be added; RULES-NOTES counts a row past this one as this one.
cdef enum:
    LAST_ROW = 5


cdef void add_card(RCState* s, int card) noexcept nogil:
    """Step C with the card chosen: rows, the VP for a row, Revolts."""
    cdef int row = min(2 + s.market_n // 4, LAST_ROW), colour = rc_card_colour(card), c, i, low, other
    cdef bint bought = (s.purchased >> s.cur) & 1
    if row == 2:
        rc_market_add(s, card)
        end_turn(s)
        return
    if s.mkt_col[colour] <= 1:
        if not bought:
            for c in range(NUM_COLOURS):
                if c != colour and s.mkt_col[c] >= 2:
                    s.vp[s.cur] += row - 2
                    break
        rc_market_add(s, card)
        end_turn(s)
        return
    # A Revolt: every card of that colour leaves the Market.
    low = 99
    i = s.market_n - 1
    while i >= 0:
        if rc_card_colour(s.market[i]) == colour:
            other = market_remove_at(s, i)
            if rc_card_value(other) < low:
                low = rc_card_value(other)
            discard(s, other)
        i -= 1
    rc_market_add(s, card)
    if not bought:
        for other in range(s.num_players):
            if other != s.cur:
                s.vp[other] += row - 2
        if is_solo(s) and s.rules.regent_scores_revolts:
            s.vp[REGENT] += row - 2
        if not is_solo(s):
            s.hero_up |= 1 << s.cur
        start_purchase(s)
    else:
        if s.rules.hero_on_every_revolt and not is_solo(s):
            s.hero_up |= 1 << s.cur
        start_effect(s, low, SRC_REVOLT)


cdef void nothing_to_add(RCState* s) noexcept nogil:
    """No card can be drawn at all, so the draw does nothing. A player who has
    not purchased and never could (fewer than four face-up cards) must purchase
    now, as after a Revolt: otherwise the Season could never end."""
    if not ((s.purchased >> s.cur) & 1) and s.market_n < 4:
        start_purchase(s)
    else:
        end_turn(s)


cdef void start_add(RCState* s, bint hero) noexcept nogil:
    cdef int n
    if is_solo(s):
        n = draw_pending(s, 2)
        if n == 2:
            s.phase = PH_SOLO_ADD
            return
    elif hero:
        s.hero_up &= ~(1 << s.cur)
        n = draw_pending(s, 2)
        if n == 2:
            s.phase = PH_HERO_KEEP
            return
    else:
        n = draw_pending(s, 1)
    s.drawn_n = 0
    if n == 1:
        add_card(s, s.drawn[0])
    else:
        nothing_to_add(s)


cdef int bonus_spaces(const RCState* s, int low, int high) noexcept nogil:
    """Catch-up bonus spaces b with low <= b < high (or low < b <= high)."""
    cdef int b, count = 0, first = low, last = high - 1, r
    if s.rules.catch_up_upper_inclusive:
        first = low + 1
        last = high
    for b in range(max(first, 1), last + 1):
        if s.num_players == 4:
            r = b % 50
            if r != 0 and r % 6 == 0:
                count += 1
        elif b % 10 == 0:
            count += 1
    return count


cdef int rc_colour_points(const RCState* s, int owner, int colour, int infl) noexcept nogil:
    """The VP `owner` scores in `colour` with the majority at influence `infl`."""
    cdef int c, n, total = 0, best = 0, count = 0, i, card, top
    if colour == PURPLE:
        n = s.city_n[owner][PURPLE]
        top = -1
        for i in range(n):
            card = s.city[owner][PURPLE][i]
            if rc_card_colour(card) == PURPLE:
                if (BOTTOM_CROWNS >> rc_card_value(card)) & 1:
                    count += 1
                top = card
            elif not s.rules.crown_through_white:
                top = -1
        if top >= 0 and (TOP_CROWNS >> rc_card_value(top)) & 1:
            count += 1
        return count
    if colour == PINK:
        return max(1, infl // 3)
    for c in range(NUM_CITIES):
        n = s.city_n[owner][c]
        total += n
        if n > best:
            best = n
        if colour == RED and n >= 2:
            count += 1
        if colour == BLUE and (s.city_vals[owner][c] & 0x06):
            count += 1
    if colour == YELLOW:
        return best
    if colour == GREEN:
        return max(1, total // 3)
    return max(1, count)


cdef void score_majorities(RCState* s) noexcept nogil:
    cdef int infl[NUM_OWNERS][NUM_CITIES]
    cdef int owners[NUM_OWNERS]
    cdef int n = 0, o, c, i, best, pts
    for o in range(s.num_players):
        owners[n] = o
        n += 1
    if is_solo(s):
        owners[n] = REGENT
        n += 1
    for i in range(n):
        o = owners[i]
        for c in range(NUM_CITIES):
            infl[o][c] = rc_influence(s, o, c)
    for c in range(NUM_CITIES):
        s.season_vp[c] = 0
        s.season_infl[c] = infl[0][c]
        best = 0
        for i in range(n):
            if infl[owners[i]][c] > best:
                best = infl[owners[i]][c]
        if best < 1:
            continue
        for i in range(n):
            o = owners[i]
            if infl[o][c] == best:
                pts = rc_colour_points(s, o, c, best)
                s.vp[o] += pts
                if o == 0:
                    s.season_vp[c] = pts


cdef int tax_candidates(const RCState* s, int* out) noexcept nogil:
    """The player's untaxed, non-empty Cities ranked first by VP this Season,
    then by influence."""
    cdef int c, n = 0, best = -1, key
    for c in range(NUM_CITIES):
        if s.city_n[0][c] == 0 or (s.tax_done >> c) & 1:
            continue
        key = s.season_vp[c] * 256 + s.season_infl[c]
        if key > best:
            best = key
            n = 0
        if key == best:
            out[n] = c
            n += 1
    return n


cdef void steal(RCState* s, int colour) noexcept nogil:
    s.tax_done |= 1 << colour
    s.tax_left -= 1
    regent_place(s, colour, city_pop(s, 0, colour))


cdef bint regent_draws_done(RCState* s) noexcept nogil:
    """Draw the Regent's pending cards into its Cities; False when a white card
    waits for the player to choose its City."""
    cdef int card, c
    while s.regent_draws > 0:
        s.regent_draws -= 1
        card = draw(s)
        if card == NO_CARD:
            continue
        if rc_card_colour(card) != WHITE:
            regent_place(s, rc_card_colour(card), card)
            continue
        for c in range(NUM_CITIES):
            if regent_can_take(s, rc_card_kind(card), c):
                s.drawn[0] = card
                s.drawn_n = 1
                s.loc[card] = LOC_DRAWN
                s.known[card] = ALL_PLAYERS
                s.phase = PH_REGENT_WHITE
                return False
        discard(s, card)
    return True


cdef void regent_draws_resume(RCState* s) noexcept nogil:
    if s.resume == RESUME_SETUP:
        solo_deal_four(s)
    else:
        next_season(s)


cdef void continue_taxes(RCState* s) noexcept nogil:
    cdef int cand[NUM_CITIES]
    cdef int n
    while s.tax_left > 0:
        n = tax_candidates(s, cand)
        if n == 0:
            break
        if n > 1:
            s.cur = 0
            s.phase = PH_TAX
            return
        steal(s, cand[0])
    s.tax_left = 0
    continue_season_end(s)


cdef void continue_season_end(RCState* s) noexcept nogil:
    """After majorities and taxes: the catch-up bonus, then the next Season."""
    cdef int leader = -10000, p
    if s.season + 1 >= s.num_seasons:
        game_end(s)
        return
    for p in range(s.num_players):
        leader = max(leader, s.vp[p])
    if is_solo(s):
        leader = max(leader, s.vp[REGENT])
    for p in range(s.num_players):
        draw_to_hand(s, p, bonus_spaces(s, s.vp[p], leader))
    if is_solo(s):
        s.regent_draws = bonus_spaces(s, s.vp[REGENT], leader)
        s.resume = RESUME_CATCHUP
        if not regent_draws_done(s):
            return
    next_season(s)


cdef void finish_next_season(RCState* s) noexcept nogil:
    refill_market(s)
    start_turns(s, 0 if is_solo(s) else (s.last_purchaser + 1) % s.num_players)


cdef void next_season(RCState* s) noexcept nogil:
    s.season += 1
    s.purchased = 0
    if is_solo(s) and s.market_n > 4:
        s.min_kind = 0
        s.cur = 0
        s.phase = PH_SOLO_TRIM
        return
    finish_next_season(s)


cdef void reveal_construction(RCState* s) noexcept nogil:
    cdef int p
    for p in range(s.num_players):
        build_selection(s, p, NULL, 0)
    s.committed = 0
    score_majorities(s)
    s.tax_left = 0
    s.tax_done = 0
    if is_solo(s) and s.season + 1 < s.num_seasons:
        s.tax_left = s.season + 1 if s.rules.expert_royal_taxes else 1
    continue_taxes(s)


cdef void season_end(RCState* s) noexcept nogil:
    cdef int p
    for p in range(s.num_players):
        selection_clear(s, p)
    s.committed = 0
    s.cur = 0
    s.phase = PH_CONSTRUCT


cdef void reveal_passes(RCState* s) noexcept nogil:
    cdef int p, i, to, card
    cdef int n = s.num_players
    for p in range(n):
        for i in range(2):
            hand_remove(s, p, s.pass_sel[p][i])
    for p in range(n):
        for i in range(2):
            card = s.pass_sel[p][i]
            to = (p + 1) % n if (n == 2 or i == 0) else (p + n - 1) % n
            rc_hand_add(s, to, card, 1 << p)
        s.pass_n[p] = 0
    s.committed = 0
    s.cur = 0
    s.phase = PH_FIRST_BUILD


cdef void reveal_first_builds(RCState* s) noexcept nogil:
    cdef int p, card, key, best = 1 << 30, starter = 0
    for p in range(s.num_players):
        card = s.fb_sel[p]
        if card != NO_CARD:
            hand_remove(s, p, card)
            city_push(s, p, rc_card_colour(card), card)
            key = (rc_card_value(card) * 8 + rc_card_colour(card)) * 8 + s.age_rank[p]
        else:
            key = (99 * 8) * 8 + s.age_rank[p]
        if key < best:
            best = key
            starter = p
        s.fb_sel[p] = NO_CARD
    s.committed = 0
    start_turns(s, starter)


cdef void solo_deal_four(RCState* s) noexcept nogil:
    draw_to_hand(s, 0, 4)
    s.cur = 0
    s.phase = PH_SOLO_OWN


cdef bint solo_regent_option(const RCState* s) noexcept nogil:
    cdef int kind, colour
    cdef uint64_t kinds = s.hand_mask[0]
    while kinds:
        kind = bits_pop(&kinds)
        for colour in range(NUM_CITIES):
            if regent_can_take(s, kind, colour):
                return True
    return False


# --------------------------------------------------------------------------
# The public core
# --------------------------------------------------------------------------

cdef void rc_init(RCState* s, int num_players, uint64_t seed, const RCRules* rules) noexcept nogil:
    cdef int card, p, i
    cdef uint8_t order[MAX_PLAYERS]
    memset(s, 0, sizeof(RCState))
    rng_seed(s.rng, seed)
    s.rules = rules[0]
    s.num_players = num_players
    s.num_seasons = 3 if num_players == 4 else 4
    memset(s.sel_city, -1, NUM_CARDS)
    for p in range(MAX_PLAYERS):
        s.fb_sel[p] = NO_CARD
        s.con_last[p] = -1
        order[p] = p
    rng_shuffle(order, num_players, s.rng)
    for p in range(num_players):
        s.age_rank[order[p]] = p
    for card in range(NUM_CARDS):
        s.pile[card] = card
        s.loc[card] = LOC_PILE
    s.pile_n = NUM_CARDS
    rng_shuffle(s.pile, NUM_CARDS, s.rng)
    for i in range(RESERVE_SIZE):
        s.pile_n -= 1
        s.reserve[i] = s.pile[s.pile_n]
        s.loc[s.reserve[i]] = LOC_RESERVE
    s.reserve_n = RESERVE_SIZE
    refill_market(s)
    if num_players == 1:
        s.regent_draws = 2
        s.resume = RESUME_SETUP
        if regent_draws_done(s):
            solo_deal_four(s)
        return
    for p in range(num_players):
        draw_to_hand(s, p, 3)
    s.cur = 0
    s.phase = PH_PASS


cdef int rc_legal_actions(const RCState* s, int16_t* out) noexcept nogil:
    cdef int n = 0, kind, colour, owner, p = s.cur, i, card, value, count
    cdef int cand[NUM_CITIES]
    cdef int ph = s.phase
    cdef uint64_t kinds
    if ph == PH_TURN:
        if not s.turn_played:
            kinds = s.hand_mask[p]
            while kinds:
                out[n] = A_PLAY_HAND + bits_pop(&kinds)
                n += 1
            for colour in range(NUM_CITIES):
                if s.city_n[p][colour]:
                    out[n] = A_PLAY_CITY + colour
                    n += 1
        if not ((s.purchased >> p) & 1) and s.market_n >= 4:
            out[n] = A_PURCHASE
            n += 1
        out[n] = A_ADD
        n += 1
        # The Hero draws two to keep one: with nothing to draw it would be spent for nothing.
        if (s.hero_up >> p) & 1 and can_draw(s):
            out[n] = A_ADD_HERO
            n += 1
    elif ph == PH_PURCHASE:
        # A_STOP sorts before every A_BUY: offered when something was taken or nothing can be.
        if s.taken > 0:
            out[n] = A_STOP
            n += 1
        kinds = s.mkt_mask & ~((1ULL << s.min_kind) - 1)
        while kinds:
            kind = bits_pop(&kinds)
            if kind % 7 <= s.power:
                out[n] = A_BUY + kind
                n += 1
        if n == 0:
            out[n] = A_STOP
            n += 1
    elif ph == PH_EFFECT:
        if s.effect == EFFECT_EMPTINESS or s.effect == EFFECT_MERCHANT:
            kinds = s.mkt_mask
            while kinds:
                out[n] = (A_MARKET_DISCARD if s.effect == EFFECT_EMPTINESS else A_MARKET_TAKE) + \
                    bits_pop(&kinds)
                n += 1
        elif s.effect == EFFECT_VILLAGER:
            for colour in range(NUM_CITIES):
                if s.city_n[p][colour]:
                    out[n] = A_OWN_CITY + colour
                    n += 1
        elif s.effect == EFFECT_ASSASSIN or s.effect == EFFECT_KNIGHT:
            for owner in range(NUM_OWNERS):
                if owner >= s.num_players and not (owner == REGENT and is_solo(s)):
                    continue
                for colour in range(NUM_CITIES):
                    if (s.effect == EFFECT_ASSASSIN and s.city_n[owner][colour]) or \
                            (s.effect == EFFECT_KNIGHT and knight_source_ok(s, owner, colour)):
                        out[n] = A_TARGET + owner * 6 + colour
                        n += 1
        elif s.effect == EFFECT_ASTROLOGER:
            out[n] = A_STOP
            n += 1
            if s.con_n[p] < 2:
                n = build_options(s, p, s.drawn, s.drawn_n, out, n)
    elif ph == PH_KNIGHT_DEST:
        owner = s.knight_from // 6
        card = s.city[owner][s.knight_from % 6][s.city_n[owner][s.knight_from % 6] - 1]
        value = rc_card_value(card)
        for colour in range(NUM_CITIES):
            if not (owner == p and colour == s.knight_from % 6) and \
                    value > city_top_value(s, p, colour):
                out[n] = A_OWN_CITY + colour
                n += 1
    elif ph == PH_CONSTRUCT:
        out[n] = A_STOP
        n += 1
        n = build_options(s, p, NULL, 0, out, n)
    elif ph == PH_PASS:
        kinds = s.hand_mask[p]
        while kinds:
            kind = bits_pop(&kinds)
            count = s.hand_kind[p][kind]
            for i in range(s.pass_n[p]):
                if rc_card_kind(s.pass_sel[p][i]) == kind:
                    count -= 1
            if count <= 0:
                continue
            if s.num_players == 2 and s.pass_n[p] == 1 and kind < rc_card_kind(s.pass_sel[p][0]):
                continue
            if s.num_players == 2 and s.pass_n[p] == 0:
                # The two cards are an unordered pair, chosen low kind first.
                value = 0
                for i in range(kind, NUM_KINDS):
                    value += s.hand_kind[p][i]
                if value < 2:
                    continue
            out[n] = A_PASS + kind
            n += 1
    elif ph == PH_FIRST_BUILD or ph == PH_SOLO_OWN:
        kinds = s.hand_mask[p] & ((1ULL << (NUM_KINDS - 7)) - 1)    # no whites
        while kinds:
            kind = bits_pop(&kinds)
            out[n] = A_BUILD + kind * 6 + kind // 7
            n += 1
        if n == 0:
            out[n] = A_STOP
            n += 1
    elif ph == PH_SOLO_REGENT:
        kinds = s.hand_mask[0]
        while kinds:
            kind = bits_pop(&kinds)
            for colour in range(NUM_CITIES):
                if regent_can_take(s, kind, colour):
                    out[n] = A_REGENT + kind * 6 + colour
                    n += 1
    elif ph == PH_HERO_KEEP or ph == PH_SOLO_ADD or ph == PH_REGENT_WHITE:
        for kind in range(NUM_KINDS):
            for i in range(s.drawn_n):
                if rc_card_kind(s.drawn[i]) != kind:
                    continue
                if i == 1 and rc_card_kind(s.drawn[0]) == kind:
                    continue
                if ph == PH_HERO_KEEP:
                    out[n] = A_KEEP + kind
                    n += 1
                    continue
                for colour in range(NUM_CITIES):
                    if regent_can_take(s, kind, colour):
                        out[n] = A_REGENT + kind * 6 + colour
                        n += 1
        if n == 0 and ph == PH_SOLO_ADD:
            for kind in range(NUM_KINDS):
                for i in range(s.drawn_n):
                    if rc_card_kind(s.drawn[i]) == kind and \
                            not (i == 1 and rc_card_kind(s.drawn[0]) == kind):
                        out[n] = A_KEEP + kind
                        n += 1
    elif ph == PH_TAX:
        count = tax_candidates(s, cand)
        for i in range(count):
            out[n] = A_TAX + cand[i]
            n += 1
    elif ph == PH_SOLO_TRIM:
        # Discards go in non-decreasing kind order: offer a kind only if enough
        # cards at or above it remain to come down to four.
        count = 0
        for kind in range(s.min_kind, NUM_KINDS):
            count += s.mkt_kind[kind]
        for kind in range(s.min_kind, NUM_KINDS):
            if s.mkt_kind[kind] and count >= s.market_n - 4:
                out[n] = A_MARKET_DISCARD + kind
                n += 1
            count -= s.mkt_kind[kind]
    return n


cdef int drawn_take(RCState* s, int kind) noexcept nogil:
    """Remove a drawn card of `kind` from the pending draw; return it."""
    cdef int i, card
    for i in range(s.drawn_n):
        card = s.drawn[i]
        if rc_card_kind(card) == kind:
            s.drawn_n -= 1
            s.drawn[i] = s.drawn[s.drawn_n]
            return card
    return NO_CARD


cdef void rc_apply(RCState* s, int a) noexcept nogil:
    cdef int p = s.cur, ph = s.phase, card, kind, colour, owner, other
    if ph == PH_TURN:
        if a < A_PLAY_CITY:
            card = hand_find(s, p, a - A_PLAY_HAND, False)
            hand_remove(s, p, card)
            discard(s, card)
            s.turn_played = 1
            start_effect(s, rc_card_value(card), SRC_PLAY)
        elif a < A_PURCHASE:
            card = city_pop(s, p, a - A_PLAY_CITY)
            discard(s, card)
            s.turn_played = 1
            start_effect(s, rc_card_value(card), SRC_PLAY)
        elif a == A_PURCHASE:
            start_purchase(s)
        else:
            start_add(s, a == A_ADD_HERO)
    elif ph == PH_PURCHASE:
        if a == A_STOP:
            s.purchased |= 1 << p
            s.last_purchaser = p
            if s.purchased == (1 << s.num_players) - 1:
                season_end(s)
            else:
                end_turn(s)
        else:
            kind = a - A_BUY
            card = market_take(s, kind)
            rc_hand_add(s, p, card, ALL_PLAYERS)
            s.power -= kind % 7
            s.min_kind = kind
            s.taken += 1
    elif ph == PH_EFFECT:
        if s.effect == EFFECT_EMPTINESS:
            discard(s, market_take(s, a - A_MARKET_DISCARD))
        elif s.effect == EFFECT_MERCHANT:
            rc_hand_add(s, p, market_take(s, a - A_MARKET_TAKE), ALL_PLAYERS)
        elif s.effect == EFFECT_VILLAGER:
            rc_hand_add(s, p, city_pop(s, p, a - A_OWN_CITY), ALL_PLAYERS)
        elif s.effect == EFFECT_ASSASSIN:
            discard(s, city_pop(s, (a - A_TARGET) // 6, (a - A_TARGET) % 6))
        elif s.effect == EFFECT_KNIGHT:
            owner = (a - A_TARGET) // 6
            colour = (a - A_TARGET) % 6
            card = s.city[owner][colour][s.city_n[owner][colour] - 1]
            if rc_card_colour(card) == WHITE:
                s.knight_from = a - A_TARGET
                s.phase = PH_KNIGHT_DEST
                return
            city_pop(s, owner, colour)
            city_push(s, p, rc_card_colour(card), card)
        elif s.effect == EFFECT_ASTROLOGER:
            if a != A_STOP:
                kind = (a - A_BUILD) // 6
                for other in range(s.drawn_n):
                    card = s.drawn[other]
                    if rc_card_kind(card) == kind and s.sel_city[card] < 0:
                        break
                rc_select_card(s, p, card, (a - A_BUILD) % 6)
                s.known[card] = ALL_PLAYERS
                return
            build_selection(s, p, s.drawn, s.drawn_n)
            for other in range(s.drawn_n):
                card = s.drawn[other]
                if s.loc[card] == LOC_DRAWN:
                    discard(s, card)
            s.drawn_n = 0
        effect_done(s)
    elif ph == PH_KNIGHT_DEST:
        card = city_pop(s, s.knight_from // 6, s.knight_from % 6)
        city_push(s, p, a - A_OWN_CITY, card)
        effect_done(s)
    elif ph == PH_CONSTRUCT:
        if a == A_STOP:
            s.committed |= 1 << p
            if p + 1 == s.num_players:
                reveal_construction(s)
            else:
                s.cur = p + 1
        else:
            kind = (a - A_BUILD) // 6
            rc_select_card(s, p, hand_find(s, p, kind, True), (a - A_BUILD) % 6)
    elif ph == PH_PASS:
        kind = a - A_PASS
        card = rc_kind_first_id(kind)
        if s.pass_n[p] == 1 and s.pass_sel[p][0] == card or s.loc[card] != LOC_HAND + p:
            card += 1
        s.pass_sel[p][s.pass_n[p]] = card
        s.pass_n[p] += 1
        if s.pass_n[p] == 2:
            s.committed |= 1 << p
            if p + 1 == s.num_players:
                reveal_passes(s)
            else:
                s.cur = p + 1
    elif ph == PH_FIRST_BUILD:
        s.fb_sel[p] = NO_CARD if a == A_STOP else hand_find(s, p, (a - A_BUILD) // 6, False)
        s.committed |= 1 << p
        if p + 1 == s.num_players:
            reveal_first_builds(s)
        else:
            s.cur = p + 1
    elif ph == PH_SOLO_OWN:
        if a != A_STOP:
            card = hand_find(s, 0, (a - A_BUILD) // 6, False)
            hand_remove(s, 0, card)
            city_push(s, 0, rc_card_colour(card), card)
        if solo_regent_option(s):
            s.phase = PH_SOLO_REGENT
        else:
            start_turns(s, 0)
    elif ph == PH_SOLO_REGENT:
        card = hand_find(s, 0, (a - A_REGENT) // 6, False)
        hand_remove(s, 0, card)
        regent_place(s, (a - A_REGENT) % 6, card)
        start_turns(s, 0)
    elif ph == PH_HERO_KEEP:
        card = drawn_take(s, a - A_KEEP)
        discard(s, s.drawn[0])
        s.drawn_n = 0
        add_card(s, card)
    elif ph == PH_SOLO_ADD:
        if a >= A_REGENT:
            card = drawn_take(s, (a - A_REGENT) // 6)
            regent_place(s, (a - A_REGENT) % 6, card)
            card = s.drawn[0]
        else:
            card = drawn_take(s, a - A_KEEP)
            discard(s, s.drawn[0])
        s.drawn_n = 0
        add_card(s, card)
    elif ph == PH_REGENT_WHITE:
        card = s.drawn[0]
        s.drawn_n = 0
        regent_place(s, (a - A_REGENT) % 6, card)
        if regent_draws_done(s):
            regent_draws_resume(s)
    elif ph == PH_TAX:
        steal(s, a - A_TAX)
        continue_taxes(s)
    elif ph == PH_SOLO_TRIM:
        kind = a - A_MARKET_DISCARD
        discard(s, market_take(s, kind))
        s.min_kind = kind
        if s.market_n <= 4:
            finish_next_season(s)


cdef bint rc_is_terminal(const RCState* s) noexcept nogil:
    return s.phase == PH_END


cdef int rc_current_player(const RCState* s) noexcept nogil:
    return -1 if s.phase == PH_END else s.cur


cdef int rc_cards_built(const RCState* s, int owner) noexcept nogil:
    cdef int c, total = 0
    for c in range(NUM_CITIES):
        total += s.city_n[owner][c]
    return total


cdef void rc_returns(const RCState* s, double* out) noexcept nogil:
    """1 for a win, a shared victory split equally, 0 for a loss (solo: the
    player against the Regent, 0.5 for a tie). Zero before the end."""
    cdef int p, best = -1, winners = 0
    cdef int key[MAX_PLAYERS]
    for p in range(s.num_players):
        out[p] = 0.0
    if s.phase != PH_END:
        return
    if is_solo(s):
        out[0] = 1.0 if s.vp[0] > s.vp[REGENT] else (0.5 if s.vp[0] == s.vp[REGENT] else 0.0)
        return
    for p in range(s.num_players):
        key[p] = s.vp[p] * 1024 + rc_cards_built(s, p)
        if key[p] > best:
            best = key[p]
    for p in range(s.num_players):
        if key[p] == best:
            winners += 1
    for p in range(s.num_players):
        if key[p] == best:
            out[p] = 1.0 / winners


cdef int rc_num_scores(const RCState* s) noexcept nogil:
    return s.num_players + (1 if is_solo(s) else 0)


cdef void rc_scores(const RCState* s, int* out) noexcept nogil:
    """VP per player, then the Regent's in solo mode."""
    cdef int p
    for p in range(s.num_players):
        out[p] = s.vp[p]
    if is_solo(s):
        out[1] = s.vp[REGENT]


cdef bint rc_decision_is_secret(const RCState* s) noexcept nogil:
    """Whether the others see the pending decision's action only as 'a choice
    was made' (passing, the first build, Season construction)."""
    return s.phase == PH_PASS or s.phase == PH_FIRST_BUILD or s.phase == PH_CONSTRUCT


cdef int rc_observed_action(const RCState* s, int action, int observer) noexcept nogil:
    """How `observer` sees `action` about to be played: the action itself, or,
    inside another player's secret choice, OBSERVED_HIDDEN for the step that
    completes it and OBSERVED_NOTHING for the steps before."""
    if observer == s.cur or not rc_decision_is_secret(s):
        return action
    if s.phase == PH_PASS:
        return OBSERVED_HIDDEN if s.pass_n[s.cur] == 1 else OBSERVED_NOTHING
    if s.phase == PH_CONSTRUCT:
        return OBSERVED_HIDDEN if action == A_STOP else OBSERVED_NOTHING
    return OBSERVED_HIDDEN


cdef void rc_margins(const RCState* s, double* out) noexcept nogil:
    """Own VP minus the best other VP (solo: minus the Regent's)."""
    cdef int p, q, best
    for p in range(s.num_players):
        best = s.vp[REGENT] if is_solo(s) else -10000
        for q in range(s.num_players):
            if q != p and s.vp[q] > best:
                best = s.vp[q]
        out[p] = s.vp[p] - best


cdef int rc_city_top_value(const RCState* s, int owner, int colour) noexcept nogil:
    return city_top_value(s, owner, colour)


cdef int rc_influence(const RCState* s, int owner, int colour) noexcept nogil:
    cdef int i, total = 0
    for i in range(s.city_n[owner][colour]):
        total += rc_card_value(s.city[owner][colour][i])
    return total


cdef void reroll_selection(RCState* s, int q, uint64_t* rng) noexcept nogil:
    """Make a fresh random secret choice for player q (its choice is hidden
    from the player the state is resampled for)."""
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, card, cur = s.cur, ph = s.phase, i, k, m
    cdef int ids[NUM_CARDS]
    if ph == PH_PASS:
        m = 0
        for card in range(NUM_CARDS):
            if s.loc[card] == LOC_HAND + q:
                ids[m] = card
                m += 1
        for i in range(2):
            k = i + rng_below(rng, m - i)
            card = ids[k]
            ids[k] = ids[i]
            ids[i] = card
            s.pass_sel[q][i] = card
        s.pass_n[q] = 2
    elif ph == PH_FIRST_BUILD:
        m = 0
        for card in range(NUM_CARDS):
            if s.loc[card] == LOC_HAND + q and rc_card_colour(card) != WHITE:
                ids[m] = card
                m += 1
        s.fb_sel[q] = NO_CARD if m == 0 else ids[rng_below(rng, m)]
    elif ph == PH_CONSTRUCT:
        s.cur = q
        while True:
            n = rc_legal_actions(s, buf)
            k = buf[rng_below(rng, n)]
            if k == A_STOP:
                break
            rc_select_card(s, q, hand_find(s, q, (k - A_BUILD) // 6, True), (k - A_BUILD) % 6)
        s.cur = cur


cdef void clear_secret(RCState* s, int q) noexcept nogil:
    cdef int card
    s.pass_n[q] = 0
    s.fb_sel[q] = NO_CARD
    for card in range(NUM_CARDS):
        if s.loc[card] == LOC_HAND + q:
            s.sel_city[card] = -1
    selection_clear(s, q)


cdef void rc_reroll_secrets(RCState* s, int player, uint64_t* rng) noexcept nogil:
    """Redraw every secret choice that `player` cannot see: made choices are
    made again at random, a choice in progress starts over."""
    cdef int q
    if not rc_decision_is_secret(s):
        return
    for q in range(s.num_players):
        if q == player:
            continue
        if (s.committed >> q) & 1:
            clear_secret(s, q)
            reroll_selection(s, q, rng)
        elif q == s.cur:
            clear_secret(s, q)


cdef void rc_canonical_known(RCState* s, int player) noexcept nogil:
    """Who knows each card, as far as `player` can tell: the others' knowledge that
    player cannot see (cards passed between two others, a card bought in public and
    still in a hand) is reset to what player's view implies, as a rebuilt game has it."""
    cdef int card, l, q
    for card in range(NUM_CARDS):
        l = s.loc[card]
        if l >= LOC_HAND and l < LOC_HAND + MAX_PLAYERS:
            q = l - LOC_HAND
            if q != player:
                s.known[card] = (1 << q) | (s.known[card] & (1 << player))
        elif l == LOC_DRAWN:
            if (s.known[card] >> player) & 1:
                s.known[card] = (1 << player) if s.cur == player else ALL_PLAYERS
            else:
                s.known[card] = 1 << s.cur
        elif l == LOC_PILE or l == LOC_RESERVE:
            s.known[card] = 0


cdef void rc_count_hands(RCState* s) noexcept nogil:
    """Count every hand again from where the cards are (`hand_n`, `hand_kind`, `hand_mask`),
    after cards changed places without passing through the hands' own bookkeeping."""
    cdef int card, q
    memset(s.hand_n, 0, sizeof(s.hand_n))
    memset(s.hand_kind, 0, sizeof(s.hand_kind))
    memset(s.hand_mask, 0, sizeof(s.hand_mask))
    for card in range(NUM_CARDS):
        q = s.loc[card] - LOC_HAND
        if q >= 0 and q < MAX_PLAYERS:
            s.hand_n[q] += 1
            s.hand_kind[q][rc_card_kind(card)] += 1
            s.hand_mask[q] |= 1ULL << rc_card_kind(card)


cdef void rc_resample(RCState* s, int player, uint64_t* rng) noexcept nogil:
    """Deal again every card `player` does not know among the places it cannot
    see, keeping every count, every public card and all it knows; reseed the
    game's chance; redraw the secret choices it has not seen. The result depends
    only on what `player` knows and on `rng`: the hidden cards go to the hidden
    places in a canonical order (pile, Reserve, drawn cards, then hands), and
    what the others know beyond player's view is made canonical first."""
    cdef uint8_t hidden[NUM_CARDS]
    cdef uint8_t cards[NUM_CARDS]
    cdef bint drawn_hidden[DRAWN_MAX]
    cdef int hand_hidden[MAX_PLAYERS]
    cdef int n = 0, k = 0, i, card, q, l
    memset(hand_hidden, 0, sizeof(hand_hidden))
    for card in range(NUM_CARDS):
        if rc_hidden_from(s, card, player):
            hidden[n] = card
            n += 1
            s.sel_city[card] = -1
            l = s.loc[card]
            if l >= LOC_HAND and l < LOC_HAND + MAX_PLAYERS:
                hand_hidden[l - LOC_HAND] += 1
    for i in range(s.drawn_n):
        drawn_hidden[i] = rc_hidden_from(s, s.drawn[i], player)
    deal_cards(hidden, n, cards, rng)
    for i in range(s.pile_n):
        s.pile[i] = cards[k]
        s.loc[cards[k]] = LOC_PILE
        k += 1
    for i in range(s.reserve_n):
        s.reserve[i] = cards[k]
        s.loc[cards[k]] = LOC_RESERVE
        k += 1
    for i in range(s.drawn_n):
        if drawn_hidden[i]:
            s.drawn[i] = cards[k]
            s.loc[cards[k]] = LOC_DRAWN
            s.known[cards[k]] = 0
            k += 1
    for q in range(s.num_players):
        for i in range(hand_hidden[q]):
            s.loc[cards[k]] = LOC_HAND + q
            s.known[cards[k]] = 0
            k += 1
    rc_canonical_known(s, player)
    rc_count_hands(s)
    rng_reseed(s.rng, rng)
    rc_reroll_secrets(s, player, rng)


cdef int rc_check(const RCState* s) noexcept nogil:
    """0 when the struct is consistent: every card in exactly one place and
    every count matching. Otherwise a code naming the first broken invariant."""
    cdef int seen[NUM_CARDS]
    cdef int card, i, o, c, p, l
    cdef int hand_n[MAX_PLAYERS]
    cdef int discard_n = 0, count
    memset(seen, 0, sizeof(seen))
    memset(hand_n, 0, sizeof(hand_n))
    for i in range(s.pile_n):
        seen[s.pile[i]] += 1
        if s.loc[s.pile[i]] != LOC_PILE:
            return 1
    for i in range(s.reserve_n):
        seen[s.reserve[i]] += 1
        if s.loc[s.reserve[i]] != LOC_RESERVE:
            return 2
    for i in range(s.market_n):
        seen[s.market[i]] += 1
        if s.loc[s.market[i]] != LOC_MARKET:
            return 3
    for i in range(s.drawn_n):
        seen[s.drawn[i]] += 1
        if s.loc[s.drawn[i]] != LOC_DRAWN:
            return 4
    for o in range(NUM_OWNERS):
        for c in range(NUM_CITIES):
            for i in range(s.city_n[o][c]):
                card = s.city[o][c][i]
                seen[card] += 1
                if s.loc[card] != LOC_CITY + o * 6 + c:
                    return 5
                if i > 0 and rc_card_value(card) <= rc_card_value(s.city[o][c][i - 1]):
                    return 6
                if rc_card_colour(card) != WHITE and rc_card_colour(card) != c:
                    return 7
    for card in range(NUM_CARDS):
        l = s.loc[card]
        if l == LOC_DISCARD:
            seen[card] += 1
            discard_n += 1
        elif l >= LOC_HAND and l < LOC_HAND + MAX_PLAYERS:
            seen[card] += 1
            hand_n[l - LOC_HAND] += 1
            if not ((s.known[card] >> (l - LOC_HAND)) & 1):
                return 8
    for card in range(NUM_CARDS):
        if seen[card] != 1:
            return 9
    if discard_n != s.discard_n:
        return 10
    for p in range(MAX_PLAYERS):
        if hand_n[p] != s.hand_n[p]:
            return 11
        for i in range(NUM_KINDS):
            count = 0
            for c in range(rc_kind_copies(i)):
                if s.loc[rc_kind_first_id(i) + c] == LOC_HAND + p:
                    count += 1
            if count != s.hand_kind[p][i]:
                return 12
            if ((s.hand_mask[p] >> i) & 1) != (count > 0):
                return 13
    for i in range(NUM_KINDS):
        count = 0
        for c in range(s.market_n):
            if rc_card_kind(s.market[c]) == i:
                count += 1
        if count != s.mkt_kind[i] or ((s.mkt_mask >> i) & 1) != (count > 0):
            return 14
    return 0
