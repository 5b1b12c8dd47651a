"""The match database's schema is made and migrated by the program (Alembic, server/migrations/),
on SQLite and PostgreSQL alike: a database that the first release made (schema version 1,
kept by the runner before Alembic) is migrated forward with its matches, which are then served
and played on; a database newer than the program is refused."""

from __future__ import annotations

import json
import time

import pytest
import sqlalchemy as sa
from alembic import command

import engine
from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from server import store as module
from server.match import token_hash
from server.store import MIGRATIONS, Store, StoreError, alembic_config, database_url
from tests.support.server import RunningServer

MATCH_ID, TOKENS, SEED, MOVES = "0123456789abcdef", ("a" * 48, "b" * 48), 7, 6


def make_version_1(db: str) -> list[int]:
    """A database as the first release left it: its schema at version 1 and one Royal Cities
    match between two humans, `MOVES` moves in; the actions played."""
    state = engine.new_game("royal_cities", 2, seed=SEED)
    rules = state.rules.to_json()
    actions = []
    for _ in range(MOVES):
        actions.append(state.legal_actions()[0])
        state.apply_action(actions[-1])
    now = time.time()
    db_engine = sa.create_engine(database_url(db))
    with db_engine.begin() as conn:
        # Version 1's tables as its migration script freezes them; the first release kept its
        # version in a table of its own, not in Alembic's.
        command.upgrade(alembic_config(conn), "1")
        conn.execute(sa.text("DROP TABLE alembic_version"))
        module.schema_version.create(conn)
        conn.execute(module.schema_version.insert().values(version=1))
        v1 = sa.MetaData()
        v1.reflect(conn)
        conn.execute(
            v1.tables["regent_matches"].insert().values(
                id=MATCH_ID, game="royal_cities", seats=json.dumps(["human:ann", "human:bo"]),
                rules=json.dumps(rules), seed=str(SEED), public=True, created_at=now,
                last_active=now, num_moves=MOVES, outcome=None,
                current_seat=state.current_player, bot_turn=False,
            )
        )  # fmt: skip
        conn.execute(
            v1.tables["regent_seat_tokens"].insert(),
            [{"token_hash": token_hash(t), "match_id": MATCH_ID, "seat": i}
             for i, t in enumerate(TOKENS)],
        )  # fmt: skip
        conn.execute(
            v1.tables["regent_moves"].insert(),
            [{"match_id": MATCH_ID, "number": n, "kind": "move", "seat": None, "action": a,
              "made_at": now} for n, a in enumerate(actions)],
        )  # fmt: skip
    db_engine.dispose()
    return actions


def test_a_version_1_database_is_migrated_forward_with_its_matches(database: str) -> None:
    actions = make_version_1(database)
    store = Store(database)
    assert store.version() == len(MIGRATIONS) > 1
    record = store.load(MATCH_ID)
    assert record is not None and record.creator is None
    assert [m.action for m in record.log] == actions
    assert record.token_hashes == {token_hash(t): i for i, t in enumerate(TOKENS)}
    with store.engine.connect() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("regent_matches")}
    assert "creator" in columns
    store.close()
    again = Store(database)  # migrated once: opened again, left alone
    assert again.version() == len(MIGRATIONS)
    again.close()

    with RunningServer(db=database) as server, server.channel() as channel:
        stub = matches_pb2_grpc.MatchServiceStub(channel)
        truth = server.true_match(MATCH_ID)
        seat = truth.state.current_player
        token = TOKENS[seat]
        view = stub.GetView(matches_pb2.GetViewRequest(match_id=MATCH_ID, token=token), timeout=30)
        assert view.moves_played == MOVES
        move = common_pb2.Move(id=truth.state.legal_actions()[0])
        play = matches_pb2.PlayRequest(match_id=MATCH_ID, token=token, move=move)
        assert stub.Play(play, timeout=30).view.moves_played == MOVES + 1
        listed = stub.ListMatches(matches_pb2.ListMatchesRequest(), timeout=30)
        assert [m.match_id for m in listed.matches] == [MATCH_ID]


def test_a_database_newer_than_the_program_is_refused(tmp_path) -> None:
    db = str(tmp_path / "matches.sqlite3")
    Store(db).close()
    with sa.create_engine(database_url(db)).begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '99'"))
    with pytest.raises(StoreError, match="schema version 99, newer than this program's"):
        Store(db)


def test_a_fresh_database_is_made_by_the_migrations(tmp_path) -> None:
    """The schema the migrations make is the one the program's tables describe."""
    db = str(tmp_path / "matches.sqlite3")
    Store(db).close()
    with sa.create_engine(database_url(db)).connect() as conn:
        found = sa.inspect(conn)
        for table in (module.matches, module.seat_tokens, module.moves):
            columns = {c["name"] for c in found.get_columns(table.name)}
            assert columns == {c.name for c in table.columns}, table.name
            indexes = {i["name"] for i in found.get_indexes(table.name)}
            assert indexes == {i.name for i in table.indexes}, table.name
