"""MatchService under concurrency, against real servers: Watch streams cancelled in storms
never freeze a match nor hold up a shutdown; watchers are capped per match and per server
and cost nothing while their match is quiet; a move is published to each watcher once."""

from __future__ import annotations

import random
import signal
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from server.broadcast import Watchers
from server.limits import ServerLimits
from server.match import rebuild
from server.store import MOVE, LoggedMove, MatchRecord
from tests.commands import Serving
from tests.support.errors import violated_fields
from tests.support.server import RunningServer
from tests.support.waiting import wait_until

Code = grpc.StatusCode


def stub_of(channel: grpc.Channel) -> matches_pb2_grpc.MatchServiceStub:
    return matches_pb2_grpc.MatchServiceStub(channel)


def humans(stub, names: tuple[str, ...] = ("ann", "bob"), seed: int = 0):
    """A new Royal Cities match of human seats: its id and each seat's token."""
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=[matches_pb2.SeatSpec(human_name=n) for n in names],
        seed=seed,
    )
    response = stub.CreateMatch(request, timeout=10)
    return response.match_id, {t.seat: t.token for t in response.tokens}


def play_one(stub, match_id: str, tokens: dict[int, str], rng: random.Random) -> tuple[int, str]:
    """One random legal move by the seat to act: the moves played after it, and the token
    of the seat that played it (which sees its own move)."""
    for token in tokens.values():
        now = stub.GetView(matches_pb2.GetViewRequest(match_id=match_id, token=token), timeout=10)
        if now.legal_moves:
            move = rng.choice(now.legal_moves)
            request = matches_pb2.PlayRequest(
                match_id=match_id, token=token, move=move, expected_move=now.moves_played
            )
            return stub.Play(request, timeout=10).view.moves_played, token
    raise AssertionError("no seat has a move")


def open_watch(stub, match_id: str, token: str, timeout: float = 120):
    return stub.Watch(matches_pb2.WatchRequest(match_id=match_id, token=token), timeout=timeout)


def events_until(call, sequence: int) -> list[int]:
    """The sequence numbers a Watch stream sends, up to `sequence` (then it is cancelled)."""
    got = []
    for response in call:
        got.append(response.event.sequence)
        if got[-1] == sequence:
            break
    call.cancel()
    return got


class Serve(Serving):
    """`regent serve` on a free port with its matches in a SQLite file, and a client."""

    def __init__(self, db: Path, *options: str) -> None:
        super().__init__("--address", "127.0.0.1:0", "--no-web", "--db", str(db), *options)
        self.channel = grpc.insecure_channel(self.address)
        self.stub = stub_of(self.channel)

    def end(self) -> float:
        """SIGTERM; the seconds until the process is gone."""
        self.channel.close()
        start = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(60)
        return time.monotonic() - start

    def cpu_seconds(self) -> float:
        """The CPU time the process has used (user and system)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / 100  # clock ticks (USER_HZ = 100)


def open_watchers(metrics: str) -> float:
    """The open Watch streams a server's `/metrics` (at that URL) reports."""
    with urllib.request.urlopen(metrics, timeout=30) as answer:
        text = answer.read().decode()
    found = [s.value for f in text_string_to_metric_families(text) for s in f.samples
             if s.name == "regent_watchers"]  # fmt: skip
    return found[0] if found else 0.0


# -- finding 1: a storm of cancelled watchers ---------------------------------------------


@pytest.mark.slow
def test_a_storm_of_cancelled_watchers_freezes_nothing(tmp_path: Path) -> None:
    """20 rounds of 200 Watch streams on one match, each cancelled after 0.5-3 s while moves
    are played: the match never freezes (a Play answers after every round, and a new watcher
    gets every event), and SIGTERM still stops the server within its grace."""
    served = Serve(tmp_path / "matches.sqlite3", "--grace", "2")
    rng = random.Random(58)
    stopped = False
    try:
        for round_number in range(20):
            if round_number % 5 == 0:  # a new match before the last one can end
                match_id, tokens = humans(served.stub, seed=round_number)
            calls = [open_watch(served.stub, match_id, tokens[i % 2]) for i in range(200)]
            cancels = sorted((rng.uniform(0.5, 3.0), i) for i in range(len(calls)))
            start = time.monotonic()
            for at, i in cancels:
                time.sleep(max(0.0, start + at - time.monotonic()))
                calls[i].cancel()
                if i % 40 == 0:  # moves published while streams are being cancelled
                    play_one(served.stub, match_id, tokens, rng)
            played, token = play_one(served.stub, match_id, tokens, rng)
            seen = events_until(open_watch(served.stub, match_id, token, 30), played - 1)
            assert seen == sorted(set(seen)) and seen[-1] == played - 1
        # Watchers still open at the shutdown end with it, and do not hold it up.
        still_open = [open_watch(served.stub, match_id, tokens[i % 2]) for i in range(200)]
        took = served.end()
        stopped = True
        assert took < 2 + 5, f"SIGTERM took {took:.1f} s with a 2 s grace"
        assert "Lock is not acquired" not in "\n".join(served.log)
        assert {call.code() for call in still_open} <= {Code.UNAVAILABLE, Code.CANCELLED}
    finally:
        if not stopped:
            served.process.kill()


