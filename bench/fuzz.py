"""`regent bench fuzz`: mutated requests over every RPC of every served game against a real
`regent serve` process (its matches in a SQLite file), counted by the status they get.

Valid requests are made first (observations of seeded random games of every player count,
matches created with human and bot seats), then each request sent is one of them with one to
three mutations: a field of any depth cleared, set to an extreme or nonsensical value, or
repeated; or the serialized bytes flipped, cut or stretched. What a healthy server may answer
is OK or a status that blames the request; UNKNOWN or INTERNAL means a handler crashed, and a
deadline exceeded (but for Watch, whose stream runs as long as its match) means it hung.

Most requests carry the server's one API key as metadata; some carry none (an anonymous caller,
held to the per-peer quotas: the server quotas loopback callers too) and some a wrong or
mangled key (UNAUTHENTICATED)."""

from __future__ import annotations

import base64
import json
import math
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engine
from bench.service import server_process
from convert import game_number, observation_from_proto, observation_to_proto, served_games
from regent.v1 import advisor_pb2, common_pb2, matches_pb2
from server.limits import ServerLimits
from server.quotas import API_KEY_HEADER, ApiKey

Code = grpc.StatusCode
#: Statuses that blame the request (or a busy server): a handled refusal.
REFUSALS = {
    Code.INVALID_ARGUMENT,
    Code.RESOURCE_EXHAUSTED,
    Code.FAILED_PRECONDITION,
    Code.NOT_FOUND,
    Code.UNAUTHENTICATED,
    Code.PERMISSION_DENIED,
    Code.OUT_OF_RANGE,
}
#: Limits that keep every accepted search short, so that ten thousand requests take minutes.
LIMITS = ServerLimits(
    max_iterations=2000,
    max_seconds=0.5,
    max_searches=8,
    default_iterations=200,
    max_matches=300,
    max_bot_searches=1,
    quota_loopback=True,
    anonymous_matches=50,
    anonymous_searches_per_second=20.0,
)
KEY = ApiKey("fuzz", "fuzz-key-0123456789abcdef")
#: What a request's `x-api-key` may be besides the right key: wrong, mangled, huge.
BAD_KEYS = ["", "x", KEY.key[:-1], KEY.key + "x", KEY.key.upper(), "A" * 4000, "Bearer " + KEY.key]
WATCH_SECONDS = 0.3
CALL_SECONDS = 15.0

ADVISOR = "/regent.v1.AdvisorService/"
MATCHES = "/regent.v1.MatchService/"
#: Method -> (request type, server streaming).
METHODS: dict[str, tuple[type[Message], bool]] = {
    ADVISOR + "Recommend": (advisor_pb2.RecommendRequest, False),
    ADVISOR + "Analyze": (advisor_pb2.AnalyzeRequest, True),
    ADVISOR + "LegalMoves": (advisor_pb2.LegalMovesRequest, False),
    ADVISOR + "ApplyMove": (advisor_pb2.ApplyMoveRequest, False),
    ADVISOR + "ApplyObservedMove": (advisor_pb2.ApplyObservedMoveRequest, False),
    ADVISOR + "ListGames": (advisor_pb2.ListGamesRequest, False),
    ADVISOR + "Review": (advisor_pb2.ReviewRequest, True),
    MATCHES + "CreateMatch": (matches_pb2.CreateMatchRequest, False),
    MATCHES + "GetView": (matches_pb2.GetViewRequest, False),
    MATCHES + "Play": (matches_pb2.PlayRequest, False),
    MATCHES + "Watch": (matches_pb2.WatchRequest, True),
    MATCHES + "ListMatches": (matches_pb2.ListMatchesRequest, False),
    MATCHES + "Resign": (matches_pb2.ResignRequest, False),
}


@dataclass
class FuzzFigures:
    requests: int
    seconds: float
    #: Status name -> how many requests ended with it.
    codes: dict[str, int]
    #: Method name -> status name -> count.
    by_method: dict[str, dict[str, int]]
    #: Requests that crashed a handler (UNKNOWN, INTERNAL) or hung (DEADLINE_EXCEEDED).
    failures: list[str] = field(default_factory=list)
    #: Health checks made during the run that did not answer SERVING within a second.
    health_failures: int = 0
    health_checks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures and self.health_failures == 0


