"""The JSON Lines record: a header, then one synced line per game; a torn last line is dropped
on resume, anything else that is wrong is an error that says what to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.tournament.config import TournamentConfig
from clients.tournament.record import Record, RecordError


def config(**changes: object) -> TournamentConfig:
    fields = {"game": "royal_cities", "players": 2, "games": 4, "seed": 3,
              "bots": (("a", "random"), ("b", "heuristic"))} | changes  # fmt: skip
    return TournamentConfig(**fields)  # type: ignore[arg-type]


def game(index: int) -> dict:
    return {"index": index, "deal": index // 2, "seats": ["a", "b"], "returns": [1, 0]}


def test_games_are_appended_after_a_header(tmp_path: Path) -> None:
    path = tmp_path / "out" / "record.jsonl"
    with Record.create(path, config()) as record:
        record.append(game(0))
        record.append(game(1))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[0]["config"]["bots"] == [["a", "random"], ["b", "heuristic"]]
    assert [line["index"] for line in lines[1:]] == [0, 1]
    with pytest.raises(RecordError, match="--resume"):
        Record.create(path, config())


def test_resume_drops_a_torn_last_line_and_appends_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    with Record.create(path, config()) as record:
        record.append(game(0))
    with path.open("a") as file:
        file.write('{"type":"game","index":1,"de')  # killed in the middle of a write
    record, games = Record.resume(path, config())
    with record:
        assert [g["index"] for g in games] == [0]
        record.append(game(1))
    record, games = Record.resume(path, config(games=40))  # more games: the same schedule
    record.close()
    assert [g["index"] for g in games] == [0, 1]


def test_resume_refuses_another_tournament(tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    Record.create(path, config()).close()
    with pytest.raises(RecordError, match="seed: recorded 3, now 4"):
        Record.resume(path, config(seed=4))
    with pytest.raises(RecordError, match="bots"):
        Record.resume(path, config(bots=(("a", "random"), ("b", "pimc"))))
    with pytest.raises(RecordError, match="does not exist"):
        Record.resume(tmp_path / "nothing.jsonl", config())


def test_a_damaged_line_inside_the_record_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    with Record.create(path, config()) as record:
        record.append(game(0))
    path.write_text(path.read_text().replace('"index":0', '"index":0,,') + "\n")
    with pytest.raises(RecordError, match="damaged"):
        Record.resume(path, config())
