"""Hosted matches are durable: kept in SQLite or PostgreSQL, they come back after a restart,
a SIGTERM or a kill -9 with every accepted move and no other; Play is idempotent; finished
and idle matches leave memory; ListMatches shows a caller only what it may see; hosted bots
have their own pool and stop at shutdown; replicas on one PostgreSQL database share matches
and never both drive one match's bots. Real servers, real processes, real databases."""

from __future__ import annotations

import asyncio
import random
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
import sqlalchemy as sa

import engine
from convert import observation_from_proto, observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import RandomBot
from server.botpool import BotPool
from server.limits import ServerLimits
from server.matches import rebuild
from server.store import MIGRATIONS, Store
from tests.commands import Serving
from tests.support.errors import violated_fields
from tests.support.server import RunningServer
from tests.timing import PROCESS_SLACK

Code = grpc.StatusCode
PLAYING = matches_pb2.MATCH_STATUS_PLAYING
FINISHED = matches_pb2.MATCH_STATUS_FINISHED
EXPIRED = matches_pb2.MATCH_STATUS_EXPIRED


def stub_of(channel: grpc.Channel) -> matches_pb2_grpc.MatchServiceStub:
    return matches_pb2_grpc.MatchServiceStub(channel)


def create(stub, seats: list[str], seed: int = 0, public: bool = False):
    """A new Royal Cities match: its id and the token of each human seat."""
    specs = [
        matches_pb2.SeatSpec(human_name=s[6:])
        if s.startswith("human:")
        else matches_pb2.SeatSpec(bot=s)
        for s in seats
    ]
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES, seats=specs, seed=seed, public=public
    )
    response = stub.CreateMatch(request, timeout=10)
    return response.match_id, {t.seat: t.token for t in response.tokens}


def view(stub, match_id: str, token: str) -> matches_pb2.GetViewResponse:
    return stub.GetView(matches_pb2.GetViewRequest(match_id=match_id, token=token), timeout=10)


def play(stub, match_id: str, token: str, action: int, expected: int | None = None):
    request = matches_pb2.PlayRequest(
        match_id=match_id, token=token, move=common_pb2.Move(id=action), expected_move=expected
    )
    return stub.Play(request, timeout=10).view


def watch(stub, match_id: str, token: str, timeout: float = 60) -> list[matches_pb2.MatchEvent]:
    request = matches_pb2.WatchRequest(match_id=match_id, token=token)
    return [r.event for r in stub.Watch(request, timeout=timeout)]


def check_views(stub, match_id: str, tokens: dict[int, str], truth) -> None:
    """Every human seat's view is its view of `truth`."""
    for seat, token in tokens.items():
        got = view(stub, match_id, token)
        assert observation_from_proto(got.observation) == truth.observation(seat)


# -- storage, on both backends -----------------------------------------------------------


def test_the_schema_is_made_and_migrated_by_the_program(database: str) -> None:
    first = Store(database)
    assert first.version() == len(MIGRATIONS)
    first.close()
    again = Store(database)  # an up-to-date schema is left alone
    assert again.version() == len(MIGRATIONS)
    again.close()


def test_a_match_comes_back_after_a_restart_with_its_tokens_hashed(database: str) -> None:
    rng = random.Random(3)
    truth = engine.new_game("royal_cities", 2, 3)
    with RunningServer(db=database) as first, first.channel() as ch:
        stub = stub_of(ch)
        match_id, tokens = create(stub, ["human:ann", "human:bob"], seed=3)
        moves = _play(stub, match_id, tokens, truth, rng, 25)
        before = {seat: view(stub, match_id, token) for seat, token in tokens.items()}
        events = watch_now(stub, match_id, tokens[0])
    with RunningServer(db=database) as second, second.channel() as ch:
        stub = stub_of(ch)
        after = {seat: view(stub, match_id, token) for seat, token in tokens.items()}
        assert after == before
        assert after[0].moves_played == moves
        check_views(stub, match_id, tokens, truth)
        assert watch_now(stub, match_id, tokens[0]) == events
        assert watched(stub, match_id, tokens) == list(range(moves))
        _play(stub, match_id, tokens, truth, rng, 10_000)
        assert view(stub, match_id, tokens[0]).status == FINISHED
    store = Store(database)
    with store.engine.connect() as conn:
        dump = " ".join(
            str(row)
            for table in ("regent_matches", "regent_seat_tokens", "regent_moves")
            for row in conn.execute(sa.text(f"SELECT * FROM {table}"))
        )
    for token in tokens.values():
        assert token not in dump, "a seat token is stored in the clear"
    record = store.load(match_id)
    store.close()
    assert rebuild(record).state.observation(0) == truth.observation(0)


