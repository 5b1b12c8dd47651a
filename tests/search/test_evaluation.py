"""The games' position evaluation (truncated playouts) and the search's playout_depth."""

from __future__ import annotations

import random

import pytest

import engine
from engine.interface import State
from search.search import SearchConfig, search
from tests.citadels.positions import position as citadels_position
from tests.royal_cities.positions import position as royal_cities_position

TABLES = (
    [("royal_cities", n) for n in (1, 2, 3, 4)]
    + [("citadels", n) for n in range(2, 8)]
    + [("kuhn_poker", 2)]
)


def check_shares(state: State) -> None:
    """Per player within [0, 1], summing to 1 (solo: one chance against the Regent);
    the returns once the game is over."""
    shares = state.evaluate()
    assert len(shares) == state.num_players
    assert all(0.0 <= x <= 1.0 for x in shares)
    if state.num_players > 1:
        assert sum(shares) == pytest.approx(1.0)
    if state.is_terminal():
        assert shares == state.returns()


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_shares_along_random_games(game: str, players: int) -> None:
    for g in range(3):
        state = engine.new_game(game, players, seed=40 + g)
        rng = random.Random(g)
        while not state.is_terminal():
            check_shares(state)
            state.apply_action(rng.choice(state.legal_actions()))
        check_shares(state)


def test_royal_cities_a_player_far_ahead_gets_most_of_the_win() -> None:
    cities = {0: {"red": ["red-3", "red-5"], "blue": ["blue-4"]}, 1: {"red": ["red-1"]}}
    ahead = royal_cities_position(2, vp=[30, 8], cities=cities, season=2, hidden_hands={1: 2})
    assert ahead.evaluate()[0] > 0.9
    behind = royal_cities_position(2, vp=[8, 30], cities=cities, season=2, hidden_hands={1: 2})
    assert behind.evaluate()[0] < 0.1


def test_royal_cities_majorities_in_reach_count() -> None:
    """Level on VP, the holder of more majorities is the favourite."""
    cities = {0: {"red": ["red-3", "red-5"], "blue": ["blue-4"]}, 1: {"green": ["green-1"]}}
    state = royal_cities_position(2, vp=[10, 10], cities=cities, season=2, hidden_hands={1: 2})
    assert state.evaluate()[0] > 0.5


def test_royal_cities_solo_against_the_regent() -> None:
    ahead = royal_cities_position(1, vp=[25], regent_vp=5, season=2)
    behind = royal_cities_position(1, vp=[5], regent_vp=25, season=2)
    assert ahead.evaluate()[0] > 0.9 > 0.1 > behind.evaluate()[0]


def test_citadels_a_player_near_a_complete_city_gets_most_of_the_win() -> None:
    city = ["manor", "castle", "temple", "church", "tavern", "market"]
    state = citadels_position(called="architect", gold=[9, 2, 2, 2], cities={0: city},
                              phase="resource")  # fmt: skip
    shares = state.evaluate()
    assert shares[0] > 0.7
    assert shares[0] == max(shares)


def test_a_search_with_truncated_playouts_is_reproducible() -> None:
    for game, players in (("royal_cities", 2), ("citadels", 4)):
        state = engine.new_game(game, players, seed=3)
        config = SearchConfig(iterations=400, playout_depth=8, seed=1)
        first, second = search(state, config), search(state, config)
        assert first.iterations == 400 and first.capped == 0
        assert first.moves == second.moves
        # Truncated playouts simulate fewer actions than full ones.
        full = search(state, SearchConfig(iterations=400, seed=1))
        assert first.simulated_actions < full.simulated_actions


@pytest.mark.parametrize("value", [-1, 1_000_001, 2.5, True])
def test_playout_depth_out_of_range(value: object) -> None:
    with pytest.raises(ValueError) as info:
        SearchConfig(playout_depth=value)  # type: ignore[arg-type]
    assert str(info.value).startswith("playout_depth")


def _feature(state: State, player: int, j: int) -> float:
    """Citadels feature `j` of `player`, its late and early parts added back together."""
    from engine.citadels.evaluation import features

    row = features(state)[player]
    return row[j] + row[j + len(row) // 2]


def test_citadels_features_the_points_gold_can_build_cheapest_first() -> None:
    hands = {0: ["manor", "temple"]}  # cost 3 and 1
    assert _feature(citadels_position(gold=[4, 0, 0, 0], hands=hands), 0, 4) == 4
    assert _feature(citadels_position(gold=[3, 0, 0, 0], hands=hands), 0, 4) == 1
    built = citadels_position(gold=[4, 0, 0, 0], hands=hands, cities={0: ["temple"]})
    assert _feature(built, 0, 4) == 3  # a second temple cannot be built


def test_citadels_features_a_turn_still_to_come_this_round() -> None:
    """At the Thief's turn, after the Assassin killed the Warlord: the Thief and the holder
    of a character still to call have a turn to come; the Assassin and the Warlord not."""
    state = citadels_position(called="thief", revealed={"assassin": 1}, killed="warlord")
    warlord = state.holders()["warlord"]
    assert warlord not in (None, 0, 1)
    other = ({2, 3} - {warlord}).pop()
    turns = [_feature(state, p, 5) for p in range(4)]
    assert (turns[0], turns[1], turns[warlord], turns[other]) == (1, 0, 0, 1)
