"""The Python face of a Citadels game: an OpenSpiel-style State over the C core.

Python only validates and converts here; every rule runs in `core`.
"""
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

from engine.citadels.api cimport ct_game_api
from engine.citadels.core cimport (
    CT_COPIES, CT_FIRST, CT_KIND, LOC_ASIDE, LOC_CITY, LOC_DECK, LOC_HAND,
    MAX_PLAYERS, NO_CARD, NO_CHAR, NOBODY, NUM_CHARS, NUM_DISTRICTS, PH_DISCARD, PH_END,
    PH_GRAVEYARD, PH_KEEP, PH_MAIN, PH_PICK, PH_REDRAW, CTRules, CTState, ct_check, ct_city_add,
    ct_deal_characters, ct_draft_step, ct_init, ct_scores, ct_seen_slots,
)
from engine.cstate cimport CState, api_playout
from engine.deal cimport dealt
from engine.rng cimport rng_seed

from engine.citadels.actions import action_to_string, string_to_action
from engine.citadels.cards import CHARACTERS, DISTRICT_NAMES, parse_character, parse_district
from engine.citadels.observation import PHASES, Decision, Draft, Observation, PlayerView
from engine.citadels.progress import check_progress, draft_decisions, max_game_length
from engine.citadels.rules import RulesConfig
from engine.cstate import TERMINAL, seed64
from engine.errors import InvalidObservationError, WordedError, wording_of
from engine.jsonview import first_difference

#: More gold than any game reaches (the core stores gold in 16 bits).
MAX_GOLD = 10_000


cdef CTRules c_rules(object rules):
    cdef CTRules r
    r.eight_districts = rules.eight_districts
    r.powers_before_resources = rules.powers_before_resources
    return r


