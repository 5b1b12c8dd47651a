"""Property tests for the Royal Cities engine, over seeded random games.

What the engine promises, checked after every action of every game played here:

* conservation: each of the 85 cards is in exactly one place (`check()`, `card_locations()`),
  and every player's observation accounts for all 85 (cards shown + hidden counts);
* legal actions are sorted, unique, in range, non-empty exactly while the game runs, and
  every action text reads back to its id;
* random illegal actions raise `IllegalMoveError` and leave the state byte-for-byte unchanged
  (`pickle.dumps` before and after);
* a clone is independent of its original, and the same action on both gives the same state;
* pickling round-trips;
* hidden information: no observation shows a card its player cannot know (see
  `check_hidden_information` and `check_knowledge_gain`);
* `state_from_observation(s.observation(p))` continues the game from p's point of view (same
  observation, same player to move, same legal moves when p is to move, a valid game to the
  end); `s.resample(p, seed)` keeps p's observation (and legal moves) and changes only what p
  cannot see; the JSON form of each observation round-trips.

Tiers. The unmarked tests are the fast tier (under a minute): 50 games per player count,
every step, every player for the hidden-information and resample checks, and the
`state_from_observation` round trip for the player to move (every player in 6 of the games);
JSON for every player at every step of 10 more games; draws, resample variation, pickling,
action texts, starved decks. The `@pytest.mark.slow` tests are the soak tier (several
minutes): 8000 games for conservation and illegal actions, 400 with every round trip for
every player at every step, more resample variation and starved decks. CI runs both
(`pytest`); run the fast tier alone with `-m "not slow"` (see `pyproject.toml`).

Every game is reproducible: the deal comes from `new_game(..., seed=seed, rules=rules_for(seed))`
and the moves from `random.Random(seed)` (starved decks: `starved_position(n, seed)`). A
failure message names the player count, seed, step, phase and action, so
`play_checked(num_players, seed)` replays it.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from dataclasses import dataclass, fields

import pytest

import engine
from engine import IllegalMoveError, InvalidObservationError, state_from_observation
from engine.royal_cities import (
    Decision,
    Observation,
    PlayerView,
    RegentView,
    RoyalCitiesState,
    RulesConfig,
)
from engine.royal_cities.cards import CITY_COLOURS, COLOURS, copies, kind_name
from engine.royal_cities.core import Action

NUM_CARDS = 85
NUM_ACTIONS = int(Action.NUM_ACTIONS)
ALL_CARDS: Counter[str] = Counter({kind_name(k): copies(k) for k in range(49)})
#: Decisions the others see only as "a choice was made".
SECRET_PHASES = ("pass", "first_build", "construct")
RULE_NAMES = tuple(f.name for f in fields(RulesConfig))
PLAYER_COUNTS = (1, 2, 3, 4)


def rules_for(seed: int) -> RulesConfig:
    """The rulebook's defaults for even seeds; every switch drawn at random for odd ones, so
    the properties are also checked under each table variant."""
    if seed % 2 == 0:
        return RulesConfig()
    rng = random.Random(seed * 7919 + 1)
    return RulesConfig(**{name: rng.random() < 0.5 for name in RULE_NAMES})


def new_game(num_players: int, seed: int) -> RoyalCitiesState:
    return engine.new_game(
        "royal_cities", num_players=num_players, seed=seed, rules=rules_for(seed)
    )


@dataclass
class Where:
    """Where a property broke, written so that the failing step can be replayed."""

    num_players: int
    seed: int
    step: int = 0
    phase: str = ""
    player: int = -1
    action: str = ""

    def __str__(self) -> str:
        text = (
            f"{self.num_players} players, seed {self.seed}, step {self.step}, "
            f"phase {self.phase!r}, player to move {self.player}"
        )
        return text + (f", action {self.action!r}" if self.action else "")


# --------------------------------------------------------------------------------------------
# The checks, one property each
# --------------------------------------------------------------------------------------------


def shown_cards(obs: Observation) -> Counter[str]:
    """Every card an observation names, with multiplicity."""
    shown = public_cards(obs)
    shown.update(obs.decision.drawn)
    for view in obs.players:
        shown.update(view.hand)
    return shown


def public_cards(obs: Observation) -> Counter[str]:
    """The face-up cards everybody sees: the Market, the discard pile and the Cities."""
    public = Counter(obs.market)
    public.update(obs.discard)
    for view in obs.players:
        for city in view.cities:
            public.update(city)
    if obs.regent is not None:
        for city in obs.regent.cities:
            public.update(city)
    return public


def check_conservation(state: RoyalCitiesState, where: Where) -> dict[str, int]:
    """All 85 cards are in exactly one place and every count agrees (the C invariants)."""
    try:
        state.check()
    except AssertionError as err:
        raise AssertionError(f"{where}: {err}") from None
    locations = state.card_locations()
    assert sum(locations.values()) == NUM_CARDS, f"{where}: card_locations {locations}"
    return locations


def check_observation_counts(obs: Observation, locations: dict[str, int], where: Where) -> None:
    """An observation accounts for all 85 cards (the ones it shows plus the hidden counts),
    never shows more copies of a card than the deck has, and agrees with `card_locations()`."""
    shown = shown_cards(obs)
    assert not shown - ALL_CARDS, f"{where}: observer {obs.observer} sees extra {shown - ALL_CARDS}"
    hidden_in_hands = sum(v.hand_size - len(v.hand) for v in obs.players)
    hidden = obs.pile_size + obs.reserve_size + obs.decision.drawn_hidden + hidden_in_hands
    assert sum(shown.values()) + hidden == NUM_CARDS, f"{where}: observer {obs.observer} counts"
    in_cities = sum(len(city) for view in obs.players for city in view.cities)
    if obs.regent is not None:
        in_cities += sum(len(city) for city in obs.regent.cities)
    expected = {
        "pile": obs.pile_size,
        "reserve": obs.reserve_size,
        "market": len(obs.market),
        "discard": len(obs.discard),
        "drawn": len(obs.decision.drawn) + obs.decision.drawn_hidden,
        "hand": sum(v.hand_size for v in obs.players),
        "city": in_cities,
    }
    got = {key: locations.get(key, 0) for key in expected}
    assert got == expected, f"{where}: observer {obs.observer}: {expected} != {got}"


def check_legal_actions(state: RoyalCitiesState, legal: list[int], where: Where) -> None:
    """Sorted, unique, in range; empty exactly when the game is over; text round trip."""
    assert legal == sorted(set(legal)), f"{where}: legal actions not sorted/unique: {legal}"
    assert all(isinstance(a, int) and 0 <= a < NUM_ACTIONS for a in legal), f"{where}: {legal}"
    terminal = state.is_terminal()
    assert bool(legal) != terminal, f"{where}: terminal={terminal} with legal actions {legal}"
    assert (state.current_player == -1) == terminal, f"{where}: current_player"
    for action in legal:
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action, f"{where}: {action} -> {text!r}"


def public_part(obs: Observation) -> tuple:
    """The part of an observation that every player sees alike."""
    d = obs.decision
    players = tuple(
        (v.vp, v.hero_up, v.purchased, v.committed, v.age_rank, v.hand_size, v.cities)
        for v in obs.players
    )
    decision = (
        d.phase, d.player, d.turn_played, d.effect, d.from_revolt, d.knight_from, d.power,
        d.min_card, d.taken, len(d.drawn) + d.drawn_hidden, d.tax_left, d.taxed, d.season_vp,
        d.season_influence, d.regent_draws, d.resume,
        d.selection if d.phase == "effect" else None,
    )  # fmt: skip
    return (
        obs.num_players, obs.rules, obs.season, obs.num_seasons, obs.starter,
        obs.last_purchaser, obs.market, obs.discard, obs.pile_size, obs.reserve_size,
        obs.regent, players, decision,
    )  # fmt: skip


def check_hidden_information(observations: list[Observation], where: Where) -> None:
    """No observation shows a card its player cannot know.

    For observers p != q: p's view of q's hand is a sub-multiset of q's true hand (q's own
    view of it), and no longer than q's hand; what p says q has seen of p's hand is exactly
    what q's observation shows of p's hand; of the cards drawn and not yet placed, a player
    not to move sees only the ones publicly chosen (the Astrologer's selection). Everything
    public reads the same from every seat."""
    truth = [Counter(obs.players[i].hand) for i, obs in enumerate(observations)]
    mover = observations[0].decision.player
    public = public_part(observations[0])
    for p, obs in enumerate(observations):
        assert obs.observer == p
        own = obs.players[p]
        assert len(own.hand) == own.hand_size, f"{where}: observer {p} does not see its hand"
        assert own.seen_of_mine == (), f"{where}: observer {p} has seen_of_mine about itself"
        assert public_part(obs) == public, f"{where}: public part differs for observer {p}"
        for q, view in enumerate(obs.players):
            if q == p:
                continue
            extra = Counter(view.hand) - truth[q]
            assert not extra, f"{where}: observer {p} sees {extra} in player {q}'s hand"
            assert len(view.hand) <= view.hand_size, f"{where}: {p} sees too many of {q}'s cards"
            assert view.seen_of_mine == observations[q].players[p].hand, (
                f"{where}: {p} thinks {q} saw {view.seen_of_mine}, "
                f"{q} sees {observations[q].players[p].hand}"
            )
        if p != mover:
            chosen = Counter(card for card, _ in obs.decision.selection)
            assert Counter(obs.decision.drawn) <= chosen, (
                f"{where}: observer {p} sees another player's draw {obs.decision.drawn}"
            )


def check_knowledge_gain(before: list[Observation], after: list[Observation], where: Where) -> None:
    """What a player learns about another's hand in one action can only be a card it could
    already see: a public card (Market, Cities: bought, taken back by the Villager or the
    Merchant), a drawn card it was shown, or one of its own cards (passed). So a card drawn
    from the pile (a Jester, an `add hero`, an Astrologer, a catch-up bonus) never appears in
    the others' views."""
    for r, (old, new) in enumerate(zip(before, after, strict=True)):
        could_see = public_cards(old)
        could_see.update(old.decision.drawn)
        could_see.update(old.players[r].hand)
        for q in range(len(before)):
            if q == r:
                continue
            gained = Counter(new.players[q].hand) - Counter(old.players[q].hand)
            assert not gained - could_see, (
                f"{where}: player {r} learns {dict(gained - could_see)} of player {q}'s hand"
            )


def _check_same_view(
    state: RoyalCitiesState,
    other: RoyalCitiesState,
    obs: Observation,
    legal: list[int],
    seed: int,
    what: str,
) -> None:
    """`other` is a valid game that looks the same to obs.observer as `state` does, and it
    plays on to a valid end."""
    p = obs.observer
    try:
        other.check()
    except AssertionError as err:
        raise AssertionError(f"{what}: {err}") from None
    assert other.observation(p) == obs, f"{what}: observation differs"
    assert other.current_player == state.current_player, f"{what}: player to move"
    assert other.is_terminal() == state.is_terminal(), f"{what}: terminal"
    assert other.scores() == state.scores(), f"{what}: scores"
    if state.current_player == p:
        assert other.legal_actions() == legal, f"{what}: legal actions differ"
    other.playout(seed)
    assert other.is_terminal(), f"{what}: does not play to the end"
    try:
        other.check()
    except AssertionError as err:
        raise AssertionError(f"{what}, played out: {err}") from None


def check_resample_round_trip(
    state: RoyalCitiesState, obs: Observation, legal: list[int], seed: int, where: Where
) -> None:
    """`state.resample(p, seed)` keeps p's observation, the player to move and (when p is to
    move) the legal moves, and is a valid game to the end; the original is untouched."""
    resampled = state.resample(obs.observer, seed)
    what = f"{where}: resample for player {obs.observer}"
    _check_same_view(state, resampled, obs, legal, seed, what)


def check_rebuild_round_trip(
    state: RoyalCitiesState,
    obs: Observation,
    legal: list[int],
    seed: int,
    where: Where,
) -> RoyalCitiesState:
    """`state_from_observation` gives a game that continues from p's point of view: same
    observation, same player to move, same legal moves when p is to move, a valid game to
    the end. On one step in four it is fed p's observation as parsed JSON text (which must
    round-trip), otherwise the Observation itself (`test_json_round_trip_every_player` does
    the JSON round trip alone at every step). Returns a fresh rebuilt state (for
    `check_continuation`)."""
    p = obs.observer
    source: Observation | dict = obs
    if seed % 4 == 0:
        source = json.loads(json.dumps(obs.to_json()))
        assert Observation.from_json(source) == obs, f"{where}: JSON round trip for player {p}"
    rebuilt = state_from_observation(source, seed=seed)
    fresh = rebuilt.clone()
    what = f"{where}: state_from_observation for player {p}"
    _check_same_view(state, rebuilt, obs, legal, seed, what)
    return fresh


def draws_nothing(before: Observation, text: str) -> bool:
    """Whether a move certainly draws no card (so no reshuffle either) and reveals no secret
    choice: a purchase, a buy or stop, an effect's target, a Knight's destination, or a card
    played for an effect other than the Jester (2) and the Astrologer (6). The other moves
    (`add`, `add hero`, the solo and Season-end decisions, secret choices) may draw or
    reveal."""
    phase = before.decision.phase
    if phase in ("purchase", "effect", "knight_destination"):
        return True
    if phase == "turn":
        return text == "purchase" or (
            text.startswith("play") and _played_value(before, text) not in (2, 6)
        )
    return False


def check_continuation(
    rebuilt: RoyalCitiesState,
    before: Observation,
    state: RoyalCitiesState,
    action: int,
    where: Where,
) -> bool:
    """The mover's rebuilt state accepts the move actually played; when that move draws no
    card and reveals no secret (`draws_nothing`), the mover's next observation and the player
    to move are the same in the rebuilt game as in the real one. Returns whether compared."""
    rebuilt.apply_action(action)
    rebuilt.check()
    p = before.observer
    after = state.observation(p)
    if not draws_nothing(before, state.action_to_string(action)):
        return False
    assert shown_cards(after) == shown_cards(before), f"{where}: a quiet move showed a card"
    assert rebuilt.observation(p) == after, f"{where}: the rebuilt game went elsewhere"
    assert rebuilt.current_player == state.current_player, f"{where}: rebuilt player to move"
    return True


def check_illegal_actions(
    state: RoyalCitiesState, legal: list[int], rng: random.Random, count: int, where: Where
) -> None:
    """`count` random action ids that are not legal now raise IllegalMoveError and change
    nothing (the pickled state is byte-for-byte the same)."""
    before = pickle.dumps(state)
    allowed = set(legal)
    tried = 0
    while tried < count:
        action = rng.randrange(-2, NUM_ACTIONS + 2)
        if action in allowed:
            continue
        tried += 1
        with pytest.raises(IllegalMoveError):
            state.apply_action(action)
        assert pickle.dumps(state) == before, f"{where}: illegal action {action} changed the state"


# --------------------------------------------------------------------------------------------
# The game walker
# --------------------------------------------------------------------------------------------


@dataclass
class Stats:
    games: int = 0
    steps: int = 0
    rebuilds: int = 0
    continued: int = 0


def play_checked(
    num_players: int,
    seed: int,
    *,
    deep: bool = True,
    rebuild_all: bool = True,
    illegal_per_step: int = 2,
    stats: Stats | None = None,
    state: RoyalCitiesState | None = None,
) -> RoyalCitiesState:
    """Play one seeded random game, checking the properties after every action.

    Always: conservation, legal actions, random illegal actions, clone independence,
    pickling. With `deep`, at every step for every player: observation counts, hidden
    information, knowledge gained, the resample round trip; and the JSON and
    `state_from_observation` round trips for the player to move (for every player too with
    `rebuild_all`), with the mover's rebuilt game continued by the move actually played."""
    rng = random.Random(seed)
    if state is None:
        state = new_game(num_players, seed)
    where = Where(num_players, seed)
    previous: list[Observation] = []
    step = 0
    while True:
        where.step, where.phase, where.action = step, state.phase, ""
        where.player = state.current_player
        at_start = pickle.dumps(state)
        legal = state.legal_actions()
        check_legal_actions(state, legal, where)
        locations = check_conservation(state, where)
        mover = state.current_player
        rebuilt_for_mover = None
        if deep:
            observations = [state.observation(p) for p in range(num_players)]
            for obs in observations:
                check_observation_counts(obs, locations, where)
            check_hidden_information(observations, where)
            if previous:
                check_knowledge_gain(previous, observations, where)
            previous = observations
            round_trip_seed = seed * 1000 + step
            for p, obs in enumerate(observations):
                check_resample_round_trip(state, obs, legal, round_trip_seed, where)
                if p == mover or rebuild_all:
                    rebuilt = check_rebuild_round_trip(state, obs, legal, round_trip_seed, where)
                    if p == mover:
                        rebuilt_for_mover = rebuilt
                    if stats is not None:
                        stats.rebuilds += 1
        check_illegal_actions(state, legal, rng, illegal_per_step, where)
        # Observing, resampling and rebuilding read the state; none of them changed it.
        before = pickle.dumps(state)
        assert before == at_start, f"{where}: the checks changed the state"
        if state.is_terminal():
            break
        # Pickling round trip, clone independence, determinism of a move.
        restored = pickle.loads(before)
        assert pickle.dumps(restored) == before, f"{where}: pickle round trip"
        assert restored.legal_actions() == legal, f"{where}: unpickled legal actions"
        action = rng.choice(legal)
        where.action = state.action_to_string(action)
        twin = state.clone()
        state.apply_action(action)
        assert pickle.dumps(twin) == before, f"{where}: playing on the original changed its clone"
        twin.apply_action(action)
        assert pickle.dumps(twin) == pickle.dumps(state), f"{where}: same move, different state"
        restored.apply_action(action)
        assert pickle.dumps(restored) == pickle.dumps(state), f"{where}: unpickled state diverged"
        continued = rebuilt_for_mover is not None and check_continuation(
            rebuilt_for_mover, previous[mover], state, action, where
        )
        if stats is not None and continued:
            stats.continued += 1
        step += 1
        assert step < 5000, f"{where}: the game does not end"
    # The end: returns and scores.
    returns = state.returns()
    assert len(returns) == num_players
    assert len(state.scores()) == num_players + (num_players == 1)
    if num_players == 1:
        assert returns[0] in (0.0, 0.5, 1.0), f"{where}: solo returns {returns}"
    else:
        assert abs(sum(returns) - 1.0) < 1e-9, f"{where}: returns {returns}"
        assert max(returns) > 0
    if stats is not None:
        stats.games += 1
        stats.steps += step
    return state


# --------------------------------------------------------------------------------------------
# Fast tier
# --------------------------------------------------------------------------------------------

FAST_GAMES = 50
FAST_REBUILD_ALL_GAMES = 6


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_random_games_every_property(num_players: int) -> None:
    """50 seeded random games per player count (half of them under random rules variants),
    every step: conservation, legal and illegal actions, clones, pickling; for every player
    the observation counts, hidden information and resample round trip; the JSON and
    state_from_observation round trips for the player to move, and for every player in the
    first 6 games (the slow tier does every player in every game)."""
    stats = Stats()
    for seed in range(FAST_GAMES):
        play_checked(num_players, seed, rebuild_all=seed < FAST_REBUILD_ALL_GAMES, stats=stats)
    assert stats.games == FAST_GAMES
    assert stats.rebuilds > stats.steps
    assert stats.continued > stats.steps // 4


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_json_round_trip_every_player(num_players: int) -> None:
    """`Observation.from_json(json.loads(json.dumps(obs.to_json()))) == obs` for every
    player at every step of 10 more games (cheaper than the full rebuild above)."""
    for seed in range(100, 110):
        state = new_game(num_players, seed)
        rng = random.Random(seed)
        while True:
            for p in range(num_players):
                obs = state.observation(p)
                data = json.loads(json.dumps(obs.to_json()))
                assert Observation.from_json(data) == obs, f"seed {seed}, {state.phase}, p{p}"
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_to_json_holds_only_json_types() -> None:
    """`to_json()` holds only JSON types (dict, str, int, bool, None and sequences), so any
    JSON library can write it."""

    def plain(value: object) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, (list, tuple)):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, (str, int, bool))

    state = new_game(3, 5)
    state.playout(5)
    assert plain(state.observation(0).to_json())


