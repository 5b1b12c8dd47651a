"""Where games are played: local worker processes (the default), or tasks on a Ray cluster.
Either yields each game's record as soon as it ends, in whatever order they end; a few jobs
are in flight at a time, so closing the iterator (an SPRT that has decided) stops the rest."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

from clients.tournament.play import Job, play

#: Game records as they finish; close it to stop the games not yet started.
Records = Generator[dict[str, Any], None, None]


class Backend(Protocol):
    """Plays jobs and yields their records as they finish."""

    def run(self, jobs: Sequence[Job]) -> Records: ...


class LocalBackend:
    """`workers` processes on this machine (games are played in this process for one)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1

    def run(self, jobs: Sequence[Job]) -> Records:
        if self.workers == 1:
            yield from map(play, jobs)
            return
        # Spawned, not forked: a forked child would inherit the parent's threads' locks.
        context = multiprocessing.get_context("spawn")
        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(),)
        )
        queue = iter(jobs)
        pending: set[Future[dict[str, Any]]] = set()
        try:
            while True:
                for job in queue:
                    pending.add(pool.submit(play, job))
                    if len(pending) >= 2 * self.workers:
                        break
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            if pending:  # stopped early (a decided SPRT, Ctrl-C, SIGTERM): their games are lost
                pool.shutdown(wait=False, cancel_futures=True)
                for worker in set(multiprocessing.active_children()) - before:
                    worker.terminate()
            pool.shutdown()


def _exit_with(parent: int) -> None:
    """A worker's initializer: end the worker once the tournament's process is gone, however
    it ended (kill -9 too), rather than wait for ever on the jobs' queue."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


#: What Ray's start-up timeouts say: the raylet's, and the GCS server's port file's.
_STARTUP_TIMEOUTS = ("timed out during startup", "Timed out waiting for file")


def _startup_timeout(err: Exception) -> bool:
    """Whether `err` is Ray giving up on a new local node's start, worth one more try."""
    return any(text in str(err) for text in _STARTUP_TIMEOUTS)


class RayBackend:
    """Tasks on the Ray cluster at `address` (a local Ray instance when None) with as many
    in flight as the cluster has CPUs (or `workers`)."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers

    def run(self, jobs: Sequence[Job]) -> Records:
        import ray

        started = not ray.is_initialized()
        if started:
            local = self.address is None
            # Ray waits a fixed time for a new node's GCS server and raylet; on a loaded
            # machine a local instance can miss either, so it gets one more try (a cluster
            # does not).
            for attempt in range(2 if local else 1):
                try:
                    ray.init(
                        # "local": a new instance of our own, never a cluster started by others
                        address="local" if local else self.address,
                        num_cpus=(self.workers or os.cpu_count()) if local else None,
                        include_dashboard=False,
                        log_to_driver=False,
                        configure_logging=False,
                    )
                    break
                except Exception as err:  # Ray raises bare Exceptions for these timeouts
                    ray.shutdown()
                    if attempt == 1 or not local or not _startup_timeout(err):
                        raise
        task = ray.remote(num_cpus=1)(play)
        limit = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        queue = iter(jobs)
        pending: list[Any] = []
        try:
            while True:
                for job in queue:
                    pending.append(task.remote(job))
                    if len(pending) >= 2 * limit:
                        break
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref)
            if started:
                ray.shutdown()
