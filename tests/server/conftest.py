"""The service tests' fixtures: real Regent gRPC servers (tests/support/server.py) shared by
the session, one with generous limits and one that runs a search at a time, stubs on
channels to them, the server's log, and a throwaway PostgreSQL server.

The helpers the tests share (servers, positions to ask about, reading BadRequest details)
are in tests/support/; the test modules import them from there.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from regent.v1 import advisor_pb2_grpc, matches_pb2_grpc
from tests.support.server import (
    TIGHT_LIMITS,
    WIDE_LIMITS,
    RunningServer,
    free_port,
    serving,
)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


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


# -- a throwaway PostgreSQL server --------------------------------------------------------

#: Debian's PostgreSQL server programs (apt-get install postgresql; .ci/run installs it).
PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


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
