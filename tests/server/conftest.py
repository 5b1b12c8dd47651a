"""A real Regent gRPC server for the service tests.

Each server runs in a background thread with its own asyncio event loop and listens on an
ephemeral port of 127.0.0.1, so that the tests talk to it over a real socket with the
synchronous `grpc` API; its matches are kept in an in-memory SQLite database. The server
object lives in the same process: tests may load a match's true game (`true_match`, as the
server rebuilds it from its database) and read its running search count
(`server.slots.running`) to check what it sends.

Shared helpers (positions to ask about, reading BadRequest details) are plain functions here;
the test modules import them from `tests.server.conftest`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import random
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, matches_pb2_grpc
from server.app import BackgroundServer
from server.limits import ServerLimits
from server.matches import Match

T = TypeVar("T")

#: A card's name as the engine writes it; none may appear in the server's log.
CARD_NAME = re.compile(r"(purple|yellow|pink|red|blue|green|white)-[0-6]")

#: The time a test server keeps back from a call's deadline: the tests may run on every core
#: of a 2-core machine (`pytest -n auto`) beside other loads, where the server's threads have
#: been seen to wait 70 ms for a core between the end of a search and its answer leaving (and
#: once more than 0.25 s on a host at load 12), more than the 30 ms a server keeps back by
#: default.
LOADED_HOST_MARGIN = 0.5
#: Generous: room for 16 concurrent clients and the hosted bots of many matches.
WIDE_LIMITS = ServerLimits(max_searches=32, max_threads=2, deadline_margin=LOADED_HOST_MARGIN)
#: Tight: one search at a time, small iteration budgets; long enough time budgets for the
#: cancellation test (an Analyze of 20 s).
TIGHT_LIMITS = ServerLimits(
    max_searches=1,
    max_iterations=5000,
    max_seconds=30,
    max_threads=1,
    deadline_margin=LOADED_HOST_MARGIN,
)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class RunningServer(BackgroundServer):
    """The service's background server, with what the tests need to look inside it."""

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def true_match(self, match_id: str) -> Match:
        """The match with its true states, up to date with the server's database."""
        match = self._call(self.server.matches.load(match_id))
        assert match is not None, f"no match {match_id}"
        return match

    def wait_idle(self, timeout: float = 5.0) -> float:
        """Wait until no search runs; the seconds it took (AssertionError past `timeout`)."""
        start = time.perf_counter()
        while self.server.slots.running:
            if time.perf_counter() - start > timeout:
                raise AssertionError(f"{self.server.slots.running} searches still running")
            time.sleep(0.005)
        return time.perf_counter() - start


@contextlib.contextmanager
def serving(limits: ServerLimits) -> Iterator[RunningServer]:
    with RunningServer(limits=limits) as running:
        yield running


@pytest.fixture(scope="session")
def server_log() -> Iterator[list[logging.LogRecord]]:
    """Every record logged on "regent.server" during the session, by any server."""
    logger = logging.getLogger("regent.server")
    handler = _Records()
    old_level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


@pytest.fixture(scope="session")
def regent_server(server_log: list[logging.LogRecord]) -> Iterator[RunningServer]:
    """A server with generous limits (32 searches at once)."""
    with serving(WIDE_LIMITS) as running:
        yield running


@pytest.fixture(scope="session")
def tight_server(server_log: list[logging.LogRecord]) -> Iterator[RunningServer]:
    """A server that runs one search at a time and at most 5000 iterations or 30 s each."""
    with serving(TIGHT_LIMITS) as running:
        yield running


@pytest.fixture
def channel(regent_server: RunningServer) -> Iterator[grpc.Channel]:
    with regent_server.channel() as ch:
        yield ch


@pytest.fixture
def advisor(channel: grpc.Channel) -> advisor_pb2_grpc.AdvisorServiceStub:
    return advisor_pb2_grpc.AdvisorServiceStub(channel)


@pytest.fixture
def matches(channel: grpc.Channel) -> matches_pb2_grpc.MatchServiceStub:
    return matches_pb2_grpc.MatchServiceStub(channel)


