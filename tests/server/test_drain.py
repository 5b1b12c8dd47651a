"""Shutdown and logs, over a real socket: during the drain health says NOT_SERVING, new calls
get UNAVAILABLE and running ones end cleanly; a call the client cancels is logged as
CANCELLED, without a traceback."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from server.limits import ServerLimits
from tests.support.random_games import position
from tests.support.server import WIDE_LIMITS, RunningServer, serving
from tests.timing import SLACK

Code = grpc.StatusCode
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
#: The drain's grace: a second of health checks and refusals fits in it on a loaded host.
GRACE = 2.5


@pytest.mark.timing
def test_the_drain(server_log: list[logging.LogRecord]) -> None:
    """A 20 s Recommend runs when the server is told to stop with a 2.5 s grace: for the
    grace health answers NOT_SERVING and a new Recommend gets UNAVAILABLE; at its end the
    running search answers OK with its best move so far, and the server is gone."""
    _, observation = position(3, seed=21)
    running = RunningServer(limits=ServerLimits(max_searches=2, max_threads=1))
    long = advisor_pb2.RecommendRequest(
        observation=observation, budget=common_pb2.SearchBudget(seconds=20)
    )
    with running.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        answer = advisor.Recommend.future(long, timeout=30)
        while running.server.slots.running == 0:
            time.sleep(0.005)
        asked = time.monotonic()
        stopper = threading.Thread(target=running.stop, args=(GRACE,))
        stopper.start()
        while not running.server.calls.draining:
            time.sleep(0.005)
        statuses = set()
        refused = None
        while time.monotonic() - asked < 1.0:
            statuses.add(health.Check(health_pb2.HealthCheckRequest(), timeout=2).status)
            if refused is None:
                try:
                    advisor.Recommend(long, timeout=2)
                except grpc.RpcError as err:
                    refused = err
            time.sleep(0.05)
        assert statuses == {NOT_SERVING}
        assert refused is not None and refused.code() == Code.UNAVAILABLE
        report = answer.result(timeout=GRACE + SLACK).report
        answered = time.monotonic() - asked
        assert GRACE - 0.5 < answered < GRACE + SLACK, answered  # at the grace's end, not 20 s
        assert report.iterations > 0 and report.move.text
        stopper.join(SLACK)
        assert not stopper.is_alive()
    lines = [r.getMessage() for r in server_log]
    assert any(line.startswith("/regent.v1.AdvisorService/Recommend UNAVAILABLE") for line in lines)


def test_no_search_starts_after_the_cut() -> None:
    """A call admitted before the drain whose search would start after the running ones were
    cut short gets UNAVAILABLE, to retry elsewhere, rather than a whole search that the stop
    would end by cancelling it unanswered."""
    _, observation = position(3, seed=24)
    budget = common_pb2.SearchBudget(seconds=5)
    with serving() as running, running.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        running.server.slots.stop_all()  # the cut, the calls below already past admission
        asks = (
            lambda: advisor.Recommend(
                advisor_pb2.RecommendRequest(observation=observation, budget=budget), timeout=30
            ),
            lambda: next(
                advisor.Analyze(
                    advisor_pb2.AnalyzeRequest(observation=observation, budget=budget), timeout=30
                )
            ),
        )
        for ask in asks:
            with pytest.raises(grpc.RpcError) as refused:
                ask()
            assert refused.value.code() == Code.UNAVAILABLE, refused.value
            assert "shutting down" in (refused.value.details() or "")
        assert running.server.slots.running == 0


def _logged(log: list[logging.LogRecord], first: int, *starts: str) -> list[str]:
    """The messages of `log` from its `first` record on, once a line starts with each of
    `starts` (waiting a loaded host's slack at most: a call's line follows its end)."""
    end = time.monotonic() + SLACK
    while True:
        lines = [r.getMessage() for r in log[first:]]
        if all(any(line.startswith(start) for line in lines) for start in starts):
            return lines
        assert time.monotonic() < end, lines
        time.sleep(0.01)


@pytest.mark.timing
def test_a_cancelled_call_is_logged_as_cancelled(
    regent_server: RunningServer,
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
    server_log: list[logging.LogRecord],
) -> None:
    _, observation = position(3, seed=22)
    before = len(server_log)
    future = advisor.Recommend.future(
        advisor_pb2.RecommendRequest(
            observation=observation, budget=common_pb2.SearchBudget(seconds=10)
        ),
        timeout=30,
    )
    end = time.monotonic() + SLACK
    while regent_server.server.slots.running == 0:  # till the server is searching
        assert time.monotonic() < end
        time.sleep(0.005)
    future.cancel()
    stream = advisor.Analyze(
        advisor_pb2.AnalyzeRequest(
            observation=observation, budget=common_pb2.SearchBudget(seconds=10), interval_ms=50
        ),
        timeout=30,
    )
    next(stream)
    stream.cancel()
    regent_server.wait_idle(SLACK)
    lines = _logged(
        server_log,
        before,
        "/regent.v1.AdvisorService/Recommend CANCELLED",
        "/regent.v1.AdvisorService/Analyze CANCELLED",
    )
    records = server_log[before:]
    assert not any(r.exc_info for r in records), [r.getMessage() for r in records if r.exc_info]
    assert not any("UNKNOWN" in line for line in lines), lines


def test_streams_cancelled_while_sending_are_logged_as_cancelled(
    server_log: list[logging.LogRecord],
) -> None:
    """Analyze streams reporting every millisecond, each cancelled after a few reports: a
    cancel that lands while gRPC sends a report closes the stream (GeneratorExit) instead of
    cancelling it, and was logged UNKNOWN. Every one is CANCELLED, and its search stops."""
    _, observation = position(3, seed=23)
    limits = dataclasses.replace(WIDE_LIMITS, min_interval_ms=1)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation, budget=common_pb2.SearchBudget(seconds=10), interval_ms=1
    )
    streams = 30
    before = len(server_log)
    with serving(limits) as running, running.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        for i in range(streams):
            stream = advisor.Analyze(request, timeout=30)
            for _ in range(i % 5 + 1):
                next(stream)
            stream.cancel()
            running.wait_idle(SLACK)
        end = time.monotonic() + SLACK
        while running.server.slots.running:
            assert time.monotonic() < end
            time.sleep(0.01)
    lines = [r.getMessage() for r in server_log[before:] if "/Analyze " in r.getMessage()]
    assert len(lines) == streams, lines
    assert all(" CANCELLED " in line for line in lines), lines
