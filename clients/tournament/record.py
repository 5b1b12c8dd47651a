"""The tournament's record: JSON Lines, a header with the config, then one line per finished
game, appended and synced to disk as soon as the game ends, so that an interrupted tournament
loses nothing and resumes where it stopped."""

from __future__ import annotations

import gzip
import json
import os
import sys
from pathlib import Path
from typing import Any

from clients.tournament.config import TournamentConfig
from clients.tournament.play import engine_version

FORMAT = 1


class RecordError(Exception):
    """A record that cannot be created or resumed; the message says why and what to do."""


class Record:
    """An open record, appended to game by game. Use `create` or `resume`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = path.open("a", encoding="utf-8")

    @classmethod
    def create(cls, path: Path, config: TournamentConfig) -> Record:
        """A new record holding only the header; RecordError if the file exists."""
        if path.exists():
            raise RecordError(f"{path} exists: --resume continues it, or choose another --out")
        path.parent.mkdir(parents=True, exist_ok=True)
        record = cls(path)
        record._write({"type": "header", "format": FORMAT, "engine": engine_version(),
                       "config": config.to_json()})  # fmt: skip
        return record

    @classmethod
    def resume(cls, path: Path, config: TournamentConfig) -> tuple[Record, list[dict[str, Any]]]:
        """The record of the same tournament (the game count may differ: the schedule is then
        extended or cut), reopened, and its finished games, each index once. A last line cut
        short by a crash is dropped; any other fault is a RecordError."""
        if not path.exists():
            raise RecordError(f"{path} does not exist: there is nothing to resume")
        header, games, good_bytes = read(path)
        _check_same(path, header, config)
        with path.open("r+b") as file:  # cut a torn last line, so appends start clean
            file.truncate(good_bytes)
        return cls(path), games

    def append(self, game: dict[str, Any]) -> None:
        """Write one finished game and make sure it is on disk before returning."""
        self._write({"type": "game", **game})

    def _write(self, line: dict[str, Any]) -> None:
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Record:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """(header, games in file order with duplicates dropped, length of the whole lines). A
    record kept gzipped (`.gz`, as docs/lab/records keeps them) is read as it was written."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    lines = data.split(b"\n")
    torn = lines.pop()  # bytes after the last newline: a line cut short, or nothing
    good_bytes = len(data) - len(torn)
    parsed = []
    for number, line in enumerate(lines, 1):
        try:
            parsed.append(json.loads(line))
        except ValueError:
            raise RecordError(f"{path}:{number}: not a JSON line; the record is damaged") from None
    if not parsed or parsed[0].get("type") != "header" or parsed[0].get("format") != FORMAT:
        raise RecordError(f"{path} is not a tournament record (no header)")
    games: dict[int, dict[str, Any]] = {}
    for line in parsed[1:]:
        line.pop("type", None)
        games.setdefault(line["index"], line)
    return parsed[0], list(games.values()), good_bytes


def read_finished(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, the games played to their end), for a reader that learns from how games
    went; the others are skipped, and their count said on stderr: a game a bot's failure
    ended has a forfeit's returns and no scores, one whose worker died no result
    (`unfinished`)."""
    header, games, _ = read(path)
    finished = [game for game in games if unfinished(game) is None]
    if skipped := len(games) - len(finished):
        print(f"{path}: skipped {skipped} games that did not finish (a bot failed, or its "
              "worker died)", file=sys.stderr)  # fmt: skip
    return header, finished


def unfinished(game: dict[str, Any]) -> str | None:
    """Why a recorded game did not finish (`bot failure: timeout (far, seat 1): ...`, or a
    crashed game's message: `its worker process was killed by SIGKILL during the game`), or
    None for a game played to its end."""
    failure = game.get("failure")
    if failure is None:
        return None
    if failure["bot"] is None:  # no bot to blame: the worker died (`play.crashed_record`)
        return str(failure["message"])
    return (f"bot failure: {failure['reason']} ({failure['bot']}, seat {failure['seat']}): "
            f"{failure['message']}")  # fmt: skip


def _check_same(path: Path, header: dict[str, Any], config: TournamentConfig) -> None:
    """RecordError naming what differs between the record's tournament and `config`."""
    recorded = header["config"]
    wanted = json.loads(json.dumps(config.to_json()))
    # More or fewer games only extend or cut the same schedule, so `games` may change.
    differ = [key for key in wanted if key != "games" and recorded.get(key) != wanted[key]]
    if differ:
        details = "; ".join(f"{k}: recorded {recorded.get(k)!r}, now {wanted[k]!r}" for k in differ)
        raise RecordError(f"{path} records another tournament ({details})")
    if header["engine"] != engine_version():
        raise RecordError(
            f"{path} was played by engine {header['engine']}, this is {engine_version()}: "
            "the games would differ; start a new tournament"
        )
