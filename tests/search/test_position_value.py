"""`position_value`: a search for a player whoever is to move, read as that player's win
chance; for the player to move it is its most visited move's; bad observers are named."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from search.bots import HeuristicBot
from search.search import SearchConfig, position_value, search


def _midgame(game: str, players: int, seed: int, moves: int) -> engine.State:
    state = engine.new_game(game, players, seed=seed)
    for number in range(moves):
        state.apply_action(HeuristicBot().choose(state, number))
    return state


@pytest.mark.parametrize(("game", "players"), [("royal_cities", 2), ("citadels", 4)])
def test_for_the_player_to_move_it_is_its_most_visited_moves_win_chance(
    game: str, players: int
) -> None:
    state = _midgame(game, players, seed=3, moves=12)
    config = SearchConfig(iterations=800, seed=5)
    value = position_value(state, config, state.current_player)
    assert value == pytest.approx(search(state, config).moves[0].win_chance, abs=1e-6)


@pytest.mark.parametrize(("game", "players"), [("royal_cities", 3), ("citadels", 5)])
def test_for_every_other_player_a_win_chance_from_its_seed(game: str, players: int) -> None:
    state = _midgame(game, players, seed=4, moves=15)
    config = SearchConfig(iterations=600, seed=2)
    for observer in range(players):
        value = position_value(state, config, observer)
        assert 0.0 <= value <= 1.0
        assert value == position_value(state, config, observer)
    others = [p for p in range(players) if p != state.current_player]
    assert len({position_value(state, replace(config, seed=s), others[0]) for s in range(3)}) > 1


def test_a_won_position_is_worth_more_to_its_leader() -> None:
    """Late in a Royal Cities game between two heuristic players, the searched values of the
    two seats, whoever is to move, lean the same way and sum to about one."""
    state = _midgame("royal_cities", 2, seed=8, moves=60)
    config = SearchConfig(iterations=3000, seed=1)
    values = [position_value(state, config, p) for p in range(2)]
    assert abs(sum(values) - 1.0) < 0.2, values


def test_the_default_bots_options_search_for_another_player() -> None:
    """Citadels' default reads the draft (`infer`) from the searched player's information."""
    state = _midgame("citadels", 4, seed=6, moves=3)
    config = SearchConfig(iterations=400, seed=1, infer=64, rank_weight=0.5)
    observer = (state.current_player + 1) % 4
    assert 0.0 <= position_value(state, config, observer) <= 1.0


@pytest.mark.parametrize(
    ("observer", "config", "words"),
    [
        (2, SearchConfig(iterations=50), "observer must be a seat within [0, 1], got 2"),
        (-2, SearchConfig(iterations=50), "observer must be a seat within [0, 1], got -2"),
        (0, SearchConfig(algorithm="so-ismcts", iterations=50), "only MO-ISMCTS"),
        (0, SearchConfig(algorithm="pimc", iterations=50), "only MO-ISMCTS"),
        (0, SearchConfig(iterations=50, show=3), "no show, whole_game or tree reuse"),
    ],
)
def test_a_search_that_cannot_be_for_the_observer_is_refused(
    observer: int, config: SearchConfig, words: str
) -> None:
    state = engine.new_game("royal_cities", 2, seed=1)
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        position_value(state, config, observer)


def test_a_finished_game_is_refused() -> None:
    state = engine.new_game("royal_cities", 2, seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over"):
        position_value(state, SearchConfig(iterations=50), 0)


def test_moves_the_player_chose_at_equal_rates_are_ranked_and_the_value_returns() -> None:
    """A move valued by bench/hint_quality.py (Royal Cities 2p, game 4, decision 19, `build
    red-1 red`, its eighth world) whose search has a decision with moves chosen at equal
    rates where available: ranked by floating-point products they made a cycle, and the
    value never returned."""
    from search.review import ReviewConfig, Reviewer, decisions_of_game

    deal, moves = engine.new_game("royal_cities", 2, seed=4), []
    state = deal.clone()
    while not state.is_terminal():
        action = HeuristicBot().choose(state, 40_000 + len(moves))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    config = ReviewConfig(iterations=6000, deep_iterations=6000, seed=4)
    reviewer = Reviewer(decisions_of_game(deal, moves, 0), config)
    moment = next(m for m in reviewer.moments if m.number == 19)
    value = reviewer.value_searched(moment, moment.state.string_to_action("build red-1 red"), 7)
    assert value is not None and 0.0 <= value <= 1.0