cdef class CitadelsState(CState):
    """A Citadels game in progress. Build one with `engine.new_game("citadels", ...)`."""

    def __cinit__(self):
        self.api = ct_game_api()
        self.ptr = &self.s

    def __init__(self, int num_players=4, seed=0, rules=None):
        if not 2 <= num_players <= MAX_PLAYERS:
            raise WordedError("Citadels is for 2 to 7 players, not {count}", count=num_players)
        if rules is None:
            rules = RulesConfig()
        if not isinstance(rules, RulesConfig):
            raise TypeError("rules must be a citadels RulesConfig")
        self.rules = rules
        cdef CTRules r = c_rules(rules)
        ct_init(&self.s, num_players, seed64(seed), &r)

    # -- the game interface ------------------------------------------------

    @property
    def phase(self) -> str:
        """The kind of decision pending, e.g. `pick`, `resource`, `main`."""
        return PHASES[self.s.phase]

    @property
    def round(self) -> int:
        return self.s.round_no

    @property
    def max_game_length(self) -> int:
        """The most actions any game of this player count can take from the deal, and so
        from any accepted observation (its round is 1 or later). Derived from the rules and
        the engine's round limit: see `engine.citadels.progress.max_game_length`."""
        return max_game_length(self.s.num_players)

    def scores(self) -> list[int]:
        """Points per player: districts, five colours, complete city, Map Room,
        Imperial Treasury (the final score once the game is over)."""
        cdef int out[MAX_PLAYERS]
        ct_scores(&self.s, out)
        return [out[i] for i in range(self.s.num_players)]

    def cards_built(self, int player) -> int:
        """Districts in the player's city."""
        self._check_player(player)
        return self.s.city_n[player]

    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    def _parse_action(self, text):
        return string_to_action(text)

    def check(self) -> None:
        """Raise AssertionError if the core's invariants are broken (for tests)."""
        cdef int code = ct_check(&self.s)
        if code:
            raise AssertionError(f"Citadels state invariant {code} broken")

    def card_locations(self) -> dict[str, int]:
        """How many districts each kind of place holds (a test aid)."""
        out = {}
        for card in range(NUM_DISTRICTS):
            l = self.s.loc[card]
            key = ("deck" if l == LOC_DECK else "aside" if l == LOC_ASIDE
                   else "hand" if l < LOC_CITY else "city")
            out[key] = out.get(key, 0) + 1
        return out

    def holders(self) -> dict[str, int | None]:
        """The whole truth of this round's characters: who holds each one (None
        for a discard or while undealt). For tests and referees, never for a player."""
        return {CHARACTERS[c]: (None if self.s.holder[c] == NOBODY else self.s.holder[c])
                for c in range(NUM_CHARS)}

    # -- observations --------------------------------------------------------

    def observation(self, int player) -> Observation:
        """Exactly what `player` knows now."""
        self._check_player(player)
        cdef CTState* s = &self.s
        cdef int p = player, q, card, l, i, c
        hands = [[] for _ in range(s.num_players)]
        seen = [[] for _ in range(s.num_players)]
        for card in range(NUM_DISTRICTS):
            l = s.loc[card]
            if LOC_HAND <= l < LOC_HAND + s.num_players:
                q = l - LOC_HAND
                if (s.known[card] >> p) & 1:
                    hands[q].append(CT_KIND[card])
                if q == p:
                    for i in range(s.num_players):
                        if i != p and (s.known[card] >> i) & 1:
                            seen[i].append(CT_KIND[card])
        everyone = (1 << s.num_players) - 1
        picks, discards, mine = [], [], set()
        for i in range(s.n_slots):
            if s.slot_by[i] == p and s.slot_char[i] != NO_CHAR:
                if s.slot_owner[i] == p:
                    picks.append(CHARACTERS[s.slot_char[i]])
                    mine.add(s.slot_char[i])
                else:
                    discards.append(CHARACTERS[s.slot_char[i]])
        players = []
        for q in range(s.num_players):
            chars = sorted(mine) if q == p else [
                c for c in range(NUM_CHARS) if (s.revealed >> c) & 1 and s.holder[c] == q]
            players.append(PlayerView(
                gold=s.gold[q],
                hand_size=s.hand_n[q],
                hand=_districts(hands[q]),
                seen_of_mine=_districts(seen[q]),
                city=tuple(DISTRICT_NAMES[CT_KIND[s.city[q][i]]] for i in range(s.city_n[q])),
                built_rounds=tuple(s.built_round[s.city[q][i]] for i in range(s.city_n[q])),
                characters=tuple(CHARACTERS[c] for c in chars),
            ))
        draft = Draft(
            step=s.step,
            face_up=_characters(s.faceup),
            shown=tuple(_characters(s.obs_set[p][i]) for i in range(s.obs_n[p])),
            picks=tuple(picks),
            discards=tuple(discards),
        )
        return Observation(
            observer=p,
            num_players=s.num_players,
            rules=self.rules,
            round=s.round_no,
            crown=s.crown,
            first_picker=s.first_picker,
            players=tuple(players),
            draft=draft,
            revealed=tuple((CHARACTERS[c], s.holder[c]) for c in range(NUM_CHARS)
                           if (s.revealed >> c) & 1),
            killed=None if s.killed == NO_CHAR else CHARACTERS[s.killed],
            robbed=None if s.robbed == NO_CHAR else CHARACTERS[s.robbed],
            deck_size=s.deck_n,
            deck_known=tuple((i, DISTRICT_NAMES[CT_KIND[s.deck[i]]]) for i in range(s.deck_n)
                             if (s.known[s.deck[i]] >> p) & 1),
            deck_public=tuple(i for i in range(s.deck_n) if s.known[s.deck[i]] == everyone),
            first_complete=None if s.first_done == NOBODY else s.first_done,
            decision=self._decision(p),
        )

    def _decision(self, int p):
        cdef CTState* s = &self.s
        cdef int ph = s.phase, i
        if ph == PH_END:
            return Decision(phase="end", player=None)
        if ph == PH_PICK or ph == PH_DISCARD:
            return Decision(phase=PHASES[ph], player=s.cur)
        drawn = ()
        hidden = 0
        if ph == PH_KEEP:
            if s.cur == p:
                drawn = _districts([CT_KIND[s.drawn[i]] for i in range(s.drawn_n)])
            else:
                hidden = s.drawn_n
        min_card = None
        if ph == PH_REDRAW and s.cur == p:
            min_card = DISTRICT_NAMES[s.redraw_min]
        return Decision(
            phase=PHASES[ph],
            player=s.cur,
            called=CHARACTERS[s.call],
            builds_left=s.builds_left,
            income_done=bool(s.income_done),
            power_done=bool(s.power_done),
            laboratory_done=bool(s.lab_done),
            smithy_done=bool(s.smithy_done),
            drawn=drawn,
            drawn_hidden=hidden,
            keep_left=s.keep_left if ph == PH_KEEP else 0,
            min_card=min_card,
            redraw_count=s.redraw_n,
            before_resources=(ph == PH_REDRAW or ph == PH_GRAVEYARD) and not s.resource_done,
            destroyed=DISTRICT_NAMES[CT_KIND[s.gy_card]] if ph == PH_GRAVEYARD else None,
            warlord=s.warlord if ph == PH_GRAVEYARD else None,
        )