# -- the valid requests -----------------------------------------------------------------


def _observations(rng: random.Random) -> list[advisor_pb2.Observation]:
    """Observations of the player to act, at random steps of seeded random games of every
    game and player count."""
    out = []
    for game, counts in ((spec.name, spec.player_counts) for spec in served_games()):
        for players in counts:
            for _ in range(3):
                state = engine.new_game(game, players, seed=rng.randrange(1 << 30))
                for _ in range(rng.randrange(120)):
                    if state.is_terminal():
                        break
                    state.apply_action(rng.choice(state.legal_actions()))
                if not state.is_terminal():
                    view = state.observation(state.current_player)
                    out.append(observation_to_proto(view))
    return out


def _advice(rng: random.Random, observation: advisor_pb2.Observation) -> list[tuple[str, Message]]:
    budget = common_pb2.SearchBudget(iterations=rng.choice([20, 50, 100]), threads=1)
    bot = rng.choice(["", "mo-ismcts", "so-ismcts", "pimc:worlds=4"])
    state = engine.state_from_observation(_engine_view(observation), seed=1)
    move = common_pb2.Move(text=state.action_to_string(rng.choice(state.legal_actions())))
    return [
        (ADVISOR + "Recommend", advisor_pb2.RecommendRequest(observation=observation,
                                                             budget=budget, bot=bot)),
        (ADVISOR + "Analyze", advisor_pb2.AnalyzeRequest(observation=observation, budget=budget,
                                                         interval_ms=50)),
        (ADVISOR + "LegalMoves", advisor_pb2.LegalMovesRequest(observation=observation)),
        (ADVISOR + "ApplyMove", advisor_pb2.ApplyMoveRequest(observation=observation, move=move)),
        (ADVISOR + "ListGames", advisor_pb2.ListGamesRequest()),
        (ADVISOR + "Review", advisor_pb2.ReviewRequest(observations=[observation], moves=[move],
                                                       budget=budget, deep_budget=budget,
                                                       mistakes=1, bot=bot)),
        (ADVISOR + "ApplyObservedMove", advisor_pb2.ApplyObservedMoveRequest(
            observation=observation, player=state.current_player, move=move)),
    ]  # fmt: skip


def _engine_view(observation: advisor_pb2.Observation) -> Any:
    return observation_from_proto(observation)


def _create_requests(rng: random.Random) -> list[matches_pb2.CreateMatchRequest]:
    out = []
    for game, counts in ((spec.name, spec.player_counts) for spec in served_games()):
        for players in counts:
            seats = [matches_pb2.SeatSpec(human_name=f"p{i}") for i in range(players)]
            for i in range(1, players):
                if rng.random() < 0.5:
                    seats[i] = matches_pb2.SeatSpec(bot=rng.choice(["random", "heuristic"]))
            out.append(
                matches_pb2.CreateMatchRequest(
                    game=game_number(game), seats=seats, seed=rng.randrange(1 << 30)
                )
            )
    return out


