"""Tournament records for the tests of their readers: a real one played by `regent tournament`,
and a copy with games that did not finish, as the recorder writes them: the first game played
again by the same seats, cut short where a bot timed out, and a game whose worker died
(clients/tournament/play.py's `record_of` and `crashed_record`)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import engine
from clients.tournament.play import (
    Failure,
    GameResult,
    Job,
    crashed_record,
    forfeit_returns,
    record_of,
)
from clients.tournament.record import Record, read
from tests.commands import REGENT


def tournament_record(where: Path, game: str, players: int, games: int) -> Path:
    """A real tournament record in `where`: heuristic (`h`) against random bots (`r`), `games`
    games, seed 5."""
    out = where / f"{game}-{players}"
    subprocess.run([*REGENT, "tournament", "--game", game,
                    "--players", str(players), "--gauntlet", "h", "--bot", "h=heuristic",
                    "--bot", "r=random", "--games", str(games), "--seed", "5", "--workers", "1",
                    "--out", str(out)], check=True, capture_output=True)  # fmt: skip
    return out / "record.jsonl"


def with_unfinished(record: Path, out: Path) -> tuple[Path, int, int]:
    """A copy of `record` at `out` with two games more: one a bot's timeout ended halfway
    through and one whose worker died; (the copy, the first's index, the second's)."""
    shutil.copyfile(record, out)
    _, games, _ = read(out)
    first = games[0]
    failed, crashed = (max(g["index"] for g in games) + n for n in (1, 2))
    moves = first["moves"][: len(first["moves"]) // 2]
    rules = engine.game(first["game"]).rules_class(**first["rules"])
    state = engine.new_game(first["game"], len(first["seats"]), seed=first["seed"], rules=rules)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    seat = state.current_player
    job = Job(first["game"], len(first["seats"]), first["rules"], failed, first["deal"],
              first["seed"], tuple(first["seats"]), tuple(first["specs"]))  # fmt: skip
    timed_out = Failure(seat, "timeout", "RegentError: DEADLINE_EXCEEDED: Deadline Exceeded")
    result = GameResult(None, forfeit_returns(len(first["seats"]), seat), tuple(moves), timed_out)
    with Record(out) as appended:
        appended.append(record_of(job, result, first["rules"]))
        appended.append(
            crashed_record(
                replace(job, index=crashed),
                "its worker process was killed by SIGKILL during the game",
            )
        )
    return out, failed, crashed
