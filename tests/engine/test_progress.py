"""Every game ends: random games from the deal, of every registered game at each of its
player counts, stay within the game's `max_game_length`. Each game's own suite
(tests/<game>/test_progress.py) fuzzes its observations and pins its documented bound."""

from __future__ import annotations

import pytest

import engine

CASES = [
    pytest.param(spec.name, n, id=f"{spec.name}-{n}")
    for spec in engine.games()
    for n in spec.player_counts
]


def assert_within_max_game_length(game: str, num_players: int, seeds: range) -> None:
    for seed in seeds:
        state = engine.new_game(game, num_players, seed=seed)
        assert state.playout(seed) <= state.max_game_length, f"seed {seed}"


@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_random_games_stay_within_max_game_length(game: str, num_players: int) -> None:
    assert_within_max_game_length(game, num_players, range(30))


@pytest.mark.slow
@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_random_games_stay_within_max_game_length_many(game: str, num_players: int) -> None:
    assert_within_max_game_length(game, num_players, range(30, 3030))