def _districts(kinds):
    return tuple(DISTRICT_NAMES[k] for k in sorted(kinds))


def _characters(mask):
    return tuple(CHARACTERS[c] for c in range(NUM_CHARS) if (mask >> c) & 1)


# -- rebuilding a game from one player's observation -------------------------

cdef class _Cards:
    """Hands out card ids by name, never the same card twice."""

    cdef object free

    def __init__(self):
        self.free = set(range(NUM_DISTRICTS))

    def take(self, name, field):
        try:
            kind = parse_district(name)
        except ValueError as err:
            raise InvalidObservationError(field, wording_of(err)) from None
        for card in range(CT_FIRST[kind], CT_FIRST[kind] + CT_COPIES[kind]):
            if card in self.free:
                self.free.discard(card)
                return card
        raise InvalidObservationError(
            field, "{card} appears in more places than the deck has copies of it",
            card=DISTRICT_NAMES[kind])


def _character(name, field):
    if not isinstance(name, str):
        raise InvalidObservationError(field, "must be a character name")
    try:
        return parse_character(name)
    except ValueError as err:
        raise InvalidObservationError(field, wording_of(err)) from None


def _player_index(value, n, field):
    if not 0 <= value < n:
        raise InvalidObservationError(field, "must be a player from 0 to {last}", last=n - 1)
    return value


