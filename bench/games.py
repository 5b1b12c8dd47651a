"""What the benchmarks and the example files take of each game, kept in one module per game
named after it, `bench/<game>.py` (beside the game's own bench tools, `bench/<game>_*.py`),
found by the game's name (the engine's `GameSpec` holds the game's facts only). That module has

- `PLAYERS`: the player counts each benchmark ("engine", "search") measures by default,
- `is_mid_game(state)`: whether a state is the search benchmark's mid-game position (the
  first state of a game it takes is measured),
- `EXAMPLES`: the example observation files the game ships (`Example`s, `regent hint`'s).

A game without one is measured only at the player counts asked for, from its opening, and
ships no example."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.interface import State
from engine.registry import layer_module

#: A game's own test for a position: one player's observation of it, and the true state.
Accept = Callable[[Any, State], bool]

#: The package of the games' modules: this module's own.
_LAYER = __name__.rpartition(".")[0]


@dataclass(frozen=True)
class Example:
    """A ready position of `regent hint`'s example files: the first decision of a seeded
    game played by the heuristic bot that `accept` takes (given the observation of the
    player to act and the true state)."""

    file: str
    players: int
    seed: int
    accept: Accept


def bench_players(game: str, benchmark: str) -> tuple[int, ...]:
    """The player counts the benchmark `benchmark` measures the game called `game` at by
    default (none for a game or benchmark its module does not list)."""
    players: Mapping[str, tuple[int, ...]] = getattr(layer_module(_LAYER, game), "PLAYERS", {})
    return players.get(benchmark, ())


def bench_position(game: str) -> Callable[[State], bool]:
    """The search benchmark's test for its mid-game position in the game called `game` (the
    first state it takes; the opening for a game with no module)."""
    position: Callable[[State], bool] = getattr(
        layer_module(_LAYER, game), "is_mid_game", lambda state: True
    )
    return position


def examples(game: str) -> tuple[Example, ...]:
    """The example observation files the game called `game` ships."""
    found: tuple[Example, ...] = getattr(layer_module(_LAYER, game), "EXAMPLES", ())
    return found


__all__ = ["Accept", "Example", "bench_players", "bench_position", "examples"]
