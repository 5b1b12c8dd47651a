"""The server under stress, over a real socket: deadlines, cancellation, hundreds of malformed
requests (none may crash a handler: never UNKNOWN or INTERNAL), and concurrent clients."""

from __future__ import annotations

import math
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engine
from bench.fuzz import ADVISOR, MATCHES, Caller, parses
from bench.fuzz import METHODS as FUZZED
from convert import observation_from_proto, observation_to_proto
from engine.errors import InvalidObservationError
from regent.v1 import (
    advisor_pb2,
    advisor_pb2_grpc,
    common_pb2,
    matches_pb2,
    matches_pb2_grpc,
    royal_cities_pb2,
)
from tests.support.errors import field_violations
from tests.support.random_games import play_to, position, terminal_position
from tests.support.server import RunningServer
from tests.timing import SLACK

Code = grpc.StatusCode
#: What a bad request may get. UNKNOWN or INTERNAL would mean a handler crashed.
EXPECTED = {
    Code.INVALID_ARGUMENT,
    Code.RESOURCE_EXHAUSTED,
    Code.FAILED_PRECONDITION,
    Code.NOT_FOUND,
    Code.UNAUTHENTICATED,
    Code.PERMISSION_DENIED,
}
#: The methods these tests aim at: every one that takes a position or a seat.
METHODS = {
    method: FUZZED[method]
    for method in (
        ADVISOR + "Recommend",
        ADVISOR + "Analyze",
        ADVISOR + "LegalMoves",
        MATCHES + "GetView",
        MATCHES + "Play",
        MATCHES + "Watch",
        MATCHES + "Resign",
    )
}


def small(observation: advisor_pb2.Observation, iterations: int = 100, **fields: Any):
    return advisor_pb2.RecommendRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=iterations, threads=1),
        **fields,
    )


def serving_still(server: RunningServer) -> None:
    """The server answers a health check and a valid Recommend."""
    with server.channel() as ch:
        health = health_pb2_grpc.HealthStub(ch)
        check = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        assert check.status == health_pb2.HealthCheckResponse.SERVING
        _, observation = position(3, seed=1)
        report = advisor_pb2_grpc.AdvisorServiceStub(ch).Recommend(small(observation), timeout=10)
        assert report.report.iterations == 100


# -- deadlines --------------------------------------------------------------------------------


def _in_time(call: Callable[[], Any]) -> Any:
    """`call()`'s answer, or None when it missed its deadline (DEADLINE_EXCEEDED)."""
    try:
        return call()
    except grpc.RpcError as err:
        assert err.code() == Code.DEADLINE_EXCEEDED, err
        return None


@pytest.mark.timing
@pytest.mark.parametrize("threads", [1, 2])
def test_a_deadline_caps_the_search(
    regent_server: RunningServer, advisor: advisor_pb2_grpc.AdvisorServiceStub, threads: int
) -> None:
    """A million iterations under a 1 s deadline: answered in time, with what the search did
    by the deadline less the 0.5 s a test server keeps back. gRPC ends a late call with
    DEADLINE_EXCEEDED: a host loaded past its cores, whose server threads can stall longer
    than those 0.5 s, may miss one of three; a server that ignored the deadline misses all."""
    _, observation = position(3, seed=14)
    request = advisor_pb2.RecommendRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=1_000_000, threads=threads),
    )
    answered = []
    for _ in range(3):
        response = _in_time(lambda: advisor.Recommend(request, timeout=1.0))
        regent_server.wait_idle(SLACK)
        if response is not None:
            answered.append(response.report)
    assert answered, "three deadlines missed"
    for report in answered:
        assert 0 < report.iterations < 1_000_000
        assert sum(m.visits for m in report.moves) == report.iterations


@pytest.mark.timing
def test_a_deadline_caps_an_analysis(
    regent_server: RunningServer, advisor: advisor_pb2_grpc.AdvisorServiceStub
) -> None:
    """The same for an analysis: its final report within the 1.5 s deadline, in one of three
    tries at least (as above)."""
    _, observation = position(2, seed=14)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=1_000_000),
        interval_ms=100,
    )
    for _ in range(3):
        messages = _in_time(lambda: list(advisor.Analyze(request, timeout=1.5)))
        regent_server.wait_idle(SLACK)
        if messages is not None:
            break
    assert messages is not None, "three deadlines missed"
    assert messages[-1].final and messages[-1].report.iterations < 1_000_000
    assert len(messages) >= 3


