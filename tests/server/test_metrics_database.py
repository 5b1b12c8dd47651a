"""The metrics a real server updates from its database (server/hosting.py), scraped over HTTP:
a match whose bot nobody drives is taken over (`regent_lease_takeovers_total`), a database
that fails counts its errors (`regent_database_errors_total`) while callers get UNAVAILABLE,
and the open watchers are a gauge (`regent_watchers`). Counters are the process's: the tests
compare scrapes before and after."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

import grpc
import pytest
import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families

import engine
from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from server.metrics import REGISTRY
from server.store import MatchRecord, Progress, Store, database_url
from tests.support.server import RunningServer

#: Long enough for a loaded host: the supervisor looks at once, then every 2 s.
WAIT = 60.0


def scrape(server: RunningServer) -> dict[str, float]:
    """Every unlabelled sample of `/metrics`, by name."""
    assert server.server.metrics is not None
    url = f"http://{server.server.metrics.address}/metrics"
    with urllib.request.urlopen(url, timeout=30) as answer:
        text = answer.read().decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }


def wait_for(server: RunningServer, name: str, above: float) -> float:
    """The metric once it is above `above`; AssertionError past WAIT."""
    deadline = time.monotonic() + WAIT
    while (found := scrape(server).get(name, 0.0)) <= above:
        assert time.monotonic() < deadline, f"{name} stayed at {found}"
        time.sleep(0.05)
    return found


def test_a_takeover_and_a_database_error_are_counted(tmp_path: Path) -> None:
    db = str(tmp_path / "matches.sqlite3")
    store = Store(db)  # a match whose bot is to move, and nobody drives it (a replica died)
    state = engine.new_game("royal_cities", 2, seed=5)
    seats = ["human:ann", "human:bo"]
    seats[state.current_player] = "bot:random"
    store.create(
        MatchRecord(
            id="00000000deadbeef", game="royal_cities", seats=seats,
            rules=state.rules.to_json(), seed=5, public=True, created_at=time.time(),
        ),
        Progress(None, state.current_player, True),
    )  # fmt: skip
    store.close()
    taken = REGISTRY.get_sample_value("regent_lease_takeovers_total") or 0.0  # before it starts
    with RunningServer(db=db, metrics_address="127.0.0.1:0") as server:
        assert wait_for(server, "regent_lease_takeovers_total", taken) > taken
        errors = scrape(server).get("regent_database_errors_total", 0.0)
        away = sa.create_engine(database_url(db))
        with away.begin() as conn:  # the database loses its matches' table under the server
            conn.execute(sa.text("ALTER TABLE regent_matches RENAME TO regent_matches_away"))
        away.dispose()
        with server.channel() as channel:
            stub = matches_pb2_grpc.MatchServiceStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                stub.ListMatches(matches_pb2.ListMatchesRequest(), timeout=30)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert wait_for(server, "regent_database_errors_total", errors) > errors


def test_the_open_watchers_are_a_gauge(tmp_path: Path) -> None:
    with RunningServer(metrics_address="127.0.0.1:0") as server, server.channel() as channel:
        stub = matches_pb2_grpc.MatchServiceStub(channel)
        seats = [matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(human_name="bo")]
        created = stub.CreateMatch(
            matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES, seats=seats),
            timeout=30,
        )
        assert scrape(server)["regent_watchers"] == 0
        request = matches_pb2.WatchRequest(match_id=created.match_id, token=created.tokens[0].token)
        stream = stub.Watch(request, timeout=60)
        assert wait_for(server, "regent_watchers", 0.0) == 1
        stream.cancel()
        deadline = time.monotonic() + WAIT
        while scrape(server)["regent_watchers"] != 0:
            assert time.monotonic() < deadline, "the cancelled watcher stayed"
            time.sleep(0.05)
