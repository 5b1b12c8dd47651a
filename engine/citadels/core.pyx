# The Citadels rules, as noexcept nogil functions over one CTState. Nothing is
# allocated per step; chance comes from the xoshiro256** state in the struct.
from libc.string cimport memset

from engine.game_api cimport OBSERVED_HIDDEN, OBSERVED_NOTHING
from engine.bits cimport bits_count, bits_pop
from engine.deal cimport deal_cards
from engine.rng cimport rng_below, rng_next, rng_reseed, rng_seed, rng_shuffle

#: The engine's limit on rounds in a game (see core.pxd).
ROUND_LIMIT = MAX_ROUNDS


# -- small helpers -----------------------------------------------------------

cdef inline int all_players(const CTState* s) noexcept nogil:
    return (1 << s.num_players) - 1


cdef inline bint ct_has(const CTState* s, int player, int kind) noexcept nogil:
    return (s.city_kinds[player] >> kind) & 1


cdef void ct_hand_add(CTState* s, int player, int card, int known) noexcept nogil:
    s.loc[card] = LOC_HAND + player
    s.known[card] = known | (1 << player)
    s.hand_n[player] += 1
    s.hand_kind[player][CT_KIND[card]] += 1
    s.hand_kinds[player] |= 1u << CT_KIND[card]


cdef int hand_find(const CTState* s, int player, int kind) noexcept nogil:
    cdef int card = CT_FIRST[kind], i
    for i in range(CT_COPIES[kind]):
        if s.loc[card + i] == LOC_HAND + player:
            return card + i
    return NO_CARD


cdef int hand_take(CTState* s, int player, int kind, bint secret) noexcept nogil:
    """Take a card of `kind` out of a hand (the caller places it). An observer
    who knew k copies of the kind there knows k - 1 of the rest afterwards; a
    secret removal (they don't see which card) makes them forget the hand."""
    cdef int card = hand_find(s, player, kind), first = CT_FIRST[kind], i, o, k, bit
    s.hand_n[player] -= 1
    s.hand_kind[player][kind] -= 1
    if s.hand_kind[player][kind] == 0:
        s.hand_kinds[player] &= ~(1u << kind)
    s.loc[card] = NO_CARD
    if secret:
        for i in range(NUM_DISTRICTS):
            if s.loc[i] == LOC_HAND + player:
                s.known[i] = 1 << player
        return card
    for o in range(s.num_players):
        if o == player:
            continue
        bit = 1 << o
        k = 0
        for i in range(first, first + CT_COPIES[kind]):
            if (i == card or s.loc[i] == LOC_HAND + player) and (s.known[i] & bit):
                k += 1
        for i in range(first, first + CT_COPIES[kind]):
            if s.loc[i] == LOC_HAND + player:
                if k > 1:
                    s.known[i] |= bit
                    k -= 1
                else:
                    s.known[i] &= ~bit
    return card


cdef int deck_draw(CTState* s) noexcept nogil:
    """The top card of the deck (its location is left to the caller), or NO_CARD."""
    if s.deck_n == 0:
        return NO_CARD
    s.deck_n -= 1
    return s.deck[s.deck_n]


cdef void deck_under(CTState* s, int card, int known) noexcept nogil:
    """Put a card under the deck; `known` is who saw which card it was."""
    cdef int i
    for i in range(s.deck_n, 0, -1):
        s.deck[i] = s.deck[i - 1]
    s.deck[0] = card
    s.deck_n += 1
    s.loc[card] = LOC_DECK
    s.known[card] = known


cdef int drawn_known(const CTState* s, int card, int player) noexcept nogil:
    """Who knows a card just drawn: the drawer, and everyone if it was public (a
    destroyed district). Whoever tracked a card they put under the deck forgets
    it: the others could not know they did, so keeping it would show in their views."""
    if s.known[card] == all_players(s):
        return all_players(s)
    return 1 << player


cdef void draw_to_hand(CTState* s, int player, int n) noexcept nogil:
    cdef int i, card
    for i in range(n):
        card = deck_draw(s)
        if card == NO_CARD:
            return
        ct_hand_add(s, player, card, drawn_known(s, card, player))


cdef void ct_city_add(CTState* s, int player, int card) noexcept nogil:
    s.city[player][s.city_n[player]] = card
    s.city_n[player] += 1
    s.city_kinds[player] |= 1u << CT_KIND[card]
    s.loc[card] = LOC_CITY + player
    s.known[card] = all_players(s)
    s.built_round[card] = s.round_no


cdef int city_remove(CTState* s, int player, int kind) noexcept nogil:
    cdef int i, j, card = NO_CARD
    for i in range(s.city_n[player]):
        if CT_KIND[s.city[player][i]] == kind:
            card = s.city[player][i]
            for j in range(i, s.city_n[player] - 1):
                s.city[player][j] = s.city[player][j + 1]
            s.city_n[player] -= 1
            break
    s.city_kinds[player] &= ~(1u << kind)
    return card


# -- the draft ---------------------------------------------------------------

cdef int num_steps(int n) noexcept nogil:
    if n <= 3:
        return 6
    return n