def _play(stub, match_id, tokens, truth, rng, moves: int) -> int:
    """Random moves of a humans-only match, each with its expected number; the number made."""
    done = 0
    number = view(stub, match_id, tokens[0]).moves_played
    while done < moves and not truth.is_terminal():
        seat = truth.current_player
        action = rng.choice(truth.legal_actions())
        answer = play(stub, match_id, tokens[seat], action, expected=number)
        truth.apply_action(action)
        number += 1
        done += 1
        assert answer.moves_played == number
    return number


def watch_now(stub, match_id: str, token: str) -> list[matches_pb2.MatchEvent]:
    """The Watch events a seat gets within a second (of a match that goes on)."""
    request = matches_pb2.WatchRequest(match_id=match_id, token=token)
    events = []
    try:
        for response in stub.Watch(request, timeout=1):
            events.append(response.event)
    except grpc.RpcError as err:
        assert err.code() == Code.DEADLINE_EXCEEDED
    return events


def watched(stub, match_id: str, tokens: dict[int, str]) -> list[int]:
    """The sequence numbers of the events any human seat gets now."""
    return sorted({e.sequence for t in tokens.values() for e in watch_now(stub, match_id, t)})


def test_play_is_idempotent(database: str) -> None:
    with RunningServer(db=database) as running, running.channel() as ch:
        stub = stub_of(ch)
        match_id, tokens = create(stub, ["human:ann", "human:bob"], seed=4)
        first = view(stub, match_id, tokens[0])
        assert first.moves_played == 0
        action = first.legal_moves[0].id
        answer = play(stub, match_id, tokens[0], action, expected=0)
        # A retry (the answer was lost, say) answers the same and applies nothing.
        assert play(stub, match_id, tokens[0], action, expected=0) == answer
        assert view(stub, match_id, tokens[0]).moves_played == 1
        # By its text too.
        text = first.legal_moves[0].text
        request = matches_pb2.PlayRequest(
            match_id=match_id, token=tokens[0], move=common_pb2.Move(text=text), expected_move=0
        )
        assert stub.Play(request, timeout=10).view == answer
        other = first.legal_moves[1].id
        for token, move, number in (
            (tokens[0], other, 0),  # another move at a taken number
            (tokens[1], action, 0),  # another seat at a taken number
            (tokens[0], action, 7),  # a number in the future
        ):
            with pytest.raises(grpc.RpcError) as caught:
                play(stub, match_id, token, move, expected=number)
            assert caught.value.code() == Code.FAILED_PRECONDITION
            assert "at move 1" in caught.value.details()
        assert view(stub, match_id, tokens[0]).moves_played == 1


