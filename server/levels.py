"""A difficulty level at the service: `level:N` is the level's whole spec, its budget too,
in Recommend, Analyze and Review as in a hosted seat. A request naming a level sends no
budget (INVALID_ARGUMENT naming the part it set); the level's own is held to the server's
limits as a request's would be (RESOURCE_EXHAUSTED on `bot` past them) and, like any
search's, capped by the call's deadline."""

from __future__ import annotations

from collections.abc import Mapping

from regent.v1 import common_pb2
from search.bots import LevelBudgetError, check_no_budget, is_level, search_config
from server.limits import BudgetError, ServerLimits, effective_budget
from server.status import Rejected, invalid_argument, resource_exhausted


def level_budget(
    limits: ServerLimits,
    spec: str,
    game: str,
    players: int,
    budgets: Mapping[str, common_pb2.SearchBudget],
    time_remaining: float | None,
) -> tuple[int, float, int] | None:
    """(iterations, seconds, threads) of the level `spec` names, to search with; None when
    `spec` is no level (the request's `budgets`, by field name, apply) or a level that does
    not search. Rejected naming the field: a budget sent with the level, a bad level, a
    level's budget past the server's limits."""
    if not is_level(spec):
        return None
    try:
        config = search_config(spec, game, players)
    except (ValueError, TypeError) as err:
        raise Rejected(invalid_argument("bot", str(err))) from None
    for name, budget in budgets.items():
        try:
            check_no_budget(spec, budget.iterations, budget.seconds, budget.threads)
        except LevelBudgetError as err:
            raise Rejected(invalid_argument(f"{name}.{err.option}", str(err))) from None
    if config is None:
        return None
    try:
        return effective_budget(
            limits, config.iterations, config.seconds, config.threads, time_remaining
        )
    except BudgetError as err:
        reason = f"{spec.strip()}'s {err.field.removeprefix('budget.')}: {err.reason}"
        raise Rejected(resource_exhausted("bot", reason)) from None


__all__ = ["level_budget"]