@pytest.mark.timing
def test_an_expired_deadline(
    regent_server: RunningServer, advisor: advisor_pb2_grpc.AdvisorServiceStub
) -> None:
    _, observation = position(2, seed=15)
    request = small(observation, 1_000_000)
    for timeout in (0.0, 1e-6):
        with pytest.raises(grpc.RpcError) as info:
            advisor.Recommend(request, timeout=timeout)
        assert info.value.code() == Code.DEADLINE_EXCEEDED
    # A deadline that runs out while the server works: answered in time, or exceeded.
    for timeout in (0.002, 0.01, 0.03, 0.05):
        try:
            advisor.Recommend(request, timeout=timeout)
        except grpc.RpcError as err:
            assert err.code() == Code.DEADLINE_EXCEEDED
    regent_server.wait_idle(SLACK)
    serving_still(regent_server)


# -- cancellation -----------------------------------------------------------------------------


@pytest.mark.timing
def test_cancelling_an_analysis_frees_its_search(
    tight_server: RunningServer, tight_advisor: advisor_pb2_grpc.AdvisorServiceStub
) -> None:
    """With max_searches=1: after a cancelled 20 s Analyze, its slot and its thread are free
    at once (within a loaded host's slack; the thread's CPU goes quiet), and the next search
    is served."""
    _, observation = position(3, seed=16)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation, budget=common_pb2.SearchBudget(seconds=20), interval_ms=100
    )
    for _ in range(3):
        analysis = tight_advisor.Analyze(request, timeout=30)
        first, second = next(analysis), next(analysis)
        assert not first.final and not second.final
        assert second.report.iterations > first.report.iterations
        assert tight_server.server.slots.running == 1
        analysis.cancel()
        tight_server.wait_idle(SLACK)
        # The search thread stopped too: the process is idle now.
        cpu = time.process_time()
        time.sleep(0.3)
        assert time.process_time() - cpu < 0.15, "a search still runs after its cancellation"
        report = tight_advisor.Recommend(small(observation), timeout=10).report
        assert report.iterations == 100


@pytest.mark.timing
def test_cancelling_a_recommend_frees_its_search(
    tight_server: RunningServer, tight_advisor: advisor_pb2_grpc.AdvisorServiceStub
) -> None:
    _, observation = position(3, seed=17)
    request = advisor_pb2.RecommendRequest(
        observation=observation, budget=common_pb2.SearchBudget(seconds=20)
    )
    future = tight_advisor.Recommend.future(request, timeout=30)
    end = time.monotonic() + 5
    while tight_server.server.slots.running == 0:
        assert time.monotonic() < end
        time.sleep(0.005)
    future.cancel()
    tight_server.wait_idle(SLACK)  # freed at the cancel, not at the end of its 20 s
    assert tight_advisor.Recommend(small(observation), timeout=10).report.iterations == 100


# -- malformed requests -----------------------------------------------------------------------


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def random_wire(rng: random.Random, depth: int = 0) -> bytes:
    """Random protobuf wire format: fields of any number and wire type, nested at times."""
    out = bytearray()
    for _ in range(rng.randint(0, 6)):
        wire_type = rng.choice((0, 1, 2, 5))
        out += _varint(rng.randint(1, 20) << 3 | wire_type)
        if wire_type == 0:
            out += _varint(rng.getrandbits(rng.choice((1, 3, 7, 31, 64))))
        elif wire_type == 1:
            out += rng.randbytes(8)
        elif wire_type == 5:
            out += rng.randbytes(4)
        else:
            if depth < 3 and rng.random() < 0.6:
                payload = random_wire(rng, depth + 1)
            else:
                payload = bytes(rng.choice(b"abcxyz-019 ") for _ in range(rng.randint(0, 12)))
            out += _varint(len(payload)) + payload
    return bytes(out)


def _engine_accepts(observation: advisor_pb2.Observation) -> bool:
    try:
        engine.state_from_observation(observation_from_proto(observation))
    except InvalidObservationError:
        return False
    return True


