"""The advisor's conversion processes (server/conversions.py): ApplyObservedMove, LegalMoves
and ApplyMove run in worker processes, not the server's; a killed worker costs at most the
calls it held, never the service; a call whose deadline passed in the queue is dropped; and
the workers die with a server killed by SIGKILL."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import grpc
import pytest

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc
from server.conversions import _within
from server.status import Rejected
from tests.commands import Serving
from tests.support.server import RunningServer
from tests.timing import PROCESS_SLACK

Code = grpc.StatusCode


def _others_turn() -> advisor_pb2.LegalMovesRequest:
    """Player 1's turn seen by player 0: LegalMoves deals worlds for it."""
    state = engine.new_game("royal_cities", 2, 3)
    while state.current_player != 1:
        state.apply_action(state.legal_actions()[0])
    return advisor_pb2.LegalMovesRequest(observation=observation_to_proto(state.observation(0)))


def test_the_work_runs_in_processes_of_its_own() -> None:
    with RunningServer() as running, grpc.insecure_channel(running.address) as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        assert advisor.LegalMoves(_others_turn(), timeout=60).observed_moves
        conversions = running.server.advisor.conversions

        async def worker_pid() -> int:
            return await conversions.run(None, os.getpid)

        assert running._call(worker_pid()) != os.getpid()
        assert conversions.pending == 0


def test_a_killed_worker_costs_at_most_its_calls() -> None:
    before = {p.pid for p in multiprocessing.active_children()}  # other servers' workers too
    with RunningServer() as running, grpc.insecure_channel(running.address) as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        request = _others_turn()
        expected = advisor.LegalMoves(request, timeout=60)
        workers = {p.pid for p in multiprocessing.active_children()} - before
        assert workers, "no worker process was started"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        codes = []
        for _ in range(3):
            try:
                assert advisor.LegalMoves(request, timeout=60) == expected
                break
            except grpc.RpcError as err:
                codes.append(err.code())
        else:
            pytest.fail(f"the service did not recover: {codes}")
        assert set(codes) <= {Code.UNAVAILABLE}, codes


def test_a_call_past_its_deadline_is_dropped_unread() -> None:
    with pytest.raises(Rejected) as refused:
        _within(time.monotonic() - 1, pytest.fail, "ran")
    assert refused.value.status.code == Code.DEADLINE_EXCEEDED
    assert _within(time.monotonic() + 60, len, "abc") == 3


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        found.update(int(child) for child in children)
    return found


@pytest.mark.slow
@pytest.mark.timing
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
def test_the_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    served = Serving("--address", "127.0.0.1:0", "--no-web", "--db", str(tmp_path / "m.db"))
    with grpc.insecure_channel(served.address) as channel:
        advisor_pb2_grpc.AdvisorServiceStub(channel).LegalMoves(_others_turn(), timeout=60)
    workers = _children(served.process.pid)
    assert workers, "the server started no worker"
    served.stop(signal.SIGKILL)
    end = time.monotonic() + PROCESS_SLACK
    while alive := {pid for pid in workers if Path(f"/proc/{pid}").exists()}:
        zombies = {p for p in alive if "State:\tZ" in Path(f"/proc/{p}/status").read_text()}
        if alive <= zombies:
            break
        assert time.monotonic() < end, f"workers outlived their server: {alive}"
        time.sleep(0.05)
