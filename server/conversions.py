"""The advisor's slow position work (ApplyObservedMove's and LegalMoves' world dealing,
ApplyMove's draws) in worker processes of its own: its CPU then never holds the server's
GIL, so health checks and every other call answer meanwhile (on threads, four clients
repeating the slowest move found held health checks to 85 ms at p99; `regent bench health`).

The workers are spawned, never forked from a process running gRPC's threads, when first
needed; on Linux each dies with the server's process, even one killed with SIGKILL. A call
waiting past its deadline is dropped unread; a worker that dies (killed, out of memory)
costs the calls it was running an UNAVAILABLE, and the next calls get a new pool."""

from __future__ import annotations

import asyncio
import ctypes
import functools
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from server.status import Rejected, deadline_exceeded, unavailable

log = logging.getLogger("regent.server")

T = TypeVar("T")
#: Linux's prctl option that signals a process when its parent dies.
_PR_SET_PDEATHSIG = 1


def _start_worker(parent: int) -> None:
    """Die with the server's process, even one killed with SIGKILL (a worker blocked on its
    queue is not told by its pipes); elsewhere than on Linux an orphan outlives it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl-C is the server's
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(0)


def _within(deadline: float | None, call: Callable[..., T], *args: object) -> T:
    """`call(*args)` in a worker, unless the caller's deadline (CLOCK_MONOTONIC, one clock
    for every process of the machine) passed while it waited."""
    if deadline is not None and time.monotonic() >= deadline:
        raise Rejected(deadline_exceeded("the call's deadline passed before its turn came"))
    return call(*args)


class Conversions:
    """`processes` worker processes for the advisor's conversion calls."""

    def __init__(self, processes: int) -> None:
        self.processes = max(1, processes)
        #: Calls sent to the workers and not yet answered (running or waiting).
        self.pending = 0
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )

    async def run(self, deadline: float | None, call: Callable[..., T], *args: object) -> T:
        """`call(*args)` in a worker process; `call` and what it takes and gives must pickle
        (a module-level function, protobuf messages, Rejected). `deadline`: monotonic."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        self.pending += 1
        try:
            work = functools.partial(_within, deadline, call, *args)
            return await loop.run_in_executor(pool, work)
        except BrokenProcessPool:
            if pool is self._pool:
                log.error("a conversion worker died; starting new ones")
                self._pool = self._new_pool()
                pool.shutdown(wait=False, cancel_futures=True)
            raise Rejected(unavailable("the server's conversion worker stopped; retry")) from None
        finally:
            self.pending -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