def _match_requests(channel: grpc.Channel, rng: random.Random) -> list[tuple[str, Message]]:
    """Requests on real matches: each seat's view, play, watch and resign, and listings."""
    create = channel.unary_unary(
        MATCHES + "CreateMatch",
        request_serializer=matches_pb2.CreateMatchRequest.SerializeToString,
        response_deserializer=matches_pb2.CreateMatchResponse.FromString,
    )
    view = channel.unary_unary(
        MATCHES + "GetView",
        request_serializer=matches_pb2.GetViewRequest.SerializeToString,
        response_deserializer=matches_pb2.GetViewResponse.FromString,
    )
    out: list[tuple[str, Message]] = []
    tokens = []
    keyed = ((API_KEY_HEADER, KEY.key),)
    for request in _create_requests(rng):
        out.append((MATCHES + "CreateMatch", request))
        created = create(request, timeout=CALL_SECONDS, metadata=keyed)
        for seat in created.tokens:
            tokens.append(seat.token)
            ids = {"match_id": created.match_id, "token": seat.token}
            out.append(
                (
                    MATCHES + "GetView",
                    matches_pb2.GetViewRequest(match_id=created.match_id, token=seat.token),
                )
            )
            out.append((MATCHES + "Watch", matches_pb2.WatchRequest(**ids)))
            out.append((MATCHES + "Resign", matches_pb2.ResignRequest(**ids)))
            seen = view(
                matches_pb2.GetViewRequest(match_id=created.match_id, token=seat.token),
                timeout=CALL_SECONDS,
                metadata=keyed,
            )
            move = rng.choice(seen.legal_moves) if seen.legal_moves else common_pb2.Move(id=0)
            out.append(
                (
                    MATCHES + "Play",
                    matches_pb2.PlayRequest(**ids, move=move, expected_move=seen.moves_played),
                )
            )
    out.append((MATCHES + "ListMatches", matches_pb2.ListMatchesRequest(tokens=tokens[:20])))
    listing = channel.unary_unary(
        MATCHES + "ListMatches",
        request_serializer=matches_pb2.ListMatchesRequest.SerializeToString,
        response_deserializer=matches_pb2.ListMatchesResponse.FromString,
    )
    first = matches_pb2.ListMatchesRequest(tokens=tokens[:5], page_size=1)
    page = listing(first, timeout=CALL_SECONDS, metadata=keyed).next_page_token
    out.append((MATCHES + "ListMatches", matches_pb2.ListMatchesRequest(
        tokens=tokens[:5], page_size=1, page_token=page)))  # fmt: skip
    return out


# -- mutations --------------------------------------------------------------------------


INTS = [0, 1, -1, 2, 7, 255, 2**31 - 1, -(2**31), 2**32 - 1, 2**63 - 1, -(2**63), 2**64 - 1]
FLOATS = [0.0, -0.0, 1e-300, -1.0, 1e300, math.inf, -math.inf, math.nan, 0.5]
STRINGS = ["", " ", "\x00", "é" * 70, "x" * 5000, "stop", "play hand red-9", "../../etc",
           "mo-ismcts:c=nan", "pimc:worlds=99", "random:iterations=3", "red-1", "-1",
           # seat names and bot specs: control characters, terminal escapes, a long spec
           "ann\nbob", "\x1b[2J\x1b[31mred", "a\u202eb", "\t", "level:3", "level:99",
           "mo-ismcts:" + "c=1," * 5000,
           # page tokens: deep nesting, wrong shapes, huge
           base64.urlsafe_b64encode(b"[" * 1000).decode(),
           base64.urlsafe_b64encode(b'[1e999, "x"]').decode(), "=" * 9, "A" * 100_000]  # fmt: skip


def _paths(message: Message, prefix: tuple = ()) -> list[tuple[Message, FieldDescriptor]]:
    """Every (message, field) within `message`, set or not, to any depth (set messages only)."""
    out = []
    # types-protobuf types DESCRIPTOR as either implementation's (python or upb); upb's
    # field descriptors are `FieldDescriptor`s too at runtime (isinstance says so).
    for descriptor in cast(Sequence[FieldDescriptor], message.DESCRIPTOR.fields):
        out.append((message, descriptor))
        if descriptor.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        value = getattr(message, descriptor.name)
        if descriptor.is_repeated:
            for item in value:
                out.extend(_paths(item, (*prefix, descriptor.name)))
        elif message.HasField(descriptor.name):
            out.extend(_paths(value, (*prefix, descriptor.name)))
    return out