# -- finding 8: caps, and watchers that cost nothing while idle -----------------------------


def test_watchers_are_capped_per_match_and_per_server() -> None:
    limits = ServerLimits(max_match_watchers=2, max_watchers=3)
    with RunningServer(limits=limits) as running, grpc.insecure_channel(running.address) as ch:
        stub = stub_of(ch)
        watchers = running.server.matches.watchers
        first, first_tokens = humans(stub)
        second, second_tokens = humans(stub)
        calls = [open_watch(stub, first, first_tokens[i]) for i in range(2)]
        wait_until(lambda: watchers.count == 2, "2 watchers")
        per_match = _watch_error(stub, first, first_tokens[0])
        calls.append(open_watch(stub, second, second_tokens[0]))
        wait_until(lambda: watchers.count == 3, "3 watchers")
        per_server = _watch_error(stub, second, second_tokens[1])
        for err in (per_match, per_server):
            assert err.code() == Code.RESOURCE_EXHAUSTED
            assert violated_fields(err) == ["match_id"]
        assert "this match" in per_match.details() and "server" in per_server.details()
        calls.pop(0).cancel()  # a place comes free as soon as a stream ends
        wait_until(lambda: watchers.count == 2, "2 watchers")
        calls.append(open_watch(stub, second, second_tokens[1]))
        wait_until(lambda: watchers.count == 3, "3 watchers")
        for call in calls:
            call.cancel()
        wait_until(lambda: watchers.count == 0, "no watchers")


def _watch_error(stub, match_id: str, token: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        list(open_watch(stub, match_id, token, timeout=10))
    return info.value


def test_a_watcher_far_behind_is_dropped_and_never_waited_for() -> None:
    """Publishing does a constant step per watcher: one too far behind is marked dropped
    (its stream ends, to watch again), the others are woken."""
    record = MatchRecord("m", "royal_cities", ["human:a", "human:b"], {}, 1, False, 0.0)
    match = rebuild(record)
    watchers = Watchers(per_match=10, total=10, backlog=2)
    slow, quick = watchers.join(match), watchers.join(match)
    state = match.state
    for number in range(3):
        move = LoggedMove(number, MOVE, state.current_player, state.legal_actions()[0])
        match.push(match.next_event(move))
        state = match.state
        quick.sent = len(match.events)
        watchers.publish(match)
    assert slow.dropped and not quick.dropped
    watchers.leave(slow)
    watchers.leave(quick)
    assert watchers.count == 0 and not watchers.watched("m")


@pytest.mark.slow
def test_a_thousand_idle_watchers_cost_almost_nothing(tmp_path: Path) -> None:
    """1,000 Watch streams on quiet matches: the server polls nothing for them (it used a
    database query per watcher every 0.5 s, half a core); each still gets the next move."""
    served = Serve(tmp_path / "matches.sqlite3", "--metrics-address", "127.0.0.1:0")
    metrics = served.wait_for(r"metrics on (http://\S+/metrics)").group(1)
    try:
        games = [humans(served.stub, seed=i) for i in range(10)]
        calls = [
            (tokens[i % 2], open_watch(served.stub, match_id, tokens[i % 2], timeout=120))
            for match_id, tokens in games
            for i in range(100)
        ]
        wait_until(lambda: open_watchers(metrics) == len(calls), "every stream open", cap=120)
        before = served.cpu_seconds()
        time.sleep(5)
        used = served.cpu_seconds() - before
        assert used < 0.25 * 5, f"1,000 idle watchers used {used / 5:.0%} of a core"
        rng = random.Random(8)
        match_id, tokens = games[0]
        _, mover = play_one(served.stub, match_id, tokens, rng)
        got = [next(iter(call)).event.sequence for token, call in calls[:100] if token == mover]
        assert got == [0] * 50
        for _, call in calls:
            call.cancel()
    finally:
        assert served.end() < 10
