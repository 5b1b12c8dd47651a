"""A search's budget at the service from its bot spec and the request's: `level:N` is the
level's whole spec, its budget too, in Recommend, Analyze and Review as in a hosted seat, and
a search bot's spec that names a budget part (`mo-ismcts:iterations=100`) searches with it.
A request sends no part that the spec it names sets itself (INVALID_ARGUMENT naming the
part: a level sets every part), while the server's default spec gives way to the request's
budget; the spec's budget is held to the server's limits as a request's
would be (RESOURCE_EXHAUSTED on `bot` past them) and, like any search's, capped by the
call's deadline; the server's defaults apply where neither sets a part."""

from __future__ import annotations

from engine.errors import wording_of
from regent.v1 import common_pb2
from search.bots import BudgetClashError, budget_from_spec
from server.limits import BudgetError, ServerLimits, effective_budget
from server.status import Rejected, invalid_argument


def bot_budget(
    limits: ServerLimits,
    spec: str,
    game: str,
    players: int,
    field: str,
    budget: common_pb2.SearchBudget,
    time_remaining: float | None,
    default_iterations: int | None = None,
    *,
    named: bool = True,
) -> tuple[int, float, int]:
    """(iterations, seconds, threads) to search `spec` with, in `game` with `players`
    players, beside the request's `budget` (its field `field`): the parts the spec sets
    itself, the request's elsewhere, and where neither sets one the server's defaults (the
    iterations `default_iterations`, if given, when neither sets iterations or seconds).
    Rejected naming the field: a bad spec (`bot`), a part the request sets that the spec it
    names (`named`) sets too (`budget.iterations`; the server's default spec gives way to the
    request instead), a part past the server's limits (the request's under its field, the
    spec's under `bot`)."""
    asked = {"iterations": budget.iterations, "seconds": budget.seconds, "threads": budget.threads}
    try:
        own = budget_from_spec(
            spec, budget.iterations, budget.seconds, budget.threads, game, players, named=named
        )
    except BudgetClashError as err:
        raise Rejected(invalid_argument(f"{field}.{err.option}", wording_of(err))) from None
    except (ValueError, TypeError) as err:
        raise Rejected(invalid_argument("bot", wording_of(err))) from None
    asked |= own
    if default_iterations is not None and not asked["iterations"] and not asked["seconds"]:
        asked["iterations"] = min(default_iterations, limits.max_iterations)
    try:
        return effective_budget(
            limits,
            int(asked["iterations"]),
            float(asked["seconds"]),
            int(asked["threads"]),
            time_remaining,
        )
    except BudgetError as err:
        part = err.field.removeprefix("budget.")
        if part in own:
            refused = err.status("bot", "{spec}'s {part}: {reason}", spec=spec.strip(), part=part)
            raise Rejected(refused) from None
        raise Rejected(err.status(f"{field}.{part}")) from None


__all__ = ["bot_budget"]
