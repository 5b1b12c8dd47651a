"""A bot behind our proto that fails when told to: a real gRPC server, on a socket of its own
in the test's process, as a bot author's server would be. It is not Regent's service: it
plays the first legal move of the position it is sent, except on the calls `fail` numbers
(counting every Recommend it answers from 1), where it answers INTERNAL (a bug in the bot),
or with `stall`, answers nothing until the caller gives up (its deadline passes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import grpc

import engine
from convert import observation_from_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2


class FaultyBot(advisor_pb2_grpc.AdvisorServiceServicer):
    def __init__(self, fail: frozenset[int] = frozenset(), stall: bool = False) -> None:
        self.fail = fail
        self.stall = stall
        self.calls = 0
        self._lock = threading.Lock()

    def Recommend(
        self, request: advisor_pb2.RecommendRequest, context: grpc.ServicerContext
    ) -> advisor_pb2.RecommendResponse:
        with self._lock:
            self.calls += 1
            call = self.calls
        if call in self.fail:
            if not self.stall:
                context.abort(grpc.StatusCode.INTERNAL, f"a bug on call {call}")
            while context.is_active():
                time.sleep(0.05)
        observation = observation_from_proto(request.observation)
        state = engine.state_from_observation(observation, seed=request.seed)
        action = state.legal_actions()[0]
        move = common_pb2.Move(id=action, text=state.action_to_string(action))
        return advisor_pb2.RecommendResponse(report=common_pb2.SearchReport(move=move))


@contextmanager
def serving(bot: FaultyBot) -> Iterator[str]:
    """`bot` served on a free port of 127.0.0.1; its address, while the block runs."""
    server = grpc.server(ThreadPoolExecutor(4))
    advisor_pb2_grpc.add_AdvisorServiceServicer_to_server(bot, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0)
