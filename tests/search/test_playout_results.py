"""`playout_results`: the playout policy's mean returns from a position, as the heuristic's
fit reads them."""

from __future__ import annotations

import pytest

import engine
from engine.heuristics import weight_table
from search.ismcts import playout_results


def midgame(game: str, players: int, actions: int = 40) -> engine.State:
    state = engine.new_game(game, players, seed=7)
    for _ in range(actions):
        state.apply_action(state.legal_actions()[0])
    return state


TABLES = [("citadels", 2), ("citadels", 7), ("royal_cities", 2), ("royal_cities", 4)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_means_share_the_win_and_the_seed_decides(game: str, players: int) -> None:
    state = midgame(game, players)
    before = state.observation(state.current_player)
    means, variances = playout_results(state, 50, 0.2, seed=3)
    assert len(means) == len(variances) == players
    assert sum(means) == pytest.approx(1.0)
    assert all(0.0 <= m <= 1.0 for m in means)
    assert all(0.0 <= v <= 0.25 / 49 for v in variances)  # p(1-p)/(n-1) at most
    assert playout_results(state, 50, 0.2, seed=3) == (means, variances)
    assert playout_results(state, 50, 0.2, seed=4) != (means, variances)
    assert state.observation(state.current_player) == before


def test_epsilon_one_plays_uniformly_at_random_whatever_the_heuristic() -> None:
    table = weight_table("citadels")
    state = midgame("citadels", 4)
    random_play = playout_results(state, 20, 1.0, seed=1)
    table.set({"base_king": -5.0})
    try:
        assert playout_results(state, 20, 1.0, seed=1) == random_play
    finally:
        table.reset()


@pytest.mark.parametrize(("playouts", "epsilon", "reason"),
                         [(1, 0.2, "playouts must be at least 2"), (8, -0.1, "epsilon"),
                          (8, 1.5, "epsilon")])  # fmt: skip
def test_bad_arguments(playouts: int, epsilon: float, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        playout_results(midgame("citadels", 3), playouts, epsilon, seed=1)


def test_a_finished_game_has_nothing_to_play_out() -> None:
    state = engine.new_game("citadels", 2, seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    with pytest.raises(ValueError, match="the game is over"):
        playout_results(state, 8, 0.2, seed=1)
