"""`regent bench service`: what the service adds to a search (Recommend through
a real server on loopback against the same search in process), its throughput
and latency with many concurrent clients, and how many of their calls it
refused as busy (RESOURCE_EXHAUSTED: more searches than `--max-searches`)."""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import socket
import statistics
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from search.search import SearchConfig, search
from server.app import serve
from server.limits import ServerLimits
from server.quotas import ApiKey
from server.store import MEMORY


@dataclass(frozen=True)
class ServiceFigures:
    iterations: int
    calls: int
    in_process_ms: float  # median per search
    through_server_ms: float  # median per Recommend
    overhead_ratio: float
    concurrent_clients: int
    max_searches: int
    concurrent_calls: int  # answered
    refused_calls: int  # RESOURCE_EXHAUSTED: the server was running its limit of searches
    concurrent_seconds: float
    p50_ms: float  # of the answered calls
    p99_ms: float

    @property
    def calls_per_second(self) -> float:
        return self.concurrent_calls / self.concurrent_seconds


def _request(
    game_name: str, iterations: int, seed: int
) -> tuple[engine.State, advisor_pb2.RecommendRequest]:
    """A Recommend request of a 2-player game, and the very state the server will search."""
    game = engine.new_game(game_name, 2, seed=seed)
    for _ in range(8):
        game.apply_action(game.legal_actions()[-1])
    observation = game.observation(game.current_player)
    request = advisor_pb2.RecommendRequest(
        observation=observation_to_proto(observation),
        budget=common_pb2.SearchBudget(iterations=iterations, threads=1),
        seed=seed,
    )
    return engine.state_from_observation(observation, seed=seed), request


def _serve(address: str, limits: ServerLimits, db: str, keys: Sequence[ApiKey]) -> None:
    asyncio.run(serve(address, limits, db=db, keys=keys))


@contextmanager
def server_process(
    limits: ServerLimits, db: str = MEMORY, keys: Sequence[ApiKey] = ()
) -> Iterator[str]:
    """`regent serve` in its own process (as in production), on a free loopback port, its
    hosted matches in `db`, callers' API keys `keys`."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
    process = multiprocessing.get_context("spawn").Process(
        target=_serve, args=(address, limits, db, keys)
    )
    process.start()
    try:
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            check = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            assert check.status == health_pb2.HealthCheckResponse.SERVING
        yield address
    finally:
        process.terminate()
        process.join(10)
        if process.is_alive():
            process.kill()
            process.join()


def run(
    iterations: int,
    calls: int,
    clients: int,
    as_json: bool,
    max_searches: int = 4,
    game: str | None = None,
) -> ServiceFigures:
    """Measure Recommend on a position of `game` (default: the primary game)."""
    state, request = _request(game or engine.primary_game().name, iterations, 1)
    config = SearchConfig(iterations=iterations, threads=1, seed=1)
    limits = ServerLimits(max_searches=max_searches)
    with server_process(limits) as address, grpc.insecure_channel(address) as channel:
        stub = advisor_pb2_grpc.AdvisorServiceStub(channel)
        stub.Recommend(request)  # warm up the channel
        local, remote = [], []
        for _ in range(calls):  # interleaved, so drift hits both alike
            start = time.perf_counter()
            search(state, config)
            local.append(time.perf_counter() - start)
            start = time.perf_counter()
            stub.Recommend(request)
            remote.append(time.perf_counter() - start)
        answered, refused = _concurrent(address, request, calls, clients)
        elapsed = answered.pop()
    latencies = sorted(answered)
    figures = ServiceFigures(
        iterations=iterations,
        calls=calls,
        in_process_ms=statistics.median(local) * 1000,
        through_server_ms=statistics.median(remote) * 1000,
        overhead_ratio=statistics.median(remote) / statistics.median(local),
        concurrent_clients=clients,
        max_searches=max_searches,
        concurrent_calls=len(latencies),
        refused_calls=refused,
        concurrent_seconds=elapsed,
        p50_ms=_quantile(latencies, 0.50) * 1000,
        p99_ms=_quantile(latencies, 0.99) * 1000,
    )
    if as_json:
        print(
            json.dumps(asdict(figures) | {"calls_per_second": round(figures.calls_per_second, 1)})
        )
    else:
        print(f"Recommend, {iterations} iterations, median of {calls} calls:")
        print(f"  in process      {figures.in_process_ms:8.1f} ms")
        print(f"  through server  {figures.through_server_ms:8.1f} ms")
        print(f"  overhead ratio  {figures.overhead_ratio:8.3f}")
        print(f"{clients} concurrent clients, {calls} calls each, --max-searches {max_searches}:")
        print(f"  throughput      {figures.calls_per_second:8.1f} calls/s answered")
        print(f"  latency p50     {figures.p50_ms:8.1f} ms")
        print(f"  latency p99     {figures.p99_ms:8.1f} ms")
        print(f"  refused (busy)  {figures.refused_calls:8d} of {clients * calls}")
    return figures


def _concurrent(
    address: str, request: advisor_pb2.RecommendRequest, calls: int, clients: int
) -> tuple[list[float], int]:
    """`clients` threads, each on its own channel, each making `calls` Recommend calls: the
    latencies of the answered calls (then the wall time of the whole), and how many were
    refused as busy."""
    latencies: list[float] = []
    refused = [0]
    lock = threading.Lock()

    def client() -> None:
        with grpc.insecure_channel(address) as own:
            own_stub = advisor_pb2_grpc.AdvisorServiceStub(own)
            for _ in range(calls):
                start = time.perf_counter()
                try:
                    own_stub.Recommend(request, timeout=60)
                except grpc.RpcError as err:
                    if err.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                        raise
                    with lock:
                        refused[0] += 1
                    continue
                with lock:
                    latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [*latencies, time.perf_counter() - start], refused[0]


def _quantile(values: list[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank); 0 with none."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]
