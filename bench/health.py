"""`regent bench health`: how long a health check takes while the server works hardest at
what is not a search, against `regent serve`'s own process: idle; while clients (processes of
their own) repeat the slowest ApplyObservedMove found; and while every search slot searches
too. The service's goal: health answers within 50 ms whatever runs.

The slowest ApplyObservedMove is found, not named: each served game's seeded heuristic game
is followed from seat 0, and every other player's move seat 0 sees is timed in this process;
the slowest of each game is repeated."""

from __future__ import annotations

import json
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from multiprocessing.synchronize import Event
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engine
from bench.matches import cpu_seconds, replicas
from convert import observation_to_proto, served_games
from engine.interface import HIDDEN, UNSEEN
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from search.bots import make_bot
from server.apply_observed import apply_observed_move

#: Moves timed per game at most when looking for the slowest (a whole game, as a rule).
_CANDIDATES = 400
#: Players of each game's followed game: its most, at most four.
_PLAYERS = 4
#: Time between two health checks, in seconds.
_CHECK_EVERY = 0.05
#: A search slot's search, while the slots are kept busy.
_SEARCH_SECONDS = 5.0


@dataclass(frozen=True)
class Phase:
    name: str
    checks: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    server_cpu: float  # cores
    calls: int  # the load's calls answered


def slowest_observed_move(
    game: str, seed: int = 1
) -> tuple[advisor_pb2.ApplyObservedMoveRequest, float]:
    """The ApplyObservedMove request of `game` that took longest here (seat 0 following a
    seeded game of heuristic bots), and its seconds."""
    spec = engine.game(game)
    players = min(max(spec.player_counts), _PLAYERS)
    state = engine.new_game(game, players, seed)
    bot = make_bot("heuristic")
    slowest: tuple[advisor_pb2.ApplyObservedMoveRequest, float] | None = None
    step = timed = 0
    while not state.is_terminal() and timed < _CANDIDATES:
        action = bot.choose(state, seed * 1000 + step)
        player = state.current_player
        seen = state.observed_action(action, 0) if player not in (0, -1) else HIDDEN
        if seen not in (HIDDEN, UNSEEN):
            request = advisor_pb2.ApplyObservedMoveRequest(
                observation=observation_to_proto(state.observation(0)),
                player=player,
                move=common_pb2.Move(id=seen),
            )
            start = time.perf_counter()
            apply_observed_move(request.observation, request.player, request.move, [])
            seconds = time.perf_counter() - start
            timed += 1
            if slowest is None or seconds > slowest[1]:
                slowest = (request, seconds)
        state.apply_action(action)
        step += 1
    if slowest is None:
        raise ValueError(f"{game}: seat 0 saw no other player's move")
    return slowest


#: The calls the load's clients repeat, with their request messages.
_REQUESTS: dict[str, type[Message]] = {
    "ApplyObservedMove": advisor_pb2.ApplyObservedMoveRequest,
    "Recommend": advisor_pb2.RecommendRequest,
}


def _client(address: str, method: str, request: bytes, stop: Event, done: Any) -> None:
    """A client process: the advisor's `method` with `request`, again and again until
    `stop`, counting the answers in `done` (a shared integer)."""
    message = _REQUESTS[method].FromString(request)
    with grpc.insecure_channel(address) as channel:
        call = getattr(advisor_pb2_grpc.AdvisorServiceStub(channel), method)
        while not stop.is_set():
            call(message, timeout=60)
            with done.get_lock():
                done.value += 1


def _checks(health: health_pb2_grpc.HealthStub, seconds: float) -> list[float]:
    took = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        health.Check(health_pb2.HealthCheckRequest(), timeout=10)
        took.append(time.perf_counter() - start)
        time.sleep(_CHECK_EVERY)
    return took


def _phase(
    name: str,
    address: str,
    pid: int,
    health: health_pb2_grpc.HealthStub,
    seconds: float,
    loads: Sequence[tuple[str, bytes]],
) -> Phase:
    """Health checks for `seconds` while each load (a method and its request) runs in a
    client process of its own."""
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    done = context.Value("i", 0)
    clients = [
        context.Process(target=_client, args=(address, method, request, stop, done))
        for method, request in loads
    ]
    for client in clients:
        client.start()
    time.sleep(2 if clients else 0)  # the clients connect and start
    cpu = cpu_seconds(pid)
    start = time.perf_counter()
    took = _checks(health, seconds)
    used = (cpu_seconds(pid) - cpu) / (time.perf_counter() - start)
    stop.set()
    for client in clients:
        client.join(90)
    ms = sorted(t * 1000 for t in took)
    return Phase(
        name=name,
        checks=len(ms),
        p50_ms=round(statistics.median(ms), 1),
        p99_ms=round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 1),
        max_ms=round(ms[-1], 1),
        server_cpu=round(used, 2),
        calls=done.value,
    )


def _recommend(game: str, seed: int) -> bytes:
    state = engine.new_game(game, 2, seed)
    request = advisor_pb2.RecommendRequest(
        observation=observation_to_proto(state.observation(state.current_player)),
        budget=common_pb2.SearchBudget(seconds=_SEARCH_SECONDS, threads=1),
        seed=seed,
    )
    return request.SerializeToString()


def run(
    seconds: float = 10.0,
    clients: int = 4,
    max_searches: int = 4,
    games: Sequence[str] | None = None,
    seed: int = 1,
    as_json: bool = False,
) -> list[Phase]:
    """Measure the phases and print them as a table (or JSON)."""
    names = list(games or [spec.name for spec in served_games()])
    slow = {}
    for game in names:
        request, took = slowest_observed_move(game, seed)
        slow[game] = request.SerializeToString()
        if not as_json:
            print(f"{game}: the slowest ApplyObservedMove found takes {took * 1000:.0f} ms here")
    repeats = [("ApplyObservedMove", slow[names[i % len(names)]]) for i in range(clients)]
    searches = [
        ("Recommend", _recommend(names[i % len(names)], seed + i)) for i in range(max_searches)
    ]
    extra = ["--max-searches", str(max_searches)]
    with replicas(1, ":memory:", 100, extra) as servers:
        address, pid = servers[0]
        with grpc.insecure_channel(address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            loads = {
                "idle": [],
                f"{clients} ApplyObservedMove clients": repeats,
                f"... and {max_searches} searches": repeats + searches,
            }
            phases = [
                _phase(name, address, pid, health, seconds, load) for name, load in loads.items()
            ]
    if as_json:
        print(json.dumps([asdict(phase) for phase in phases]))
    else:
        print("phase                               checks  p50 ms  p99 ms  max ms  cpu  calls")
        for p in phases:
            print(f"{p.name:35s} {p.checks:6d} {p.p50_ms:7.1f} {p.p99_ms:7.1f} {p.max_ms:7.1f} "
                  f"{p.server_cpu:4.2f} {p.calls:6d}")  # fmt: skip
    return phases
