"""Quotas over a real socket: API keys with their own quotas, a small one per anonymous peer
address, and no client able to lock the others out (issue 58, finding 4).

The server listens on IPv6's any-address, which takes IPv4 too: a client that dials
127.0.0.1 and one that dials [::1] are two peer addresses (`::ffff:127.0.0.1` and `::1`)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import grpc
import pytest

from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from server.limits import ServerLimits
from server.quotas import API_KEY_HEADER, ApiKey
from tests.support.errors import violated_fields
from tests.support.random_games import position
from tests.support.server import RunningServer

Code = grpc.StatusCode
CLUB = ApiKey("club", "club-secret-0123456789", matches=5, searches_per_second=0.01)
#: So small a rate that a second search within a test never finds a new token.
SLOW = 0.01
LIMITS = ServerLimits(
    quota_loopback=True,
    anonymous_matches=20,
    anonymous_searches_per_second=SLOW,
    max_anonymous_matches=30,
    max_matches=100,
)


def _has_ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


pytestmark = pytest.mark.skipif(not _has_ipv6(), reason="no IPv6 loopback")


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer("[::]:0", LIMITS, keys=[CLUB]) as running:
        yield running


def _port(server: RunningServer) -> str:
    return server.address.rsplit(":", 1)[1]


@pytest.fixture
def ipv4(server: RunningServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{_port(server)}") as channel:
        yield channel


@pytest.fixture
def ipv6(server: RunningServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"[::1]:{_port(server)}") as channel:
        yield channel


def _request(seed: int) -> matches_pb2.CreateMatchRequest:
    seats = [matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(bot="random")]
    return matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES, seats=seats, seed=seed)


def _create(channel: grpc.Channel, seed: int, key: str | None = None) -> grpc.RpcError | None:
    """None when the match is made, else the error."""
    metadata = [(API_KEY_HEADER, key)] if key else None
    try:
        matches_pb2_grpc.MatchServiceStub(channel).CreateMatch(
            _request(seed), timeout=30, metadata=metadata
        )
    except grpc.RpcError as err:
        return err
    return None


def test_one_anonymous_client_cannot_lock_the_others_out(
    server: RunningServer, ipv4: grpc.Channel, ipv6: grpc.Channel
) -> None:
    """A thousand CreateMatch calls from one peer make its 20 matches, the rest are refused
    naming its quota; another peer and a key's holder still make theirs, and the anonymous
    callers together stop at their share (30), while the key's holder goes on."""
    refused = []
    for seed in range(1000):
        err = _create(ipv4, seed)
        if err is not None:
            refused.append(err)
    assert len(refused) == 980
    assert {e.code() for e in refused} == {Code.RESOURCE_EXHAUSTED}
    assert violated_fields(refused[0]) == ["quota.matches"]
    assert "20 live matches" in (refused[0].details() or "")
    for seed in range(10):
        assert _create(ipv6, seed) is None  # another peer: its own quota
    err = _create(ipv6, 10)
    assert err is not None and violated_fields(err) == ["quota.anonymous_matches"]
    for seed in range(CLUB.matches or 0):
        assert _create(ipv6, seed, CLUB.key) is None  # a key: room beyond the anonymous share
    err = _create(ipv4, 0, CLUB.key)
    assert err is not None and violated_fields(err) == ["quota.matches"]
    assert "'club'" in (err.details() or "")


def test_an_unknown_api_key_is_unauthenticated(ipv4: grpc.Channel) -> None:
    err = _create(ipv4, 0, "not-a-key-of-this-server")
    assert err is not None and err.code() == Code.UNAUTHENTICATED
    assert API_KEY_HEADER in (err.details() or "")


def _recommend(channel: grpc.Channel, key: str | None = None) -> Code:
    _, observation = position(2, seed=3)
    request = advisor_pb2.RecommendRequest(
        observation=observation, budget=common_pb2.SearchBudget(iterations=20)
    )
    metadata = [(API_KEY_HEADER, key)] if key else None
    try:
        advisor_pb2_grpc.AdvisorServiceStub(channel).Recommend(
            request, timeout=30, metadata=metadata
        )
    except grpc.RpcError as err:
        assert err.code() != Code.RESOURCE_EXHAUSTED or violated_fields(err) == [
            "quota.searches_per_second"
        ]
        return err.code()
    return Code.OK


def test_searches_per_second_are_counted_per_caller(ipv4: grpc.Channel, ipv6: grpc.Channel) -> None:
    """Each caller has its own bucket: one peer's spent searches leave the other's, and a
    key's, untouched; calls that search nothing are never counted."""
    assert _recommend(ipv4) == Code.OK
    assert _recommend(ipv4) == Code.RESOURCE_EXHAUSTED
    games = advisor_pb2_grpc.AdvisorServiceStub(ipv4).ListGames(
        advisor_pb2.ListGamesRequest(), timeout=30
    )
    assert games.games
    assert _recommend(ipv6) == Code.OK
    assert _recommend(ipv6, CLUB.key) == Code.OK
    assert _recommend(ipv6, CLUB.key) == Code.RESOURCE_EXHAUSTED


def test_callers_on_this_machine_are_trusted_by_default() -> None:
    """Without quota_loopback, a loopback caller has no quota but the server's limits."""
    limits = ServerLimits(anonymous_matches=1, max_anonymous_matches=1)
    with RunningServer(limits=limits) as own, own.channel() as channel:
        for seed in range(3):
            assert _create(channel, seed) is None
