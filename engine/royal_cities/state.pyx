"""The Python face of a Royal Cities game: an OpenSpiel-style State over the C core.

Python only validates and converts here; every rule runs in `core`.
"""
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

from engine.cstate cimport CState, api_playout
from engine.deal cimport dealt
from engine.rng cimport rng_seed
from engine.royal_cities.api cimport rc_game_api
from engine.royal_cities.core cimport (
    ALL_PLAYERS, EFFECT_ASTROLOGER, EFFECT_EMPTINESS, LOC_CITY, LOC_DISCARD, LOC_DRAWN, LOC_HAND,
    LOC_MARKET, LOC_PILE, LOC_RESERVE, MAX_PLAYERS, NO_CARD, NUM_CARDS, NUM_CITIES, PH_CONSTRUCT,
    PH_EFFECT, PH_END, PH_FIRST_BUILD, PH_KNIGHT_DEST, PH_PASS, PH_PURCHASE, PH_SOLO_TRIM, REGENT,
    SRC_PLAY, SRC_REVOLT, WHITE, RCRules, RCState, rc_can_select, rc_card_colour, rc_card_kind,
    rc_card_value, rc_cards_built, rc_check, rc_hand_add, rc_init, rc_kind_copies,
    rc_kind_first_id, rc_market_add, rc_num_scores, rc_reroll_secrets, rc_scores, rc_select_card,
)

from engine.cstate import TERMINAL, seed64
from engine.errors import InvalidObservationError, WordedError, worded, wording_of
from engine.jsonview import first_difference
from engine.royal_cities.actions import action_to_string, owner_name, string_to_action
from engine.royal_cities.cards import CITY_COLOURS, kind_name, parse_colour, parse_kind
from engine.royal_cities.observation import (
    PHASES, RESUMES, Decision, Observation, PlayerView, RegentView,
)
from engine.royal_cities.progress import check_progress, max_game_length
from engine.royal_cities.rules import RulesConfig

#: More VP than any game can reach (the core stores VP in 16 bits).
MAX_VP = 10_000
#: Decisions only the solo mode has, and only games of 2 to 4 players have.
SOLO_PHASES = frozenset({"solo_own", "solo_regent", "solo_add", "regent_white", "tax", "solo_trim"})
TABLE_PHASES = frozenset({"pass", "first_build", "hero_keep"})


cdef RCRules c_rules(object rules):
    cdef RCRules r
    r.crown_through_white = rules.crown_through_white
    r.hero_on_every_revolt = rules.hero_on_every_revolt
    r.white_with_existing_partner = rules.white_with_existing_partner
    r.catch_up_upper_inclusive = rules.catch_up_upper_inclusive
    r.expert_royal_taxes = rules.expert_royal_taxes
    r.regent_scores_revolts = rules.regent_scores_revolts
    return r