def test_concurrent_plays_of_one_seat_apply_one_move(database: str) -> None:
    """Eight threads send each legal move at once, all for the same number: one is applied,
    the same ones get its answer, the others FAILED_PRECONDITION."""
    with RunningServer(db=database) as running, running.channel() as ch:
        stub = stub_of(ch)
        for seed in range(3):
            match_id, tokens = create(stub, ["human:ann", "human:bob"], seed=seed)
            moves = [m.id for m in view(stub, match_id, tokens[0]).legal_moves][:4] * 2
            barrier = threading.Barrier(len(moves))

            def send(action: int, match_id=match_id, token=tokens[0], barrier=barrier):
                barrier.wait()
                try:
                    return action, play(stub, match_id, token, action, expected=0)
                except grpc.RpcError as err:
                    return action, err.code()

            with ThreadPoolExecutor(len(moves)) as pool:
                results = list(pool.map(send, moves))
            answers = [(a, r) for a, r in results if not isinstance(r, Code)]
            assert {a for a, _ in answers} and len({a for a, _ in answers}) == 1
            assert all(r == answers[0][1] for _, r in answers)
            refused = [r for _, r in results if isinstance(r, Code)]
            assert set(refused) <= {Code.FAILED_PRECONDITION}
            assert len(answers) == moves.count(answers[0][0])
            assert view(stub, match_id, tokens[0]).moves_played == 1
            assert len(running.true_match(match_id).events) == 1


def test_list_matches_shows_a_caller_only_what_it_may_see(database: str) -> None:
    with RunningServer(db=database) as running, running.channel() as ch:
        stub = stub_of(ch)
        mine = [create(stub, ["human:ann", "human:bob"], seed=s) for s in range(5)]
        theirs = create(stub, ["human:secret-name", "random"], seed=9)
        shown = create(stub, ["human:cy", "random"], seed=10, public=True)

        def listed(tokens=(), page_size=0) -> list[str]:
            request = matches_pb2.ListMatchesRequest(tokens=tokens, page_size=page_size)
            found = []
            while True:
                page = stub.ListMatches(request, timeout=5)
                assert len(page.matches) <= (page_size or 50)
                found += [m.match_id for m in page.matches]
                if not page.next_page_token:
                    return found
                request.page_token = page.next_page_token

        # A stranger sees only the public match, never a private one's name.
        assert listed() == [shown[0]]
        stranger = stub.ListMatches(matches_pb2.ListMatchesRequest(tokens=["x"]), timeout=5)
        assert "secret-name" not in str(stranger)
        tokens = [t[1] for _, t in mine] + [theirs[1][0]]
        expected = [m for m, _ in mine] + [theirs[0], shown[0]]
        assert listed(tokens) == expected  # oldest first
        assert listed(tokens, page_size=2) == expected
        err = _error(stub.ListMatches, matches_pb2.ListMatchesRequest(page_token="garbage"))
        assert err.code() == Code.INVALID_ARGUMENT and violated_fields(err) == ["page_token"]


def _error(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=10)
    return caught.value


# -- lifetime --------------------------------------------------------------------------------


def test_idle_matches_expire_and_free_their_place(tmp_path: Path) -> None:
    limits = ServerLimits(match_ttl=0.5, bot_lease_seconds=0.5, max_matches=1)
    db = str(tmp_path / "m.db")
    with RunningServer(limits=limits, db=db) as running, running.channel() as ch:
        stub = stub_of(ch)
        match_id, tokens = create(stub, ["human:ann", "human:bob"], seed=1)
        end = time.monotonic() + 10
        while view(stub, match_id, tokens[0]).status != EXPIRED:
            assert time.monotonic() < end, "the idle match did not expire"
            time.sleep(0.1)
        expired = view(stub, match_id, tokens[0])
        assert not expired.legal_moves and not expired.scores and not expired.returns
        events = watch(stub, match_id, tokens[1])
        assert events[-1].status == EXPIRED and not events[-1].HasField("seat")
        with pytest.raises(grpc.RpcError) as caught:
            play(stub, match_id, tokens[0], 0)
        assert caught.value.code() == Code.FAILED_PRECONDITION
        (summary,) = stub.ListMatches(
            matches_pb2.ListMatchesRequest(tokens=[tokens[0]]), timeout=5
        ).matches
        assert summary.status == EXPIRED and summary.moves_played == 0
        create(stub, ["human:ann", "human:bob"])  # its place is free
        assert match_id not in running.server.matches.live


