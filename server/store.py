"""Hosted matches kept in a database: SQLite (embedded, the default) or PostgreSQL, through
one SQLAlchemy Core code path. A match is its configuration, the sha256 of its seat tokens
and its move log; the engines are deterministic, so the log rebuilds it. Every call blocks:
the service runs them in worker threads."""

from __future__ import annotations

import base64
import importlib
import json
import logging
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from engine.resources import install_line

#: The `--db` value of a database that lives in memory and dies with the process.
MEMORY = ":memory:"

#: How a match ended, in `matches.outcome` (NULL while it is played).
FINISHED, RESIGNED, EXPIRED = "finished", "resigned", "expired"
#: The kinds of rows of the move log.
MOVE, RESIGN, EXPIRE = "move", "resign", "expire"
#: PostgreSQL: the channel each stored move notifies with its match's id (server/news.py).
NEWS_CHANNEL = "regent_moves"

#: The schema's migrations (Alembic's scripts, one per version: `revision` "1", "2", ...).
#: A change to the tables below comes with a new script there, never an edit of an old one.
MIGRATIONS_LOCATION = "server:migrations"

_meta = sa.MetaData()

#: The schema version as the programs before Alembic kept it (a database they made says 1 or
#: 2 here and has no Alembic version yet); still written, so that such a program refuses a
#: database newer than it knows.
schema_version = sa.Table(
    "regent_schema_version", _meta, sa.Column("version", sa.Integer, nullable=False)
)

