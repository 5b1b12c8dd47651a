"""Pools that cannot starve each other, against a real server: while every advice slot and
the hosted bots' whole pool search, the MatchService answers at once (searches ran on
asyncio's default executor and stalled every call for their whole 10 s); while clients
repeat a slow ApplyObservedMove, health checks answer (it ran on the event loop); reviews
take at most half the slots and stop at the server's longest review time. The bounds are
generous: each is a tenth of what the old code took, or less."""

from __future__ import annotations

import statistics
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engine
from clients.tournament.play import play_game
from convert import observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import make_bot
from search.review import decisions_of_game
from server.limits import ServerLimits
from tests.support.busy import OUTLASTING, bot_matches, recommend_request, searching
from tests.support.server import RunningServer
from tests.support.waiting import wait_until

Code = grpc.StatusCode
CHECK = health_pb2.HealthCheckRequest()


def _seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def test_the_match_service_answers_while_every_slot_and_the_bot_pool_search() -> None:
    limits = ServerLimits(max_searches=4, max_bot_searches=2, max_seconds=OUTLASTING)
    with RunningServer(limits=limits) as running, grpc.insecure_channel(running.address) as ch:
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        bot_matches(ch, f"mo-ismcts:seconds={OUTLASTING:g}")  # each bot's every move
        with searching(ch, 4, seconds=OUTLASTING):
            wait_until(lambda: running.server.slots.running == 4, "4 searches")
            wait_until(lambda: running.server.matches.pool.running == 2, "2 bot searches")
            humans = matches_pb2.CreateMatchRequest(
                game=common_pb2.GAME_ROYAL_CITIES,
                seats=[matches_pb2.SeatSpec(human_name=n) for n in ("ann", "bob")],
            )
            took = {}
            made: list[matches_pb2.CreateMatchResponse] = []
            took["CreateMatch"] = _seconds(lambda: made.append(stub.CreateMatch(humans)))
            match_id, token = made[-1].match_id, made[-1].tokens[0].token
            ask = matches_pb2.GetViewRequest(match_id=match_id, token=token)
            took["GetView"] = _seconds(lambda: stub.GetView(ask, timeout=10))
            move = stub.GetView(ask, timeout=10).legal_moves[0]
            play = matches_pb2.PlayRequest(match_id=match_id, token=token, move=move)
            took["Play"] = _seconds(lambda: stub.Play(play, timeout=10))
            listing = matches_pb2.ListMatchesRequest()
            took["ListMatches"] = _seconds(lambda: stub.ListMatches(listing, timeout=10))
            assert running.server.slots.running == 4, "the searches ended before the calls"
            slow = {name: seconds for name, seconds in took.items() if seconds > 2}
            assert not slow, f"calls waited for the searches: {slow}"
        running.wait_idle(10)


def _end_of_turn(advisor) -> advisor_pb2.ApplyObservedMoveRequest:
    """A Citadels turn's end, seen by player 0, after which player 0 cannot tell who is
    called next: ApplyObservedMove deals thousands of worlds (half a second)."""
    state = engine.new_game("citadels", 4, 1)
    bot = make_bot("heuristic")
    step = 0
    while True:
        texts = [state.action_to_string(a) for a in state.legal_actions()]
        if state.current_player not in (0, -1) and "end turn" in texts:
            request = advisor_pb2.ApplyObservedMoveRequest(
                observation=observation_to_proto(state.observation(0)),
                player=state.current_player,
                move=common_pb2.Move(text="end turn"),
            )
            if advisor.ApplyObservedMove(request, timeout=30).reveals:
                return request
        state.apply_action(bot.choose(state, step))
        step += 1


def test_health_answers_while_clients_repeat_a_slow_apply_observed_move() -> None:
    with RunningServer() as running, grpc.insecure_channel(running.address) as ch:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(ch)
        health = health_pb2_grpc.HealthStub(ch)
        request = _end_of_turn(advisor)
        stop = threading.Event()
        applied = []

        def repeat() -> None:
            while not stop.is_set():
                advisor.ApplyObservedMove(request, timeout=60)
                applied.append(1)

        clients = [threading.Thread(target=repeat) for _ in range(2)]
        for client in clients:
            client.start()
        try:
            checks = []
            end = time.monotonic() + 4
            while time.monotonic() < end or len(applied) < 2:
                checks.append(_seconds(lambda: health.Check(CHECK, timeout=10)))
                time.sleep(0.05)
        finally:
            stop.set()
            for client in clients:
                client.join(60)
        # Idle, a check takes 1.5 ms; with ApplyObservedMove on the loop, 902 ms at the median.
        assert statistics.median(checks) < 0.25, f"health median {statistics.median(checks):.3f} s"


# -- finding 10: reviews take at most half the slots, for a bounded time -------------------


def _review_request() -> advisor_pb2.ReviewRequest:
    """Seat 1's decisions of a seeded 4-player Citadels game of heuristic bots, 41, each first
    searched with 200,000 iterations (minutes in all), and the 3 checked with 20,000 a search:
    13,900,000 iterations planned, under the server's 20,000,000 for a review (its 25 searches
    a check at 200,000 would be over it)."""
    result = play_game("citadels", ["heuristic"] * 4, 21, None, 4, make_bot)
    decisions = decisions_of_game(engine.new_game("citadels", 4, seed=21), result.moves, 1)
    return advisor_pb2.ReviewRequest(
        observations=[observation_to_proto(d.observation) for d in decisions],
        moves=[common_pb2.Move(text=d.move) for d in decisions],
        budget=common_pb2.SearchBudget(iterations=200_000),
        deep_budget=common_pb2.SearchBudget(iterations=20_000),
        mistakes=3,
        bot="mo-ismcts",
    )


def test_reviews_take_at_most_half_the_slots_and_advice_goes_on() -> None:
    limits = ServerLimits(max_searches=2, max_iterations=10**6)
    with RunningServer(limits=limits) as running, grpc.insecure_channel(running.address) as ch:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(ch)
        long_review = _review_request()
        first = advisor.Review(long_review, timeout=60)
        try:
            wait_until(lambda: running.server.slots.reviews == 1, "the review", cap=30)
            with pytest.raises(grpc.RpcError) as refused:
                list(advisor.Review(long_review, timeout=30))
            assert refused.value.code() == Code.RESOURCE_EXHAUSTED
            assert "reviews" in refused.value.details()
            advice = recommend_request(common_pb2.SearchBudget(iterations=200))
            assert advisor.Recommend(advice, timeout=30).report.move.text
        finally:
            first.cancel()
        running.wait_idle(10)
        assert running.server.slots.reviews == 0


def test_a_review_stops_at_the_servers_longest_review_time() -> None:
    """A review planned by iterations, whose time no plan can tell, is cut at
    `max_review_seconds` with what was done (it held a slot for 1,800 s)."""
    limits = ServerLimits(max_iterations=10**6, max_review_seconds=1.0)
    with RunningServer(limits=limits) as running, grpc.insecure_channel(running.address) as ch:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(ch)
        start = time.monotonic()
        messages = list(advisor.Review(_review_request(), timeout=120))
        took = time.monotonic() - start
        final = messages[-1].review
        assert not final.complete and messages[-1].done < messages[-1].total
        # Its plan: 41 first looks of 200,000 iterations each, minutes of searching.
        assert took < 60, f"the review ran {took:.0f} s"
        running.wait_idle(10)
