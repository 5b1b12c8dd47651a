"""Every exception the project defines crosses a process boundary whole: pickled (as a
tournament worker sends its error to the tournament, or a Ray task to its caller) and
unpickled, it is the same class with the same message, status and fields.

The classes are found by importing every module of the project's packages, so a new
exception needs a sample here, and a constructor that takes other arguments than its
message needs a `__reduce__` (see engine/errors.py)."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The project's packages: every top-level directory that is one, but the tests.
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")


def _client_error() -> BaseException:
    from clients.client import FieldViolation, RegentError
    from engine.errors import Wording

    violations = [FieldViolation("budget", "all 4 search slots are busy")]
    wording = Wording("all {slots} search slots are busy", {"slots": "4"})
    return RegentError(grpc.StatusCode.RESOURCE_EXHAUSTED, "budget: busy", violations, wording)


def _rejected() -> BaseException:
    from server.status import Rejected, invalid_argument

    return Rejected(invalid_argument("observation.game", "no game is set"))


def _refused() -> BaseException:
    from clients.web.guard import Refused

    return Refused(429, "RESOURCE_EXHAUSTED", "slow down", [{"field": "x"}], {"Retry-After": "1"})


def _budget() -> BaseException:
    from server.limits import BudgetError

    return BudgetError("budget.seconds", "at most 60", negative=False)


def _budget_clash() -> BaseException:
    from search.bots import BudgetClashError

    return BudgetClashError("level:3", "iterations")


def _two_parts(module: str, name: str) -> Callable[[], BaseException]:
    """A sample of an exception built from (field, reason)."""
    return lambda: getattr(importlib.import_module(module), name)("players[0].hand", "too many")


def _worded() -> BaseException:
    from engine.errors import WordedError

    return WordedError("{player} cannot {move} now", player=2, move="buy red-4")


def _message(module: str, name: str) -> Callable[[], BaseException]:
    """A sample of an exception built from its message alone."""
    return lambda: getattr(importlib.import_module(module), name)("it went wrong")


#: A sample of each of the project's exceptions, by module and name.
SAMPLES: dict[str, Callable[[], BaseException]] = {
    "clients.cli.review.SourceError": _message("clients.cli.review", "SourceError"),
    "clients.cli.shared.BadInput": _message("clients.cli.shared", "BadInput"),
    "clients.cli.tournament.Terminated": _message("clients.cli.tournament", "Terminated"),
    "clients.client.RegentError": _client_error,
    "clients.tournament.config.ConfigError": _message("clients.tournament.config", "ConfigError"),
    "clients.tournament.record.RecordError": _message("clients.tournament.record", "RecordError"),
    "clients.tournament.runner.BotFailed": _message("clients.tournament.runner", "BotFailed"),
    "clients.tournament.workers.WorkerTraceback": _message(
        "clients.tournament.workers", "WorkerTraceback"
    ),
    "clients.web.deal.BadDeal": _two_parts("clients.web.deal", "BadDeal"),
    "clients.web.gateway.BadBody": _two_parts("clients.web.gateway", "BadBody"),
    "clients.web.guard.Refused": _refused,
    "convert.adapter.CannotApply": _message("convert.adapter", "CannotApply"),
    "engine.errors.IllegalMoveError": _message("engine.errors", "IllegalMoveError"),
    "engine.errors.FieldError": _two_parts("engine.errors", "FieldError"),
    "engine.errors.WordedError": _worded,
    "engine.errors.InvalidObservationError": _two_parts("engine.errors", "InvalidObservationError"),
    "search.bots.BudgetClashError": _budget_clash,
    "search.review.ReviewError": _two_parts("search.review", "ReviewError"),
    "server.config.ConfigError": _message("server.config", "ConfigError"),
    "server.limits.BudgetError": _budget,
    "server.status.Rejected": _rejected,
    "server.store.StoreError": _message("server.store", "StoreError"),
    "server.store._Taken": _message("server.store", "_Taken"),
}


def project_exceptions() -> set[str]:
    """`module.Name` of every exception class defined in a module of the project."""
    found = set()
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, f"{package}."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == module.__name__
                ):
                    found.add(f"{value.__module__}.{value.__qualname__}")
    return found


def test_every_exception_of_the_project_has_a_sample() -> None:
    assert project_exceptions() == set(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_an_exception_round_trips_through_pickle(name: str) -> None:
    error = SAMPLES[name]()
    assert f"{type(error).__module__}.{type(error).__qualname__}" == name
    error.where = "set after it was raised"  # type: ignore[attr-defined]
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error) and copy.args == error.args
    assert vars(copy) == vars(error)  # its status, code, fields, and what was set later
