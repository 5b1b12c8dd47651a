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
    @property
    def estimated(self) -> int: ...


class Step(Protocol):
    """A principal variation's move with its player (`search.explain.Step`)."""

    @property
    def player(self) -> int: ...
    @property
    def move(self) -> str: ...
    @property
    def hidden(self) -> bool: ...


class Reasoned(Protocol):
    """A reason for the move (`search.explain.Reason`)."""

    @property
    def kind(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def item(self) -> str: ...
    @property
    def value(self) -> float: ...


class Believed(Protocol):
    """Who probably holds a hidden thing (`search.explain.Belief`)."""

    @property
    def player(self) -> int: ...
    @property
    def item(self) -> str: ...
    @property
    def chance(self) -> float: ...


class Explained(Protocol):
    """A search's explanation (`search.explain.Explanation`)."""

    @property
    def steps(self) -> Sequence[Step]: ...
    @property
    def reasons(self) -> Sequence[Reasoned]: ...
    @property
    def beliefs(self) -> Sequence[Believed]: ...


class Chooser(Protocol):
    """A bot (`search.bots.Bot`): a legal action for the player to move."""

    def choose(self, state: engine.State, seed: int) -> int: ...


def report(result: Searched, explained: Explained | None = None) -> common_pb2.SearchReport:
    """A search result as the proto's SearchReport, with its explanation when given (the
    final report of a search: its steps, reasons and beliefs)."""
    out = common_pb2.SearchReport(
        move=common_pb2.Move(id=result.action, text=result.text),
        moves=[
            common_pb2.MoveStatistics(
                move=common_pb2.Move(id=m.action, text=m.text),
                visits=m.visits,
                mean_reward=m.mean_reward,
                win_chance=m.win_chance,
                estimated=rank < result.estimated,
            )
            for rank, m in enumerate(result.moves)
        ],
        principal_variation=list(result.principal_variation),
        iterations=result.iterations,
        elapsed_seconds=result.elapsed,
    )
    if explained is not None:
        out.steps.extend(
            common_pb2.PrincipalStep(player=s.player, move=s.move, hidden=s.hidden)
            for s in explained.steps
        )
        out.reasons.extend(
            common_pb2.Reason(kind=r.kind, player=r.player, item=r.item, value=r.value)
            for r in explained.reasons
        )
        out.beliefs.extend(
            common_pb2.Belief(player=b.player, item=b.item, chance=b.chance)
            for b in explained.beliefs
        )
    return out


def bot_report(state: engine.State, bot: Chooser, seed: int) -> common_pb2.SearchReport:
    """The move of a bot that does not search (a level that plays the game's heuristic) as a
    report with no statistics: it weighs no moves and runs no iterations."""
    start = time.perf_counter()
    action = bot.choose(state, seed)
    return common_pb2.SearchReport(
        move=common_pb2.Move(id=action, text=state.action_to_string(action)),
        elapsed_seconds=time.perf_counter() - start,
    )