def test_finished_matches_leave_memory_and_stay_readable(regent_server: RunningServer) -> None:
    with regent_server.channel() as ch:
        stub = stub_of(ch)
        match_id, tokens = create(stub, ["human:ann", "human:bob"], seed=2)
        truth = engine.new_game("royal_cities", 2, 2)
        _play(stub, match_id, tokens, truth, random.Random(2), 10_000)
        assert match_id not in regent_server.server.matches.live
        final = view(stub, match_id, tokens[1])
        assert final.status == FINISHED and list(final.scores) == truth.scores()
        assert watch(stub, match_id, tokens[0])[-1].status == FINISHED


def test_human_names_are_at_most_64_characters(regent_server: RunningServer) -> None:
    with regent_server.channel() as ch:
        stub = stub_of(ch)
        create(stub, ["human:" + "a" * 64, "random"])
        request = matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES,
            seats=[matches_pb2.SeatSpec(bot="random"), matches_pb2.SeatSpec(human_name="a" * 65)],
        )
        err = _error(stub.CreateMatch, request)
        assert err.code() == Code.INVALID_ARGUMENT
        assert violated_fields(err) == ["seats[1].human_name"]


# -- hosted bots share the machine -----------------------------------------------------------


def test_the_bots_pool_serves_moves_in_turn() -> None:
    """With one slot, bot moves are searched in the order they asked, never two at once."""

    async def run() -> list[int]:
        pool, done = BotPool(1), []
        state = engine.new_game("royal_cities", 3, 1)

        async def move(i: int) -> None:
            assert pool.running <= 1
            await pool.choose(RandomBot(), state.clone(), i)
            done.append(i)

        await asyncio.gather(*(move(i) for i in range(8)))
        assert pool.running == 0
        return done

    assert asyncio.run(run()) == list(range(8))


def test_a_move_with_no_choice_takes_no_slot_and_no_search() -> None:
    """A pool with no slot would keep a search waiting for ever; a forced move is played at once."""
    state = engine.new_game("citadels", 4, 5)
    while len(state.legal_actions()) > 1:
        state.apply_action(state.legal_actions()[0])

    class Unasked:
        spec = "unasked"

        def choose(self, state: engine.State, seed: int, cancel: object = None) -> int:
            raise AssertionError("a bot was asked for a move with no choice")

    async def run() -> int:
        return await asyncio.wait_for(BotPool(0).choose(Unasked(), state.clone(), 1), 5)

    assert [asyncio.run(run())] == state.legal_actions()


@pytest.mark.timing
def test_the_advisor_answers_while_four_bot_matches_search() -> None:
    """Four bot-only matches of 20 s searches take the bots' two slots, not the advisor's;
    and stopping the server stops their searches at once."""
    limits = ServerLimits(max_searches=2, max_bot_searches=2)
    running = RunningServer(limits=limits)
    try:
        with running.channel() as ch:
            stub = stub_of(ch)
            for seed in range(4):
                create(stub, ["mo-ismcts:seconds=20"] * 2, seed=seed)
            pool = running.server.matches.pool
            end = time.monotonic() + 5
            while pool.running < 2:
                assert time.monotonic() < end
                time.sleep(0.01)
            state = engine.new_game("royal_cities", 2, 0)
            observation = observation_to_proto(state.observation(state.current_player))
            request = advisor_pb2.RecommendRequest(
                observation=observation, budget=common_pb2.SearchBudget(iterations=300)
            )
            start = time.monotonic()
            advisor_pb2_grpc.AdvisorServiceStub(ch).Recommend(request, timeout=10)
            assert time.monotonic() - start < 5
            assert pool.running == 2  # never more than its size
    finally:
        start = time.monotonic()
        running.stop(0)
        assert time.monotonic() - start < 3, "the bots' searches did not stop at shutdown"


# -- real processes: restarts, SIGTERM, kill -9, replicas ------------------------------------


