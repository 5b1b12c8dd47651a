"""Every Royal Cities game ends: from the deal and from every observation the engine accepts.

`state_from_observation` refuses, naming the field, the observations play could never end
from (or would corrupt the game from): every player marked purchased while the Season's
turns go on (the Season ends only at its last purchase), purchase marks before a Season's
first turn, secret choices out of seat order, a pass without two cards, drawn cards that do
not fit the decision, a Market no play leaves, an Astrologer's or construction selection
the rules forbid. Everything it accepts plays to the end under random moves within
`max_game_length` (the engine ends a game after its turn limit; no random game comes near;
random games from the deal are every game's, in tests/engine/test_progress.py).

Fuzzing: the example files and observations of random games at random steps (and the
starved decks of the property tests), broken at random in one to three places (purchase,
Hero and commitment marks, the decision's phase, player and context, cards moved between
places, counts changed, hands and Cities emptied), seeded. The fast tier runs a few hundred
per case list, the slow tier thousands. A failure names the seed: `fuzz_case(seed)` rebuilds it.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import engine
from engine import InvalidObservationError
from engine.royal_cities.observation import PHASES
from engine.royal_cities.progress import max_game_length
from tests.royal_cities.positions import position
from tests.royal_cities.test_properties import starved_position
from tests.support.progress import example, play_to_end, refused_field

EXAMPLE_FILES = ("royal-cities-2p.json", "royal-cities-4p.json", "royal-cities-solo.json")
MARKET4 = ["purple-1", "yellow-2", "red-3", "green-4"]


def random_observation(rng: random.Random) -> dict[str, Any]:
    """Some player's observation at a random step of a random game (or a starved deck)."""
    n = rng.choice((1, 2, 3, 4))
    if rng.random() < 0.15:
        state = starved_position(n, rng.randrange(10**6))
    else:
        state = engine.new_game("royal_cities", n, seed=rng.randrange(10**6))
    for _ in range(rng.randrange(250)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player
    if player < 0 or rng.random() < 0.3:
        player = rng.randrange(n)
    return state.observation(player).to_json()


def _place(data: dict[str, Any], rng: random.Random) -> list[str]:
    """One of the lists of cards an observation names, at random."""
    which = rng.randrange(5)
    if which == 0:
        return data["market"]
    if which == 1:
        return data["discard"]
    if which == 2:
        return data["decision"]["drawn"]
    if which == 3:
        return data["players"][data["observer"]]["hand"]
    return rng.choice(data["players"])["cities"][rng.randrange(6)]


def mutate(data: dict[str, Any], rng: random.Random) -> None:
    """Break one thing at random (counts are put right afterwards by `balance`, mostly)."""
    players, d = data["players"], data["decision"]
    n, me = len(players), players[data["observer"]]
    view = rng.choice(players)
    kind = rng.randrange(20)
    if kind == 0:
        view["purchased"] = not view["purchased"]
    elif kind == 1:
        for v in players:
            v["purchased"] = rng.random() < 0.7
    elif kind == 2:
        d["phase"] = rng.choice(PHASES)
    elif kind == 3:
        d["player"] = rng.randrange(n)
    elif kind == 4:
        view["hero_up"] = not view["hero_up"]
    elif kind == 5:
        view["committed"] = not view["committed"]
    elif kind == 6:
        for q, v in enumerate(players):
            v["committed"] = q < (d["player"] or 0)
    elif kind == 7:
        source = _place(data, rng)
        if source:
            _place(data, rng).append(source.pop(rng.randrange(len(source))))
    elif kind == 8:
        total = data["pile_size"] + data["reserve_size"]
        data["reserve_size"] = rng.randint(0, min(4, total))
    elif kind == 9:
        if view is not me:
            view["hand_size"] = rng.randint(len(view["hand"]), view["hand_size"] + 3)
    elif kind == 10:
        data["pile_size"] = rng.randrange(3)
    elif kind == 11:
        d["turn_played"] = not d["turn_played"]
    elif kind == 12:
        d["effect"] = rng.choice([None, 0, 1, 2, 3, 4, 5, 6])
        d["from_revolt"] = rng.random() < 0.5
    elif kind == 13:
        data["season"] = rng.randint(1, data["num_seasons"])
        data["last_purchaser"] = rng.randrange(n)
    elif kind == 14:
        d["power"] = rng.randrange(21)
        d["taken"] = rng.randrange(4)
        d["min_card"] = rng.choice([None, "purple-0", "red-3", "white-6"])
    elif kind == 15:
        view["vp"] = rng.choice([0, 9, 10, 49, 500, 10_000])
    elif kind == 16:
        for v in players:
            data["discard"] += v["hand"]
            v["hand_size"] -= len(v["hand"])
            v["hand"] = []
    elif kind == 17:
        for v in players:
            for city in v["cities"]:
                data["discard"] += city
                city.clear()
    elif kind == 18:
        d["tax_left"] = rng.randrange(4)
        d["regent_draws"] = rng.randrange(5)
        d["resume"] = rng.choice(["setup", "catch_up"])
    else:
        d["drawn_hidden"] = rng.randrange(4)
        d["knight_from"] = rng.choice([None, "p0 red", "p1 blue", "regent green"])
    me["hand_size"] = len(me["hand"])


def balance(data: dict[str, Any]) -> None:
    """Make the hidden pile take up the difference to 85 cards."""
    shown = len(data["market"]) + len(data["discard"]) + len(data["decision"]["drawn"])
    owners = list(data["players"]) + ([data["regent"]] if data["regent"] else [])
    shown += sum(len(city) for owner in owners for city in owner["cities"])
    shown += sum(v["hand_size"] for v in data["players"])
    hidden = data["reserve_size"] + data["decision"]["drawn_hidden"]
    data["pile_size"] = 85 - shown - hidden


def fuzz_case(seed: int) -> dict[str, Any]:
    """The fuzzed observation of `seed`."""
    rng = random.Random(seed)
    data = example(rng.choice(EXAMPLE_FILES)) if rng.random() < 0.3 else random_observation(rng)
    for _ in range(rng.randint(1, 3)):
        mutate(data, rng)
    if rng.random() < 0.8:
        balance(data)
    return data


def check_case(seed: int) -> str:
    """Refused with a field, or played to a natural end within the bound."""
    data = fuzz_case(seed)
    try:
        state = engine.state_from_observation(copy.deepcopy(data), seed=seed)
    except InvalidObservationError as err:
        assert err.field, f"seed {seed}: an error without a field: {err}"
        return "refused"
    play_to_end(state, state.max_game_length, seed, f"seed {seed}")
    end = state.observation(0)
    # The turn limit ends a game early; random play from an accepted position never needs it.
    assert end.season == end.num_seasons, f"seed {seed}: ended by the turn limit"
    return "ended"


def test_fuzzed_observations_are_refused_or_played_to_the_end() -> None:
    outcomes = [check_case(seed) for seed in range(300)]
    assert outcomes.count("ended") > 50 and outcomes.count("refused") > 50


@pytest.mark.slow
def test_fuzzed_observations_are_refused_or_played_to_the_end_many() -> None:
    for seed in range(300, 4300):
        check_case(seed)


def test_max_game_length_is_the_documented_bound() -> None:
    lengths = [engine.new_game("royal_cities", n).max_game_length for n in (1, 2, 3, 4)]
    assert lengths == [max_game_length(n) for n in (1, 2, 3, 4)]
    assert lengths == [23356, 23442, 23617, 23597]


def test_the_turn_limit_ends_a_game_that_could_go_on_forever() -> None:
    """Nothing can be drawn and the Market holds four cards: a player who has not purchased
    may add (drawing nothing) every turn instead of purchasing, and the Season would never
    end. The engine ends the game after its turn limit, within max_game_length."""
    state = position(
        2, market=MARKET4, pile=[], reserve_size=0, hidden_hands={1: 81}, purchased=(1,)
    )
    assert state.observation(0).discard == ()
    bound = state.max_game_length
    steps = 0
    while not state.is_terminal():
        state.apply_action(state.string_to_action("add"))
        steps += 1
    assert 1000 <= steps <= bound
    assert state.season == 1


# -- the livelock class, from known positions ------------------------------------------------


def test_the_example_with_everybody_purchased_is_refused() -> None:
    """The case found: in the 2-player example, player 1 (to act) has purchased; marking
    player 0 too left `add` as the only move, forever."""
    data = example("royal-cities-2p.json")
    assert data["decision"]["phase"] == "turn" and data["players"][1]["purchased"]
    engine.state_from_observation(copy.deepcopy(data), seed=1)
    data["players"][0]["purchased"] = True
    assert refused_field(data) == "players[0].purchased"


@pytest.mark.parametrize("phase", ("turn", "purchase", "effect"))
def test_every_player_purchased_during_the_turns_is_refused(phase: str) -> None:
    base = position(3, market=MARKET4, purchased=(0, 2), last_purchaser=2, hands={0: ["red-1"]})
    obs = base.observation(0).to_json()
    obs["players"][1]["purchased"] = True
    obs["decision"].update(phase=phase, player=1, effect=0 if phase == "effect" else None)
    assert refused_field(obs) == "players[0].purchased"


def test_solo_purchased_during_the_turns_is_refused() -> None:
    obs = position(1, market=MARKET4).observation(0).to_json()
    obs["players"][0]["purchased"] = True
    assert refused_field(obs) == "players[0].purchased"


def test_the_purchaser_marked_purchased_is_refused() -> None:
    obs = position(2, market=MARKET4, purchased=(1,)).observation(0).to_json()
    obs["decision"].update(phase="purchase", player=1, power=8, min_card="purple-0")
    assert refused_field(obs) == "players[1].purchased"


@pytest.mark.parametrize(
    ("phase", "num_players"), [("pass", 2), ("first_build", 3), ("solo_own", 1)]
)
def test_a_purchase_mark_before_the_first_turn_is_refused(phase: str, num_players: int) -> None:
    obs = position(num_players, market=MARKET4, hands={0: ["red-1", "red-2", "blue-3"]})
    data = obs.observation(0).to_json()
    data["decision"]["phase"] = phase
    data["players"][0]["purchased"] = True
    assert refused_field(data) == "players[0].purchased"


def passing(**changes: Any) -> dict[str, Any]:
    """Player 0's view while passing in a 3-player game (player 0 to choose), then changed."""
    state = position(3, phase="pass", hands={0: ["red-1", "red-2", "blue-3"]},
                     hidden_hands={1: 3, 2: 3})  # fmt: skip
    data = state.observation(0).to_json()
    data["decision"].update(changes)
    return data


def test_a_pass_without_two_cards_is_refused() -> None:
    data = passing()
    data["players"][1]["hand_size"] = 1
    data["pile_size"] += 2
    assert refused_field(data) == "players[1].hand_size"


def test_secret_choices_out_of_seat_order_are_refused() -> None:
    """Player 1 to pass, but player 0 has not passed yet: play would come back to no one."""
    assert refused_field(passing(player=1)) == "players[0].committed"


def test_out_of_order_while_the_observer_chooses_names_it_you() -> None:
    """The refusal says "you" for the observer (a translation then agrees), P1..Pn for others."""
    data = passing()
    data["players"][0]["committed"] = True
    with pytest.raises(InvalidObservationError) as err:
        engine.state_from_observation(data)
    assert err.value.field == "players[0].committed"
    assert "while you choose" in err.value.reason
    with pytest.raises(InvalidObservationError) as err:
        engine.state_from_observation(passing(player=1))
    assert "with P2 choosing" in err.value.reason


def test_the_observers_passes_must_fit_its_turn_to_choose() -> None:
    engine.state_from_observation(passing(passes=["red-1"]))
    assert refused_field(passing(passes=["red-1", "red-2"])) == "decision.passes"


def test_a_hero_choice_without_two_drawn_cards_is_refused() -> None:
    data = position(2, market=MARKET4, hero_up=(0,)).observation(0).to_json()
    data["decision"]["phase"] = "hero_keep"
    data["decision"]["drawn"] = ["blue-5"]
    data["pile_size"] -= 1
    assert refused_field(data) == "decision.drawn"
    data["decision"]["drawn"] = ["blue-5", "blue-6"]
    data["pile_size"] -= 1
    engine.state_from_observation(data)


def test_a_market_no_play_leaves_is_refused() -> None:
    """Three colours shown three times each: only the first four cards may repeat a colour
    beyond two, so a Market like this could grow past sixteen cards."""
    market = ["red-1", "red-2", "red-3", "blue-1", "blue-2", "blue-3", "green-1", "green-2"]
    data = position(2, market=market).observation(0).to_json()
    data["market"].append("green-3")
    data["pile_size"] -= 1
    assert refused_field(data) == "market"


def test_an_astrologer_selection_the_rules_forbid_is_refused() -> None:
    """A card chosen for a City whose top card is higher."""
    state = position(
        2, phase="effect", effect=6, turn_played=True, cities={0: {"yellow": ["yellow-5"]}},
        drawn=("yellow-4", "red-4", "green-5"), selection=(),
    )  # fmt: skip
    data = state.observation(0).to_json()
    data["decision"]["selection"] = [["yellow-4", "yellow"]]
    assert refused_field(data) == "decision.selection[0]"
