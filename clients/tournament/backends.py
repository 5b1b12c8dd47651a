"""Where games are played: local worker processes (the default), or tasks on a Ray cluster.
Either yields each game's record as soon as it ends, in whatever order they end; a few jobs
are in flight at a time, so closing the iterator (an SPRT that has decided) stops the rest.

Either survives a worker that dies (killed, out of memory) in the same way: that game alone
is played again, up to `replays` times, then yielded as a crashed game's record
(`play.crashed_record`); an exception the game raised is raised by the iterator."""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence
from typing import Any, Protocol

from clients.tournament.play import Job, crashed_record, play
from clients.tournament.workers import run_workers

#: Game records as they finish; close it to stop the games not yet started.
Records = Generator[dict[str, Any], None, None]


class Backend(Protocol):
    """Plays jobs and yields their records as they finish; a game whose worker died is
    played again up to `replays` times, then yielded as crashed."""

    def run(self, jobs: Sequence[Job], replays: int = 0) -> Records: ...


class LocalBackend:
    """`workers` processes on this machine (clients/tournament/workers.py); games are
    played in this process for one (a worker's death is then the tournament's)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1

    def run(self, jobs: Sequence[Job], replays: int = 0) -> Records:
        if self.workers == 1:
            yield from map(play, jobs)
        else:
            yield from run_workers(self.workers, jobs, replays)


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

    def run(self, jobs: Sequence[Job], replays: int = 0) -> Records:
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
        # Ray plays a task whose worker died again itself, `max_retries` times.
        task = ray.remote(num_cpus=1, max_retries=replays)(play)
        limit = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        queue = iter(jobs)
        pending: list[Any] = []
        job_of: dict[Any, Job] = {}
        try:
            while True:
                for job in queue:
                    pending.append(task.remote(job))
                    job_of[pending[-1]] = job
                    if len(pending) >= 2 * limit:
                        break
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                job = job_of.pop(done[0])
                try:
                    record = ray.get(done[0])
                except ray.exceptions.RayTaskError:
                    raise  # the game raised: an instance of that exception's class too
                except ray.exceptions.RayError as err:  # its worker or node died
                    record = crashed_record(job, f"its Ray task failed: {err}")
                yield record
        finally:
            for ref in pending:
                ray.cancel(ref)
            if started:
                ray.shutdown()
