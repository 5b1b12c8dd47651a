"""A call's deadline bounds its search: too little time is refused, the rest is capped, and
the search stops by the deadline however long its thread waited to start."""

from __future__ import annotations

import time

import pytest

import engine
from search.search import Search, SearchConfig
from server.limits import (
    MIN_SEARCH_SECONDS,
    ServerLimits,
    effective_budget,
    stop_time,
    too_late,
)
from server.searching import advance_until
from tests.timing import SLACK


@pytest.mark.parametrize(
    ("remaining", "refused"),
    [
        (None, False),
        (-1.0, True),
        (0.0, True),
        (0.0009, True),
        (MIN_SEARCH_SECONDS, False),
        (5.0, False),
    ],
)
def test_too_late(remaining: float | None, refused: bool) -> None:
    assert too_late(remaining) is refused


def test_a_deadline_caps_the_seconds_but_never_below_the_shortest_search() -> None:
    limits = ServerLimits()
    _, seconds, _ = effective_budget(limits, 0, 10.0, 1, 1.0)
    assert seconds == pytest.approx(1.0 - limits.deadline_margin)
    _, seconds, _ = effective_budget(limits, 0, 10.0, 1, 0.01)
    assert seconds == MIN_SEARCH_SECONDS
    _, seconds, _ = effective_budget(limits, 0, 0.5, 1, None)
    assert seconds == 0.5


def test_the_stop_time_keeps_the_margin_back_from_the_deadline() -> None:
    assert stop_time(None, 0.03) is None
    before = time.monotonic()
    stop_by = stop_time(1.0, 0.1)
    assert stop_by is not None and before + 0.9 <= stop_by <= time.monotonic() + 0.9


@pytest.mark.timing
def test_a_search_whose_deadline_passed_while_it_waited_stops_at_once() -> None:
    """The thread that runs a call's search may start late on a loaded host: the search
    then spends the shortest search, not its whole budget (30 s): a millisecond, give or
    take a loaded host's waits for a core, which its thread's CPU time does not count."""
    state = engine.new_game("royal_cities", 2, seed=9)
    search = Search(state, SearchConfig(iterations=0, seconds=30))
    cpu = time.thread_time()
    assert advance_until(search, time.monotonic() - 1.0)
    assert time.thread_time() - cpu < 0.05
    assert MIN_SEARCH_SECONDS <= search.result().elapsed < MIN_SEARCH_SECONDS + SLACK