def _scalar(rng: random.Random, descriptor: FieldDescriptor) -> Any:
    kind = descriptor.type
    if kind == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if kind in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        return rng.choice(FLOATS)
    if kind == FieldDescriptor.TYPE_STRING:
        return rng.choice(STRINGS)
    if kind == FieldDescriptor.TYPE_BYTES:
        return rng.randbytes(rng.randrange(16))
    if kind == FieldDescriptor.TYPE_ENUM:
        enum = descriptor.enum_type
        assert enum is not None, "an enum field has its enum type"
        return rng.choice([*(v.number for v in enum.values), 99, -5])
    value = rng.choice(INTS)
    unsigned = kind in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64,
                        FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_FIXED64)  # fmt: skip
    wide = kind in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64,
                    FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_FIXED64,
                    FieldDescriptor.TYPE_SFIXED64)  # fmt: skip
    bits = 64 if wide else 32
    low = 0 if unsigned else -(1 << (bits - 1))
    high = (1 << bits) - 1 if unsigned else (1 << (bits - 1)) - 1
    return min(max(value, low), high)


def _mutate_field(rng: random.Random, message: Message) -> None:
    owner, descriptor = rng.choice(_paths(message))
    name = descriptor.name
    repeated = descriptor.is_repeated
    is_message = descriptor.type == FieldDescriptor.TYPE_MESSAGE
    choice = rng.random()
    if choice < 0.25:
        owner.ClearField(name)
    elif repeated:
        items = getattr(owner, name)
        if len(items) and choice < 0.6:
            if is_message:
                for _ in range(rng.choice([1, 2, 50])):
                    items.add().CopyFrom(rng.choice(items))
            else:
                items.extend([rng.choice(items)] * rng.choice([1, 2, 50]))
        elif len(items) and choice < 0.8:
            del items[rng.randrange(len(items))]
        elif is_message:
            items.add()
        else:
            items.append(_scalar(rng, descriptor))
    elif is_message:
        getattr(owner, name).SetInParent()
    else:
        setattr(owner, name, _scalar(rng, descriptor))


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        action = rng.random()
        if action < 0.5 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif action < 0.7 and out:
            del out[rng.randrange(len(out)) :]
        else:
            at = rng.randrange(len(out) + 1)
            out[at:at] = rng.randbytes(rng.randint(1, 8))
    return bytes(out)


def mutated(rng: random.Random, method: str, request: Message) -> bytes:
    """One to three mutations of a valid request, as the bytes to send."""
    if rng.random() < 0.2 or not request.DESCRIPTOR.fields:
        return _mutate_bytes(rng, request.SerializeToString())
    copy = type(request)()
    copy.CopyFrom(request)
    for _ in range(rng.randint(1, 3)):
        _mutate_field(rng, copy)
    return copy.SerializeToString()


# -- the run ----------------------------------------------------------------------------


class Caller:
    """Sends raw bytes to any of `methods` and says how the call ended."""

    def __init__(
        self, channel: grpc.Channel, methods: dict[str, tuple[type[Message], bool]] = METHODS
    ) -> None:
        self.calls: dict[str, Callable[..., Any]] = {}
        self.streaming = {method: streaming for method, (_, streaming) in methods.items()}
        for method, streaming in self.streaming.items():
            make = channel.unary_stream if streaming else channel.unary_unary
            self.calls[method] = make(method, request_serializer=None, response_deserializer=None)

    def code(
        self, method: str, data: bytes, timeout: float = CALL_SECONDS, key: str | None = None
    ) -> tuple[grpc.StatusCode, grpc.RpcError | None]:
        """The status the call ended with (OK, or the error's) and the error; `key` is sent
        as the API key's metadata."""
        metadata = None if key is None else ((API_KEY_HEADER, key),)
        try:
            result = self.calls[method](data, timeout=timeout, metadata=metadata)
            if self.streaming[method]:
                for _ in result:
                    pass
        except grpc.RpcError as err:
            return err.code(), err
        return Code.OK, None


def parses(method: str, data: bytes) -> bool:
    """Whether `data` reads as the request message of `method`."""
    try:
        METHODS[method][0].FromString(data)
    except DecodeError:
        return False
    return True


