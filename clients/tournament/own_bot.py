"""Bots of your own, in Python: the spec `python:MODULE:NAME` enters the object that
`MODULE.NAME(game, players)` returns (a class or a factory; MODULE is imported with the
working directory on the path, as `python -m` does). It plays as the service's bots do: each
move it is asked `choose(state, seed, cancel)` for a legal action, and the state it is given
is a world dealt from the information of the player to move, so it cannot see a hidden card
even by mistake. One object plays one seat for one game, so it may remember what it saw."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from engine.interface import State
from search.ismcts import CancelToken

PREFIX = "python:"
USAGE = "a bot of your own is python:MODULE:NAME, NAME(game, players) returning the bot"


def is_own(spec: str) -> bool:
    """Whether `spec` names a bot of your own (`python:...`)."""
    return spec.startswith(PREFIX)


def parse_own(spec: str) -> tuple[str, str]:
    """`python:MODULE:NAME` -> (MODULE, NAME); ValueError if malformed."""
    module, sep, name = spec[len(PREFIX) :].rpartition(":")
    parts = module.split(".")
    if not sep or not all(part.isidentifier() for part in parts) or not name.isidentifier():
        raise ValueError(f"bad bot {spec!r}: {USAGE}")
    return module, name


def load_own(spec: str) -> Any:
    """The factory `spec` names; ValueError says why it cannot be found."""
    module_name, name = parse_own(spec)
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # the module is the user's code: whatever stops its import
        raise ValueError(
            f"{spec!r}: cannot import {module_name}: {type(err).__name__}: {err}"
        ) from None
    factory = getattr(module, name, None)
    if not callable(factory):
        raise ValueError(f"{spec!r}: {module_name} has no callable {name}")
    return factory


class OwnBot:
    """A bot of your own, given only a world of the information of the player to move. It is
    made at its first move, so that a factory that raises loses that game, as a bot that
    raises in `choose` does."""

    def __init__(self, spec: str, game: str, players: int) -> None:
        self.spec, self.game, self.players = spec, game, players
        #: The object the factory made, once it has been asked for a move.
        self.bot: Any = None

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        if self.bot is None:
            bot = load_own(self.spec)(self.game, self.players)
            if not callable(getattr(bot, "choose", None)):
                raise TypeError(f"{self.spec!r} made no choose(state, seed, cancel)")
            self.bot = bot
        world = state.resample(state.current_player, seed)
        return int(self.bot.choose(world, seed, cancel))
