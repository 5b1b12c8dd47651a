"""A record's games that did not finish (a bot's failure ended one, a worker's death another,
written as the recorder writes them) are told from finished ones: the readers that learn
from how games went skip them, saying how many, and `regent review` refuses such a game
(exit 2) saying why it did not finish, rather than judging moves that stop short."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.tournament.record import read, read_finished, unfinished
from tests.commands import regent
from tests.support.records import tournament_record, with_unfinished


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    where = tmp_path_factory.mktemp("records")
    return with_unfinished(tournament_record(where, "royal_cities", 2, 2), where / "mixed.jsonl")


def test_the_unfinished_games_say_why_and_are_skipped(
    mixed: tuple[Path, int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, failed, crashed = mixed
    games = {game["index"]: game for game in read(path)[1]}
    seat = games[failed]["failure"]["seat"]
    assert unfinished(games[failed]) == (
        f"bot failure: timeout ({games[failed]['seats'][seat]}, seat {seat}): "
        "RegentError: DEADLINE_EXCEEDED: Deadline Exceeded"
    )
    assert unfinished(games[crashed]) == "its worker process was killed by SIGKILL during the game"
    assert [unfinished(games[i]) for i in (0, 1)] == [None, None]
    _, finished = read_finished(path)
    assert [game["index"] for game in finished] == [0, 1]
    assert capsys.readouterr().err == (
        f"{path}: skipped 2 games that did not finish (a bot failed, or its worker died)\n"
    )


def test_review_refuses_a_game_that_did_not_finish(
    mixed: tuple[Path, int, int], tmp_path: Path
) -> None:
    path, failed, crashed = mixed
    chart = tmp_path / "chart.png"
    for index, why in [(failed, "bot failure: timeout ("), (crashed, "its worker process was")]:
        result = regent("review", str(path), "--index", str(index), "--chart", str(chart))
        assert result.returncode == 2, result.stderr
        assert f"game {index} did not finish ({why}" in result.stderr
        assert result.stdout == "" and not chart.exists()
