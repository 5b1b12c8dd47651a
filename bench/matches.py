"""`regent bench matches`: the hosted matches' capacity. N concurrent 2-player matches of the
primary game, each a bot seat at a level of 1 to 5 against a scripted human seat that plays
at table speed (a random legal move every `think` seconds, jittered), are driven against real
`regent serve` processes (one, or several replicas on one PostgreSQL database), with N raised
step by step until Play's p99 passes the bound (250 ms).

Each step prints: moves per second (the humans' and the bots', as the watchers saw them);
Play's p50 and p99; the p99 of Watch's delivery lag (from a Play's answer to its move's event
on that match's Watch stream); health checks' p99; and the servers' CPU (in cores) and RSS,
read from /proc. The client runs on the same machine and takes CPU of its own: the figures
are of the whole machine under this load. Every random choice comes from `seed`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engine
from convert import game_number
from regent.v1 import matches_pb2, matches_pb2_grpc

#: A step ends the ramp once Play's p99 passes this (milliseconds).
BOUND_MS = 250.0
STEPS = (100, 300, 1000, 2000)
LEVELS = (1, 2, 3, 4, 5)
_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Step:
    matches: int
    seconds: float
    moves_per_second: float
    plays: int
    play_p50_ms: float
    play_p99_ms: float
    watch_lag_p99_ms: float
    health_p99_ms: float
    #: The servers' CPU over the step, in cores (1.0: one core all the time).
    server_cpu: float
    server_rss_mb: float
    errors: dict[str, int] = field(default_factory=dict)


@dataclass
class _Window:
    """What the matches record during one step."""

    plays: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    health: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, err: grpc.RpcError) -> None:
        code = err.code().name if isinstance(err, grpc.aio.AioRpcError) else "other"
        self.errors[code] = self.errors.get(code, 0) + 1


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def replicas(
    count: int, db: str, max_matches: int, options: Sequence[str] = ()
) -> Iterator[list[tuple[str, int]]]:
    """`count` `regent serve` processes on database `db`, with `options` besides: their
    (address, pid)."""
    started = []
    try:
        for _ in range(count):
            address = f"127.0.0.1:{_free_port()}"
            command = [sys.executable, "-m", "clients.cli", "serve", "--address", address,
                       "--no-web", "--db", db, "--log-level", "warning",
                       "--max-matches", str(max_matches), *options]  # fmt: skip
            process = subprocess.Popen(command, cwd=Path(__file__).resolve().parents[1])
            started.append((address, process))
        for address, _ in started:
            with grpc.insecure_channel(address) as channel:
                grpc.channel_ready_future(channel).result(timeout=60)
        yield [(address, process.pid) for address, process in started]
    finally:
        for _, process in started:
            process.terminate()
        for _, process in started:
            process.wait(30)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def _rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE / 2**20


class _Table:
    """One hosted match: its human seat's script and its Watch stream."""

    def __init__(self, stub: matches_pb2_grpc.MatchServiceStub, level: int, seed: int) -> None:
        self.stub = stub
        self.level = level
        self.rng = random.Random(seed)
        self.seed = seed
        #: Move number -> when the Play that made it was answered.
        self.answered: dict[int, float] = {}

    async def run(self, think: float, windows: list[_Window], stop: asyncio.Event) -> None:
        """Play matches one after another until `stop`."""
        while not stop.is_set():
            try:
                await self._one_match(think, windows, stop)
            except grpc.aio.AioRpcError as err:
                windows[-1].error(err)
                await asyncio.sleep(1)
            self.seed += 1_000_003

    async def _one_match(self, think: float, windows: list[_Window], stop: asyncio.Event) -> None:
        seats = [matches_pb2.SeatSpec(human_name="bench"),
                 matches_pb2.SeatSpec(bot=f"level:{self.level}")]  # fmt: skip
        primary = engine.primary_game().name
        created = await self.stub.CreateMatch(
            matches_pb2.CreateMatchRequest(game=game_number(primary), seats=seats, seed=self.seed),
            timeout=60,
        )
        ids = {"match_id": created.match_id, "token": created.tokens[0].token}
        news = asyncio.Event()
        watcher = asyncio.create_task(self._watch(ids, windows, news))
        try:
            view = await self.stub.GetView(matches_pb2.GetViewRequest(**ids), timeout=60)
            while view.status == matches_pb2.MATCH_STATUS_PLAYING and not stop.is_set():
                if not view.legal_moves:
                    news.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(news.wait(), 5)
                    view = await self.stub.GetView(matches_pb2.GetViewRequest(**ids), timeout=60)
                    continue
                await asyncio.sleep(think * self.rng.uniform(0.5, 1.5))
                move = self.rng.choice(view.legal_moves)
                start = time.perf_counter()
                answer = await self.stub.Play(
                    matches_pb2.PlayRequest(**ids, move=move, expected_move=view.moves_played),
                    timeout=60,
                )
                done = time.perf_counter()
                self.answered[view.moves_played] = done
                windows[-1].plays.append(done - start)
                view = answer.view
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await watcher

    async def _watch(
        self, ids: dict[str, str], windows: list[_Window], news: asyncio.Event
    ) -> None:
        async for item in self.stub.Watch(matches_pb2.WatchRequest(**ids)):
            now = time.perf_counter()
            windows[-1].moves += 1
            made = self.answered.pop(item.event.sequence, None)
            if made is not None:
                windows[-1].lags.append(max(0.0, now - made))
            news.set()