class Serve(Serving):
    """`regent serve` without its page on a free port, its matches in `db`, and a client."""

    def __init__(self, db: str, *options: str) -> None:
        super().__init__("--address", "127.0.0.1:0", "--no-web", "--db", db, *options)
        self.replica = self.wait_for(r"\(replica (\w+)\)").group(1)
        self.channel = grpc.insecure_channel(self.address)
        self.stub = stub_of(self.channel)

    def end(self, sig: int) -> float:
        """Send `sig`; the seconds until the process is gone."""
        self.channel.close()
        start = time.monotonic()
        self.process.send_signal(sig)
        self.process.wait(30)
        return time.monotonic() - start


def _summary(stub, match_id: str) -> matches_pb2.MatchSummary:
    """A public match's summary."""
    (found,) = [m for m in stub.ListMatches(matches_pb2.ListMatchesRequest(), timeout=5).matches
                if m.match_id == match_id]  # fmt: skip
    return found


def _wait_moves(stub, match_id: str, at_least: int, timeout: float) -> matches_pb2.MatchSummary:
    end = time.monotonic() + timeout
    while True:
        summary = _summary(stub, match_id)
        if summary.moves_played >= at_least or summary.status != PLAYING:
            return summary
        assert time.monotonic() < end, f"{summary.moves_played} moves, not {at_least}"
        time.sleep(0.05)


def _check_log(db: str, match_id: str, finished: bool) -> None:
    """The stored log replays from the deal: no move lost, none made twice."""
    store = Store(db)
    try:
        match = rebuild(store.load(match_id))
    finally:
        store.close()
    assert [e.sequence for e in match.events] == list(range(len(match.events)))
    assert match.finished == finished


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_restart_loses_nothing(tmp_path: Path, sig: int) -> None:
    """Humans play, a bot match plays itself; the server is killed (or stopped) mid-match and
    started again on the same SQLite file: every accepted move is there, once, and both
    matches go on to their end."""
    db = str(tmp_path / "matches.sqlite3")
    rng = random.Random(int(sig))
    truth = engine.new_game("royal_cities", 2, 7)
    first = Serve(db)
    match_id, tokens = create(first.stub, ["human:ann", "human:bob"], seed=7)
    bots_id, _ = create(first.stub, ["random", "mo-ismcts:iterations=300"], seed=8, public=True)
    accepted = _play(first.stub, match_id, tokens, truth, rng, 30)
    _wait_moves(first.stub, bots_id, 5, 30)
    first.end(sig)

    second = Serve(db)
    try:
        got = view(second.stub, match_id, tokens[0])
        assert got.moves_played == accepted
        check_views(second.stub, match_id, tokens, truth)
        assert watched(second.stub, match_id, tokens) == list(range(accepted))
        _play(second.stub, match_id, tokens, truth, rng, 10_000)
        assert view(second.stub, match_id, tokens[1]).status == FINISHED
        # The bots play on by themselves (after a kill -9, once the dead server's lease ends).
        assert _wait_moves(second.stub, bots_id, 10_000, 90).status == FINISHED
    finally:
        assert second.end(signal.SIGTERM) < PROCESS_SLACK
    _check_log(db, match_id, finished=True)
    _check_log(db, bots_id, finished=True)


@pytest.mark.slow
@pytest.mark.timing
def test_sigterm_stops_searching_bots_within_the_grace(tmp_path: Path) -> None:
    """A bot searching for 20 s does not hold the process past its 2 s grace (and a loaded
    host's time to end a process); after a restart its match goes on."""
    db = str(tmp_path / "matches.sqlite3")
    served = Serve(db, "--grace", "2")
    match_id, _ = create(served.stub, ["random", "mo-ismcts:seconds=20"], seed=3, public=True)
    end = time.monotonic() + PROCESS_SLACK
    while (summary := _summary(served.stub, match_id)).current_seat != 1:
        assert time.monotonic() < end, "the random seat did not move"
        time.sleep(0.02)
    moves = summary.moves_played  # the search bot's turn: it thinks for 20 s from now
    time.sleep(0.5)  # its search is under way
    assert served.end(signal.SIGTERM) < 2 + PROCESS_SLACK
    again = Serve(db, "--grace", "2")
    try:
        assert _summary(again.stub, match_id).moves_played == moves
        _wait_moves(again.stub, match_id, moves + 1, 40)
    finally:
        assert again.end(signal.SIGTERM) < 2 + PROCESS_SLACK
    _check_log(db, match_id, finished=False)


