"""`bias`: progressive bias toward the game's heuristic. At every tree node the heuristic's
move in the iteration's world is expanded first and gets B / (visits + 1) on its UCB value.
The first iteration visits the root's heuristic move; the bias fades with the visits; the
heuristic reads the dealt world, so the search still reads only the player's information."""

from __future__ import annotations

import pytest

from search.ismcts import heuristic_action
from search.search import SearchConfig, search
from tests.search.test_never_peeks import check_searches, positions, summary

GAMES = ["citadels", "royal_cities"]


@pytest.mark.parametrize("game", GAMES)
def test_the_first_iteration_visits_the_heuristics_move(game: str) -> None:
    """One iteration expands one root move: the heuristic's in some world of the player's
    information (its move may hang on what the others hold, and on its own ties)."""
    checked = 0
    for k, state in positions(game, 12, seed=7):
        if len(state.legal_actions()) < 2:
            continue
        player = state.current_player
        result = search(state, SearchConfig(iterations=1, seed=k, bias=1.0))
        visited = [m.action for m in result.moves if m.visits > 0]
        worlds = (state.resample(player, seed) for seed in range(40))
        choices = {heuristic_action(world, seed, True) for seed, world in enumerate(worlds)}
        assert visited and visited[0] in choices, (game, k, state.action_to_string(visited[0]))
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("game", GAMES)
def test_without_bias_the_first_move_is_any_untried_one(game: str) -> None:
    """The default (bias 0) expands a random untried move: over seeds, more than one."""
    state = next(s for _, s in positions(game, 12, seed=7) if len(s.legal_actions()) >= 4)
    firsts = set()
    for seed in range(30):
        result = search(state, SearchConfig(iterations=1, seed=seed))
        firsts |= {m.action for m in result.moves if m.visits > 0}
    assert len(firsts) > 1


@pytest.mark.parametrize("game", GAMES)
def test_a_biased_search_is_a_full_search(game: str) -> None:
    """The bias steers, it does not prune: every root move is tried, the budget is spent."""
    state = next(s for _, s in positions(game, 12, seed=3) if len(s.legal_actions()) >= 3)
    result = search(state, SearchConfig(iterations=3000, seed=1, bias=3.0))
    assert result.iterations == 3000
    assert {m.action for m in result.moves if m.visits > 0} == set(state.legal_actions())
    again = search(state, SearchConfig(iterations=3000, seed=1, bias=3.0))
    assert summary(again) == summary(result)


@pytest.mark.parametrize("game", GAMES)
def test_biased_searches_never_peek(game: str) -> None:
    check_searches(game, 12, seed=5, iterations=300, bias=3.0)


@pytest.mark.parametrize("bad", [-0.5, 101.0, float("nan"), "3", True])
def test_a_bias_out_of_range_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="bias"):
        SearchConfig(bias=bad)  # type: ignore[arg-type]
