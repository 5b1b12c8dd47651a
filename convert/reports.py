"""Search results as the service's `SearchReport` message: what Recommend, Analyze and
`regent hint --local` answer. Typed by the shapes they read (`search.search.SearchResult`'s,
a bot's `choose`), so that the conversions import nothing of the search."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

import engine
from regent.v1 import common_pb2


class WeighedMove(Protocol):
    """One move as a search weighed it (`search.search.MoveStats`)."""

    @property
    def action(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def visits(self) -> int: ...
    @property
    def mean_reward(self) -> float: ...
    @property
    def win_chance(self) -> float: ...


class Searched(Protocol):
    """A search's result (`search.search.SearchResult`)."""

    @property
    def action(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def moves(self) -> Sequence[WeighedMove]: ...
    @property
    def principal_variation(self) -> Sequence[str]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def elapsed(self) -> float: ...


class Chooser(Protocol):
    """A bot (`search.bots.Bot`): a legal action for the player to move."""

    def choose(self, state: engine.State, seed: int) -> int: ...


def report(result: Searched) -> common_pb2.SearchReport:
    """A search result as the proto's SearchReport."""
    return common_pb2.SearchReport(
        move=common_pb2.Move(id=result.action, text=result.text),
        moves=[
            common_pb2.MoveStatistics(
                move=common_pb2.Move(id=m.action, text=m.text),
                visits=m.visits,
                mean_reward=m.mean_reward,
                win_chance=m.win_chance,
            )
            for m in result.moves
        ],
        principal_variation=list(result.principal_variation),
        iterations=result.iterations,
        elapsed_seconds=result.elapsed,
    )


def bot_report(state: engine.State, bot: Chooser, seed: int) -> common_pb2.SearchReport:
    """The move of a bot that does not search (a level that plays the game's heuristic) as a
    report with no statistics: it weighs no moves and runs no iterations."""
    start = time.perf_counter()
    action = bot.choose(state, seed)
    return common_pb2.SearchReport(
        move=common_pb2.Move(id=action, text=state.action_to_string(action)),
        elapsed_seconds=time.perf_counter() - start,
    )
