"""The games' playout heuristics whose judgement is a table of weights
(`engine.<game>.heuristic.WEIGHTS`), and loading weights fitted by
bench/balance_heuristic.py into them."""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType

from engine.registry import games


def weighted_games() -> list[str]:
    """The games whose heuristic has a table of weights."""
    return [spec.name for spec in games() if _has_weights(spec.name)]


def _has_weights(game: str) -> bool:
    if importlib.util.find_spec(f"engine.{game}.heuristic") is None:
        return False
    return hasattr(importlib.import_module(f"engine.{game}.heuristic"), "WEIGHTS")


def heuristic_module(game: str) -> ModuleType:
    """`engine.<game>.heuristic`; ValueError for a game whose heuristic has no weights."""
    if not _has_weights(game):
        raise ValueError(f"{game}'s heuristic has no weights to fit; games that have: "
                         f"{', '.join(weighted_games())}")  # fmt: skip
    return importlib.import_module(f"engine.{game}.heuristic")


def load_weights(path: Path) -> str:
    """Put the weights of a fit's JSON file (`{"game": ..., "weights": {...}}`) in force for
    the whole process, before any search runs; its game's name. ValueError says what is
    wrong with the file, and then no weight changes."""
    try:
        fit = json.loads(path.read_text())
        game, values = fit["game"], fit["weights"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a fit of heuristic weights ({err})") from None
    if not isinstance(game, str) or not isinstance(values, dict):
        raise ValueError(f"{path}: 'game' must be a name and 'weights' an object")
    try:
        heuristic_module(game).set_weights(values)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{path}: {err}") from None
    return game
