"""Observations as terminal text, for any game with a text module: `clients/<game>_text.py`
beside this module, found by the game's name, of the shape `GameText`."""

from __future__ import annotations

from typing import Any, Protocol, cast

from convert import game_of_oneof
from engine.registry import layer_module
from regent.v1 import advisor_pb2

#: The package of the games' text modules (this module's own), and their names' ending.
_LAYER, _SUFFIX = __name__.rpartition(".")[0], "_text"


class GameText(Protocol):
    """A game's text module: each function reads the game's branch of the Observation oneof."""

    def board(self, obs: Any, me: int | None = None) -> str:
        """The position as seat `me` sees it (None: a spectator), over several lines."""
        ...

    def summary(self, obs: Any) -> str:
        """One line: where the game is and who decides what."""
        ...

    def context(self, obs: Any) -> str:
        """Where the game is, for a hint's header."""
        ...


def player_name(player: int, me: int | None) -> str:
    """`you` for seat `me`, `p2` for the others."""
    return "you" if player == me else f"p{player}"


def text_module(game: str) -> GameText | None:
    """The text module of the game called `game`, or None when it has none."""
    return cast("GameText | None", layer_module(_LAYER, game, _SUFFIX))


def text_of(observation: advisor_pb2.Observation) -> tuple[GameText, Any] | None:
    """(the game's text module, the oneof's message) of an observation; None when it sets no
    game or a game without text."""
    which = observation.WhichOneof("game")
    game = game_of_oneof(which) if which is not None else None
    text = text_module(game) if game is not None else None
    return (text, getattr(observation, which)) if text is not None and which else None
