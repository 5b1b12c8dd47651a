"""Tree reuse: a bot's next search of the same player goes on from the subtree below the move
it played, when the player saw nothing happen since but that move."""

from __future__ import annotations

import random

import pytest

import engine
from engine.interface import State
from search.bots import SearchBot, make_bot
from search.search import Search, SearchConfig

ALGORITHMS = ["mo-ismcts", "so-ismcts"]
TABLES = [("royal_cities", 2), ("royal_cities", 4), ("citadels", 4)]


def _same_player_again(game: str, players: int, seed: int) -> tuple[State, int]:
    """A position of a seeded random game, and a move from it after which the same player
    moves again with nothing drawn (a purchase, a build's first card, a pick of a power...)."""
    state = engine.new_game(game, players, seed=seed)
    rng = random.Random(seed)
    while True:
        player = state.current_player
        for action in state.legal_actions():
            world = state.resample(player, seed)
            world.apply_action(action)
            after = state.clone()
            after.apply_action(action)
            if (
                not after.is_terminal()
                and after.current_player == player
                and after.observation(player) == world.observation(player)
                and len(after.legal_actions()) > 1
            ):
                return state, action
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_next_search_starts_from_the_subtree_below_the_move(
    algorithm: str, game: str, players: int
) -> None:
    state, action = _same_player_again(game, players, seed=3)
    first = Search(state, SearchConfig(algorithm=algorithm, iterations=3000, seed=1))
    first.advance()
    after = state.clone()
    after.apply_action(action)
    config = SearchConfig(algorithm=algorithm, iterations=500, seed=2)
    kept = Search(after, config, previous=first, played=action)
    carried = sum(m.visits for m in kept.result().moves)
    assert carried > 100  # the subtree's own statistics, before a single new iteration
    kept.advance()
    result = kept.result()
    assert result.iterations == 500  # the budget is the new search's own
    assert sum(m.visits for m in result.moves) == carried + 500
    assert result.action in after.legal_actions()


def test_a_search_that_cannot_follow_is_refused() -> None:
    state, action = _same_player_again("royal_cities", 2, seed=3)
    after = state.clone()
    after.apply_action(action)
    config = SearchConfig(iterations=200, seed=1)

    first = Search(state, config)
    first.advance()
    with pytest.raises(ValueError, match="same number of threads"):
        Search(after, SearchConfig(iterations=200, threads=2), previous=first, played=action)
    with pytest.raises(ValueError, match="same algorithm"):
        Search(after, SearchConfig(algorithm="so-ismcts", iterations=200), previous=first,
               played=action)  # fmt: skip
    other = engine.new_game("royal_cities", 2, seed=5)
    while other.current_player == state.current_player:
        other.apply_action(other.legal_actions()[0])
    with pytest.raises(ValueError, match="same player"):
        Search(other, config, previous=first, played=action)
    Search(after, config, previous=first, played=action)
    with pytest.raises(ValueError, match="already reused"):
        Search(after, config, previous=first, played=action)
    with pytest.raises(ValueError, match="PIMC"):
        SearchConfig(algorithm="pimc", iterations=200, reuse=1)


def _play(game: str, players: int, feed, spec: str, seed: int) -> tuple[list[int], list[int]]:
    """A seeded game of `spec` bots, each given `feed(state, seat)`; the moves and how many
    searches each bot took on from the one before."""
    state = engine.new_game(game, players, seed=seed)
    bots = [make_bot(spec, game, players) for _ in range(players)]
    moves = []
    while not state.is_terminal():
        seat = state.current_player
        action = bots[seat].choose(feed(state, seat), seed * 1000 + len(moves))
        assert action in state.legal_actions()
        moves.append(action)
        state.apply_action(action)
    return moves, [bot.reused for bot in bots if isinstance(bot, SearchBot)]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_reusing_bot_never_peeks(algorithm: str, game: str, players: int) -> None:
    """Bots given the true state and bots given the state typed in from their observation
    play the same game: whether a tree is kept depends on the player's information only."""
    spec = f"{algorithm}:iterations=150,reuse=1"
    from_truth, reused = _play(game, players, lambda s, seat: s.clone(), spec, seed=2)
    typed_in, reused_typed = _play(
        game, players, lambda s, seat: engine.state_from_observation(s.observation(seat), seed=9),
        spec, seed=2,
    )  # fmt: skip
    assert typed_in == from_truth
    assert reused == reused_typed
    assert sum(reused) > len(from_truth) // 4  # most own move sequences keep their trees


def test_reuse_is_reproducible() -> None:
    spec = "mo-ismcts:iterations=200,reuse=1"
    first = _play("citadels", 4, lambda s, seat: s.clone(), spec, seed=7)
    assert _play("citadels", 4, lambda s, seat: s.clone(), spec, seed=7) == first


def test_each_thread_keeps_its_own_tree() -> None:
    state, action = _same_player_again("citadels", 4, seed=3)
    first = Search(state, SearchConfig(iterations=3000, threads=2, seed=1))
    first.advance()
    after = state.clone()
    after.apply_action(action)
    kept = Search(after, SearchConfig(iterations=1000, threads=2, seed=2), previous=first,
                  played=action)  # fmt: skip
    carried = sum(m.visits for m in kept.result().moves)
    assert carried > 100
    kept.advance()
    assert sum(m.visits for m in kept.result().moves) == carried + 1000
