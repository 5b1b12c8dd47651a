"""Replicas on one PostgreSQL database under concurrency: the same idempotent Play sent to
two replicas at once is applied once and both calls answer as the first did (the losing one
got FAILED_PRECONDITION in 16 of 18 races); a replica busy searching everywhere keeps its
bot leases, so no other replica drives its matches meanwhile."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

import engine
from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from server.limits import ServerLimits
from tests.support.busy import OUTLASTING, bot_matches, searching
from tests.support.server import RunningServer
from tests.support.waiting import wait_until


@pytest.mark.slow
def test_a_play_sent_to_two_replicas_at_once_answers_alike(pg_database: str) -> None:
    limits = ServerLimits()
    with (
        RunningServer(limits=limits, db=pg_database) as a,
        RunningServer(limits=limits, db=pg_database) as b,
        grpc.insecure_channel(a.address) as channel_a,
        grpc.insecure_channel(b.address) as channel_b,
        ThreadPoolExecutor(2) as senders,
    ):
        stubs = [matches_pb2_grpc.MatchServiceStub(c) for c in (channel_a, channel_b)]
        request = matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES,
            seats=[matches_pb2.SeatSpec(human_name=n) for n in ("ann", "bob")],
            seed=4,
        )
        created = stubs[0].CreateMatch(request, timeout=10)
        tokens = {t.seat: t.token for t in created.tokens}
        truth = engine.new_game("royal_cities", 2, 4)
        rng = random.Random(4)
        for number in range(18):
            seat = truth.current_player
            action = rng.choice(truth.legal_actions())
            play = matches_pb2.PlayRequest(
                match_id=created.match_id,
                token=tokens[seat],
                move=common_pb2.Move(id=action),
                expected_move=number,
            )
            start = threading.Barrier(2)

            def send(stub, play=play, start=start):
                start.wait()
                return stub.Play(play, timeout=10).view

            views = list(senders.map(send, stubs))
            truth.apply_action(action)
            assert views[0] == views[1], f"move {number}: the two answers differ"
            assert views[0].moves_played == number + 1
        for stub in stubs:
            for token in tokens.values():
                view = stub.GetView(
                    matches_pb2.GetViewRequest(match_id=created.match_id, token=token), timeout=10
                )
                assert view.moves_played == 18  # each move applied once


@pytest.mark.slow
def test_a_replica_whose_every_thread_searches_keeps_its_leases(pg_database: str) -> None:
    """Replica A searches in every advice slot and its whole bots' pool, longer than a bot
    lease lasts: it still renews its leases (on a thread and timer of their own), so replica
    B never starts searching A's matches too (it did after 2.9 s)."""
    limits = ServerLimits(bot_lease_seconds=1.0, max_seconds=OUTLASTING, max_searches=4)
    with (
        RunningServer(limits=limits, db=pg_database) as a,
        RunningServer(limits=limits, db=pg_database) as b,
        grpc.insecure_channel(a.address) as channel,
        searching(channel, 4, seconds=OUTLASTING),
    ):
        bot_matches(channel, f"mo-ismcts:seconds={OUTLASTING:g}")
        wait_until(
            lambda: a.server.matches.pool.running >= 2 and a.server.slots.running >= 4,
            "A's searches to start",
        )
        watched_until = time.monotonic() + 4  # four lease terms
        while time.monotonic() < watched_until:
            assert b.server.matches.pool.running == 0, "B took over a match A drives"
            time.sleep(0.05)
        assert a.server.matches.pool.running == 2, "A's bot searches ended early"
