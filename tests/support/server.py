"""A real Regent gRPC server in this process, the one the tests run: `RunningServer` (or the
`serving(...)` context manager) starts one on its own asyncio event loop in a background
thread, listening on an ephemeral port of 127.0.0.1, its matches in an in-memory SQLite
database unless told otherwise; a test that needs a server configured its own way passes the
configuration (limits, db, keys, metrics_address). Tests talk to it over a real socket with
the synchronous `grpc` API, and may look inside: a match's true game (`true_match`, as the
server rebuilds it from its database) and its running search count (`server.slots.running`).

`regent serve` in a process of its own is tests/commands.py's `Serving`.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import Iterator
from typing import Any

import grpc

from server.app import BackgroundServer
from server.limits import ServerLimits
from server.matches import Match

#: A card's name as the engine writes it; none may appear in the server's log.
CARD_NAME = re.compile(r"(purple|yellow|pink|red|blue|green|white)-[0-6]")

#: The time a test server keeps back from a call's deadline: the tests may run on every core
#: of a 2-core machine (`pytest -n auto`) beside other loads, where the server's threads have
#: been seen to wait 70 ms for a core between the end of a search and its answer leaving (and
#: once more than 0.25 s on a host at load 12), more than the 30 ms a server keeps back by
#: default.
LOADED_HOST_MARGIN = 0.5
#: Generous: room for 16 concurrent clients and the hosted bots of many matches.
WIDE_LIMITS = ServerLimits(max_searches=32, max_threads=2, deadline_margin=LOADED_HOST_MARGIN)
#: Tight: one search at a time, small iteration budgets; long enough time budgets for the
#: cancellation test (an Analyze of 20 s).
TIGHT_LIMITS = ServerLimits(
    max_searches=1,
    max_iterations=5000,
    max_seconds=30,
    max_threads=1,
    deadline_margin=LOADED_HOST_MARGIN,
)


class RunningServer(BackgroundServer):
    """The service's background server, with what the tests need to look inside it."""

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """As the server's, less one report that is no fault of this server: several servers
        share one process here, and grpc.aio's completion queue is the process's, so once
        another test's server has stopped and closed its loop, an event still bound for that
        loop raises 'Event loop is closed' in whichever loop polls the queue. The service runs
        one loop per process, where this cannot happen."""
        error = context.get("exception")
        if (
            isinstance(error, RuntimeError)
            and str(error) == "Event loop is closed"
            and "PollerCompletionQueue" in str(context.get("message", ""))
        ):
            return
        super()._loop_error(loop, context)

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def true_match(self, match_id: str) -> Match:
        """The match with its true states, up to date with the server's database."""
        match = self._call(self.server.matches.load(match_id))
        assert match is not None, f"no match {match_id}"
        return match

    def wait_idle(self, timeout: float = 5.0) -> float:
        """Wait until no search runs; the seconds it took (AssertionError past `timeout`)."""
        start = time.perf_counter()
        while self.server.slots.running:
            if time.perf_counter() - start > timeout:
                raise AssertionError(f"{self.server.slots.running} searches still running")
            time.sleep(0.005)
        return time.perf_counter() - start


@contextlib.contextmanager
def serving(limits: ServerLimits | None = None, **config: Any) -> Iterator[RunningServer]:
    """A `RunningServer` for the `with` block; `config` is the rest of its configuration
    (address, db, keys, metrics_address)."""
    running = RunningServer(limits=limits, **config)
    try:
        yield running
    finally:
        running.stop()


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listened on a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