def run(requests: int, seed: int, workers: int, as_json: bool, quiet: bool = False) -> FuzzFigures:
    """Send `requests` mutated requests from `workers` client threads; print the figures."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "fuzz.sqlite3")
        with (
            server_process(LIMITS, db, [KEY]) as address,
            grpc.insecure_channel(address) as channel,
        ):
            valid = [r for o in _observations(rng) for r in _advice(rng, o)]
            valid += _match_requests(channel, rng)
            by_method: dict[str, list[Message]] = {}
            for method, request in valid:
                by_method.setdefault(method, []).append(request)
            plan = []
            for _ in range(requests):
                method = rng.choice(sorted(by_method))
                data = mutated(rng, method, rng.choice(by_method[method]))
                plan.append((method, data, _key(rng)))
            figures = _send(address, plan, workers)
    if not quiet:
        _print(figures, as_json)
    return figures


def _key(rng: random.Random) -> str | None:
    """A request's API key: mostly the server's, sometimes none, sometimes a bad one."""
    draw = rng.random()
    return KEY.key if draw < 0.7 else None if draw < 0.85 else rng.choice(BAD_KEYS)


def _send(address: str, plan: list[tuple[str, bytes, str | None]], workers: int) -> FuzzFigures:
    codes: Counter[str] = Counter()
    by_method: dict[str, Counter[str]] = {}
    failures: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    health = {"checks": 0, "failures": 0}

    def watch_health() -> None:
        with grpc.insecure_channel(address) as own:
            stub = health_pb2_grpc.HealthStub(own)
            while not stop.wait(0.5):
                health["checks"] += 1
                try:
                    status = stub.Check(health_pb2.HealthCheckRequest(), timeout=1.0).status
                except grpc.RpcError:
                    status = None
                if status != health_pb2.HealthCheckResponse.SERVING:
                    health["failures"] += 1

    def send(chunk: list[tuple[str, bytes, str | None]]) -> None:
        with grpc.insecure_channel(address) as own:
            caller = Caller(own)
            for method, data, key in chunk:
                name = method.rsplit("/", 1)[1]
                timeout = WATCH_SECONDS if name == "Watch" else CALL_SECONDS
                code, err = caller.code(method, data, timeout, key)
                details = (err.details() if err is not None else "") or ""
                hung = code == Code.DEADLINE_EXCEEDED and name != "Watch"
                crashed = code in (Code.UNKNOWN, Code.INTERNAL)
                with lock:
                    codes[code.name] += 1
                    by_method.setdefault(name, Counter())[code.name] += 1
                    if hung or crashed or code not in REFUSALS | {Code.OK, Code.DEADLINE_EXCEEDED}:
                        parsed = "parses" if parses(method, data) else "does not parse"
                        failures.append(f"{name} {code.name} ({parsed}): {details[:200]}")

    watcher = threading.Thread(target=watch_health, daemon=True)
    watcher.start()
    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(send, [plan[i::workers] for i in range(workers)]))
    elapsed = time.perf_counter() - start
    stop.set()
    watcher.join()
    return FuzzFigures(
        requests=len(plan),
        seconds=elapsed,
        codes=dict(codes.most_common()),
        by_method={m: dict(c.most_common()) for m, c in sorted(by_method.items())},
        failures=failures,
        health_failures=health["failures"],
        health_checks=health["checks"],
    )


def _print(figures: FuzzFigures, as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures.__dict__ | {"ok": figures.ok}))
        return
    print(f"{figures.requests} mutated requests in {figures.seconds:.1f} s "
          f"({figures.requests / figures.seconds:.0f}/s)")  # fmt: skip
    print("status                 count")
    for code, count in figures.codes.items():
        print(f"  {code:<20} {count:6d}")
    print("by method: " + "; ".join(
        f"{m} {sum(c.values())}" for m, c in figures.by_method.items()))  # fmt: skip
    print(f"health checks during the run: {figures.health_checks}, "
          f"not SERVING within 1 s: {figures.health_failures}")  # fmt: skip
    print(f"crashes (UNKNOWN, INTERNAL) and hangs: {len(figures.failures)}")
    for failure in figures.failures[:20]:
        print("  " + failure)