def state_from_observation(obs, seed=0, draws=()) -> CitadelsState:
    """A game that continues from `obs.observer`'s point of view: the districts
    it does not know are dealt at random (from `seed`) among the places it
    cannot see, and the characters it cannot place among the consistent deals.
    `draws` names the next cards off the deck, top first (cards the observer
    will see drawn; they stay unknown to it until then).
    InvalidObservationError names the first field that is wrong."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if not isinstance(obs, Observation):
        raise InvalidObservationError("observation", "must be a citadels Observation or its JSON")
    n = obs.num_players
    if not 2 <= n <= MAX_PLAYERS:
        raise InvalidObservationError("num_players", "Citadels is for 2 to 7 players")
    p = _player_index(obs.observer, n, "observer")
    if len(obs.players) != n:
        raise InvalidObservationError("players", "must list {count} players", count=n)
    if not 1 <= obs.round <= 200:
        raise InvalidObservationError("round", "must be from 1 to 200")
    cdef CitadelsState state = CitadelsState.__new__(CitadelsState)
    state.rules = obs.rules
    cdef CTState* s = &state.s
    cdef CTRules r = c_rules(obs.rules)
    cdef uint64_t rng[4]
    rng_seed(rng, seed64(seed))
    ct_init(s, n, seed64(seed), &r)
    # Start from an empty table and place what the observation says.
    memset(s.hand_n, 0, sizeof(s.hand_n))
    memset(s.hand_kind, 0, sizeof(s.hand_kind))
    memset(s.hand_kinds, 0, sizeof(s.hand_kinds))
    s.deck_n = 0
    s.round_no = obs.round
    s.crown = _player_index(obs.crown, n, "crown")
    s.first_picker = _player_index(obs.first_picker, n, "first_picker")
    s.first_done = NOBODY if obs.first_complete is None else _player_index(
        obs.first_complete, n, "first_complete")
    cards = _Cards()
    _place_districts(s, obs, cards, rng, draws)
    _place_characters(s, obs, rng)
    _place_decision(s, obs)
    check_progress(obs)
    if ct_check(s):
        raise InvalidObservationError(
            "observation", "inconsistent (invariant {code})", code=ct_check(s))
    if s.phase != PH_END:
        legal = state.legal_actions()
        if not legal:
            raise InvalidObservationError("decision", "leaves the player to act no legal move")
    again = state.observation(p)
    if again != obs:
        raise InvalidObservationError(
            _first_difference(again, obs),
            "is inconsistent with the rest: no game reaches it as written")
    return state


cdef _place_districts(CTState* s, obs, _Cards cards, uint64_t* rng, draws):
    cdef int n = s.num_players, p = obs.observer, q, card, o, i
    everyone = (1 << n) - 1
    for q, view in enumerate(obs.players):
        field = f"players[{q}]"
        if not 0 <= view.gold <= MAX_GOLD:
            raise InvalidObservationError(
                f"{field}.gold", "must be from 0 to {most}", most=MAX_GOLD)
        s.gold[q] = view.gold
        if len(view.built_rounds) != len(view.city):
            raise InvalidObservationError(f"{field}.built_rounds", "must give a round per district")
        for i, name in enumerate(view.city):
            card = cards.take(name, f"{field}.city[{i}]")
            if (s.city_kinds[q] >> CT_KIND[card]) & 1:
                raise InvalidObservationError(
                    f"{field}.city[{i}]", "a city holds one {card} at most",
                    card=DISTRICT_NAMES[CT_KIND[card]])
            ct_city_add(s, q, card)
            if not 1 <= view.built_rounds[i] <= obs.round:
                raise InvalidObservationError(
                    f"{field}.built_rounds[{i}]", "must be from 1 to {round}", round=obs.round)
            s.built_round[card] = view.built_rounds[i]
        if not 0 <= view.hand_size <= NUM_DISTRICTS:
            raise InvalidObservationError(f"{field}.hand_size", "must be from 0 to 68")
        if len(view.hand) > view.hand_size or (q == p and len(view.hand) != view.hand_size):
            raise InvalidObservationError(
                f"{field}.hand", "lists {count} cards for a hand of {size}",
                count=len(view.hand), size=view.hand_size)
    mine = []
    for i, name in enumerate(obs.players[p].hand):
        card = cards.take(name, f"players[{p}].hand[{i}]")
        mine.append(card)
        _hand(s, p, card, 1 << p)
    for q, view in enumerate(obs.players):
        if q == p:
            if view.seen_of_mine:
                raise InvalidObservationError(f"players[{q}].seen_of_mine", "is for opponents")
            continue
        for i, name in enumerate(view.hand):
            _hand(s, q, cards.take(name, f"players[{q}].hand[{i}]"), (1 << p) | (1 << q))
        left = list(mine)
        for i, name in enumerate(view.seen_of_mine):
            kind = parse_district(name) if name in DISTRICT_NAMES else -1
            match = next((c for c in left if CT_KIND[c] == kind), None)
            if match is None:
                raise InvalidObservationError(
                    f"players[{q}].seen_of_mine[{i}]", "is not a card of the observer's hand")
            left.remove(match)
            s.known[match] |= 1 << q
    # The deck: known positions, and how many cards it holds.
    if not 0 <= obs.deck_size <= NUM_DISTRICTS:
        raise InvalidObservationError("deck_size", "must be from 0 to 68")
    deck = [None] * obs.deck_size
    for i, (pos, name) in enumerate(obs.deck_known):
        if not 0 <= pos < obs.deck_size or deck[pos] is not None:
            raise InvalidObservationError(
                f"deck_known[{i}]", "must name a distinct position inside the deck")
        deck[pos] = cards.take(name, f"deck_known[{i}]")
    told = [False] * obs.deck_size
    if len(draws) > obs.deck_size:
        raise InvalidObservationError(
            "draws", "the deck holds only {count} cards", count=obs.deck_size)
    for i, name in enumerate(draws):
        pos = obs.deck_size - 1 - i
        if deck[pos] is not None:
            if DISTRICT_NAMES[CT_KIND[deck[pos]]] != name:
                raise InvalidObservationError(
                    f"draws[{i}]", "the observer knows that card is {card}",
                    card=DISTRICT_NAMES[CT_KIND[deck[pos]]])
            continue
        deck[pos] = cards.take(name, f"draws[{i}]")
        told[pos] = True
    d = obs.decision
    drawn = []
    for i, name in enumerate(d.drawn):
        drawn.append(cards.take(name, f"decision.drawn[{i}]"))
    destroyed = None
    if d.destroyed is not None:
        destroyed = cards.take(d.destroyed, "decision.destroyed")
    # The cards nobody named go, at random, to the places the observer can't see.
    free = sorted(cards.free)
    unknown = sum(v.hand_size - len(v.hand) for v in obs.players) + deck.count(None) + (
        d.drawn_hidden)
    if unknown != len(free):
        raise InvalidObservationError(
            "deck_size", "the hands, deck, cities and drawn cards hold {count} districts, not 68",
            count=NUM_DISTRICTS - len(free) + unknown)
    it = iter(dealt(free, rng))
    for q, view in enumerate(obs.players):
        for _ in range(view.hand_size - len(view.hand)):
            _hand(s, q, next(it), 1 << q)
    public = set()
    for i, pos in enumerate(obs.deck_public):
        if not 0 <= pos < obs.deck_size or deck[pos] is None or told[pos]:
            raise InvalidObservationError(
                f"deck_public[{i}]", "must be a position of deck_known")
        public.add(pos)
    for i in range(obs.deck_size):
        card = next(it) if deck[i] is None else deck[i]
        s.deck[i] = card
        s.loc[card] = LOC_DECK
        s.known[card] = (everyone if i in public else
                         0 if deck[i] is None or told[i] else 1 << p)
    s.deck_n = obs.deck_size
    s.drawn_n = 0
    for card in [*drawn, *(next(it) for _ in range(d.drawn_hidden))]:
        if s.drawn_n >= 3:
            raise InvalidObservationError("decision.drawn", "at most 3 cards are drawn at once")
        s.drawn[s.drawn_n] = card
        s.drawn_n += 1
        s.loc[card] = LOC_ASIDE
        s.known[card] = 1 << d.player if d.player in range(s.num_players) else 0
    s.gy_card = NO_CARD
    if destroyed is not None:
        s.gy_card = destroyed
        s.loc[destroyed] = LOC_ASIDE
        s.known[destroyed] = everyone


cdef void _hand(CTState* s, int q, int card, int known):
    s.loc[card] = LOC_HAND + q
    s.known[card] = known
    s.hand_n[q] += 1
    s.hand_kind[q][CT_KIND[card]] += 1
    s.hand_kinds[q] |= 1u << CT_KIND[card]




cdef _place_characters(CTState* s, obs, uint64_t* rng):
    cdef int n = s.num_players, p = obs.observer, j, pl, slot, c, q
    cdef bint disc
    dr = obs.draft
    d = obs.decision
    up = 6 - n if 4 <= n <= 6 else 0
    s.n_slots = 8 - up
    s.faceup = 0
    for i, name in enumerate(dr.face_up):
        c = _character(name, f"draft.face_up[{i}]")
        if c == 3 or (s.faceup >> c) & 1:
            raise InvalidObservationError(
                f"draft.face_up[{i}]", "the King is never face up, and no character twice")
        s.faceup |= 1 << c
    if len(dr.face_up) != up:
        raise InvalidObservationError(
            "draft.face_up", "{count} players have {face_up} face up", count=n, face_up=up)
    steps = draft_decisions(n)
    in_draft = d.phase in ("pick", "discard")
    if not (0 <= dr.step < steps if in_draft else dr.step == steps):
        raise InvalidObservationError(
            "draft.step", "must be below {steps} during the draft and {steps} after it",
            steps=steps)
    s.step = dr.step
    memset(s.slot_char, NO_CHAR, sizeof(s.slot_char))
    memset(s.slot_owner, NOBODY, sizeof(s.slot_owner))
    memset(s.slot_by, NOBODY, sizeof(s.slot_by))
    memset(s.obs_n, 0, sizeof(s.obs_n))
    s.slot_char[7 if n == 7 else 0] = 0         # the face-down discard: filled, unknown
    picks = [_character(x, f"draft.picks[{i}]") for i, x in enumerate(dr.picks)]
    discards = [_character(x, f"draft.discards[{i}]") for i, x in enumerate(dr.discards)]
    own_picks = own_discards = 0
    for j in range(min(s.step + (1 if in_draft else 0), steps)):
        ct_draft_step(s, j, &pl, &slot, &disc)
        if not disc:
            s.obs_slots[pl][s.obs_n[pl]] = ct_seen_slots(s, slot)
            s.obs_n[pl] += 1
        if j >= s.step:
            continue
        if n == 7 and j == 6:
            s.slot_by[6] = s.slot_by[7] = pl
            s.slot_owner[6] = pl
            if pl == p:
                if own_picks >= len(picks) or len(discards) != 1:
                    raise InvalidObservationError("draft.picks", "must list the kept character")
                s.slot_char[6] = picks[own_picks]
                s.slot_char[7] = discards[0]
                own_picks += 1
                own_discards += 1
            continue
        s.slot_by[slot] = pl
        s.slot_owner[slot] = NOBODY if disc else pl
        s.slot_char[slot] = 0
        if pl == p:
            if disc:
                if own_discards >= len(discards):
                    raise InvalidObservationError("draft.discards", "misses a face-down discard")
                s.slot_char[slot] = discards[own_discards]
                own_discards += 1
            else:
                if own_picks >= len(picks):
                    raise InvalidObservationError("draft.picks", "misses a pick")
                s.slot_char[slot] = picks[own_picks]
                own_picks += 1
    if own_picks != len(picks) or own_discards != len(discards):
        raise InvalidObservationError("draft.picks", "lists more characters than were picked")
    if n == 7 and s.step >= 6 and s.slot_char[6] == NO_CHAR:
        s.slot_char[6] = 0
    if n < 7 and not in_draft:
        s.slot_char[s.n_slots - 1] = 0
    if len(dr.shown) != s.obs_n[p]:
        raise InvalidObservationError(
            "draft.shown", "the observer was shown characters {count} times", count=s.obs_n[p])
    for j, row in enumerate(dr.shown):
        mask = 0
        for i, name in enumerate(row):
            mask |= 1 << _character(name, f"draft.shown[{j}][{i}]")
        s.obs_set[p][j] = mask
    s.revealed = 0
    memset(s.holder, NOBODY, sizeof(s.holder))
    memset(s.top_char, 0, sizeof(s.top_char))
    for i, (name, q) in enumerate(obs.revealed):
        c = _character(name, f"revealed[{i}][0]")
        _player_index(q, n, f"revealed[{i}][1]")
        s.revealed |= 1 << c
        s.holder[c] = q
        s.top_char[q] = max(s.top_char[q], c + 1)
    if (s.revealed >> 3) & 1 and obs.crown != s.holder[3]:
        raise InvalidObservationError("crown", "the revealed King has taken the crown")
    s.killed = NO_CHAR if obs.killed is None else _character(obs.killed, "killed")
    s.robbed = NO_CHAR if obs.robbed is None else _character(obs.robbed, "robbed")
    if in_draft:
        s.call = 0
    elif d.phase == "end":
        s.call = NUM_CHARS
    else:
        s.call = _character(d.called, "decision.called") if d.called is not None else 255
        if s.call == 255:
            raise InvalidObservationError("decision.called", "names the character whose turn it is")
    if not ct_deal_characters(s, p, rng):
        raise InvalidObservationError(
            "draft", "no deal of the characters fits what was shown, picked and revealed")


cdef _place_decision(CTState* s, obs):
    cdef int n = s.num_players, pl, slot
    cdef bint disc
    d = obs.decision
    s.phase = PHASES.index(d.phase)
    if s.phase == PH_END:
        s.cur = NOBODY
        return
    if d.player is None:
        raise InvalidObservationError("decision.player", "names the player to act")
    s.cur = _player_index(d.player, n, "decision.player")
    if s.phase == PH_PICK or s.phase == PH_DISCARD:
        ct_draft_step(s, s.step, &pl, &slot, &disc)
        if pl != s.cur or disc != (s.phase == PH_DISCARD):
            if pl == obs.observer:  # the observer is "you", so that a translation agrees
                if disc:
                    raise InvalidObservationError(
                        "decision", "draft step {step} is your discard", step=s.step)
                raise InvalidObservationError("decision", "draft step {step} is your pick", step=s.step)
            if disc:
                raise InvalidObservationError(
                    "decision", "draft step {step} is a discard by {player}", step=s.step, player=pl)
            raise InvalidObservationError(
                "decision", "draft step {step} is a pick by {player}", step=s.step, player=pl)
        return
    if not 0 <= d.builds_left <= 3:
        raise InvalidObservationError("decision.builds_left", "must be from 0 to 3")
    s.builds_left = d.builds_left
    _place_resource_step(s, obs)
    s.income_done = d.income_done
    s.power_done = d.power_done
    s.lab_done = d.laboratory_done
    s.smithy_done = d.smithy_done
    if not 0 <= d.keep_left <= 2:
        raise InvalidObservationError("decision.keep_left", "must be from 0 to 2")
    s.keep_left = d.keep_left
    if not 0 <= d.redraw_count <= NUM_DISTRICTS:
        raise InvalidObservationError("decision.redraw_count", "must be from 0 to 68")
    s.redraw_n = d.redraw_count
    if d.min_card is not None:
        try:
            kind = parse_district(d.min_card)
        except ValueError as err:
            raise InvalidObservationError("decision.min_card", wording_of(err)) from None
        s.redraw_min = kind
    if s.phase == PH_GRAVEYARD:
        if d.warlord is None:
            raise InvalidObservationError("decision.warlord", "names the Warlord's player")
        s.warlord = _player_index(d.warlord, n, "decision.warlord")
    if s.phase != PH_REDRAW:
        s.redraw_min = 0
    acting = s.warlord if s.phase == PH_GRAVEYARD else s.cur
    if s.holder[s.call] != acting or not (s.revealed >> s.call) & 1:
        raise InvalidObservationError(
            "decision.called", "must be a character revealed by the player whose turn it is")


cdef _place_resource_step(CTState* s, obs):
    """Whether the resource step is over; before it, only what `powers_before_resources`
    allows may have been used."""
    d = obs.decision
    if d.before_resources and not (s.phase == PH_REDRAW or s.phase == PH_GRAVEYARD):
        raise InvalidObservationError(
            "decision.before_resources", "is for the Magician's redraw and the Graveyard only")
    if d.before_resources and not obs.rules.powers_before_resources:
        raise InvalidObservationError(
            "decision.before_resources", "needs the rules option powers_before_resources")
    s.resource_done = s.phase == PH_MAIN or (
        (s.phase == PH_REDRAW or s.phase == PH_GRAVEYARD) and not d.before_resources)
    if s.resource_done:
        return
    if d.income_done:
        raise InvalidObservationError(
            "decision.income_done", "income is collected after the resource step")
    if not obs.rules.powers_before_resources and (
            d.power_done or d.laboratory_done or d.smithy_done):
        raise InvalidObservationError(
            "decision.power_done" if d.power_done else
            "decision.laboratory_done" if d.laboratory_done else "decision.smithy_done",
            "powers and districts come after the resource step (rules option"
            " powers_before_resources allows them before)")


def _first_difference(got, want):
    """The field path of the first place where `got` differs from `want`."""
    return first_difference(got.to_json(), want.to_json()) or "observation"


def play_random_games(int num_players, int games, seed, rules=None) -> int:
    """Deal and play `games` uniformly random games entirely in C, without the
    GIL; return the number of actions played (for benchmarks)."""
    if rules is None:
        rules = RulesConfig()
    cdef CTRules r = c_rules(rules)
    cdef CTState s
    cdef uint64_t rng[4]
    cdef uint64_t base = seed64(seed)
    cdef long total = 0
    cdef int g
    rng_seed(rng, base)
    with nogil:
        for g in range(games):
            ct_init(&s, num_players, base + <uint64_t>g, &r)
            total += api_playout(ct_game_api(), &s, rng)
    return total
