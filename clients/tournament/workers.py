"""Worker processes that play a tournament's jobs, one job a worker at a time, each over a
pipe of its own: so the tournament knows which game a worker was playing when it died
(killed, out of memory), plays that game again or records it as crashed, and starts a new
worker in its place while the others play on. (A `ProcessPoolExecutor` breaks as a whole
when one worker dies, and says not which job it held.)

A worker ignores Ctrl-C, which its terminal sends to the whole process group: the
tournament's process stops the workers itself. A worker ends once that process is gone,
however it ended (kill -9 too), rather than wait for ever for its next job."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Generator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from clients.tournament.play import Job, crashed_record, play

#: How long a worker is given to end when asked, before it is terminated, in seconds.
END_WAIT = 5.0


class WorkerTraceback(Exception):
    """The traceback, as text, of an exception a worker raised: the cause of that exception
    when it is raised again in the tournament's process."""


def _portable(error: Exception) -> Exception:
    """`error` if it survives pickling, else a RuntimeError that says what it was (a foreign
    exception whose constructor takes other arguments than its message)."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__qualname__}: {error}")
    return error


def _serve(conn: Connection, parent: int) -> None:
    """A worker's life: play each job the pipe brings and send back ("game", record) or
    ("raised", error, traceback), until it brings None."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with(parent)
    while (job := conn.recv()) is not None:
        try:
            conn.send(("game", play(job)))
        except Exception as err:
            conn.send(("raised", _portable(err), traceback.format_exc()))


def _exit_with(parent: int) -> None:
    """End this worker once the tournament's process is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _death(process: BaseProcess) -> str:
    """How a worker process ended, in words."""
    code = process.exitcode
    if code is not None and code < 0:
        return f"its worker process was killed by {signal.Signals(-code).name}"
    return f"its worker process exited with status {code}"


class _Worker:
    """One worker process, its end of the pipe, and the job it holds (with how many times
    that job has been started)."""

    def __init__(self, context: Any) -> None:
        self.conn, theirs = multiprocessing.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve, args=(theirs, os.getpid()), name="regent-tournament-worker"
        )
        self.process.start()
        theirs.close()
        self.job: tuple[Job, int] | None = None

    def give(self, job: Job, starts: int) -> None:
        """Hand it a job; if it has just died, `receive` says so (the job counts as started)."""
        self.job = (job, starts)
        with contextlib.suppress(OSError):
            self.conn.send(job)

    def receive(self) -> tuple[Any, ...] | None:
        """Its answer, or None when it died (its job is then still held)."""
        if self.conn.poll():
            try:
                answer: tuple[Any, ...] = self.conn.recv()
                return answer
            except (EOFError, OSError):
                pass
        self.process.join()
        return None

    def end(self) -> None:
        """Ask it to end (terminate it if it is playing, or does not end soon)."""
        if self.job is None and self.process.is_alive():
            with contextlib.suppress(OSError):  # it has just died
                self.conn.send(None)
            self.process.join(END_WAIT)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join()
        self.conn.close()


def run_workers(
    count: int, jobs: Sequence[Job], replays: int
) -> Generator[dict[str, Any], None, None]:
    """The jobs' records as they finish, played by `count` spawned processes (not forked: a
    forked child would inherit the parent's threads' locks). A game whose worker died is
    played again, in a new worker, up to `replays` times, then recorded as crashed. An
    exception a worker raised is raised here, with the worker's traceback as its cause.
    Closing the generator stops every worker (the games in play are lost)."""
    context = multiprocessing.get_context("spawn")
    queue: deque[tuple[Job, int]] = deque((job, 0) for job in jobs)
    workers = [_Worker(context) for _ in range(min(count, len(jobs)))]
    try:
        while True:
            for worker in workers:
                if worker.job is None and queue:
                    job, starts = queue.popleft()
                    worker.give(job, starts + 1)
            busy = [w for w in workers if w.job is not None]
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for i, worker in enumerate(workers):
                if worker.job is None or not {worker.conn, worker.process.sentinel} & ready:
                    continue
                job, starts = worker.job
                answer = worker.receive()
                if answer is None:  # it died: a new worker takes its place
                    worker.conn.close()
                    workers[i] = _Worker(context)
                    if starts <= replays:
                        queue.appendleft((job, starts))
                    else:
                        yield crashed_record(job, f"{_death(worker.process)} during the game")
                    continue
                worker.job = None
                if answer[0] == "raised":
                    raise answer[1] from WorkerTraceback(answer[2])
                yield answer[1]
    finally:
        for worker in workers:
            worker.end()
