"""The games' heuristics whose judgement is a table of weights
(`engine.<game>.heuristic.TABLE`), and loading weights fitted by
bench/balance_heuristic.py into their playouts."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from engine.registry import games
from engine.weights import WeightTable, read_fit


def weighted_games() -> list[str]:
    """The games whose heuristic has a table of weights."""
    return [spec.name for spec in games() if _table(spec.name) is not None]


def _table(game: str) -> WeightTable | None:
    if importlib.util.find_spec(f"engine.{game}.heuristic") is None:
        return None
    return getattr(importlib.import_module(f"engine.{game}.heuristic"), "TABLE", None)


def weight_table(game: str) -> WeightTable:
    """`engine.<game>.heuristic.TABLE`; ValueError for a game whose heuristic has none."""
    table = _table(game)
    if table is None:
        raise ValueError(f"{game}'s heuristic has no weights to fit; games that have: "
                         f"{', '.join(weighted_games())}")  # fmt: skip
    return table


def load_weights(path: Path) -> str:
    """Put the weights of a fit's JSON file (`{"game": ..., "weights": {...}}`, and
    `"players": [n, ...]`, the player counts they are for, all when absent) in force for the
    playouts of the whole process (the heuristic player keeps the hand-set weights), before
    any search runs; its game's name. ValueError says what is wrong with the file, and then
    no weight changes."""
    game, values, players = read_fit(path)
    counts = players or [None]
    try:
        table = weight_table(game)
        for count in counts:
            table.set({}, count)  # every count is checked before any weight changes
        for count in counts:
            table.set(values, count)  # the first call checks the weights, changing none if bad
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    return game