matches = sa.Table(
    "regent_matches",
    _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    #: JSON list of "human:NAME" / "bot:SPEC".
    sa.Column("seats", sa.Text, nullable=False),
    #: JSON object: the game's rules options.
    sa.Column("rules", sa.Text, nullable=False),
    #: A uint64, as text (PostgreSQL has no unsigned 64-bit integer).
    sa.Column("seed", sa.String(20), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    #: When the last move was made (or the match created): what expiry measures.
    sa.Column("last_active", sa.Float, nullable=False),
    #: Rows in the move log: the number the next move takes.
    sa.Column("num_moves", sa.Integer, nullable=False),
    sa.Column("outcome", sa.String(16)),
    sa.Column("current_seat", sa.Integer),
    #: Whether a hosted bot is to move (and some replica should drive it).
    sa.Column("bot_turn", sa.Boolean, nullable=False),
    #: The replica that drives the match's bots, until when.
    sa.Column("lease_owner", sa.String(64)),
    sa.Column("lease_expires", sa.Float),
    #: Who created the match, for the quotas (server/quotas.py): `key:NAME`, `peer:ADDRESS`
    #: or `local`; NULL for the matches made at schema version 1.
    sa.Column("creator", sa.String(80)),
    sa.Index("regent_matches_listing", "public", "created_at", "id"),
    sa.Index("regent_matches_live", "outcome", "bot_turn"),
)

seat_tokens = sa.Table(
    "regent_seat_tokens",
    _meta,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("match_id", sa.String(32), sa.ForeignKey(matches.c.id), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
)

moves = sa.Table(
    "regent_moves",
    _meta,
    sa.Column("match_id", sa.String(32), sa.ForeignKey(matches.c.id), primary_key=True),
    #: 0, 1, 2...: unique per match, so no move is ever stored twice.
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("seat", sa.Integer),
    sa.Column("action", sa.Integer),
    sa.Column("made_at", sa.Float, nullable=False),
)


def alembic_config(conn: Connection | None = None) -> Config:
    """Alembic's configuration: the scripts, and the connection to migrate (env.py)."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS_LOCATION)
    config.attributes["connection"] = conn
    return config


#: Alembic's own lines (the context it runs in, each step) are not the operator's news; the
#: store says in one line when it upgraded a database that had data (see `_migrate`).
logging.getLogger("alembic").setLevel(logging.WARNING)
log = logging.getLogger(__name__)

#: The schema's versions, oldest first: Alembic's revisions of server/migrations/versions/.
MIGRATIONS: list[str] = [
    script.revision
    for script in reversed(list(ScriptDirectory.from_config(alembic_config()).walk_revisions()))
]


class StoreError(RuntimeError):
    """The database cannot be opened or used."""


@dataclass(frozen=True)
class LoggedMove:
    """One row of a match's move log: a move, a resignation or the expiry."""

    number: int
    kind: str
    seat: int | None = None
    action: int | None = None


@dataclass(frozen=True)
class Progress:
    """What a match's row says after a move."""

    outcome: str | None
    current_seat: int | None
    bot_turn: bool


@dataclass
class MatchRecord:
    """A stored match: its configuration, token hashes and move log."""

    id: str
    game: str
    seats: list[str]
    rules: dict[str, bool]
    seed: int
    public: bool
    created_at: float
    token_hashes: dict[str, int] = field(default_factory=dict)
    log: list[LoggedMove] = field(default_factory=list)
    #: Who created it (server/quotas.py's `Caller.identity`).
    creator: str | None = None


@dataclass(frozen=True)
class Summary:
    """What ListMatches shows of a match."""

    id: str
    game: str
    seats: list[str]
    public: bool
    created_at: float
    num_moves: int
    outcome: str | None
    current_seat: int | None


def default_db() -> str:
    """`regent serve`'s database when `--db` is not given: a SQLite file in the user's data
    directory."""
    return str(Path(platformdirs.user_data_dir("regent")) / "matches.sqlite3")


#: What installs PostgreSQL's driver (psycopg 3): SQLite deployments go without it.
POSTGRESQL_EXTRA = install_line("postgresql")


def require_driver(url: sa.engine.URL) -> None:
    """StoreError saying what to install when the database's driver is missing: SQLite's
    comes with Python, PostgreSQL's is the `postgresql` extra."""
    if url.get_backend_name() != "postgresql":
        return
    try:
        importlib.import_module("psycopg")
    except ImportError:
        raise StoreError(f"PostgreSQL needs its driver, psycopg: {POSTGRESQL_EXTRA}") from None


def database_url(db: str) -> str:
    """The SQLAlchemy URL of a `--db` value: a file path, `:memory:`, `sqlite:///...`, or
    `postgresql://...` (driven by psycopg 3)."""
    if db == MEMORY:
        return "sqlite://"
    if "://" not in db:
        return "sqlite:///" + str(Path(db).expanduser())
    for plain in ("postgresql://", "postgres://"):
        if db.startswith(plain):
            return "postgresql+psycopg://" + db.removeprefix(plain)
    return db


class Store:
    """The matches' database; SQLite calls are serialized (one writer at a time)."""

    def __init__(self, db: str) -> None:
        url = sa.engine.make_url(database_url(db))
        require_driver(url)
        self.sqlite = url.get_backend_name() == "sqlite"
        options: dict = {}
        if self.sqlite and url.database in (None, "", MEMORY):
            # One connection, shared by the worker threads under the lock below.
            options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif self.sqlite and url.database:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
            options = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        else:
            options = {"pool_pre_ping": True}
        try:
            # hide_parameters: an error message never quotes a row's values.
            self.engine: Engine = sa.create_engine(url, hide_parameters=True, **options)
        except (SQLAlchemyError, ImportError, ValueError) as err:
            raise StoreError(f"cannot use the database {url!r}: {err}") from None
        if self.sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self._lock = threading.Lock() if self.sqlite else None
        self.url = url.render_as_string(hide_password=True)
        try:
            self._migrate()
        except SQLAlchemyError as err:
            self.engine.dispose()
            raise StoreError(f"cannot open the database {self.url}: {err}") from None

    def close(self) -> None:
        self.engine.dispose()

    def listener(self) -> Any:
        """PostgreSQL: a new connection of its own, outside any transaction, to LISTEN on
        (a psycopg connection, a context manager that closes it)."""
        import psycopg

        url = self.engine.url.set(drivername="postgresql")
        return psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """A transaction (committed at the end of the block)."""
        if self._lock is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._lock, self.engine.begin() as conn:
            yield conn

    def _migrate(self) -> None:
        """Bring the schema to the last version with Alembic, in one transaction (replicas
        starting together wait for each other on PostgreSQL); a database of the programs
        before Alembic is first stamped with the version it says it has."""
        with self._begin() as conn:
            if not self.sqlite:
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(7221001)"))
            current = MigrationContext.configure(conn).get_current_revision()
            legacy = self._legacy_version(conn) if current is None else None
            found = current or legacy
            if found is not None and found not in MIGRATIONS:
                raise StoreError(
                    f"the database {self.url} has schema version {found}, newer than this "
                    f"program's {MIGRATIONS[-1]}"
                )
            config = alembic_config(conn)
            if legacy is not None:
                command.stamp(config, legacy)
            command.upgrade(config, "head")
            if found is not None and found != MIGRATIONS[-1]:
                log.info("database schema upgraded from version %s to %s", found, MIGRATIONS[-1])
            _meta.create_all(conn, tables=[schema_version])
            conn.execute(sa.delete(schema_version))
            conn.execute(sa.insert(schema_version).values(version=len(MIGRATIONS)))

    def _legacy_version(self, conn: Connection) -> str | None:
        """The revision of a database that the programs before Alembic made (None if none)."""
        if not sa.inspect(conn).has_table(schema_version.name):
            return None
        found = conn.execute(sa.select(schema_version.c.version)).scalar()
        return None if found is None else str(found)

    def version(self) -> int:
        """The schema's version: how many of the MIGRATIONS the database has had."""
        with self._begin() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
        return MIGRATIONS.index(current) + 1 if current in MIGRATIONS else 0

    # -- matches -----------------------------------------------------------------------

    def create(self, record: MatchRecord, progress: Progress) -> None:
        now = record.created_at
        with self._begin() as conn:
            conn.execute(
                sa.insert(matches).values(
                    id=record.id,
                    game=record.game,
                    seats=json.dumps(record.seats),
                    rules=json.dumps(record.rules),
                    seed=str(record.seed),
                    public=record.public,
                    created_at=now,
                    last_active=now,
                    num_moves=0,
                    outcome=progress.outcome,
                    current_seat=progress.current_seat,
                    bot_turn=progress.bot_turn,
                    creator=record.creator,
                )
            )
            if record.token_hashes:
                conn.execute(
                    sa.insert(seat_tokens),
                    [
                        {"token_hash": h, "match_id": record.id, "seat": seat}
                        for h, seat in record.token_hashes.items()
                    ],
                )

    def load(self, match_id: str) -> MatchRecord | None:
        """The match with its whole log, or None."""
        with self._begin() as conn:
            row = conn.execute(sa.select(matches).where(matches.c.id == match_id)).one_or_none()
            if row is None:
                return None
            hashes = conn.execute(
                sa.select(seat_tokens.c.token_hash, seat_tokens.c.seat).where(
                    seat_tokens.c.match_id == match_id
                )
            ).all()
            log = _log(conn, match_id, 0)
        return MatchRecord(
            id=row.id,
            game=row.game,
            seats=json.loads(row.seats),
            rules=json.loads(row.rules),
            seed=int(row.seed),
            public=row.public,
            created_at=row.created_at,
            token_hashes=dict(hashes),
            log=log,
        )

    def log_since(self, match_id: str, number: int) -> list[LoggedMove]:
        """The match's log from move `number` on (moves made by other replicas)."""
        with self._begin() as conn:
            return _log(conn, match_id, number)

    def append(self, match_id: str, move: LoggedMove, progress: Progress) -> bool:
        """Commit one move at its number; False (nothing written) when that number is taken."""
        now = time.time()
        try:
            with self._begin() as conn:
                conn.execute(
                    sa.insert(moves).values(
                        match_id=match_id,
                        number=move.number,
                        kind=move.kind,
                        seat=move.seat,
                        action=move.action,
                        made_at=now,
                    )
                )
                updated = conn.execute(
                    sa.update(matches)
                    .where(matches.c.id == match_id, matches.c.num_moves == move.number)
                    .values(
                        num_moves=move.number + 1,
                        last_active=now,
                        outcome=progress.outcome,
                        current_seat=progress.current_seat,
                        bot_turn=progress.bot_turn,
                    )
                )
                if updated.rowcount != 1:
                    raise _Taken
                if not self.sqlite:  # sent to the listening replicas at the commit
                    conn.execute(sa.select(sa.func.pg_notify(NEWS_CHANNEL, match_id)))
        except (IntegrityError, _Taken):
            return False
        return True

    def live_counts(self, creator: str) -> dict[str, int]:
        """Live matches: `all` of them, the `own` of `creator`, and the `anonymous` ones
        (created by a `peer:`), in one query."""

        def count(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
            return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

        query = sa.select(
            sa.func.count(),
            count(matches.c.creator == creator),
            count(matches.c.creator.startswith("peer:")),
        ).where(matches.c.outcome.is_(None))
        with self._begin() as conn:
            every, own, anonymous = conn.execute(query).one()
        return {"all": every, "own": own, "anonymous": anonymous}

    def idle(self, before: float) -> list[tuple[str, int]]:
        """(id, moves) of the live matches with no move since `before`."""
        with self._begin() as conn:
            query = sa.select(matches.c.id, matches.c.num_moves).where(
                matches.c.outcome.is_(None), matches.c.last_active < before
            )
            return [(r.id, r.num_moves) for r in conn.execute(query)]

    # -- listing -----------------------------------------------------------------------

    def visible(
        self, token_hashes: Sequence[str], limit: int, after: tuple[float, str] | None
    ) -> tuple[list[Summary], bool]:
        """Public matches and those of the token hashes, oldest first, after the `after`
        (created_at, id); and whether there are more."""
        held = sa.select(seat_tokens.c.match_id).where(seat_tokens.c.token_hash.in_(token_hashes))
        query = sa.select(matches).where(sa.or_(matches.c.public, matches.c.id.in_(held)))
        if after is not None:
            created, last_id = after
            query = query.where(
                sa.or_(
                    matches.c.created_at > created,
                    sa.and_(matches.c.created_at == created, matches.c.id > last_id),
                )
            )
        query = query.order_by(matches.c.created_at, matches.c.id).limit(limit + 1)
        with self._begin() as conn:
            rows = conn.execute(query).all()
        found = [
            Summary(
                id=r.id,
                game=r.game,
                seats=json.loads(r.seats),
                public=r.public,
                created_at=r.created_at,
                num_moves=r.num_moves,
                outcome=r.outcome,
                current_seat=r.current_seat,
            )
            for r in rows[:limit]
        ]
        return found, len(rows) > limit

    # -- leases: which replica drives a match's bots -------------------------------------

    def take_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Lease the match to `owner` if nobody else holds a current lease."""
        now = time.time()
        free = sa.or_(
            matches.c.lease_owner.is_(None),
            matches.c.lease_owner == owner,
            matches.c.lease_expires < now,
        )
        with self._begin() as conn:
            taken = conn.execute(
                sa.update(matches)
                .where(matches.c.id == match_id, free)
                .values(lease_owner=owner, lease_expires=now + seconds)
            )
            return taken.rowcount == 1

    def renew_leases(self, owner: str, seconds: float) -> None:
        with self._begin() as conn:
            conn.execute(
                sa.update(matches)
                .where(matches.c.lease_owner == owner)
                .values(lease_expires=time.time() + seconds)
            )

    def release_lease(self, match_id: str, owner: str) -> None:
        with self._begin() as conn:
            conn.execute(
                sa.update(matches)
                .where(matches.c.id == match_id, matches.c.lease_owner == owner)
                .values(lease_owner=None, lease_expires=None)
            )

    def release_leases(self, owner: str) -> None:
        with self._begin() as conn:
            conn.execute(
                sa.update(matches)
                .where(matches.c.lease_owner == owner)
                .values(lease_owner=None, lease_expires=None)
            )

    def undriven(self, owner: str, limit: int = 100) -> list[str]:
        """Live matches with a bot to move and no current lease but `owner`'s."""
        now = time.time()
        query = (
            sa.select(matches.c.id)
            .where(
                matches.c.outcome.is_(None),
                matches.c.bot_turn,
                sa.or_(
                    matches.c.lease_owner.is_(None),
                    matches.c.lease_owner == owner,
                    matches.c.lease_expires < now,
                ),
            )
            .order_by(matches.c.last_active)
            .limit(limit)
        )
        with self._begin() as conn:
            return list(conn.execute(query).scalars())


class _Taken(Exception):
    """The match's row had moved past the move's number."""


def _log(conn: Connection, match_id: str, number: int) -> list[LoggedMove]:
    query = (
        sa.select(moves.c.number, moves.c.kind, moves.c.seat, moves.c.action)
        .where(moves.c.match_id == match_id, moves.c.number >= number)
        .order_by(moves.c.number)
    )
    return [LoggedMove(r.number, r.kind, r.seat, r.action) for r in conn.execute(query)]


def _sqlite_pragmas(dbapi_connection: Any, _record: object) -> None:
    """Write-ahead logging, and every commit on disk before it returns."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def page_token(summary: Summary) -> str:
    """An opaque token to list the matches after this one."""
    raw = json.dumps([summary.created_at, summary.id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


#: A page token's JSON, read by this pattern rather than a JSON parser, which recurses into
#: nested arrays (a token of a thousand `[` would overflow its stack).
_PAGE = re.compile(r'\[(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?), "([0-9a-f]{1,32})"\]')
#: Longer than any page token this server makes.
_MAX_PAGE_TOKEN = 128


def page_after(token: str) -> tuple[float, str]:
    """The (created_at, id) a page token holds; ValueError if it is not one."""
    found = None
    if len(token) <= _MAX_PAGE_TOKEN:
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("ascii")
            found = _PAGE.fullmatch(raw)
        except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
            pass
    if found is None:
        raise ValueError("is not a page token of this server")
    return float(found.group(1)), found.group(2)