cdef class RoyalCitiesState(CState):
    """A Royal Cities game in progress. Build one with `engine.new_game("royal_cities", ...)`."""

    def __cinit__(self):
        self.api = rc_game_api()
        self.ptr = &self.s

    def __init__(self, int num_players=2, seed=0, rules=None):
        if not 1 <= num_players <= MAX_PLAYERS:
            raise WordedError("Royal Cities is for 1 to 4 players, not {count}", count=num_players)
        if rules is None:
            rules = RulesConfig()
        if not isinstance(rules, RulesConfig):
            raise TypeError("rules must be a royal_cities RulesConfig")
        self.rules = rules
        cdef RCRules r = c_rules(rules)
        rc_init(&self.s, num_players, seed64(seed), &r)

    # -- the game interface ------------------------------------------------

    @property
    def phase(self) -> str:
        """The kind of decision pending, e.g. `turn`, `purchase`, `construct`."""
        return PHASES[self.s.phase]

    @property
    def season(self) -> int:
        """The current Season, from 1."""
        return self.s.season + 1

    @property
    def max_game_length(self) -> int:
        """The most actions any game of this player count can take from the deal, and so
        from any accepted observation (a rebuilt game counts its turns from zero).
        Derived from the rules and the engine's turn limit: see
        `engine.royal_cities.progress.max_game_length`."""
        return max_game_length(self.s.num_players)

    def scores(self) -> list[int]:
        """VP per player, then the Regent's in solo mode (Hero bonus included at the end)."""
        cdef int out[MAX_PLAYERS + 1]
        rc_scores(&self.s, out)
        return [out[i] for i in range(rc_num_scores(&self.s))]

    def cards_built(self, int player) -> int:
        """Cards in the player's six Cities (the tie-break after VP)."""
        self._check_player(player)
        return rc_cards_built(&self.s, player)

    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    def _parse_action(self, text):
        return string_to_action(text)

    def check(self) -> None:
        """Raise AssertionError if the core's invariants are broken (for tests)."""
        cdef int code = rc_check(&self.s)
        if code:
            raise AssertionError(f"Royal Cities state invariant {code} broken")

    def card_locations(self) -> dict[str, int]:
        """How many cards each kind of place holds (a debugging and test aid)."""
        names = {LOC_PILE: "pile", LOC_RESERVE: "reserve", LOC_DISCARD: "discard",
                 LOC_MARKET: "market", LOC_DRAWN: "drawn"}
        out = {}
        for card in range(NUM_CARDS):
            l = self.s.loc[card]
            key = names.get(l) or ("hand" if l < LOC_CITY else "city")
            out[key] = out.get(key, 0) + 1
        return out

    # -- observations --------------------------------------------------------

    def observation(self, int player) -> Observation:
        """Exactly what `player` knows now."""
        self._check_player(player)
        cdef RCState* s = &self.s
        cdef int p = player, q, card, l, c, o
        hands = [[] for _ in range(s.num_players)]
        seen = [[] for _ in range(s.num_players)]
        market, discard, drawn = [], [], []
        hidden_drawn = 0
        for card in range(NUM_CARDS):
            l = s.loc[card]
            name = rc_card_kind(card)
            if l == LOC_MARKET:
                market.append(name)
            elif l == LOC_DISCARD:
                discard.append(name)
            elif l == LOC_DRAWN:
                if (s.known[card] >> p) & 1:
                    drawn.append(name)
                else:
                    hidden_drawn += 1
            elif LOC_HAND <= l < LOC_HAND + MAX_PLAYERS:
                q = l - LOC_HAND
                if (s.known[card] >> p) & 1:
                    hands[q].append(name)
                if q == p:
                    for o in range(s.num_players):
                        if o != p and (s.known[card] >> o) & 1:
                            seen[o].append(name)
        players = []
        for q in range(s.num_players):
            players.append(PlayerView(
                vp=s.vp[q],
                hero_up=bool((s.hero_up >> q) & 1),
                purchased=bool((s.purchased >> q) & 1),
                committed=bool((s.committed >> q) & 1),
                age_rank=s.age_rank[q],
                hand_size=s.hand_n[q],
                hand=_names(hands[q]),
                seen_of_mine=_names(seen[q]),
                cities=self._cities(q),
            ))
        regent = None
        if s.num_players == 1:
            regent = RegentView(vp=s.vp[REGENT], cities=self._cities(REGENT))
        return Observation(
            observer=p,
            num_players=s.num_players,
            rules=self.rules,
            season=s.season + 1,
            num_seasons=s.num_seasons,
            starter=s.starter,
            last_purchaser=s.last_purchaser,
            players=tuple(players),
            regent=regent,
            market=_names(market),
            discard=_names(discard),
            pile_size=s.pile_n,
            reserve_size=s.reserve_n,
            decision=self._decision(p, drawn, hidden_drawn),
        )

    def _cities(self, int owner):
        return tuple(
            tuple(kind_name(rc_card_kind(self.s.city[owner][c][i])) for i in range(self.s.city_n[owner][c]))
            for c in range(NUM_CITIES))

    def _decision(self, int p, drawn, int hidden_drawn):
        cdef RCState* s = &self.s
        cdef int ph = s.phase, card, q
        if ph == PH_END:
            return Decision(phase="end", player=None)
        selection = []
        # The astrologer's choices are public; Season construction only to its maker.
        if (ph == PH_EFFECT and s.effect == EFFECT_ASTROLOGER) or (ph == PH_CONSTRUCT):
            for card in range(NUM_CARDS):
                if s.sel_city[card] >= 0 and (s.known[card] >> p) & 1 and (
                        ph == PH_EFFECT or s.loc[card] == LOC_HAND + p):
                    selection.append((rc_card_kind(card) * 6 + s.sel_city[card], card))
        selection.sort()
        passes = ()
        if ph == PH_PASS:
            passes = tuple(kind_name(rc_card_kind(s.pass_sel[p][i])) for i in range(s.pass_n[p]))
        first_build = None
        if ph == PH_FIRST_BUILD and (s.committed >> p) & 1 and s.fb_sel[p] != NO_CARD:
            first_build = kind_name(rc_card_kind(s.fb_sel[p]))
        in_effect = ph == PH_EFFECT or ph == PH_KNIGHT_DEST
        buying = ph == PH_PURCHASE or ph == PH_SOLO_TRIM
        return Decision(
            phase=PHASES[ph],
            player=s.cur,
            turn_played=bool(s.turn_played),
            effect=s.effect if in_effect else None,
            from_revolt=bool(in_effect and s.effect_src),
            knight_from=(f"{owner_name(s.knight_from // 6)} {CITY_COLOURS[s.knight_from % 6]}"
                         if ph == PH_KNIGHT_DEST else None),
            power=s.power if ph == PH_PURCHASE else 0,
            min_card=kind_name(s.min_kind) if buying else None,
            taken=s.taken if ph == PH_PURCHASE else 0,
            drawn=_names(drawn),
            drawn_hidden=hidden_drawn,
            selection=tuple((kind_name(key // 6), CITY_COLOURS[key % 6]) for key, _ in selection),
            passes=passes,
            first_build=first_build,
            tax_left=s.tax_left,
            taxed=tuple(CITY_COLOURS[c] for c in range(NUM_CITIES) if (s.tax_done >> c) & 1),
            season_vp=tuple(s.season_vp[c] for c in range(NUM_CITIES)),
            season_influence=tuple(s.season_infl[c] for c in range(NUM_CITIES)),
            regent_draws=s.regent_draws,
            resume=RESUMES[s.resume],
        )


def _names(kinds):
    return tuple(kind_name(k) for k in sorted(kinds))


# -- rebuilding a game from one player's observation -------------------------

cdef class _Builder:
    """Places the cards an observation names, then deals the unknown ones."""

    cdef RoyalCitiesState state
    cdef object free

    def __init__(self, RoyalCitiesState state):
        self.state = state
        self.free = set(range(NUM_CARDS))

    def take(self, name, field):
        """A card id of this kind not placed yet."""
        if not isinstance(name, str):
            raise InvalidObservationError(field, "must be a card name")
        try:
            kind = parse_kind(name)
        except ValueError as err:
            raise InvalidObservationError(field, wording_of(err)) from None
        first = rc_kind_first_id(kind)
        for card in range(first, first + rc_kind_copies(kind)):
            if card in self.free:
                self.free.discard(card)
                return card
        raise InvalidObservationError(
            field, "{card} appears in more places than the deck has copies of it", card=name)


def state_from_observation(obs, seed=0, draws=()) -> RoyalCitiesState:
    """A game that continues from `obs.observer`'s point of view: the cards it
    does not know are dealt at random (from `seed`) among the places it cannot
    see, and the secret choices it has not seen are made at random.
    `draws` names the next cards off the draw pile, top first (cards the observer
    does not know): what a real table drew, so that a move plays out as it did.
    InvalidObservationError names the first field that is wrong, by its exact
    JSON path (`players[1].hand[0]`)."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if not isinstance(obs, Observation):
        raise InvalidObservationError("observation", "must be a Royal Cities Observation")
    n = obs.num_players
    if not 1 <= n <= MAX_PLAYERS:
        raise InvalidObservationError("num_players", "must be 1 to 4")
    p = obs.observer
    if not 0 <= p < n:
        raise InvalidObservationError("observer", "must be a player from 0 to {last}", last=n - 1)
    if len(obs.players) != n:
        raise InvalidObservationError("players", "must list {count} players", count=n)
    if (n == 1) != (obs.regent is not None):
        raise InvalidObservationError("regent", "is given exactly in solo games")
    d = obs.decision
    if d.phase not in PHASES:
        raise InvalidObservationError("decision.phase", "unknown phase '{text}'", text=d.phase)
    if d.resume not in RESUMES:
        raise InvalidObservationError("decision.resume", "unknown value '{text}'", text=d.resume)
    if d.phase in SOLO_PHASES and n != 1:
        raise InvalidObservationError("decision.phase", "{phase} belongs to the solo mode", phase=d.phase)
    if d.phase in TABLE_PHASES and n == 1:
        raise InvalidObservationError(
            "decision.phase", "{phase} belongs to games of 2 to 4 players", phase=d.phase)
    num_seasons = 3 if n == 4 else 4
    if obs.num_seasons != num_seasons:
        raise InvalidObservationError(
            "num_seasons", "is {seasons} with {count} players", seasons=num_seasons, count=n)
    if not 1 <= obs.season <= num_seasons:
        raise InvalidObservationError("season", "must be 1 to {most}", most=num_seasons)
    for field, value, high in (("starter", obs.starter, n), ("last_purchaser", obs.last_purchaser, n),
                               ("pile_size", obs.pile_size, NUM_CARDS + 1),
                               ("reserve_size", obs.reserve_size, 5)):
        if not 0 <= value < high:
            raise InvalidObservationError(field, "out of range: {value}", value=value)
    for q, view in enumerate(obs.players):
        if not 0 <= view.vp <= MAX_VP:
            raise InvalidObservationError(f"players[{q}].vp", "must be 0 to {most}", most=MAX_VP)
    if obs.regent is not None and not 0 <= obs.regent.vp <= MAX_VP:
        raise InvalidObservationError("regent.vp", "must be 0 to {most}", most=MAX_VP)
    if d.phase == "end" and obs.season != num_seasons:
        raise InvalidObservationError("decision.phase", "the game ends after the last Season")
    ranks = set()
    for q, view in enumerate(obs.players):
        if not 0 <= view.age_rank < n or view.age_rank in ranks:
            raise InvalidObservationError(
                f"players[{q}].age_rank", "the players' ranks must be 0 to {last}, each once",
                last=n - 1)
        ranks.add(view.age_rank)

    cdef RoyalCitiesState state = RoyalCitiesState(n, seed, obs.rules)
    cdef RCState* s = &state.s
    cdef uint64_t rng[4]
    rng_seed(rng, seed64(seed))
    # Keep the configuration and the freshly seeded chance; clear the board.
    memset(s.loc, 0, NUM_CARDS)
    memset(s.known, 0, NUM_CARDS)
    memset(s.hand_n, 0, sizeof(s.hand_n))
    memset(s.hand_kind, 0, sizeof(s.hand_kind))
    memset(s.hand_mask, 0, sizeof(s.hand_mask))
    memset(s.city_n, 0, sizeof(s.city_n))
    memset(s.city_vals, 0, sizeof(s.city_vals))
    memset(s.mkt_kind, 0, sizeof(s.mkt_kind))
    s.mkt_mask = 0
    memset(s.mkt_col, 0, sizeof(s.mkt_col))
    memset(s.sel_city, -1, NUM_CARDS)
    s.pile_n = s.reserve_n = s.market_n = s.drawn_n = s.discard_n = 0
    b = _Builder(state)

    s.season = obs.season - 1
    s.starter = obs.starter
    s.last_purchaser = obs.last_purchaser
    for q, view in enumerate(obs.players):
        s.vp[q] = view.vp
        s.age_rank[q] = view.age_rank
        if view.hero_up:
            s.hero_up |= 1 << q
        if view.purchased:
            s.purchased |= 1 << q
        if view.committed:
            s.committed |= 1 << q
    if obs.regent is not None:
        s.vp[REGENT] = obs.regent.vp

    # Public places.
    if len(obs.market) > 16:
        raise InvalidObservationError("market", "holds at most 16 face-up cards")
    for i, name in enumerate(obs.market):
        card = b.take(name, f"market[{i}]")
        rc_market_add(s, card)
    for i, name in enumerate(obs.discard):
        card = b.take(name, f"discard[{i}]")
        s.loc[card] = LOC_DISCARD
        s.known[card] = ALL_PLAYERS
        s.discard_n += 1
    for q, view in enumerate(obs.players):
        _place_cities(s, b, q, view.cities, f"players[{q}].cities", regent=False)
    if obs.regent is not None:
        _place_cities(s, b, REGENT, obs.regent.cities, "regent.cities", regent=True)

    # Hands: the observer's own, then what it knows of the others'.
    own = obs.players[p]
    if own.hand_size != len(own.hand):
        raise InvalidObservationError(f"players[{p}].hand_size", "must match the observer's hand")
    own_cards = []
    for i, name in enumerate(own.hand):
        card = b.take(name, f"players[{p}].hand[{i}]")
        rc_hand_add(s, p, card, 1 << p)
        own_cards.append(card)
    for q, view in enumerate(obs.players):
        if q == p:
            if view.seen_of_mine:
                raise InvalidObservationError(f"players[{q}].seen_of_mine", "is for opponents")
            continue
        if not 0 <= len(view.hand) <= view.hand_size:
            raise InvalidObservationError(f"players[{q}].hand", "lists more cards than the hand holds")
        for i, name in enumerate(view.hand):
            rc_hand_add(s, q, b.take(name, f"players[{q}].hand[{i}]"), (1 << p) | (1 << q))
        for i, name in enumerate(view.seen_of_mine):
            field = f"players[{q}].seen_of_mine[{i}]"
            kind = _kind(name, field)
            for card in own_cards:
                if rc_card_kind(card) == kind and not (s.known[card] >> q) & 1:
                    s.known[card] |= 1 << q
                    break
            else:
                raise InvalidObservationError(field, "{card} is not in the observer's hand", card=name)

    phase = PHASES.index(d.phase)
    s.phase = phase
    if phase != PH_END:
        if d.player is None or not 0 <= d.player < n:
            raise InvalidObservationError("decision.player", "must name the player to move")
        s.cur = d.player
    for i, name in enumerate(d.drawn):
        card = b.take(name, f"decision.drawn[{i}]")
        s.drawn[s.drawn_n] = card
        s.drawn_n += 1
        s.loc[card] = LOC_DRAWN
        s.known[card] = ALL_PLAYERS if s.cur != p else (1 << p)

    # Deal the unknown cards among the hidden places.
    hidden = sorted(b.free)
    needed = obs.pile_size + obs.reserve_size + d.drawn_hidden + sum(
        view.hand_size - len(view.hand) for q, view in enumerate(obs.players) if q != p)
    if d.drawn_hidden < 0 or len(d.drawn) + d.drawn_hidden > 3:
        raise InvalidObservationError("decision.drawn_hidden", "at most three cards are drawn")
    if needed != len(hidden):
        raise InvalidObservationError(
            "pile_size", "counts do not add up to 85 cards: {placed} placed, {needed} in hidden"
            " places, {left} left to place",
            placed=NUM_CARDS - len(hidden), needed=needed, left=len(hidden))
    check_progress(obs)
    hidden = dealt(hidden, rng)
    top = _take_draws(hidden, draws, obs.pile_size)
    for i in range(obs.pile_size):
        card = hidden.pop() if i < obs.pile_size - len(top) else top.pop()
        s.pile[s.pile_n] = card
        s.pile_n += 1
        s.loc[card] = LOC_PILE
    for _ in range(obs.reserve_size):
        card = hidden.pop()
        s.reserve[s.reserve_n] = card
        s.reserve_n += 1
        s.loc[card] = LOC_RESERVE
    for _ in range(d.drawn_hidden):
        card = hidden.pop()
        s.drawn[s.drawn_n] = card
        s.drawn_n += 1
        s.loc[card] = LOC_DRAWN
        s.known[card] = 1 << s.cur
    for q, view in enumerate(obs.players):
        if q != p:
            for _ in range(view.hand_size - len(view.hand)):
                rc_hand_add(s, q, hidden.pop(), 1 << q)

    _decision_context(s, obs, p)
    if rc_check(s):
        raise InvalidObservationError("observation", "describes an impossible position")
    rc_reroll_secrets(s, p, rng)
    if not state.is_terminal() and not state.legal_actions():
        raise InvalidObservationError("decision", "no legal move can follow this decision")
    again = state.observation(p)
    if again != obs:
        raise InvalidObservationError(*_first_difference(again, obs))
    return state


def _take_draws(hidden, draws, int pile_size):
    """Remove the cards `draws` names from `hidden`; they go on top of the pile,
    `draws[0]` on the very top (the pile is filled from the bottom, so the list is
    returned in the order `pop()` should place them)."""
    if len(draws) > pile_size:
        raise InvalidObservationError(
            "draws", "the draw pile holds only {count} cards", count=pile_size)
    top = []
    for i, name in enumerate(draws):
        kind = _kind(name, f"draws[{i}]")
        for j, card in enumerate(hidden):
            if rc_card_kind(card) == kind:
                top.append(hidden.pop(j))
                break
        else:
            raise InvalidObservationError(
                f"draws[{i}]", "{card} is not among the cards the observer cannot see", card=name)
    return top


def _kind(name, field):
    try:
        return parse_kind(name)
    except ValueError as err:
        raise InvalidObservationError(field, wording_of(err)) from None


cdef _place_cities(RCState* s, _Builder b, int owner, cities, str field, bint regent):
    cdef int c, card, last
    if len(cities) != NUM_CITIES:
        raise InvalidObservationError(field, "must hold six Cities")
    for c, row in enumerate(cities):
        last = -1
        if len(row) > 7:
            raise InvalidObservationError(f"{field}[{c}]", "a City holds at most seven cards")
        for i, name in enumerate(row):
            card = b.take(name, f"{field}[{c}][{i}]")
            if rc_card_colour(card) != WHITE and rc_card_colour(card) != c:
                raise InvalidObservationError(
                    f"{field}[{c}][{i}]", "{card} cannot stand in the {city} City", card=name,
                    city=CITY_COLOURS[c])
            if rc_card_value(card) <= last:
                raise InvalidObservationError(
                    f"{field}[{c}][{i}]", "cards in a City go strictly upwards in value")
            last = rc_card_value(card)
            s.city[owner][c][s.city_n[owner][c]] = card
            s.city_n[owner][c] += 1
            s.city_vals[owner][c] |= 1 << rc_card_value(card)
            s.loc[card] = LOC_CITY + owner * 6 + c
            s.known[card] = ALL_PLAYERS


cdef _decision_context(RCState* s, obs, int p):
    """Restore the pending decision's context from the observation."""
    d = obs.decision
    cdef int ph = s.phase, card, kind, colour, i
    if d.effect is not None:
        if not EFFECT_EMPTINESS <= d.effect <= EFFECT_ASTROLOGER:
            raise InvalidObservationError("decision.effect", "must be 0 to 6")
        s.effect = d.effect
    s.effect_src = SRC_REVOLT if d.from_revolt else SRC_PLAY
    s.turn_played = 1 if d.turn_played else 0
    if d.knight_from is not None:
        words = d.knight_from.split()
        if len(words) != 2 or words[0] not in [owner_name(o) for o in range(5)]:
            raise InvalidObservationError("decision.knight_from", "must read like 'p1 red'")
        try:
            colour = parse_colour(words[1])
        except ValueError as err:
            raise InvalidObservationError("decision.knight_from", wording_of(err)) from None
        owner = [owner_name(o) for o in range(5)].index(words[0])
        s.knight_from = owner * 6 + colour
    for name, value, high in (("power", d.power, 20), ("taken", d.taken, 85),
                              ("tax_left", d.tax_left, 3), ("regent_draws", d.regent_draws, 20)):
        if not 0 <= value <= high:
            raise InvalidObservationError(f"decision.{name}", "out of range: {value}", value=value)
    s.power = d.power
    s.taken = d.taken
    s.min_kind = _kind(d.min_card, "decision.min_card") if d.min_card is not None else 0
    s.tax_left = d.tax_left
    for i, c in enumerate(d.taxed):
        try:
            s.tax_done |= 1 << parse_colour(c)
        except ValueError as err:
            raise InvalidObservationError(f"decision.taxed[{i}]", wording_of(err)) from None
    for name, values, high in (("season_vp", d.season_vp, 100),
                               ("season_influence", d.season_influence, 21)):
        if len(values) != 6:
            raise InvalidObservationError(f"decision.{name}", "must list six Cities")
        for c in range(6):
            if not 0 <= values[c] <= high:
                raise InvalidObservationError(
                    f"decision.{name}[{c}]", "out of range: {value}", value=values[c])
    for c in range(6):
        s.season_vp[c] = d.season_vp[c]
        s.season_infl[c] = d.season_influence[c]
    s.regent_draws = d.regent_draws
    s.resume = RESUMES.index(d.resume)
    for q in range(MAX_PLAYERS):
        s.con_last[q] = -1
        s.fb_sel[q] = NO_CARD
    # The observer's own secret choices, and the public Astrologer choice.
    for i, name in enumerate(d.passes):
        if i >= 2 or ph != PH_PASS:
            raise InvalidObservationError("decision.passes", "at most two passes, while passing")
        kind = _kind(name, f"decision.passes[{i}]")
        card = rc_kind_first_id(kind)
        if s.loc[card] != LOC_HAND + p or (i == 1 and s.pass_sel[p][0] == card):
            card += 1
        if rc_kind_copies(kind) == 1 and card != rc_kind_first_id(kind) or s.loc[card] != LOC_HAND + p:
            raise InvalidObservationError(
                f"decision.passes[{i}]", "{card} is not in the hand", card=name)
        s.pass_sel[p][i] = card
        s.pass_n[p] = i + 1
    if d.first_build is not None:
        kind = _kind(d.first_build, "decision.first_build")
        card = rc_kind_first_id(kind)
        if s.loc[card] != LOC_HAND + p and rc_kind_copies(kind) == 2:
            card += 1
        if s.loc[card] != LOC_HAND + p or ph != PH_FIRST_BUILD:
            raise InvalidObservationError(
                "decision.first_build", "{card} is not in the hand", card=d.first_build)
        s.fb_sel[p] = card
    owner = s.cur if ph == PH_EFFECT else p
    for i, (name, city) in enumerate(d.selection):
        field = f"decision.selection[{i}]"
        kind = _kind(name, field)
        try:
            colour = parse_colour(city)
        except ValueError as err:
            raise InvalidObservationError(field, wording_of(err)) from None
        card = NO_CARD
        for c in range(rc_kind_copies(kind)):
            cand = rc_kind_first_id(kind) + c
            pool = LOC_DRAWN if ph == PH_EFFECT else LOC_HAND + p
            if s.loc[cand] == pool and s.sel_city[cand] < 0:
                card = cand
                break
        if card == NO_CARD or not (ph == PH_CONSTRUCT or (ph == PH_EFFECT and s.effect == EFFECT_ASTROLOGER)):
            raise InvalidObservationError(field, "{card} cannot be selected here", card=name)
        if kind * 6 + colour <= s.con_last[owner]:
            raise InvalidObservationError(field, "selections are listed in canonical order")
        if ph == PH_EFFECT and s.con_n[owner] >= 2:
            raise InvalidObservationError(field, "the Astrologer builds at most two cards")
        if not rc_can_select(s, owner, kind, colour):
            raise InvalidObservationError(
                field, "{card} cannot be built in that {city} City: a City takes each value once,"
                " going up, and a white card needs a coloured partner built with it",
                card=name, city=CITY_COLOURS[colour])
        rc_select_card(s, owner, card, colour)
        if ph == PH_EFFECT:
            s.known[card] = ALL_PLAYERS


def _first_difference(got, want):
    """(field path, message) of the first place where `got` differs from `want`."""
    field = first_difference(got.to_json(), want.to_json()) or "observation"
    return field, worded("is inconsistent with the rest: no game reaches it as written")


def play_random_games(int num_players, int games, seed, rules=None) -> int:
    """Deal and play `games` uniformly random games entirely in C, without the
    GIL; return the number of actions played (for benchmarks)."""
    if rules is None:
        rules = RulesConfig()
    cdef RCRules r = c_rules(rules)
    cdef RCState s
    cdef uint64_t rng[4]
    cdef uint64_t base = seed64(seed)
    cdef long total = 0
    cdef int g
    rng_seed(rng, base)
    with nogil:
        for g in range(games):
            rc_init(&s, num_players, base + <uint64_t>g, &r)
            total += api_playout(rc_game_api(), &s, rng)
    return total