def _cards(rc: royal_cities_pb2.RoyalCitiesObservation) -> list:
    """Every repeated card field of an observation, with at least one card or not."""
    places = [rc.market, rc.discard, rc.decision.drawn, rc.decision.passes]
    for p in rc.players:
        places += [p.hand, p.seen_of_mine] + [c.cards for c in p.cities]
    if rc.HasField("regent"):
        places += [c.cards for c in rc.regent.cities]
    return places


def _break_card(rng: random.Random, rc) -> None:
    places = [p for p in _cards(rc) if len(p)]
    card = rng.choice(rng.choice(places))
    if rng.random() < 0.5:
        card.colour = rng.choice([0, 8, 9, 100, -1, 2**31 - 1])
    else:
        card.value = rng.choice([-1, 7, 8, 1000, -(2**31)])


def _duplicate_card(rng: random.Random, rc) -> None:
    """A card in more places than the deck has copies of it."""
    source = rng.choice([p for p in _cards(rc) if len(p) and p is not rc.decision.passes])
    card = rng.choice(source)
    targets = [rc.market, rc.discard] + [p.hand for p in rc.players]
    for _ in range(2):
        rng.choice(targets).append(card)


def _remove_card(rng: random.Random, rc) -> None:
    places = [rc.market, rc.discard] + [c.cards for p in rc.players for c in p.cities]
    places = [p for p in places if len(p)]
    place = rng.choice(places)
    del place[rng.randrange(len(place))]


def _off_count(rng: random.Random, rc) -> None:
    which = rng.choice(["pile_size", "reserve_size", "hand_size", "drawn_hidden"])
    delta = rng.choice([-3, -1, 1, 2, 100, -100])
    if which == "hand_size":
        player = rng.choice(rc.players)
        player.hand_size += delta
    elif which == "drawn_hidden":
        rc.decision.drawn_hidden += delta
    else:
        setattr(rc, which, getattr(rc, which) + delta)


def _bad_scalar(rng: random.Random, rc) -> None:
    name = rng.choice(
        ["observer", "num_players", "season", "num_seasons", "starter", "last_purchaser"]
    )
    setattr(rc, name, rng.choice([-1, 5, 9, 1000, -(2**31), 2**31 - 1]))


def _bad_enum(rng: random.Random, rc) -> None:
    which = rng.choice(["phase", "selection", "taxed", "rules"])
    if which == "phase":
        rc.decision.phase = rng.choice([0, 16, 99, -3])
    elif which == "selection":
        sel = rc.decision.selection.add()
        sel.card.colour, sel.card.value = 1, 3
        sel.city = rng.choice([0, 7, 8, -1])
    elif which == "taxed":
        rc.decision.taxed.append(rng.choice([0, 7, 12]))
    else:
        rc.decision.resume = rng.choice(["later", "x" * 60, "SETUP!"])


MUTATIONS = [_break_card, _duplicate_card, _remove_card, _off_count, _bad_scalar, _bad_enum]


def _valid_observations() -> list[advisor_pb2.Observation]:
    out = []
    for num_players, phase in [(1, "turn"), (2, "pass"), (2, "turn"), (3, "construct")]:
        out.append(position(num_players, seed=num_players * 3, phase=phase)[1])
    out.append(position(4, seed=2, phase="purchase")[1])
    return out


