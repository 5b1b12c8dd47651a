"""What the search keeps of each game: its default bots and its own difficulty levels, in one
module per game named after it, `search/<game>.py`, found by the game's name (the engine's
`GameSpec` holds the game's facts only). That module has

- `DEFAULT_BOTS`: the strongest measured bot spec per player count (the service's default
  advice), and
- `LEVELS`: the difficulty levels (by number) whose bot spec differs in this game from the
  shared table, `search.levels.LEVELS`: how a small search compares with the game's heuristic
  depends on the game, so each game's ladder places them (docs/strength.md).

A game without one plays `DEFAULT_BOT` at every player count and the shared levels."""

from __future__ import annotations

from collections.abc import Mapping

from engine.registry import layer_module

#: The bot a game advises with at a player count it names no default for.
DEFAULT_BOT = "mo-ismcts"

#: The package of the games' modules: this module's own.
_LAYER = __name__.rpartition(".")[0]


def default_bot(game: str, players: int) -> str:
    """The default bot spec of the game called `game` at `players` players."""
    module = layer_module(_LAYER, game)
    bots: Mapping[int, str] = getattr(module, "DEFAULT_BOTS", {})
    return bots.get(players, DEFAULT_BOT)


def own_levels(game: str) -> Mapping[int, str]:
    """The levels whose spec the game called `game` sets itself, by number."""
    levels: Mapping[int, str] = getattr(layer_module(_LAYER, game), "LEVELS", {})
    return levels


__all__ = ["DEFAULT_BOT", "default_bot", "own_levels"]