def test_to_json_equals_its_json_text() -> None:
    """The dict `to_json()` returns equals what JSON text parses back to (lists, not tuples),
    as its docstring promises; clients compare observations as parsed JSON."""
    data = new_game(2, 1).observation(0).to_json()
    assert data == json.loads(json.dumps(data))


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_draws_stay_private(num_players: int) -> None:
    """The concrete cases of hidden draws, each seen many times: after `add hero` the two
    drawn cards are hidden from the others (they see only how many); after a Jester the drawn
    card is in no other player's view of the mover's hand; while an Astrologer chooses, the
    others see only the cards chosen."""
    seen = Counter()
    for seed in range(25):
        state = new_game(num_players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            mover = state.current_player
            before = [state.observation(p) for p in range(num_players)]
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(action)
            state.apply_action(action)
            after = [state.observation(p) for p in range(num_players)]
            where = f"{num_players} players, seed {seed}, {text!r}"
            others = [r for r in range(num_players) if r != mover]
            d = after[mover].decision
            if text == "add hero" and d.phase == "hero_keep":
                seen["hero"] += 1
                assert len(d.drawn) == 2 and d.drawn_hidden == 0, where
                for r in others:
                    assert after[r].decision.drawn == (), where
                    assert after[r].decision.drawn_hidden == 2, where
            if d.phase == "effect" and d.effect == 6 and before[mover].decision.phase == "turn":
                seen["astrologer"] += 1
                for r in others:
                    assert after[r].decision.drawn == (), where
                    assert after[r].decision.drawn_hidden == len(d.drawn), where
            jester = text.startswith("play") and _played_value(before[mover], text) == 2
            if jester and before[mover].pile_size > 0:
                seen["jester"] += 1
                assert after[mover].players[mover].hand_size == (
                    before[mover].players[mover].hand_size - text.startswith("play hand") + 1
                ), where
                for r in others:
                    assert Counter(after[r].players[mover].hand) <= Counter(
                        before[r].players[mover].hand
                    ), where
    assert min(seen["hero"], seen["astrologer"], seen["jester"]) >= 5, seen


def _played_value(obs: Observation, text: str) -> int:
    """The value of the card a `play hand ...` or `play city ...` action discards."""
    words = text.split()
    if words[1] == "hand":
        return int(words[2].split("-")[1])
    city = obs.players[obs.observer].cities[CITY_COLOURS.index(words[2])]
    return int(city[-1].split("-")[1])


def hidden_hand_can_vary(obs_p: Observation, truth_q: Counter[str], q: int) -> bool:
    """Whether some redeal of the cards p cannot see changes q's hand: q holds cards p does
    not know, other hidden places exist, and the hidden cards are not all of one kind."""
    unknown = ALL_CARDS - shown_cards(obs_p)
    hidden_of_q = truth_q - Counter(obs_p.players[q].hand)
    return bool(hidden_of_q) and len(unknown) >= 2 and bool(unknown - hidden_of_q)


def check_resample_varies(state: RoyalCitiesState, where: str, tries: int = 40) -> int:
    """For every pair p != q where a redeal can change q's hand as p knows it, some of
    `tries` resamples for p (and some of `tries` states rebuilt from p's observation) do
    change q's hand. Returns how many pairs were checked."""
    n = state.num_players
    observations = [state.observation(p) for p in range(n)]
    checked = 0
    for p in range(n):
        for q in range(n):
            if q == p:
                continue
            truth = Counter(observations[q].players[q].hand)
            if not hidden_hand_can_vary(observations[p], truth, q):
                continue
            checked += 1
            assert any(
                Counter(state.resample(p, k).observation(q).players[q].hand) != truth
                for k in range(tries)
            ), f"{where}: resample for {p} never changes {q}'s hidden cards"
            rebuilt_hands = (
                state_from_observation(observations[p], seed=k).observation(q).players[q].hand
                for k in range(tries)
            )
            assert any(Counter(hand) != truth for hand in rebuilt_hands), (
                f"{where}: state_from_observation for {p} never changes {q}'s hidden cards"
            )
    return checked


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_resample_varies_what_the_player_does_not_know(num_players: int) -> None:
    """A resample for p really redeals what p does not know: whenever another player q holds
    cards hidden from p (and the hidden cards are not all alike), q's hand differs in at
    least one of 40 seeds. (That p's own observation is kept is checked in the walker.)"""
    checked = 0
    for seed in range(5):
        state = new_game(num_players, seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            checked += check_resample_varies(state, f"{num_players}p seed {seed} step {step}")
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    assert checked > 100


def test_action_text_round_trip_for_every_id() -> None:
    """Every one of the 934 action ids has its own text, which reads back to it (also in
    other case and spacing); ids outside the range have no text."""
    state = new_game(2, 0)
    texts = [state.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(texts)) == NUM_ACTIONS
    for action, text in enumerate(texts):
        assert state.string_to_action(text) == action
        assert state.string_to_action("  " + text.upper().replace(" ", "   ") + " ") == action
    for bad in (-1, NUM_ACTIONS, 10**6):
        with pytest.raises(ValueError):
            state.action_to_string(bad)
    for bad in ("", "fly", "play hand orange-2", "build red-2", "target p7 red", "buy red-9"):
        with pytest.raises(IllegalMoveError):
            state.string_to_action(bad)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_illegal_values_of_every_type_change_nothing(num_players: int) -> None:
    """Not only wrong ids: values that are no action id at all (text, floats, None, booleans,
    huge integers) raise IllegalMoveError and leave the state unchanged, at every step."""
    state = new_game(num_players, 7)
    rng = random.Random(7)
    bad_values = ["add", 56.0, None, True, False, -(2**70), 2**70, [56], (56,)]
    while True:
        before = pickle.dumps(state)
        observations = [state.observation(p) for p in range(num_players)]
        for value in bad_values:
            with pytest.raises(IllegalMoveError):
                state.apply_action(value)
        assert pickle.dumps(state) == before
        assert [state.observation(p) for p in range(num_players)] == observations
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for action in range(NUM_ACTIONS):
        with pytest.raises(IllegalMoveError):
            state.apply_action(action)
    assert pickle.dumps(state) == before


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pickle_and_copy_continue_identically(num_players: int) -> None:
    """A state pickled mid-game (or copied with `copy.copy`/`copy.deepcopy`) plays on exactly
    as the original: same observations for everyone after every move, same final scores."""
    state = new_game(num_players, 11)
    rng = random.Random(11)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    copies_ = [pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)]
    assert all(isinstance(c, RoyalCitiesState) and c.rules == state.rules for c in copies_)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        for other in [state, *copies_]:
            other.apply_action(action)
        expected = [state.observation(p) for p in range(num_players)]
        for other in copies_:
            assert [other.observation(p) for p in range(num_players)] == expected
    assert all(c.scores() == state.scores() and c.returns() == state.returns() for c in copies_)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_seed_determines_the_game(num_players: int) -> None:
    """The same seed and moves give the same game (byte for byte); other seeds deal other
    games. The engine's chance lives in the state, so replays are exact."""
    a = new_game(num_players, 3)
    b = new_game(num_players, 3)
    assert pickle.dumps(a) == pickle.dumps(b)
    assert pickle.dumps(new_game(num_players, 4)) != pickle.dumps(a)
    assert a.playout(99) == b.playout(99)
    assert pickle.dumps(a) == pickle.dumps(b)


# --------------------------------------------------------------------------------------------
# Starved decks: reshuffles and empty piles, which random play from a deal rarely reaches
# --------------------------------------------------------------------------------------------


def starved_position(
    num_players: int,
    seed: int,
    *,
    pile_size: int | None = None,
    discard_size: int | None = None,
    reserve_size: int = 4,
) -> RoyalCitiesState:
    """A position at the start of a turn where almost every card is in the hands and Cities
    and the pile and discard pile are small, so draws soon reshuffle or find nothing. Built
    through `state_from_observation` from player 0's point of view."""
    rng = random.Random(seed)
    deck = sorted(ALL_CARDS.elements())
    rng.shuffle(deck)
    market, colours = [], set()
    for card in list(deck):
        colour = card.split("-")[0]
        if len(market) < 4 and colour not in colours:
            colours.add(colour)
            market.append(card)
            deck.remove(card)
    owners = num_players + (num_players == 1)
    cities = [[[] for _ in CITY_COLOURS] for _ in range(owners)]
    for card in list(deck):  # some ascending Cities, targets for Assassins and Knights
        colour, value = card.split("-")
        owner = rng.randrange(owners)
        c = COLOURS.index(colour) if colour != "white" else rng.randrange(6)
        row = cities[owner][c]
        has_partner = any(not x.startswith("white") for x in row)
        ascending = not row or int(row[-1].split("-")[1]) < int(value)
        if rng.random() < 0.3 and ascending and (colour != "white" or has_partner):
            row.append(card)
            deck.remove(card)
    if pile_size is None:
        pile_size = rng.choice([0, 1, 2, 3, 6])
    if discard_size is None:
        discard_size = rng.choice([0, 1, 2, 5])
    discard = deck[:discard_size]
    hidden = deck[discard_size:]
    in_hands = len(hidden) - pile_size - reserve_size
    own = rng.randrange(0, 8) if num_players > 1 else in_hands
    own_hand = hidden[:own]
    others = [in_hands - own] if num_players == 2 else []
    if num_players > 2:
        share = (in_hands - own) // (num_players - 1)
        others = [share] * (num_players - 2) + [in_hands - own - share * (num_players - 2)]
    order = {name: i for i, name in enumerate(sorted(ALL_CARDS, key=_kind_order))}
    players = []
    for q in range(num_players):
        hand = tuple(sorted(own_hand, key=order.__getitem__)) if q == 0 else ()
        players.append(
            PlayerView(
                vp=rng.randrange(0, 20),
                hero_up=rng.random() < 0.3 and num_players > 1,
                purchased=False,
                committed=False,
                age_rank=q,
                hand_size=len(hand) if q == 0 else others[q - 1],
                hand=hand,
                seen_of_mine=(),
                cities=tuple(tuple(row) for row in cities[q]),
            )
        )
    obs = Observation(
        observer=0,
        num_players=num_players,
        rules=rules_for(seed),
        season=rng.randint(1, 3 if num_players == 4 else 4),
        num_seasons=3 if num_players == 4 else 4,
        starter=0,
        last_purchaser=0,
        players=tuple(players),
        regent=RegentView(0, tuple(tuple(r) for r in cities[1])) if num_players == 1 else None,
        market=tuple(sorted(market, key=order.__getitem__)),
        discard=tuple(sorted(discard, key=order.__getitem__)),
        pile_size=pile_size,
        reserve_size=reserve_size,
        decision=Decision(phase="turn", player=0),
    )
    return state_from_observation(obs, seed=seed)


def _kind_order(name: str) -> int:
    colour, value = name.split("-")
    return COLOURS.index(colour) * 7 + int(value)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_starved_decks_every_property(num_players: int) -> None:
    """From positions with a nearly empty pile and discard pile (with the Reserve of four a
    real game always has), random play reshuffles and runs dry; every property still holds
    at every step, for every player."""
    for seed in range(4):
        state = starved_position(num_players, seed)
        play_checked(num_players, 10_000 + seed, rebuild_all=False, state=state)


def test_reshuffle_with_few_cards_keeps_every_card_once() -> None:
    """Regression (found here, fixed in 86c11cd "Fix draws that cannot be supplied"): with
    the pile empty and the discard pile and Reserve together holding at most four cards,
    a draw used to reshuffle them all into the new Reserve and then take pile[--pile_n] from
    an empty pile: pile_n (uint8) wrapped to 255 and a card was read from outside the pile.
    Smallest case: 2 players, pile and Reserve empty, one card in the discard pile
    (state_from_observation accepts any reserve_size from 0 to 4); player 0 plays `add`.
    Afterwards every card must still be in exactly one place."""
    state = starved_position(2, 0, pile_size=0, discard_size=1, reserve_size=0)
    state.check()
    state.apply_action(state.string_to_action("add"))
    state.check()
    assert sum(state.card_locations().values()) == NUM_CARDS
    assert state.observation(0).pile_size <= NUM_CARDS


def test_starved_position_builder_is_valid() -> None:
    """The helper above writes observations the engine accepts and reproduces exactly."""
    for n in PLAYER_COUNTS:
        for seed in range(5):
            state = starved_position(n, seed)
            state.check()
            assert state.observation(0).pile_size <= 6
    with pytest.raises(InvalidObservationError):
        starved_position(2, 0, reserve_size=5)


# --------------------------------------------------------------------------------------------
# Slow tier
# --------------------------------------------------------------------------------------------

SLOW_CONSERVATION_GAMES = 2000  # per player count: 8000 games
SLOW_DEEP_GAMES = 100  # per player count: 400 games with every round trip for every player


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_many_games_conservation_and_illegal_actions(num_players: int) -> None:
    """2000 seeded random games per player count: conservation, legal actions, 3 random
    illegal actions, clone independence and pickling at every step."""
    stats = Stats()
    for seed in range(1000, 1000 + SLOW_CONSERVATION_GAMES):
        play_checked(num_players, seed, deep=False, illegal_per_step=3, stats=stats)
    assert stats.games == SLOW_CONSERVATION_GAMES


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_many_games_round_trips_every_player(num_players: int) -> None:
    """100 more games per player count with everything, for every player at every step:
    hidden information, JSON, state_from_observation and resample round trips."""
    stats = Stats()
    for seed in range(200, 200 + SLOW_DEEP_GAMES):
        play_checked(num_players, seed, rebuild_all=True, stats=stats)
    assert stats.games == SLOW_DEEP_GAMES


@pytest.mark.slow
@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_many_games_resample_varies(num_players: int) -> None:
    """The resample variation property over 20 more games per player count, every step."""
    for seed in range(500, 520):
        state = new_game(num_players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            check_resample_varies(state, f"{num_players}p seed {seed}", tries=40)
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_many_starved_decks(num_players: int) -> None:
    """40 more starved-deck positions per player count, every property (rebuilds for every
    player in a quarter of them)."""
    for seed in range(100, 140):
        state = starved_position(num_players, seed)
        play_checked(num_players, 10_000 + seed, rebuild_all=seed % 4 == 0, state=state)