def malformed_requests(
    rng: random.Random, match_id: str, token: str, to_act: str, other_token: str
) -> Iterator[tuple[str, str, bytes]]:
    """(kind, method, request bytes): requests no server should carry out. `token` holds a
    seat of the match that is not to act, `to_act` the seat to act, `other_token` a seat of
    another match."""
    observations = _valid_observations()
    # Random wire-format bytes that parse as the method's request.
    made = 0
    while made < 120:
        method = rng.choice(sorted(METHODS))
        data = random_wire(rng)
        if parses(method, data):
            made += 1
            yield "random bytes", method, data
    # Invalid observations: each mutation checked with the engine first.
    made = 0
    while made < 150:
        observation = advisor_pb2.Observation()
        observation.CopyFrom(rng.choice(observations))
        for _ in range(rng.randint(1, 2)):
            rng.choice(MUTATIONS)(rng, observation.royal_cities)
        if _engine_accepts(observation):
            continue
        made += 1
        method = rng.choice(["Recommend", "Analyze", "LegalMoves"])
        if method == "LegalMoves":
            request: Message = advisor_pb2.LegalMovesRequest(observation=observation)
        elif method == "Analyze":
            request = advisor_pb2.AnalyzeRequest(
                observation=observation, budget=common_pb2.SearchBudget(iterations=50)
            )
        else:
            request = small(observation, 50)
        yield "mutated observation", ADVISOR + method, request.SerializeToString()
    # Budgets: negative, huge, not a number; bad bots; bad intervals.
    budgets = [
        common_pb2.SearchBudget(iterations=-1),
        common_pb2.SearchBudget(iterations=-(2**63)),
        common_pb2.SearchBudget(iterations=2**63 - 1),
        common_pb2.SearchBudget(iterations=1_000_001),
        common_pb2.SearchBudget(seconds=-1e-9),
        common_pb2.SearchBudget(seconds=-math.inf),
        common_pb2.SearchBudget(seconds=math.inf),
        common_pb2.SearchBudget(seconds=math.nan),
        common_pb2.SearchBudget(seconds=1e300),
        common_pb2.SearchBudget(iterations=10, threads=-5),
        common_pb2.SearchBudget(iterations=10, threads=3),
        common_pb2.SearchBudget(iterations=10, threads=2**31 - 1),
    ]
    bots = ["bot", "random", "heuristic", "mo-ismcts:c=", "pimc:worlds=65", "so-ismcts:x=1"]
    bots += ["mo-ismcts:c=-1", "mo-ismcts:max_nodes=10", "\x00", "é" * 50]
    for _ in range(80):
        observation = rng.choice(observations)
        if rng.random() < 0.5:
            request = advisor_pb2.RecommendRequest(
                observation=observation, budget=rng.choice(budgets)
            )
        else:
            request = small(observation, 20, bot=rng.choice(bots))
        method = rng.choice(["Recommend", "Analyze"])
        if method == "Analyze":
            request = advisor_pb2.AnalyzeRequest(
                observation=request.observation,
                budget=request.budget,
                bot=request.bot,
                interval_ms=rng.choice([0, 10, -1, -(2**31)]),
            )
        yield "budget or bot", ADVISOR + method, request.SerializeToString()
    # Advice for a player who is not to act, or for a finished game.
    for seed in range(10):
        state = play_to(rng.choice([2, 3, 4]), seed, lambda s: s.phase == "turn", 5)
        onlooker = (state.current_player + 1) % state.num_players
        request = small(observation_to_proto(state.observation(onlooker)))
        yield "not to act", ADVISOR + "Recommend", request.SerializeToString()
        request = small(terminal_position(2, seed))
        yield "finished game", ADVISOR + "Recommend", request.SerializeToString()
    # Seats: missing and wrong tokens, unknown matches, bad moves.
    tokens = ["", "x", token + "x", token[:-1], other_token, "é", "\x00" * 5, "a" * 300]
    ids = ["", "nope", match_id + "0", match_id.upper(), "../" * 10, "\x00"]
    moves = [
        common_pb2.Move(),
        common_pb2.Move(id=-1),
        common_pb2.Move(id=2**31 - 1),
        common_pb2.Move(id=-(2**31)),
        common_pb2.Move(text="play hand red-9"),
        common_pb2.Move(text="\x00\x01"),
        common_pb2.Move(text=" "),
        common_pb2.Move(id=0, text="stop"),
    ]
    for _ in range(140):
        method = rng.choice(["GetView", "Play", "Watch", "Resign"])
        good_id = rng.random() < 0.5
        the_id = match_id if good_id else rng.choice(ids)
        the_token = rng.choice(tokens) if good_id or rng.random() < 0.5 else token
        if method == "Play":
            move = rng.choice(moves)
            request = matches_pb2.PlayRequest(match_id=the_id, token=the_token, move=move)
        elif method == "GetView":
            request = matches_pb2.GetViewRequest(match_id=the_id, token=the_token)
        elif method == "Watch":
            request = matches_pb2.WatchRequest(match_id=the_id, token=the_token)
        else:
            request = matches_pb2.ResignRequest(match_id=the_id, token=the_token)
        if method in ("GetView", "Watch", "Resign") and good_id and the_token == token:
            continue  # a valid request
        yield "seat", MATCHES + method, request.SerializeToString()
    # Bad moves by the seat to act, and any move by the seat that is not.
    for move in moves:
        request = matches_pb2.PlayRequest(match_id=match_id, token=to_act, move=move)
        yield "bad move", MATCHES + "Play", request.SerializeToString()
        request = matches_pb2.PlayRequest(match_id=match_id, token=token, move=move)
        yield "out of turn", MATCHES + "Play", request.SerializeToString()