@pytest.mark.slow
def test_two_replicas_on_postgresql(pg_database: str) -> None:
    """Two servers on one PostgreSQL database: either answers for any match, Watch on one
    sees moves made on the other, exactly one drives a bot match, and when that one is
    killed the other takes the match over; no move is made twice."""
    a, b = Serve(pg_database), Serve(pg_database)
    try:
        # Humans: create on A, play on B and A in turn, watch on B.
        truth = engine.new_game("royal_cities", 2, 5)
        match_id, tokens = create(a.stub, ["human:ann", "human:bob"], seed=5)
        seen: list[matches_pb2.MatchEvent] = []
        watcher = threading.Thread(target=lambda: seen.extend(watch(b.stub, match_id, tokens[0])))
        watcher.start()
        rng = random.Random(5)
        number = 0
        while not truth.is_terminal():
            stub = (a.stub, b.stub)[number % 2]
            seat = truth.current_player
            action = rng.choice(truth.legal_actions())
            assert play(stub, match_id, tokens[seat], action, expected=number).moves_played == (
                number + 1
            )
            truth.apply_action(action)
            number += 1
        watcher.join(30)
        assert not watcher.is_alive()
        assert seen[-1].status == FINISHED and seen[-1].sequence == number - 1
        check_views(a.stub, match_id, tokens, truth)

        # Bots: one replica drives; kill it, the other takes over.
        bots_id, _ = create(a.stub, ["random", "mo-ismcts:iterations=400"], seed=6, public=True)
        _wait_moves(b.stub, bots_id, 6, 30)
        engine_ = sa.create_engine(pg_database.replace("postgresql://", "postgresql+psycopg://"))
        with engine_.connect() as conn:
            owner = conn.execute(
                sa.text("SELECT lease_owner FROM regent_matches WHERE id = :id"), {"id": bots_id}
            ).scalar()
        engine_.dispose()
        assert owner in (a.replica, b.replica)
        driver, other = (a, b) if owner == a.replica else (b, a)
        driver.end(signal.SIGKILL)
        moves = _summary(other.stub, bots_id).moves_played
        assert _wait_moves(other.stub, bots_id, 10_000, 120).status == FINISHED
        assert _summary(other.stub, bots_id).moves_played > moves
    finally:
        for served in (a, b):
            if served.process.poll() is None:
                served.end(signal.SIGTERM)
    _check_log(pg_database, match_id, finished=True)
    _check_log(pg_database, bots_id, finished=True)


# -- news heard during a read ------------------------------------------------------------


def test_news_heard_during_a_read_is_read_again() -> None:
    """A move stored elsewhere while this replica reads the match in may be past what that
    read fetched: the match is read once more, however the two interleave (a watcher on the
    other replica once waited for a game's last move that way)."""
    from types import SimpleNamespace

    from server.hosting import Hosting

    async def scenario() -> int:
        hosting = Hosting(ServerLimits(), "sqlite://")  # never started: no database is read
        match = SimpleNamespace(id="m", events=[])
        hosting.live["m"] = match  # type: ignore[assignment]
        hosting.watchers.join(match)  # type: ignore[arg-type]
        reads = 0
        reading = asyncio.Event()
        release = asyncio.Event()

        async def read(_: object) -> None:
            nonlocal reads
            reads += 1
            if reads == 1:
                reading.set()
                await release.wait()

        hosting._catch_up = read  # type: ignore[method-assign]
        hosting._heard("m")
        await reading.wait()
        hosting._heard("m")  # news while the first read waits on the database
        hosting._heard("m")  # more of it: one more read covers both
        release.set()
        while hosting._reading:
            await asyncio.sleep(0)
        return reads

    assert asyncio.run(scenario()) == 2
