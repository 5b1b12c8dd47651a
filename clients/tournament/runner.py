"""Run a tournament: schedule its games, skip those a resumed record already holds, play the
rest on a backend showing progress, record each game the moment it ends, and work out the
standings from the games in schedule order.

What a bot's failure (it errs, times out, loses its server) or a worker's death costs is
`on_bot_error`'s choice: `lose` (the default, as in cutechess and fastchess: the failed bot
loses that game, a dead worker's game counts for no one, and the tournament goes on; the
summary counts those games apart), `retry` (the game is played again from its seed, after a
growing pause, `RETRIES` times at most, then lost as with `lose`: for a remote bot whose
server restarts) or `stop` (the tournament stops at the first, that game unrecorded, so that
`--resume` plays it once the bot is mended)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from clients.tournament import ON_BOT_ERROR
from clients.tournament.backends import Backend, LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.play import jobs
from clients.tournament.progress import Progress, failure_line
from clients.tournament.record import Record
from clients.tournament.schedule import schedule
from clients.tournament.standings import SprtWatch, Standings, standings

RECORD_NAME = "record.jsonl"
#: How many times `retry` plays a game again: its pauses (1, 2, 4, 8, 16, 30 s: `RETRY_PAUSE`)
#: give a restarting server a minute.
RETRIES = 6


class BotFailed(Exception):
    """The tournament stopped at a bot's failure or a worker's death (`on_bot_error="stop"`)."""


def run_tournament(
    config: TournamentConfig,
    out: Path,
    resume: bool = False,
    backend: Backend | None = None,
    progress: bool = False,
    on_bot_error: str = ON_BOT_ERROR[0],
) -> Standings:
    """Play the tournament into `out`/record.jsonl (continue it with `resume`) and return its
    standings; with `progress`, show it on stderr. RecordError when the record is missing,
    exists already, or is another's; BotFailed when a failure stops it (see the module)."""
    if on_bot_error not in ON_BOT_ERROR:
        raise ValueError(f"on_bot_error is one of {', '.join(ON_BOT_ERROR)}, not {on_bot_error!r}")
    retries = RETRIES if on_bot_error == "retry" else 0
    path = out / RECORD_NAME
    if resume:
        record, done = Record.resume(path, config)
    else:
        record, done = Record.create(path, config), []
    games = schedule(config)
    finished: dict[int, dict[str, Any]] = {g["index"]: g for g in done}
    watch = SprtWatch(config, games) if config.sprt is not None else None
    with record:
        if watch is None or not watch.advance(finished):
            todo = [job for job in jobs(config, games, retries) if job.index not in finished]
            shown = Progress(len(games), len(games) - len(todo), sys.stderr if progress else None)
            results = (backend or LocalBackend()).run(todo, retries)
            try:
                for game in results:
                    if "failure" in game and on_bot_error == "stop":
                        raise BotFailed(failure_line(game))
                    record.append(game)
                    finished[game["index"]] = game
                    shown.game(game)
                    if watch is not None and watch.advance(finished):
                        break
            finally:
                results.close()
                shown.close()
    counted = len(games) if watch is None else watch.counted
    in_order = [finished[i] for i in range(counted)]
    sprt = watch.state if watch is not None else None
    return standings(config, in_order, sprt, uncounted=len(finished) - len(in_order))