async def _health(address: str, windows: list[_Window], stop: asyncio.Event) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while not stop.is_set():
            start = time.perf_counter()
            with contextlib.suppress(grpc.aio.AioRpcError):
                await stub.Check(health_pb2.HealthCheckRequest(), timeout=10)
            windows[-1].health.append(time.perf_counter() - start)
            await asyncio.sleep(0.2)


async def _ramp(
    servers: list[tuple[str, int]], steps: Sequence[int], seconds: float, think: float, seed: int
) -> list[Step]:
    channels = [grpc.aio.insecure_channel(address) for address, _ in servers]
    stubs = [matches_pb2_grpc.MatchServiceStub(channel) for channel in channels]
    stop = asyncio.Event()
    windows = [_Window()]
    tasks = [asyncio.create_task(_health(address, windows, stop)) for address, _ in servers]
    results: list[Step] = []
    tables = 0
    try:
        for n in steps:
            while tables < n:  # the new matches join, spread over the replicas
                table = _Table(stubs[tables % len(stubs)], LEVELS[tables % len(LEVELS)],
                               seed * 7919 + tables)  # fmt: skip
                tasks.append(asyncio.create_task(table.run(think, windows, stop)))
                tables += 1
            await asyncio.sleep(min(seconds / 3, 2 * think))  # let the newcomers settle in
            windows.append(_Window())
            cpu = sum(cpu_seconds(pid) for _, pid in servers)
            start = time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - start
            used = sum(cpu_seconds(pid) for _, pid in servers) - cpu
            window = windows[-1]
            step = Step(
                matches=n,
                seconds=round(elapsed, 1),
                moves_per_second=round(window.moves / elapsed, 1),
                plays=len(window.plays),
                play_p50_ms=round(_percentile(window.plays, 0.5), 1),
                play_p99_ms=round(_percentile(window.plays, 0.99), 1),
                watch_lag_p99_ms=round(_percentile(window.lags, 0.99), 1),
                health_p99_ms=round(_percentile(window.health, 0.99), 1),
                server_cpu=round(used / elapsed, 2),
                server_rss_mb=round(sum(_rss_mb(pid) for _, pid in servers), 1),
                errors=dict(window.errors),
            )
            results.append(step)
            _print_step(step)
            if step.play_p99_ms > BOUND_MS:
                break
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in channels:
            await channel.close()
    return results


def _print_step(step: Step) -> None:
    print(f"{step.matches:6d} {step.moves_per_second:8.1f} {step.play_p50_ms:8.1f} "
          f"{step.play_p99_ms:8.1f} {step.watch_lag_p99_ms:9.1f} {step.health_p99_ms:9.1f} "
          f"{step.server_cpu:6.2f} {step.server_rss_mb:7.0f}  {step.errors or ''}",
          flush=True)  # fmt: skip


def run(
    steps: Sequence[int] = STEPS,
    seconds: float = 30.0,
    think: float = 3.0,
    replica_count: int = 1,
    db: str = ":memory:",
    seed: int = 1,
    as_json: bool = False,
) -> list[Step]:
    """Ramp the matches through `steps` against `replica_count` servers on `db` (PostgreSQL
    for more than one), `seconds` measured per step; print each step as it ends."""
    if replica_count > 1 and not db.startswith(("postgresql://", "postgres://")):
        raise ValueError("replicas share a database: give --db postgresql://...")
    with replicas(replica_count, db, max(steps) + 100) as servers:
        if not as_json:
            where = db.split("@")[-1]
            print(f"{replica_count} replica(s) on {where}, a human move every ~{think:g} s, "
                  f"{seconds:g} s a step; the client shares this machine")  # fmt: skip
            print(" match  moves/s play p50 play p99 watch p99 health p99  cpu  rss MB")
        results = asyncio.run(_ramp(servers, steps, seconds, think, seed))
    if as_json:
        print(json.dumps([asdict(step) for step in results]))
    return results