def test_malformed_requests(regent_server: RunningServer, channel: grpc.Channel) -> None:
    """500 malformed requests: each refused with an expected status (INVALID_ARGUMENT with a
    BadRequest field violation), none crashing a handler; the server serves on."""
    matches = matches_pb2_grpc.MatchServiceStub(channel)
    created = matches.CreateMatch(
        matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES,
            seats=[matches_pb2.SeatSpec(human_name="a"), matches_pb2.SeatSpec(human_name="b")],
            seed=3,
        ),
        timeout=5,
    )
    match_id = created.match_id
    # Seat 1 is not to act at the deal: its token plays out of turn.
    token, other = created.tokens[1].token, created.tokens[0].token
    other_match = matches.CreateMatch(
        matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES,
            seats=[matches_pb2.SeatSpec(human_name="c"), matches_pb2.SeatSpec(human_name="d")],
        ),
        timeout=5,
    )
    before = matches.GetView(matches_pb2.GetViewRequest(match_id=match_id, token=other), timeout=5)
    raw = Caller(channel, METHODS)
    rng = random.Random(2024)
    seen: Counter = Counter()
    count = 0
    for kind, method, data in malformed_requests(
        rng, match_id, token, other, other_match.tokens[0].token
    ):
        code, err = raw.code(method, data)
        count += 1
        seen[(kind, code.name)] += 1
        assert code in EXPECTED, (kind, method, data[:200], code, err and err.details())
        if code == Code.INVALID_ARGUMENT:
            assert field_violations(err), (kind, method, err.details())
        if kind in ("mutated observation", "bad move"):
            assert code == Code.INVALID_ARGUMENT, (kind, method, err.details())
        if kind == "out of turn":
            assert code == Code.FAILED_PRECONDITION, (method, err.details())
    assert count >= 500, count
    assert {code for _, code in seen} == {code.name for code in EXPECTED}, seen
    # The match the bad requests aimed at is unchanged.
    after = matches.GetView(matches_pb2.GetViewRequest(match_id=match_id, token=other), timeout=5)
    assert after == before
    assert not regent_server.loop_errors
    regent_server.wait_idle(2.0)
    serving_still(regent_server)


def test_random_mutations_of_valid_requests(
    regent_server: RunningServer, channel: grpc.Channel
) -> None:
    """Byte flips in valid Recommend requests: refused with an expected status, or, when the
    result still reads as a position the engine takes, answered with one of its legal moves."""
    raw = Caller(channel, METHODS)
    rng = random.Random(7)
    valid = [small(o, 30).SerializeToString() for o in _valid_observations()]
    answered = refused = 0
    for _ in range(150):
        data = bytearray(rng.choice(valid))
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        data = bytes(data)
        if not parses(ADVISOR + "Recommend", data):
            continue
        try:
            response = raw.calls[ADVISOR + "Recommend"](bytes(data), timeout=10)
        except grpc.RpcError as err:
            assert err.code() in EXPECTED, (data, err.code(), err.details())
            refused += 1
            continue
        answered += 1
        request = advisor_pb2.RecommendRequest.FromString(data)
        report = advisor_pb2.RecommendResponse.FromString(response).report
        state = engine.state_from_observation(observation_from_proto(request.observation))
        assert report.move.id in state.legal_actions()
    assert refused > 20
    regent_server.wait_idle(2.0)
    serving_still(regent_server)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_undecodable_request_bytes(
    regent_server: RunningServer, channel: grpc.Channel, method: str
) -> None:
    raw = Caller(channel, METHODS)
    rng = random.Random(method)
    codes = Counter()
    sent = 0
    while sent < 10:
        data = rng.randbytes(rng.randint(1, 64))
        if parses(method, data):
            continue
        code, _ = raw.code(method, data)
        codes[code.name] += 1
        sent += 1
    serving_still(regent_server)
    assert set(codes) == {"INVALID_ARGUMENT"}, dict(codes)