cdef void ct_draft_step(const CTState* s, int step, int* player, int* slot, bint* discard) noexcept nogil:
    """Who decides draft decision `step`, into which slot, and whether it is a
    face-down discard. Slots: 2 players D0 A B Bd A Ad B (Bd); 3 players D0 A B C
    A B C (D); 4-6 players D0 P1..Pn (D); 7 players P1..P6, the card left for P7,
    D0 (P7 keeps one of the last two). Parenthesised slots fill themselves."""
    cdef int n = s.num_players, offset
    discard[0] = False
    if n == 2:
        offset = ((step + 1) // 2) % 2     # A B B A A B
        slot[0] = step + 1
        discard[0] = step == 2 or step == 4
    elif n == 3:
        offset = step % 3
        slot[0] = step + 1
    elif n < 7:
        offset = step
        slot[0] = step + 1
    else:
        offset = step
        slot[0] = step
    player[0] = (s.first_picker + offset) % n


cdef uint8_t ct_seen_slots(const CTState* s, int slot) noexcept nogil:
    """The slots holding the characters a picker at `slot` is shown."""
    if s.num_players == 7:
        if slot == 6:
            return 0xC0
        return <uint8_t>((0x7F >> slot) << slot)
    return <uint8_t>(((1 << s.n_slots) - 1) >> slot << slot)


cdef void begin_step(CTState* s) noexcept nogil:
    cdef int p, slot
    cdef bint discard
    ct_draft_step(s, s.step, &p, &slot, &discard)
    s.cur = p
    s.phase = PH_DISCARD if discard else PH_PICK
    if not discard:
        s.obs_set[p][s.obs_n[p]] = s.pool
        s.obs_slots[p][s.obs_n[p]] = ct_seen_slots(s, slot)
        s.obs_n[p] += 1


cdef int lowest_char(uint8_t mask) noexcept nogil:
    cdef int c
    for c in range(NUM_CHARS):
        if (mask >> c) & 1:
            return c
    return NO_CHAR


cdef void ct_start_round(CTState* s) noexcept nogil:
    """Shuffle the characters: face-up discards (never the King), one face down,
    then the draft starts with the crowned player."""
    cdef int n = s.num_players, up = 0, i, c, k, p
    cdef uint8_t rest
    s.round_no += 1
    s.first_picker = s.crown
    s.killed = NO_CHAR
    s.robbed = NO_CHAR
    s.revealed = 0
    s.call = 0
    s.step = 0
    memset(s.top_char, 0, sizeof(s.top_char))
    memset(s.obs_n, 0, sizeof(s.obs_n))
    memset(s.holder, NOBODY, sizeof(s.holder))
    memset(s.slot_char, NO_CHAR, sizeof(s.slot_char))
    memset(s.slot_owner, NOBODY, sizeof(s.slot_owner))
    memset(s.slot_by, NOBODY, sizeof(s.slot_by))
    if 4 <= n <= 6:
        up = 6 - n
    s.n_slots = 8 - up
    s.faceup = 0
    for i in range(up):
        # The King is never face up: draw among the others.
        rest = ALL_CHARS & ~s.faceup & ~(1 << KING)
        k = rng_below(s.rng, bits_count(rest))
        for c in range(NUM_CHARS):
            if (rest >> c) & 1:
                if k == 0:
                    s.faceup |= 1 << c
                    break
                k -= 1
    rest = ALL_CHARS & ~s.faceup
    k = rng_below(s.rng, bits_count(rest))
    for c in range(NUM_CHARS):
        if (rest >> c) & 1:
            if k == 0:
                break
            k -= 1
    p = 7 if n == 7 else 0
    s.slot_char[p] = c
    s.pool = rest & ~(1 << c)
    begin_step(s)


cdef void finish_draft(CTState* s) noexcept nogil:
    cdef int i
    memset(s.holder, NOBODY, sizeof(s.holder))
    for i in range(s.n_slots):
        if s.slot_owner[i] != NOBODY:
            s.holder[s.slot_char[i]] = s.slot_owner[i]
    s.call = 0
    advance_call(s)


cdef void draft_choose(CTState* s, int c, bint discard) noexcept nogil:
    cdef int p, slot, other
    cdef bint d
    ct_draft_step(s, s.step, &p, &slot, &d)
    s.pool &= ~(1 << c)
    if s.num_players == 7 and s.step == 6:
        # P7 keeps one of the two last characters; the other goes face down.
        slot = 6 if s.slot_char[6] == c else 7
        other = 13 - slot
        s.slot_owner[slot] = p
        s.slot_by[slot] = p
        s.slot_by[other] = p
    else:
        s.slot_char[slot] = c
        s.slot_owner[slot] = NOBODY if discard else p
        s.slot_by[slot] = p
    s.step += 1
    if s.num_players == 7 and s.step == 6:
        s.slot_char[6] = lowest_char(s.pool)
        s.pool |= 1 << s.slot_char[7]
        begin_step(s)
        return
    if s.step < num_steps(s.num_players):
        begin_step(s)
        return
    if s.num_players < 7:
        s.slot_char[s.n_slots - 1] = lowest_char(s.pool)
    s.pool = 0
    finish_draft(s)


# -- calling and turns -------------------------------------------------------

cdef void end_round(CTState* s) noexcept nogil:
    if s.killed == KING and s.holder[KING] != NOBODY:
        s.crown = s.holder[KING]
    if s.first_done != NOBODY or s.round_no >= MAX_ROUNDS:
        s.phase = PH_END
        s.cur = NOBODY
        return
    ct_start_round(s)


cdef void advance_call(CTState* s) noexcept nogil:
    """Call characters from `call` on; start the turn of the first one revealed."""
    cdef int c, h, thief
    while s.call < NUM_CHARS:
        c = s.call
        h = s.holder[c]
        if c == s.killed or h == NOBODY:
            s.call += 1
            continue
        s.revealed |= 1 << c
        if c + 1 > s.top_char[h]:
            s.top_char[h] = c + 1
        if c == s.robbed:
            thief = s.holder[THIEF]
            s.gold[thief] += s.gold[h]
            s.gold[h] = 0
        if c == KING:
            s.crown = h
        s.cur = h
        s.phase = PH_RESOURCE
        s.resource_done = 0
        s.income_done = 0
        s.power_done = 0
        s.builds_left = 3 if c == ARCHITECT else 1
        s.lab_done = 0
        s.smithy_done = 0
        s.redraw_n = 0
        return
    end_round(s)


cdef void after_resource(CTState* s) noexcept nogil:
    if s.call == MERCHANT:
        s.gold[s.cur] += 1
    elif s.call == ARCHITECT:
        draw_to_hand(s, s.cur, 2)
    s.resource_done = 1
    s.phase = PH_MAIN


cdef inline int turn_phase(const CTState* s) noexcept nogil:
    """Where the turn resumes after the Magician's redraw or the Graveyard: the
    resource step if it is still to come (`powers_before_resources`), else the rest."""
    return PH_MAIN if s.resource_done else PH_RESOURCE


cdef void keep_rest(CTState* s) noexcept nogil:
    """The drawn cards not kept go under the deck, by kind (the rules leave their order to
    the drawer; by kind, a view that lists them sorted knows it); only the drawer saw them."""
    cdef int i, j, card
    for i in range(1, s.drawn_n):
        card = s.drawn[i]
        j = i
        while j > 0 and CT_KIND[s.drawn[j - 1]] > CT_KIND[card]:
            s.drawn[j] = s.drawn[j - 1]
            j -= 1
        s.drawn[j] = card
    for i in range(s.drawn_n):
        deck_under(s, s.drawn[i], s.known[s.drawn[i]])
    s.drawn_n = 0
    after_resource(s)


cdef void take_cards(CTState* s) noexcept nogil:
    cdef int p = s.cur, card, i
    cdef bint library = ct_has(s, p, K_LIBRARY), observatory = ct_has(s, p, K_OBSERVATORY)
    cdef int n = 3 if observatory else 2
    s.drawn_n = 0
    s.keep_left = 2 if library else 1
    while s.drawn_n < n:
        card = deck_draw(s)
        if card == NO_CARD:
            break
        s.drawn[s.drawn_n] = card
        s.drawn_n += 1
    if s.drawn_n <= s.keep_left:
        # Nothing to choose: the cards go to the hand as any draw does.
        while s.drawn_n > 0:
            s.drawn_n -= 1
            card = s.drawn[s.drawn_n]
            ct_hand_add(s, p, card, drawn_known(s, card, p))
        after_resource(s)
        return
    # Only the drawer sees the cards to choose from, even one that was public:
    # the others can't tell which is kept.
    for i in range(s.drawn_n):
        s.loc[s.drawn[i]] = LOC_ASIDE
        s.known[s.drawn[i]] = 1 << p
    s.phase = PH_KEEP


cdef void keep(CTState* s, int kind, bint back) noexcept nogil:
    """Keep the drawn card of `kind` (or, keeping two of three, put it back);
    the cards not kept go under the deck."""
    cdef int i, card, found = -1
    for i in range(s.drawn_n):
        if CT_KIND[s.drawn[i]] == kind:
            found = i
            break
    card = s.drawn[found]
    s.drawn_n -= 1
    s.drawn[found] = s.drawn[s.drawn_n]
    if back:
        deck_under(s, card, s.known[card])
        while s.drawn_n > 0:
            s.drawn_n -= 1
            ct_hand_add(s, s.cur, s.drawn[s.drawn_n], s.known[s.drawn[s.drawn_n]])
        after_resource(s)
    else:
        ct_hand_add(s, s.cur, card, s.known[card])
        keep_rest(s)


cdef int income_colour(int character) noexcept nogil:
    if character == KING:
        return NOBLE
    if character == BISHOP:
        return RELIGIOUS
    if character == MERCHANT:
        return TRADE
    if character == WARLORD:
        return MILITARY
    return -1


cdef int ct_income(const CTState* s, int player, int character) noexcept nogil:
    """Gold the character's income gives: its colour's districts, and the School
    of Magic as that colour."""
    cdef int colour = income_colour(character), i, n = 0, kind
    if colour < 0:
        return 0
    for i in range(s.city_n[player]):
        kind = CT_KIND[s.city[player][i]]
        if CT_COLOUR[kind] == colour or kind == K_SCHOOL_OF_MAGIC:
            n += 1
    return n


cdef int ct_destroy_price(const CTState* s, int owner, int kind) noexcept nogil:
    """The Warlord's price: cost - 1, plus 1 for the owner's Great Wall (not on itself)."""
    cdef int price = CT_COST[kind] - 1
    if kind != K_GREAT_WALL and ct_has(s, owner, K_GREAT_WALL):
        price += 1
    return price


cdef bint protected(const CTState* s, int owner) noexcept nogil:
    """A city the Warlord may not touch: complete, or the living Bishop's."""
    if s.city_n[owner] >= s.end_size:
        return True
    return s.holder[BISHOP] == owner and s.killed != BISHOP


cdef void destroy(CTState* s, int owner, int kind) noexcept nogil:
    cdef int card, g, p = s.cur
    s.gold[p] -= ct_destroy_price(s, owner, kind)
    s.power_done = 1
    card = city_remove(s, owner, kind)
    s.loc[card] = LOC_ASIDE
    for g in range(s.num_players):
        if g != p and ct_has(s, g, K_GRAVEYARD) and s.gold[g] >= 1:
            s.gy_card = card
            s.warlord = p
            s.cur = g
            s.phase = PH_GRAVEYARD
            return
    deck_under(s, card, all_players(s))


# -- legal actions -----------------------------------------------------------

cdef int power_actions(const CTState* s, int16_t* out, int n) noexcept nogil:
    """Append the character's power and the unique districts' actions not used
    yet this turn (each once per turn), in id order."""
    cdef int p = s.cur, c = s.call, k, q, kind
    cdef uint64_t kinds
    if not s.power_done:
        if c == ASSASSIN:
            for k in range(1, NUM_CHARS):
                out[n] = A_KILL + k
                n += 1
        elif c == THIEF:
            for k in range(2, NUM_CHARS):
                if k != s.killed:
                    out[n] = A_ROB + k
                    n += 1
        elif c == MAGICIAN:
            for q in range(s.num_players):
                if q != p:
                    out[n] = A_SWAP + q
                    n += 1
            kinds = s.hand_kinds[p]
            while kinds:
                out[n] = A_REDRAW + bits_pop(&kinds)
                n += 1
        elif c == WARLORD:
            for q in range(s.num_players):
                if protected(s, q):
                    continue
                kinds = s.city_kinds[q] & ~(1u << K_KEEP)
                while kinds:
                    kind = bits_pop(&kinds)
                    if ct_destroy_price(s, q, kind) <= s.gold[p]:
                        out[n] = A_DESTROY + q * NUM_DKINDS + kind
                        n += 1
    if not s.lab_done and ct_has(s, p, K_LABORATORY):
        kinds = s.hand_kinds[p]
        while kinds:
            out[n] = A_LAB + bits_pop(&kinds)
            n += 1
    if not s.smithy_done and ct_has(s, p, K_SMITHY) and s.gold[p] >= 2:
        out[n] = A_SMITHY
        n += 1
    return n


cdef int main_actions(const CTState* s, int16_t* out) noexcept nogil:
    cdef int n = 0, p = s.cur, k
    cdef uint64_t kinds = s.hand_kinds[p] & ~s.city_kinds[p]
    if s.builds_left > 0:
        while kinds:
            k = bits_pop(&kinds)
            if CT_COST[k] <= s.gold[p]:
                out[n] = A_BUILD + k
                n += 1
    if not s.income_done and ct_income(s, p, s.call) > 0:
        out[n] = A_INCOME
        n += 1
    n = power_actions(s, out, n)
    out[n] = A_END_TURN
    return n + 1


cdef int ct_legal_actions(const CTState* s, int16_t* out) noexcept nogil:
    cdef int n = 0, c, k, i, p = s.cur
    cdef int ph = s.phase
    if ph == PH_PICK or ph == PH_DISCARD:
        for c in range(NUM_CHARS):
            if (s.pool >> c) & 1:
                out[n] = (A_DISCARD if ph == PH_DISCARD else A_PICK) + c
                n += 1
    elif ph == PH_RESOURCE:
        out[0] = A_GOLD
        out[1] = A_CARDS
        n = 2
        if s.rules.powers_before_resources:
            n = power_actions(s, out, n)
    elif ph == PH_KEEP:
        for k in range(NUM_DKINDS):
            for i in range(s.drawn_n):
                if CT_KIND[s.drawn[i]] == k:
                    out[n] = (A_KEEP if s.keep_left == 1 else A_RETURN) + k
                    n += 1
                    break
    elif ph == PH_MAIN:
        n = main_actions(s, out)
    elif ph == PH_REDRAW:
        for k in range(s.redraw_min, NUM_DKINDS):
            if s.hand_kind[p][k]:
                out[n] = A_REDRAW + k
                n += 1
        out[n] = A_REDRAW_DONE
        n += 1
    elif ph == PH_GRAVEYARD:
        out[0] = A_GRAVEYARD
        out[1] = A_DECLINE
        n = 2
    return n


# -- applying an action ------------------------------------------------------

cdef void ct_apply(CTState* s, int a) noexcept nogil:
    """Apply a legal action (the caller checks legality)."""
    cdef int p = s.cur, card, q, i, kind, swapped
    cdef uint8_t t
    if a < A_DISCARD:
        draft_choose(s, a - A_PICK, False)
    elif a < A_GOLD:
        draft_choose(s, a - A_DISCARD, True)
    elif a == A_GOLD:
        s.gold[p] += 2
        after_resource(s)
    elif a == A_CARDS:
        take_cards(s)
    elif a < A_RETURN:
        keep(s, a - A_KEEP, False)
    elif a < A_BUILD:
        keep(s, a - A_RETURN, True)
    elif a < A_INCOME:
        kind = a - A_BUILD
        card = hand_take(s, p, kind, False)
        s.gold[p] -= CT_COST[kind]
        ct_city_add(s, p, card)
        s.builds_left -= 1
        if s.city_n[p] >= s.end_size and s.first_done == NOBODY:
            s.first_done = p
    elif a == A_INCOME:
        s.gold[p] += ct_income(s, p, s.call)
        s.income_done = 1
    elif a < A_ROB:
        s.killed = a - A_KILL
        s.power_done = 1
    elif a < A_SWAP:
        s.robbed = a - A_ROB
        s.power_done = 1
    elif a < A_REDRAW:
        q = a - A_SWAP
        # Both hands change owners in full view: the two players know every swapped
        # card; a third player who knew one keeps it only when the whole table did,
        # since the new holder cannot tell which cards that player had seen.
        swapped = (1 << p) | (1 << q)
        for card in range(NUM_DISTRICTS):
            if s.loc[card] == LOC_HAND + p:
                s.loc[card] = LOC_HAND + q
            elif s.loc[card] == LOC_HAND + q:
                s.loc[card] = LOC_HAND + p
            else:
                continue
            if s.known[card] != all_players(s):
                s.known[card] = swapped
        t = s.hand_n[p]
        s.hand_n[p] = s.hand_n[q]
        s.hand_n[q] = t
        for kind in range(NUM_DKINDS):
            t = s.hand_kind[p][kind]
            s.hand_kind[p][kind] = s.hand_kind[q][kind]
            s.hand_kind[q][kind] = t
        s.hand_kinds[p], s.hand_kinds[q] = s.hand_kinds[q], s.hand_kinds[p]
        s.power_done = 1
    elif a < A_REDRAW_DONE:
        kind = a - A_REDRAW
        card = hand_take(s, p, kind, True)
        deck_under(s, card, 1 << p)
        s.redraw_n += 1
        s.redraw_min = kind
        s.power_done = 1
        s.phase = PH_REDRAW
    elif a == A_REDRAW_DONE:
        draw_to_hand(s, p, s.redraw_n)
        s.redraw_n = 0
        s.redraw_min = 0
        s.phase = turn_phase(s)
    elif a < A_LAB:
        a -= A_DESTROY
        destroy(s, a // NUM_DKINDS, a % NUM_DKINDS)
    elif a < A_SMITHY:
        card = hand_take(s, p, a - A_LAB, True)
        deck_under(s, card, 1 << p)
        s.gold[p] += 2
        s.lab_done = 1
    elif a == A_SMITHY:
        s.gold[p] -= 2
        draw_to_hand(s, p, 3)
        s.smithy_done = 1
    elif a == A_GRAVEYARD or a == A_DECLINE:
        card = s.gy_card
        if a == A_GRAVEYARD:
            s.gold[p] -= 1
            ct_hand_add(s, p, card, all_players(s))
        else:
            deck_under(s, card, all_players(s))
        s.gy_card = NO_CARD
        s.cur = s.warlord
        s.phase = turn_phase(s)
    elif a == A_END_TURN:
        s.call += 1
        advance_call(s)


# -- setup, end, scores --------------------------------------------------------

cdef void ct_init(CTState* s, int num_players, uint64_t seed, const CTRules* rules) noexcept nogil:
    """A new game: 4 districts and 2 gold each, the crown with player 0."""
    cdef int i, p
    memset(s, 0, sizeof(CTState))
    rng_seed(s.rng, seed)
    s.rules = rules[0]
    s.num_players = num_players
    s.end_size = 8 if (num_players <= 3 or rules.eight_districts) else 7
    s.first_done = NOBODY
    s.gy_card = NO_CARD
    s.warlord = NOBODY
    s.crown = 0
    for i in range(NUM_DISTRICTS):
        s.deck[i] = i
        s.loc[i] = LOC_DECK
    s.deck_n = NUM_DISTRICTS
    rng_shuffle(s.deck, NUM_DISTRICTS, s.rng)
    for p in range(num_players):
        s.gold[p] = 2
        draw_to_hand(s, p, 4)
    ct_start_round(s)


cdef bint ct_is_terminal(const CTState* s) noexcept nogil:
    return s.phase == PH_END


cdef int ct_current_player(const CTState* s) noexcept nogil:
    return -1 if s.phase == PH_END else s.cur


cdef bint five_colours(const CTState* s, int p) noexcept nogil:
    """All five colours; the Haunted Quarter counts as any colour unless built
    in the last round."""
    cdef int i, card, kind, colours = 0
    cdef bint wild = False
    for i in range(s.city_n[p]):
        card = s.city[p][i]
        kind = CT_KIND[card]
        if kind == K_HAUNTED_QUARTER and s.built_round[card] < s.round_no:
            wild = True
        else:
            colours |= 1 << CT_COLOUR[kind]
    return bits_count(colours) + (1 if wild else 0) >= NUM_COLOURS


cdef void ct_scores(const CTState* s, int* out) noexcept nogil:
    """Points per player as they stand (the final score at the end)."""
    cdef int p, i, kind, score
    for p in range(s.num_players):
        score = 0
        for i in range(s.city_n[p]):
            kind = CT_KIND[s.city[p][i]]
            score += 8 if (kind == K_UNIVERSITY or kind == K_DRAGON_GATE) else CT_COST[kind]
        if five_colours(s, p):
            score += 3
        if s.first_done == p:
            score += 4
        elif s.city_n[p] >= s.end_size:
            score += 2
        if ct_has(s, p, K_MAP_ROOM):
            score += s.hand_n[p]
        if ct_has(s, p, K_IMPERIAL_TREASURY):
            score += s.gold[p]
        out[p] = score


cdef void ct_returns(const CTState* s, double* out) noexcept nogil:
    """1 to the winner; ties broken by the highest character revealed in the last
    round; a tie that remains shares the win."""
    cdef int scores[MAX_PLAYERS]
    cdef int p, best = -1, best_top = -1, winners = 0
    for p in range(s.num_players):
        out[p] = 0.0
    if s.phase != PH_END:
        return
    ct_scores(s, scores)
    for p in range(s.num_players):
        if scores[p] > best or (scores[p] == best and s.top_char[p] > best_top):
            best = scores[p]
            best_top = s.top_char[p]
    for p in range(s.num_players):
        if scores[p] == best and s.top_char[p] == best_top:
            winners += 1
    for p in range(s.num_players):
        if scores[p] == best and s.top_char[p] == best_top:
            out[p] = 1.0 / winners


cdef void ct_margins(const CTState* s, double* out) noexcept nogil:
    cdef int scores[MAX_PLAYERS]
    cdef int p, q, other
    ct_scores(s, scores)
    for p in range(s.num_players):
        other = -1000
        for q in range(s.num_players):
            if q != p and scores[q] > other:
                other = scores[q]
        out[p] = scores[p] - other


# -- what others see -----------------------------------------------------------

cdef int ct_observed_action(const CTState* s, int a, int observer) noexcept nogil:
    """A draft choice and a kept card are secret: the others see that a choice
    was made. The cards put under the deck are seen only as cards."""
    cdef int p, slot
    cdef bint discard
    if observer == s.cur:
        return a
    if a < A_GOLD:
        if a < A_DISCARD and s.num_players == 2 and s.step + 1 < 6:
            ct_draft_step(s, s.step + 1, &p, &slot, &discard)
            if discard:
                return OBSERVED_NOTHING
        return OBSERVED_HIDDEN
    if A_KEEP <= a < A_BUILD:
        return OBSERVED_HIDDEN
    if A_REDRAW <= a < A_REDRAW_DONE:
        return A_SEEN_REDRAW
    if A_LAB <= a < A_SMITHY:
        return A_SEEN_LAB
    return a


# -- resampling ----------------------------------------------------------------

cdef struct DealFacts:
    # What a deal for one observer must respect, the same for every question one deal asks:
    # which of the sets the observer was shown at its picks held each character (`csig`,
    # bit per pick) and included each slot (`ssig`), and which characters it cannot place.
    uint8_t csig[NUM_CHARS]
    uint8_t ssig[MAX_SLOTS]
    bint hidden[NUM_CHARS]


cdef void deal_facts(const CTState* s, int p, DealFacts* f) noexcept nogil:
    """Fill `f` for observer `p`: a character can only be dealt into a slot of the same
    signature."""
    cdef int c, i, j
    for c in range(NUM_CHARS):
        f.csig[c] = 0
        for j in range(s.obs_n[p]):
            if (s.obs_set[p][j] >> c) & 1:
                f.csig[c] |= 1 << j
        f.hidden[c] = not is_known(s, p, c)
    for i in range(s.n_slots):
        f.ssig[i] = 0
        for j in range(s.obs_n[p]):
            if (s.obs_slots[p][j] >> i) & 1:
                f.ssig[i] |= 1 << j


cdef bint must_be_discarded(const CTState* s, int c) noexcept nogil:
    """Called, not revealed, not killed: nobody holds it."""
    return c < s.call and not ((s.revealed >> c) & 1) and c != s.killed


cdef double deal_count(const CTState* s, int p, const DealFacts* f) noexcept nogil:
    """How many character deals are consistent with what `p` knows, given the
    slots' owners as they stand."""
    cdef double total = 1.0
    cdef int sig, c, i, q, need, free_slots, rest
    cdef const uint8_t* csig = f.csig
    cdef const uint8_t* ssig = f.ssig
    cdef const bint* hidden = f.hidden
    for sig in range(4):
        rest = 0
        for i in range(s.n_slots):
            if s.slot_by[i] != p and ssig[i] == sig:
                rest += 1
        need = 0
        for c in range(NUM_CHARS):
            if hidden[c] and csig[c] == sig:
                need += 1
        if need != rest:
            return 0.0
        # Revealed characters go to their holder's slots.
        for q in range(s.num_players):
            need = 0
            for c in range(NUM_CHARS):
                if ((s.revealed >> c) & 1) and s.holder[c] == q and hidden[c] and (
                        csig[c] == sig):
                    need += 1
            if need == 0:
                continue
            free_slots = 0
            for i in range(s.n_slots):
                if s.slot_by[i] != p and ssig[i] == sig and s.slot_owner[i] == q and (
                        s.slot_char[i] != NO_CHAR):
                    free_slots += 1
            for i in range(need):
                total *= free_slots - i
            rest -= need
        need = 0
        for c in range(NUM_CHARS):
            if must_be_discarded(s, c) and hidden[c] and csig[c] == sig:
                need += 1
        free_slots = 0
        for i in range(s.n_slots):
            if s.slot_by[i] != p and ssig[i] == sig and s.slot_owner[i] == NOBODY and (
                    s.slot_char[i] != NO_CHAR):
                free_slots += 1
        for i in range(need):
            total *= free_slots - i
        rest -= need
        for i in range(2, rest + 1):
            total *= i
        if total <= 0.0:
            return 0.0
    return total


cdef inline bint is_known(const CTState* s, int p, int c) noexcept nogil:
    """`p` knows where character `c` is: face up, or in a slot p filled."""
    cdef int i
    if (s.faceup >> c) & 1:
        return True
    for i in range(s.n_slots):
        if s.slot_char[i] == c and s.slot_by[i] == p:
            return True
    return False


cdef int take_random(uint8_t* items, int* n, uint64_t* rng) noexcept nogil:
    cdef int i = rng_below(rng, n[0]), item = items[i]
    n[0] -= 1
    items[i] = items[n[0]]
    return item


cdef void deal_into(CTState* s, int p, DealFacts* f, uint64_t* rng) noexcept nogil:
    """Fill every slot `p` did not fill, uniformly among the consistent deals (`f`'s
    `hidden` is used up: each character dealt is struck off)."""
    cdef uint8_t slots[MAX_SLOTS]
    cdef uint8_t chars[NUM_CHARS]
    cdef bint unfilled[MAX_SLOTS]
    cdef const uint8_t* csig = f.csig
    cdef const uint8_t* ssig = f.ssig
    cdef bint* hidden = f.hidden
    cdef int sig, c, i, q, n_slots, n_chars, k
    for i in range(s.n_slots):
        unfilled[i] = s.slot_char[i] == NO_CHAR
        if s.slot_by[i] != p:
            s.slot_char[i] = NO_CHAR
    for sig in range(4):
        for q in range(s.num_players):
            n_slots = 0
            for i in range(s.n_slots):
                if s.slot_char[i] == NO_CHAR and not unfilled[i] and s.slot_owner[i] == q and (
                        ssig[i] == sig):
                    slots[n_slots] = i
                    n_slots += 1
            for c in range(NUM_CHARS):
                if hidden[c] and ((s.revealed >> c) & 1) and s.holder[c] == q and (
                        csig[c] == sig):
                    s.slot_char[take_random(slots, &n_slots, rng)] = c
                    hidden[c] = False
        n_slots = 0
        for i in range(s.n_slots):
            if s.slot_char[i] == NO_CHAR and not unfilled[i] and s.slot_owner[i] == NOBODY and (
                    ssig[i] == sig):
                slots[n_slots] = i
                n_slots += 1
        for c in range(NUM_CHARS):
            if hidden[c] and must_be_discarded(s, c) and csig[c] == sig:
                s.slot_char[take_random(slots, &n_slots, rng)] = c
                hidden[c] = False
        n_slots = 0
        n_chars = 0
        for i in range(s.n_slots):
            if s.slot_char[i] == NO_CHAR and ssig[i] == sig:
                slots[n_slots] = i
                n_slots += 1
        for c in range(NUM_CHARS):
            if hidden[c] and csig[c] == sig:
                chars[n_chars] = c
                n_chars += 1
        rng_shuffle(chars, n_chars, rng)
        for k in range(n_slots):
            s.slot_char[slots[k]] = chars[k] if k < n_chars else NO_CHAR
    # Slots still to be drafted hand their characters back to the pool.
    s.pool = 0
    for i in range(s.n_slots):
        if unfilled[i]:
            s.pool |= 1 << s.slot_char[i]
            s.slot_char[i] = NO_CHAR
    if s.num_players == 7 and s.step == 6:
        s.pool = (1 << s.slot_char[6]) | (1 << s.slot_char[7])
    for c in range(NUM_CHARS):
        s.holder[c] = NOBODY
    for i in range(s.n_slots):
        if s.slot_owner[i] != NOBODY and s.slot_char[i] != NO_CHAR:
            s.holder[s.slot_char[i]] = s.slot_owner[i]
    # What every player was shown follows from the new deal.
    for q in range(s.num_players):
        for k in range(s.obs_n[q]):
            s.obs_set[q][k] = 0
            for i in range(s.n_slots):
                if (s.obs_slots[q][k] >> i) & 1:
                    if s.slot_char[i] != NO_CHAR:
                        s.obs_set[q][k] |= 1 << s.slot_char[i]
                    else:
                        s.obs_set[q][k] |= s.pool


cdef bint ct_deal_characters(CTState* s, int p, uint64_t* rng) noexcept nogil:
    """Deal the characters `p` cannot place again, uniformly among the deals
    consistent with what p saw in the draft and what has been revealed since.
    With 7 players, which of the last two P7 kept is part of the deal."""
    cdef double w0, w1
    cdef int p7 = (s.first_picker + 6) % 7, kept, other, kept_down
    cdef bint p7_kept_one = s.num_players == 7 and s.step > 6
    cdef DealFacts f
    if p7_kept_one and p == p7:
        # P7 saw two characters and kept one; which of them had been face down is
        # not part of what it knows (only the others' views depend on it): deal it.
        kept = s.slot_char[6] if s.slot_owner[6] == p7 else s.slot_char[7]
        other = s.slot_char[7] if s.slot_owner[6] == p7 else s.slot_char[6]
        kept_down = rng_below(rng, 2)       # slot 7 holds the face-down card
        s.slot_char[7 if kept_down else 6] = kept
        s.slot_char[6 if kept_down else 7] = other
        s.slot_owner[7 if kept_down else 6] = p7
        s.slot_owner[6 if kept_down else 7] = NOBODY
    # The slots' owners, which the counts below vary, do not enter the facts.
    deal_facts(s, p, &f)
    if p7_kept_one and p != p7:
        s.slot_owner[6] = p7
        s.slot_owner[7] = NOBODY
        w0 = deal_count(s, p, &f)
        s.slot_owner[6] = NOBODY
        s.slot_owner[7] = p7
        w1 = deal_count(s, p, &f)
        if w0 + w1 <= 0.0:
            return False
        if (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * (w0 + w1) < w0:
            s.slot_owner[6] = p7
            s.slot_owner[7] = NOBODY
    elif deal_count(s, p, &f) <= 0.0:
        return False
    deal_into(s, p, &f, rng)
    return True


cdef bint hidden_from(const CTState* s, int card, int p) noexcept nogil:
    cdef int l = s.loc[card]
    if (s.known[card] >> p) & 1:
        return False
    return l == LOC_DECK or l == LOC_ASIDE or (LOC_HAND <= l < LOC_HAND + s.num_players)


cdef void canonical_known(CTState* s, int player) noexcept nogil:
    """Who knows each district, as far as `player` can tell: the others' knowledge
    that player cannot see (cards a Magician put under the deck, a card seen in
    another hand) is reset to what player's view implies, as a rebuilt game has it."""
    cdef int card, l, q, everyone = all_players(s)
    for card in range(NUM_DISTRICTS):
        l = s.loc[card]
        if LOC_HAND <= l < LOC_HAND + s.num_players:
            q = l - LOC_HAND
            if q != player:
                s.known[card] = (1 << q) | (s.known[card] & (1 << player))
        elif l == LOC_DECK:
            if s.known[card] != everyone:
                s.known[card] &= 1 << player
        elif l == LOC_ASIDE and card != s.gy_card:
            s.known[card] = 1 << s.cur


cdef void ct_resample(CTState* s, int player, uint64_t* rng) noexcept nogil:
    """Deal again every district `player` does not know among the places it
    cannot see (counts and all it knows kept), deal the characters it cannot
    place again, and reseed the game's chance. The result depends only on what
    `player` knows and on `rng`: the hidden districts go to the hidden places in
    a canonical order (deck from the bottom, drawn cards, then hands), and what
    the others know beyond player's view is made canonical first."""
    cdef uint8_t hidden[NUM_DISTRICTS]
    cdef uint8_t cards[NUM_DISTRICTS]
    cdef bint deck_hidden[NUM_DISTRICTS]
    cdef bint drawn_hidden[DRAWN_MAX]
    cdef int hand_hidden[MAX_PLAYERS]
    cdef int n = 0, k = 0, i, card, q, l
    memset(hand_hidden, 0, sizeof(hand_hidden))
    for card in range(NUM_DISTRICTS):
        if hidden_from(s, card, player):
            hidden[n] = card
            n += 1
            l = s.loc[card]
            if LOC_HAND <= l < LOC_HAND + s.num_players:
                hand_hidden[l - LOC_HAND] += 1
    for i in range(s.deck_n):
        deck_hidden[i] = hidden_from(s, s.deck[i], player)
    for i in range(s.drawn_n):
        drawn_hidden[i] = hidden_from(s, s.drawn[i], player)
    deal_cards(hidden, n, cards, rng)
    for i in range(s.deck_n):
        if deck_hidden[i]:
            s.deck[i] = cards[k]
            s.loc[cards[k]] = LOC_DECK
            s.known[cards[k]] = 0
            k += 1
    for i in range(s.drawn_n):
        if drawn_hidden[i]:
            s.drawn[i] = cards[k]
            s.loc[cards[k]] = LOC_ASIDE
            k += 1
    for q in range(s.num_players):
        for i in range(hand_hidden[q]):
            s.loc[cards[k]] = LOC_HAND + q
            s.known[cards[k]] = 0
            k += 1
    canonical_known(s, player)
    memset(s.hand_n, 0, sizeof(s.hand_n))
    memset(s.hand_kind, 0, sizeof(s.hand_kind))
    memset(s.hand_kinds, 0, sizeof(s.hand_kinds))
    for card in range(NUM_DISTRICTS):
        k = s.loc[card] - LOC_HAND
        if 0 <= k < s.num_players:
            s.hand_n[k] += 1
            s.hand_kind[k][CT_KIND[card]] += 1
            s.hand_kinds[k] |= 1u << CT_KIND[card]
    ct_deal_characters(s, player, rng)
    if s.phase == PH_REDRAW and s.cur != player:
        s.redraw_min = 0        # the cards put under so far are the Magician's secret
    rng_reseed(s.rng, rng)


cdef int ct_check(const CTState* s) noexcept nogil:
    """0 when the struct is consistent: every district in exactly one place,
    counts matching, characters dealt once. Otherwise the first broken invariant."""
    cdef int seen[NUM_DISTRICTS]
    cdef int hand_n[MAX_PLAYERS]
    cdef int card, i, p, l, kind, count
    cdef uint32_t kinds
    cdef uint8_t chars = s.faceup
    memset(seen, 0, sizeof(seen))
    memset(hand_n, 0, sizeof(hand_n))
    for i in range(s.deck_n):
        seen[s.deck[i]] += 1
        if s.loc[s.deck[i]] != LOC_DECK:
            return 1
    for i in range(s.drawn_n):
        seen[s.drawn[i]] += 1
        if s.loc[s.drawn[i]] != LOC_ASIDE:
            return 2
    if s.gy_card != NO_CARD:
        seen[s.gy_card] += 1
        if s.loc[s.gy_card] != LOC_ASIDE or s.phase != PH_GRAVEYARD:
            return 3
    for p in range(s.num_players):
        kinds = 0
        for i in range(s.city_n[p]):
            card = s.city[p][i]
            seen[card] += 1
            if s.loc[card] != LOC_CITY + p:
                return 4
            if (kinds >> CT_KIND[card]) & 1:
                return 5
            kinds |= 1u << CT_KIND[card]
        if kinds != s.city_kinds[p]:
            return 6
        if s.gold[p] < 0:
            return 7
    for card in range(NUM_DISTRICTS):
        l = s.loc[card]
        if LOC_HAND <= l < LOC_HAND + s.num_players:
            seen[card] += 1
            hand_n[l - LOC_HAND] += 1
            if not ((s.known[card] >> (l - LOC_HAND)) & 1):
                return 8
    for card in range(NUM_DISTRICTS):
        if seen[card] != 1:
            return 9
    for p in range(s.num_players):
        if hand_n[p] != s.hand_n[p]:
            return 10
        for kind in range(NUM_DKINDS):
            count = 0
            for i in range(CT_COPIES[kind]):
                if s.loc[CT_FIRST[kind] + i] == LOC_HAND + p:
                    count += 1
            if count != s.hand_kind[p][kind] or ((s.hand_kinds[p] >> kind) & 1) != (count > 0):
                return 11
    # Every character is face up, in one slot, or in the pool, exactly once.
    for i in range(s.n_slots):
        if s.slot_char[i] != NO_CHAR:
            if (chars >> s.slot_char[i]) & 1:
                return 12
            chars |= 1 << s.slot_char[i]
    # (With 7 players, the last picker is offered two characters already in slots.)
    if chars & s.pool and not (s.num_players == 7 and s.step == 6):
        return 13
    if (chars | s.pool) != ALL_CHARS:
        return 14
    return 0
