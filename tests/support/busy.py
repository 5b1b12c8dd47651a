"""Keeping a server's searches busy, for the tests of what it does meanwhile: long Recommend
calls in its advice slots (`searching`) and hosted matches whose bots think long in its bots'
pool (`bot_matches`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import grpc

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc

#: Seconds a search lasts that outlasts a test's waits (their cap) and what it checks after
#: them, however slow the machine; the searches end when the server stops. A server's
#: `max_seconds` must allow it.
OUTLASTING = 100.0


def recommend_request(budget: common_pb2.SearchBudget) -> advisor_pb2.RecommendRequest:
    """Recommend for the player to move at a two-player Royal Cities deal (seed 3)."""
    state = engine.new_game("royal_cities", 2, 3)
    return advisor_pb2.RecommendRequest(
        observation=observation_to_proto(state.observation(state.current_player)),
        budget=budget,
    )


@contextmanager
def searching(channel: grpc.Channel, calls: int, seconds: float) -> Iterator[None]:
    """`calls` Recommend calls, each searching for `seconds`, sent for the block and cancelled
    at its end (they may not have started searching yet when it begins)."""
    advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
    advice = recommend_request(common_pb2.SearchBudget(seconds=seconds))
    searches = [advisor.Recommend.future(advice, timeout=seconds + 30) for _ in range(calls)]
    try:
        yield
    finally:
        for search in searches:
            search.cancel()


def bot_matches(channel: grpc.Channel, bot: str) -> None:
    """Two hosted Royal Cities matches between two `bot`s each (seeds 1 and 2), created."""
    stub = matches_pb2_grpc.MatchServiceStub(channel)
    for seed in (1, 2):
        bots = [matches_pb2.SeatSpec(bot=bot) for _ in range(2)]
        request = matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES, seats=bots, seed=seed
        )
        stub.CreateMatch(request, timeout=10)