#: Far past the 8 KiB of metadata a gRPC client accepts by default.
LONG = "x" * 10_000


def _long_play(ch: grpc.Channel) -> tuple[Any, Any]:
    stub = matches_pb2_grpc.MatchServiceStub(ch)
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES,
            seats=[matches_pb2.SeatSpec(human_name="a"), matches_pb2.SeatSpec(human_name="b")],
        ),
        timeout=5,
    )
    request = matches_pb2.PlayRequest(
        match_id=created.match_id, token=created.tokens[0].token, move=common_pb2.Move(text=LONG)
    )
    return stub.Play, request


def _long_bot(ch: grpc.Channel) -> tuple[Any, Any]:
    _, observation = position(2, seed=1)
    return advisor_pb2_grpc.AdvisorServiceStub(ch).Recommend, small(observation, bot=LONG)


def _long_bot_option(ch: grpc.Channel) -> tuple[Any, Any]:
    _, observation = position(2, seed=1)
    request = small(observation, bot="mo-ismcts:" + LONG)
    return advisor_pb2_grpc.AdvisorServiceStub(ch).Recommend, request


def _long_seat_bot(ch: grpc.Channel) -> tuple[Any, Any]:
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=[matches_pb2.SeatSpec(human_name="a"), matches_pb2.SeatSpec(bot=LONG)],
    )
    return matches_pb2_grpc.MatchServiceStub(ch).CreateMatch, request


def _long_match_id(ch: grpc.Channel) -> tuple[Any, Any]:
    request = matches_pb2.GetViewRequest(match_id=LONG, token="t")
    return matches_pb2_grpc.MatchServiceStub(ch).GetView, request


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (_long_play, Code.INVALID_ARGUMENT),
        (_long_bot, Code.INVALID_ARGUMENT),
        (_long_bot_option, Code.INVALID_ARGUMENT),
        (_long_seat_bot, Code.INVALID_ARGUMENT),
        (_long_match_id, Code.NOT_FOUND),
    ],
    ids=["play text", "bot", "bot option", "seat bot", "match id"],
)
def test_long_inputs_get_their_real_status(
    channel: grpc.Channel, make: Callable[[grpc.Channel], tuple[Any, Any]], code: Code
) -> None:
    call, request = make(channel)
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=10)
    assert info.value.code() == code, info.value.details()[:200]
    assert len(info.value.details()) < 2000


# -- concurrent clients -----------------------------------------------------------------------


def test_sixteen_concurrent_clients(regent_server: RunningServer) -> None:
    """16 threads, each with its own channel, ask for advice and legal moves at once: every
    call is served (the server runs up to 32 searches at once)."""
    assert regent_server.server.limits.max_searches >= 16
    positions = [position(n, seed=40 + n)[1] for n in (1, 2, 3, 4)]
    barrier = threading.Barrier(16)
    failures: list[str] = []
    served = Counter()

    def client(index: int) -> None:
        try:
            with regent_server.channel() as ch:
                stub = advisor_pb2_grpc.AdvisorServiceStub(ch)
                observation = positions[index % 4]
                rebuilt = engine.state_from_observation(observation_from_proto(observation))
                legal = rebuilt.legal_actions()
                barrier.wait(10)
                for round_ in range(3):
                    report = stub.Recommend(
                        small(observation, 300 + 50 * round_, seed=index), timeout=30
                    ).report
                    assert report.move.id in legal
                    assert report.iterations == 300 + 50 * round_
                    moves = stub.LegalMoves(
                        advisor_pb2.LegalMovesRequest(observation=observation), timeout=10
                    )
                    assert [m.id for m in moves.moves] == legal
                    served[index] += 1
        except Exception as err:  # pragma: no cover - reported below
            failures.append(f"client {index}: {err!r}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures
    assert sum(served.values()) == 48
    regent_server.wait_idle(2.0)
    serving_still(regent_server)
