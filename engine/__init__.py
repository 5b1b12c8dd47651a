"""Regent's rules engines behind one interface. Games are found in the registry
(`engine.registry`); each game's package registers itself when imported, and every
game package is imported here."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalMoveError, InvalidObservationError
from engine.interface import State
from engine.registry import GameSpec, game, games, primary_game

__all__ = [
    "GameSpec",
    "IllegalMoveError",
    "InvalidObservationError",
    "State",
    "game",
    "games",
    "new_game",
    "primary_game",
    "state_from_observation",
]

# Every sub-package of engine/ is a game that registers itself.
for _module in pkgutil.iter_modules(__path__):
    if _module.ispkg:
        importlib.import_module(f"{__name__}.{_module.name}")


def new_game(name: str, num_players: int, seed: int = 0, rules: Any = None) -> State:
    """A new game of `name` dealt from `seed` (see `engine.games()` for the names)."""
    return game(name).new_game(num_players, seed, rules)


def state_from_observation(obs: Any, seed: int = 0, draws: Sequence[str] = ()) -> State:
    """Continue a game from one player's observation (see each game's own function);
    `draws` names the next cards off the draw pile, top first."""
    name = obs.get("game") if isinstance(obs, dict) else getattr(obs, "game", None)
    if not isinstance(name, str):
        raise InvalidObservationError("game", f"must name a game, not {name!r}")
    try:
        spec = game(name)
    except ValueError as err:
        raise InvalidObservationError("game", str(err)) from None
    return spec.from_observation(obs, seed, draws)
