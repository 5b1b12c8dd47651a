"""Positions of seeded random games (Royal Cities' unless a game is named), and the
observation messages of them, for the service's and the search's tests to ask about."""

from __future__ import annotations

import random
from collections.abc import Callable

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2


def play_to(
    num_players: int,
    seed: int,
    accept: Callable[[engine.State], bool],
    min_moves: int = 0,
    max_games: int = 200,
) -> engine.State:
    """The first state of random games (seeded from `seed`) after `min_moves` moves that
    `accept` takes; the game is not over."""
    for game in range(seed, seed + max_games):
        state = engine.new_game("royal_cities", num_players, game)
        rng = random.Random(game)
        moves = 0
        while not state.is_terminal():
            if moves >= min_moves and accept(state):
                return state
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    raise AssertionError("no such position")


def random_positions(
    game: str, players: int, count: int, seed: int, max_moves: int
) -> list[engine.State]:
    """`count` positions of seeded random games of `game` stopped at random steps (fewer than
    `max_moves`), none of them over."""
    rng = random.Random(seed)
    out: list[engine.State] = []
    while len(out) < count:
        state = engine.new_game(game, players, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(max_moves)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


#: Decisions of the game's setup, reached before any ordinary move.
SETUP_PHASES = ("pass", "first_build", "solo_own", "solo_regent")


def position(
    num_players: int = 3, seed: int = 0, phase: str = "turn", min_moves: int | None = None
) -> tuple[engine.State, advisor_pb2.Observation]:
    """A true state in `phase` (after `min_moves` random moves: by default 10, none for a
    setup decision) and the message of the observation of the player to act."""
    if min_moves is None:
        min_moves = 0 if phase in SETUP_PHASES else 10
    state = play_to(num_players, seed, lambda s: s.phase == phase, min_moves)
    return state, observation_to_proto(state.observation(state.current_player))


def terminal_position(num_players: int = 2, seed: int = 0) -> advisor_pb2.Observation:
    """The last player's observation of a finished random game."""
    state = engine.new_game("royal_cities", num_players, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return observation_to_proto(state.observation(0))
