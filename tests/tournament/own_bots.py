"""Bots of one's own, as a bot author writes them, for `python:tests.tournament.own_bots:NAME`
specs: plain Python classes with no tie to Regent but the `choose` they answer."""

from __future__ import annotations

from typing import Any


class FirstLegal:
    """The first legal move; it keeps every state it was handed, to be looked at."""

    def __init__(self, game: str, players: int) -> None:
        self.game, self.players = game, players
        self.handed: list[Any] = []

    def choose(self, state: Any, seed: int, cancel: Any = None) -> int:
        self.handed.append(state.clone())
        return state.legal_actions()[0]


def not_a_bot(game: str, players: int) -> object:
    """Returns something with no `choose`."""
    return object()


def raises(game: str, players: int) -> object:
    """A factory with a bug."""
    raise RuntimeError("a bug in the factory")


NOT_CALLABLE = 3
