"""Every Citadels game ends: from the deal and from every observation the engine accepts.

Each turn is finite (every action but building is offered once per turn, builds are
counted, the Magician puts cards under one by one from a finite hand) and the engine ends a
game after round 200, so a game takes at most `max_game_length` actions. The observations
play from would break the rules are refused, naming the field: a robbery without the Thief
(its gold would go to nobody), a self-killed Assassin, a Graveyard offer out of the
Warlord's turn, to a player without the Graveyard, to the Warlord or without the gold.

Fuzzing: the example files and observations of random games at random steps, broken at
random in one to three places (round, crown, gold, hand and deck sizes, the decision's
phase, player, character and turn flags, killed and robbed characters, revealed characters,
cards moved between hand and cities, cities filled up), seeded. Every accepted observation
plays to the end under random moves within the bound left from its round; every refused
one raises InvalidObservationError with a field. `fuzz_case(seed)` rebuilds a failure.
Random games from the deal are every game's, in tests/engine/test_progress.py.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

import engine
from engine import InvalidObservationError
from engine.citadels import CitadelsState
from engine.citadels.cards import CHARACTERS, DISTRICTS
from engine.citadels.observation import PHASES
from engine.citadels.progress import max_game_length
from tests.citadels.positions import position
from tests.support.progress import example, play_to_end, refused_field

EXAMPLE_FILES = ("citadels-4p.json", "citadels-7p.json")
PLAYERS = range(2, 8)


def random_observation(rng: random.Random) -> dict[str, Any]:
    """Some player's observation at a random step of a random game."""
    n = rng.choice(PLAYERS)
    state = engine.new_game("citadels", n, seed=rng.randrange(10**6))
    for _ in range(rng.randrange(400)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player
    if player < 0 or rng.random() < 0.3:
        player = rng.randrange(n)
    return state.observation(player).to_json()


def _fill_city(data: dict[str, Any], view: dict[str, Any], rng: random.Random) -> None:
    """Build districts from the deck's unknown cards into a city, up to eight."""
    named: Counter[str] = Counter(data["decision"]["drawn"])
    for v in data["players"]:
        named.update(v["city"])
        named.update(v["hand"])
    named.update(name for _, name in data["deck_known"])
    for name, _, _, copies in DISTRICTS:
        unknown = data["deck_size"] - len(data["deck_known"])
        if len(view["city"]) >= 8 or unknown <= 0:
            return
        if name not in view["city"] and named[name] < copies:
            view["city"].append(name)
            view["built_rounds"].append(rng.randint(1, data["round"]))
            data["deck_size"] -= 1


def mutate(data: dict[str, Any], rng: random.Random) -> None:
    """Break one thing at random."""
    players, d = data["players"], data["decision"]
    n, me = len(players), players[data["observer"]]
    view = rng.choice(players)
    kind = rng.randrange(18)
    if kind == 0:
        data["round"] = rng.choice([1, 2, 150, 199, 200])
    elif kind == 1:
        data["crown"] = rng.randrange(n)
        data["first_picker"] = rng.randrange(n)
    elif kind == 2:
        view["gold"] = rng.choice([0, 1, 2, 6, 50, 10_000])
    elif kind == 3:
        if view is not me:
            size = rng.randint(len(view["hand"]), view["hand_size"] + 3)
            data["deck_size"] += view["hand_size"] - size
            view["hand_size"] = size
    elif kind == 4:
        # The deck's unknown cards all go to one opponent's hand: an empty deck.
        if view is not me:
            view["hand_size"] += data["deck_size"] - len(data["deck_known"])
            data["deck_size"] = len(data["deck_known"])
    elif kind == 5:
        d["phase"] = rng.choice(PHASES)
    elif kind == 6:
        d["player"] = rng.randrange(n)
    elif kind == 7:
        d["called"] = rng.choice(CHARACTERS)
    elif kind == 8:
        d["builds_left"] = rng.randrange(4)
        for flag in ("income_done", "power_done", "laboratory_done", "smithy_done"):
            d[flag] = rng.random() < 0.5
    elif kind == 9:
        data["killed"] = rng.choice([None, *CHARACTERS])
    elif kind == 10:
        data["robbed"] = rng.choice([None, *CHARACTERS])
    elif kind == 11:
        character, q = rng.choice(CHARACTERS), rng.randrange(n)
        data["revealed"] = [r for r in data["revealed"] if r[0] != character] + [[character, q]]
        players[q]["characters"] = sorted({*players[q]["characters"], character})
    elif kind == 12:
        data["first_complete"] = rng.choice([None, *range(n)])
    elif kind == 13:
        if me["hand"]:
            view["city"].append(me["hand"].pop(rng.randrange(len(me["hand"]))))
            view["built_rounds"].append(rng.randint(1, data["round"]))
            me["hand_size"] -= 1
    elif kind == 14:
        if view["city"]:
            i = rng.randrange(len(view["city"]))
            me["hand"].append(view["city"].pop(i))
            view["built_rounds"].pop(i)
            me["hand_size"] += 1
    elif kind == 15:
        d["keep_left"] = rng.randrange(3)
        d["drawn_hidden"] = rng.randrange(4)
        d["redraw_count"] = rng.randrange(5)
    elif kind == 16:
        d["warlord"] = rng.choice([None, *range(n)])
        d["destroyed"] = rng.choice([None, "manor"])
    else:
        _fill_city(data, view, rng)


def fuzz_case(seed: int) -> dict[str, Any]:
    """The fuzzed observation of `seed`."""
    rng = random.Random(seed)
    data = example(rng.choice(EXAMPLE_FILES)) if rng.random() < 0.3 else random_observation(rng)
    for _ in range(rng.randint(1, 3)):
        mutate(data, rng)
    return data


def check_case(seed: int) -> str:
    """Refused with a field, or played to the end within the bound left from its round."""
    data = fuzz_case(seed)
    try:
        state = engine.state_from_observation(copy.deepcopy(data), seed=seed)
    except InvalidObservationError as err:
        assert err.field, f"seed {seed}: an error without a field: {err}"
        return "refused"
    state.check()
    bound = max_game_length(state.num_players, from_round=state.round)
    assert bound <= state.max_game_length
    play_to_end(state, bound, seed, f"seed {seed}")
    return "ended"


def test_fuzzed_observations_are_refused_or_played_to_the_end() -> None:
    outcomes = [check_case(seed) for seed in range(250)]
    assert outcomes.count("ended") > 50 and outcomes.count("refused") > 50


@pytest.mark.slow
def test_fuzzed_observations_are_refused_or_played_to_the_end_many() -> None:
    for seed in range(250, 3250):
        check_case(seed)


def test_max_game_length_is_the_documented_bound() -> None:
    lengths = [engine.new_game("citadels", n).max_game_length for n in PLAYERS]
    assert lengths == [200 * ((6 if n <= 3 else n) + 127) for n in PLAYERS]
    assert lengths == [max_game_length(n) for n in PLAYERS]


def test_the_last_round_ends_the_game() -> None:
    """Round 200: whatever is built, the game ends when the round does."""
    state = position(round=200)
    play_to_end(state, max_game_length(4, from_round=200), 1, "round 200")
    assert state.round == 200


# -- what play cannot go on from, by name -------------------------------------------------------


def view_of(state: CitadelsState) -> dict[str, Any]:
    return state.observation(state.current_player).to_json()


def test_a_robbery_without_the_thief_is_refused() -> None:
    """The Assassin's turn: nobody has robbed yet (the robbed character's gold would go to
    a Thief nobody holds)."""
    data = view_of(position(called="assassin"))
    data["robbed"] = "warlord"
    assert refused_field(data) == "robbed"


def test_robbing_the_killed_character_is_refused() -> None:
    data = view_of(position(called="magician", revealed={"assassin": 1, "thief": 2}))
    data["killed"] = "king"
    engine.state_from_observation(copy.deepcopy(data))
    data["robbed"] = "king"
    assert refused_field(data) == "robbed"


def test_a_killed_assassin_is_refused() -> None:
    data = view_of(position(called="magician", revealed={"assassin": 1}))
    data["killed"] = "assassin"
    assert refused_field(data) == "killed"


def graveyard_offer(called: str = "warlord") -> dict[str, Any]:
    """Player 1's view of the Graveyard's offer after player 0, in the turn of `called`,
    destroyed player 2's Castle (written by hand when `called` is not the Warlord)."""
    state = position(called=called, gold=[9, 2, 2, 2], revealed={"bishop": 3},
                     cities={1: ["graveyard", "manor"], 2: ["castle"]})  # fmt: skip
    if called == "warlord":
        state.apply_action(state.string_to_action("destroy p2 castle"))
        assert state.phase == "graveyard"
        return state.observation(1).to_json()
    data = state.observation(1).to_json()
    data["players"][2]["city"] = []
    data["players"][2]["built_rounds"] = []
    data["decision"].update(phase="graveyard", player=1, warlord=0, destroyed="castle")
    return data


def test_a_graveyard_offer_needs_the_warlords_turn() -> None:
    engine.state_from_observation(graveyard_offer())
    assert refused_field(graveyard_offer("architect")) == "decision.called"


def test_a_graveyard_offer_goes_to_its_owner_with_gold() -> None:
    data = graveyard_offer()
    data["players"][1]["gold"] = 0
    assert refused_field(data) == "players[1].gold"
    data = graveyard_offer()
    data["decision"]["player"] = 2
    assert refused_field(data) == "decision.player"