@pytest.fixture
def tight_channel(tight_server: RunningServer) -> Iterator[grpc.Channel]:
    tight_server.wait_idle()
    with tight_server.channel() as ch:
        yield ch
    tight_server.wait_idle()


@pytest.fixture
def tight_advisor(tight_channel: grpc.Channel) -> advisor_pb2_grpc.AdvisorServiceStub:
    return advisor_pb2_grpc.AdvisorServiceStub(tight_channel)


# -- helpers -----------------------------------------------------------------------


def play_to(
    num_players: int,
    seed: int,
    accept: Callable[[engine.State], bool],
    min_moves: int = 0,
    max_games: int = 200,
) -> engine.State:
    """The first state of random games (seeded from `seed`) after `min_moves` moves that
    `accept` takes; the game is not over."""
    for game in range(seed, seed + max_games):
        state = engine.new_game("royal_cities", num_players, game)
        rng = random.Random(game)
        moves = 0
        while not state.is_terminal():
            if moves >= min_moves and accept(state):
                return state
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    raise AssertionError("no such position")


#: Decisions of the game's setup, reached before any ordinary move.
SETUP_PHASES = ("pass", "first_build", "solo_own", "solo_regent")


def position(
    num_players: int = 3, seed: int = 0, phase: str = "turn", min_moves: int | None = None
) -> tuple[engine.State, advisor_pb2.Observation]:
    """A true state in `phase` (after `min_moves` random moves: by default 10, none for a
    setup decision) and the message of the observation of the player to act."""
    if min_moves is None:
        min_moves = 0 if phase in SETUP_PHASES else 10
    state = play_to(num_players, seed, lambda s: s.phase == phase, min_moves)
    return state, observation_to_proto(state.observation(state.current_player))


def terminal_position(num_players: int = 2, seed: int = 0) -> advisor_pb2.Observation:
    """The last player's observation of a finished random game."""
    state = engine.new_game("royal_cities", num_players, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return observation_to_proto(state.observation(0))


def field_violations(err: grpc.RpcError) -> list[error_details_pb2.BadRequest.FieldViolation]:
    """The google.rpc.BadRequest field violations an error carries."""
    status = rpc_status.from_call(err)
    if status is None:
        return []
    assert status.code == err.code().value[0], "the status details disagree with the code"
    found = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            found.extend(bad.field_violations)
    return found


def violated_fields(err: grpc.RpcError) -> list[str]:
    return [v.field for v in field_violations(err)]


# -- a throwaway PostgreSQL server --------------------------------------------------------

#: Debian's PostgreSQL server programs (apt-get install postgresql; .ci/run installs it).
PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL cluster of its own for the session, on a free port; skipped
    where the server programs are missing or it cannot start. As root (CI), initdb runs as
    the `postgres` user, since PostgreSQL refuses to run as root."""
    if not PG_BIN or not (PG_BIN[-1] / "initdb").exists():
        pytest.skip("PostgreSQL's initdb is missing (apt-get install postgresql)")
    bin_dir = PG_BIN[-1]
    # Not under pytest's temporary directory, which only its owner may enter.
    home = Path(tempfile.mkdtemp(prefix="regent-pg-"))
    data = home / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
        os.chown(home, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*as_user, *command], capture_output=True, text=True, timeout=120, check=False
        )

    made = run(str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    if made.returncode != 0:
        pytest.skip(f"initdb failed: {made.stderr.strip()[-300:]}")
    options = f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off"
    started = run(
        str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(home / "log"), "-w",
        "start",
    )  # fmt: skip
    if started.returncode != 0:
        pytest.skip(f"PostgreSQL did not start: {started.stderr.strip()[-300:]}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def pg_database(postgres: str) -> str:
    """A new, empty database on the session's PostgreSQL server; its URL."""
    import psycopg

    name = f"regent_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{postgres}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{postgres}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each backend: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "matches.sqlite3")
    return request.getfixturevalue("pg_database")
