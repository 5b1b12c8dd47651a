"""The search never peeks: what it returns depends on the player's information and the seed only.

`resample(p, seed)` deals what p does not know from the seed alone: the hidden cards go to
the hidden places in a canonical order, and what p cannot see (the others' secret choices,
who else knows a card, which of P7's two characters had been face down) is dealt or made
canonical. So the true state and a game rebuilt from p's observation alone (with an unrelated
seed for the rebuild's own deal) resample to the same world, and a search from either, with
the same seed, returns the same statistics, exactly. Positions come from random games
stopped at random steps, at every player count of both games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import engine
from engine.interface import State
from search.ismcts import playout_results
from search.search import ALGORITHMS, SearchConfig, SearchResult, position_value, search

GAMES = ("royal_cities", "citadels")


def positions(game: str, count: int, seed: int) -> Iterator[tuple[int, State]]:
    """`count` positions of `game`: (index, state) from seeded random games at random steps,
    the player counts taken in turn."""
    rng = random.Random(seed)
    counts = engine.game(game).player_counts
    k = 0
    while k < count:
        state = engine.new_game(game, counts[k % len(counts)], seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(300)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            yield k, state
            k += 1


def rebuilt(state: State, player: int, k: int) -> State:
    """The game as `player` knows it, rebuilt from its observation with a seed of its own."""
    return engine.state_from_observation(state.observation(player), seed=1_000_003 * k + 17)


def summary(result: SearchResult) -> tuple:
    """Everything a search reports except the time it took."""
    moves = tuple(
        (m.action, m.visits, m.mean_reward, m.win_chance, m.availability) for m in result.moves
    )
    return (moves, result.iterations, result.simulated_actions, result.nodes,
            result.principal_variation, result.capped)  # fmt: skip


def check_resamples(game: str, count: int, seed: int) -> None:
    for k, state in positions(game, count, seed):
        player = k % state.num_players
        again = rebuilt(state, player, k)
        a, b = state.resample(player, k), again.resample(player, k)
        context = (game, state.num_players, k, state.phase, player)
        assert a.current_player == b.current_player, context
        assert a.legal_actions() == b.legal_actions(), context
        for q in range(state.num_players):
            assert a.observation(q) == b.observation(q), (*context, q)


def check_searches(game: str, count: int, seed: int, iterations: int, **options: float) -> None:
    """Each algorithm, with the search `options` given, returns the same statistics from the
    truth and from the mover's observation, at `count` positions."""
    for k, state in positions(game, count, seed):
        player = state.current_player
        again = rebuilt(state, player, k)
        for algorithm in ALGORITHMS:
            config = SearchConfig(
                algorithm=algorithm, iterations=iterations, seed=k, worlds=4, **options
            )
            assert summary(search(state, config)) == summary(search(again, config)), (
                game, state.num_players, k, state.phase, algorithm)  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_resample_depends_on_the_players_information_only(game: str) -> None:
    """Every player's view of `resample(p, s)` is the same from the true state and from
    the game rebuilt from p's observation (200 positions per game)."""
    check_resamples(game, 200, seed=1)


@pytest.mark.parametrize("game", GAMES)
def test_search_from_the_observation_matches_the_search_from_the_truth(game: str) -> None:
    """Each algorithm returns the same statistics from both (60 positions per game)."""
    check_searches(game, 60, seed=2, iterations=60)


@pytest.mark.parametrize("game", GAMES)
def test_a_value_for_another_player_depends_on_its_information_only(game: str) -> None:
    """`position_value` for a player not to move deals from that player's information: the
    same value from the truth and from its observation (40 positions per game)."""
    for k, state in positions(game, 40, seed=7):
        observer = (state.current_player + 1 + k) % state.num_players
        again = rebuilt(state, observer, k)
        config = SearchConfig(iterations=60, seed=k)
        value = position_value(state, config, observer)
        assert value == position_value(again, config, observer), (game, k, observer)


@pytest.mark.parametrize("game", GAMES)
def test_playouts_from_the_observation_match_the_playouts_from_the_truth(game: str) -> None:
    """`playout_results`, which the heuristic's fit reads, deals from the mover's view too:
    the same means and variances from both (60 positions per game)."""
    for k, state in positions(game, 60, seed=5):
        again = rebuilt(state, state.current_player, k)
        assert playout_results(state, 4, 0.2, k) == playout_results(again, 4, 0.2, k), k


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_resample_depends_on_the_players_information_only_thousands(game: str) -> None:
    check_resamples(game, 3000, seed=3)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_search_never_peeks_over_thousands_of_positions(game: str) -> None:
    check_searches(game, 1500, seed=4, iterations=100)
