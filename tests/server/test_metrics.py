"""The Prometheus metrics, scraped over HTTP from a real server after real calls. Counters are
the process's (other servers of the test session add to them): the tests compare a scrape
before and after their calls."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from server.limits import ServerLimits
from tests.support.server import RunningServer
from tests.support.waiting import wait_until

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(limits=ServerLimits(max_matches=2), metrics_address="127.0.0.1:0") as s:
        yield s


def scrape(server: RunningServer) -> Samples:
    """Every sample of `/metrics`, by (name, sorted labels)."""
    assert server.server.metrics is not None
    url = f"http://{server.server.metrics.address}/metrics"
    with urllib.request.urlopen(url, timeout=30) as answer:
        assert answer.status == 200
        text = answer.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_calls_latency_matches_and_refusals(server: RunningServer) -> None:
    before = scrape(server)
    with server.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        for _ in range(3):
            advisor.ListGames(advisor_pb2.ListGamesRequest(), timeout=30)
        stub = matches_pb2_grpc.MatchServiceStub(channel)
        seats = [matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(human_name="bo")]
        request = matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES, seats=seats)
        for _ in range(2):
            stub.CreateMatch(request, timeout=30)
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateMatch(request, timeout=30)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    scraped = [before]

    def grew(name: str, **labels: str) -> float:
        return value(scraped[-1], name, **labels) - value(before, name, **labels)

    def counted() -> bool:
        """Whether the call log has booked the 6 calls in every series: a status reaches the
        client before the server's bookkeeping of the call ends, and a scrape reads the series
        one by one, so one of them may show a call that the one read before it did not yet."""
        scraped.append(scrape(server))
        create = "MatchService/CreateMatch"
        return (
            all(grew("regent_call_seconds_count", method=m) >= 3
                for m in ("AdvisorService/ListGames", create))
            and grew("regent_calls_total", method="AdvisorService/ListGames", code="OK") >= 3
            and grew("regent_calls_total", method=create, code="OK")
            + grew("regent_calls_total", method=create, code="RESOURCE_EXHAUSTED") >= 3
            and value(scraped[-1], "regent_calls_in_flight", method=create) == 0
        )  # fmt: skip

    wait_until(counted, "the 6 calls counted in the metrics", cap=60)
    after = scraped[-1]

    assert grew("regent_calls_total", method="AdvisorService/ListGames", code="OK") == 3
    assert grew("regent_calls_total", method="MatchService/CreateMatch", code="OK") == 2
    exhausted = grew("regent_calls_total", method="MatchService/CreateMatch",
                     code="RESOURCE_EXHAUSTED")  # fmt: skip
    assert exhausted == 1
    assert grew("regent_call_seconds_count", method="MatchService/CreateMatch") == 3
    assert grew("regent_call_seconds_bucket", method="AdvisorService/ListGames", le="+Inf") == 3
    assert grew("regent_quota_refusals_total", quota="max_matches") == 1
    assert value(after, "regent_live_matches") >= 2
    assert value(after, "regent_calls_in_flight", method="MatchService/CreateMatch") == 0
    for gauge in ("regent_searches_running", "regent_bot_searches_running",
                  "regent_bot_searches_queued"):  # fmt: skip
        assert (gauge, ()) in after
    for counter in ("regent_database_errors_total", "regent_lease_takeovers_total"):
        assert (counter, ()) in after
