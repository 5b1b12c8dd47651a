"""Fair use of the machine, over a real socket: a stream nobody reads gives its search slot
back at its budget, bad bot options are INVALID_ARGUMENT naming the option, oversized requests
are refused and big ones never hold up other calls."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from clients.cli.shared import read_observation
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from server.limits import ServerLimits
from tests.support.errors import field_violations, violated_fields
from tests.support.random_games import position
from tests.support.server import RunningServer, serving
from tests.timing import SLACK

Code = grpc.StatusCode
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def one_slot() -> RunningServer:
    """`--max-searches 1`: one search at a time."""
    with serving(ServerLimits(max_searches=1, max_threads=1)) as running:
        yield running


@pytest.mark.timing
def test_a_stream_nobody_reads_ends_at_its_budget(one_slot: RunningServer) -> None:
    """A 1 s Analyze asking for a report every millisecond, never read: its slot is free once
    its budget is spent (not at the call's 60 s deadline), the next search is served, and it
    queued one report per 20 ms at most (the newest wins), not one per millisecond."""
    _, observation = position(3, seed=16)
    with one_slot.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        unread = advisor.Analyze(
            advisor_pb2.AnalyzeRequest(
                observation=observation, budget=common_pb2.SearchBudget(seconds=1), interval_ms=1
            ),
            timeout=60,
        )
        end = time.monotonic() + 5
        while one_slot.server.slots.running == 0:
            assert time.monotonic() < end
            time.sleep(0.005)
        one_slot.wait_idle(1.0 + SLACK)
        answer = advisor.Recommend(
            advisor_pb2.RecommendRequest(
                observation=observation, budget=common_pb2.SearchBudget(iterations=100)
            ),
            timeout=10,
        )
        assert answer.report.iterations == 100
        messages = list(unread)
        assert messages[-1].final and messages[-1].report.elapsed_seconds >= 1.0  # all of it
        assert len(messages) <= 1.0 / 0.020 + 2


@pytest.mark.timing
def test_a_never_read_stream_does_not_block_the_next_caller(one_slot: RunningServer) -> None:
    """Three never-read streams one after the other: each frees the only slot at its budget."""
    _, observation = position(2, seed=4)
    with one_slot.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        streams = []
        for _ in range(3):
            one_slot.wait_idle(3.0)
            streams.append(
                advisor.Analyze(
                    advisor_pb2.AnalyzeRequest(
                        observation=observation,
                        budget=common_pb2.SearchBudget(seconds=0.3),
                        interval_ms=20,
                    ),
                    timeout=30,
                )
            )
            time.sleep(0.05)
        one_slot.wait_idle(3.0)
        for stream in streams:
            stream.cancel()


BAD_OPTIONS = [
    ("pv_length=1000000000000", "pv_length"),
    ("max_nodes=100000000000000000000", "max_nodes"),
    ("c=nan", "c"),
    ("c=inf", "c"),
    ("margin_scale=nan", "margin_scale"),
    ("margin_weight=nan", "margin_weight"),
    ("epsilon=nan", "epsilon"),
    ("max_steps=0", "max_steps"),
    ("worlds=0", "worlds"),
    ("infer=70000", "infer"),  # past its range
]


@pytest.mark.parametrize(("options", "name"), BAD_OPTIONS)
def test_bad_bot_options_are_invalid_arguments(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, options: str, name: str
) -> None:
    _, observation = position(2, seed=5)
    request = advisor_pb2.RecommendRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=50),
        bot=f"mo-ismcts:{options}",
    )
    with pytest.raises(grpc.RpcError) as info:
        advisor.Recommend(request, timeout=10)
    assert info.value.code() == Code.INVALID_ARGUMENT, info.value.details()
    (violation,) = field_violations(info.value)
    assert violation.field == "bot"
    assert violation.description.startswith(name), violation.description


@pytest.mark.parametrize(("options", "name"), BAD_OPTIONS)
def test_bad_options_of_a_hosted_bot_are_invalid_arguments(
    matches: matches_pb2_grpc.MatchServiceStub, options: str, name: str
) -> None:
    """Refused at CreateMatch, naming the seat and the option: never a match stuck at move 0."""
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=[matches_pb2.SeatSpec(human_name="a"), matches_pb2.SeatSpec(bot=f"pimc:{options}")],
    )
    with pytest.raises(grpc.RpcError) as info:
        matches.CreateMatch(request, timeout=10)
    assert info.value.code() == Code.INVALID_ARGUMENT, info.value.details()
    (violation,) = field_violations(info.value)
    assert violation.field == "seats[1].bot"
    assert violation.description.startswith(name), violation.description


def test_a_hosted_bot_with_a_tree_larger_than_the_server_allows(
    matches: matches_pb2_grpc.MatchServiceStub,
) -> None:
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_CITADELS,
        seats=[
            matches_pb2.SeatSpec(human_name="a"),
            matches_pb2.SeatSpec(bot="mo-ismcts:max_nodes=2000000000"),
        ],
    )
    with pytest.raises(grpc.RpcError) as info:
        matches.CreateMatch(request, timeout=10)
    assert info.value.code() == Code.RESOURCE_EXHAUSTED
    assert violated_fields(info.value) == ["seats[1].bot"]


def test_a_tree_larger_than_the_server_allows(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(2, seed=5)
    request = advisor_pb2.RecommendRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=50),
        bot="mo-ismcts:max_nodes=2000000000",
    )
    with pytest.raises(grpc.RpcError) as info:
        advisor.Recommend(request, timeout=10)
    assert info.value.code() == Code.RESOURCE_EXHAUSTED
    assert "max_nodes" in info.value.details()


def test_a_request_over_one_mebibyte_is_refused(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(2, seed=6)
    request = advisor_pb2.RecommendRequest(observation=observation, bot="x" * (1 << 20))
    with pytest.raises(grpc.RpcError) as info:
        advisor.Recommend(request, timeout=10)
    assert info.value.code() == Code.RESOURCE_EXHAUSTED


@pytest.mark.timing
def test_big_requests_do_not_hold_up_other_calls(regent_server: RunningServer) -> None:
    """Requests just under the limit (a bot spec of almost 1 MiB, refused after parsing) sent
    in a loop from two threads: health checks keep answering within 100 ms at the median."""
    _, observation = position(2, seed=6)
    big = advisor_pb2.RecommendRequest(
        observation=observation, bot="no-such-bot" * ((1 << 20) // 11 - 400)
    )
    assert (1 << 20) - 8192 < big.ByteSize() < (1 << 20)
    stop = threading.Event()

    def flood() -> None:
        with regent_server.channel() as own:
            stub = advisor_pb2_grpc.AdvisorServiceStub(own)
            while not stop.is_set():
                with pytest.raises(grpc.RpcError) as info:
                    stub.Recommend(big, timeout=10)
                assert info.value.code() == Code.INVALID_ARGUMENT

    threads = [threading.Thread(target=flood) for _ in range(2)]
    for thread in threads:
        thread.start()
    latencies = []
    try:
        with regent_server.channel() as channel:
            health = health_pb2_grpc.HealthStub(channel)
            health.Check(health_pb2.HealthCheckRequest(), timeout=5)
            for _ in range(40):
                start = time.perf_counter()
                health.Check(health_pb2.HealthCheckRequest(), timeout=5)
                latencies.append(time.perf_counter() - start)
                time.sleep(0.01)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    latencies.sort()
    assert latencies[len(latencies) // 2] < 0.1, latencies


def test_a_position_the_game_cannot_go_on_from_is_refused(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """The example position with the observer marked as having purchased (the only move left
    would be adding, forever): refused naming the flag, by every advice call."""
    observation = read_observation(str(EXAMPLES / "royal-cities-2p.json"))
    observation.royal_cities.players[0].purchased = True
    budget = common_pb2.SearchBudget(iterations=100)
    calls = [
        (advisor.LegalMoves, advisor_pb2.LegalMovesRequest(observation=observation)),
        (advisor.Recommend, advisor_pb2.RecommendRequest(observation=observation, budget=budget)),
    ]
    for call, request in calls:
        with pytest.raises(grpc.RpcError) as info:
            call(request, timeout=10)
        assert info.value.code() == Code.INVALID_ARGUMENT
        assert violated_fields(info.value) == ["observation.royal_cities.players[0].purchased"]
