"""Run a tournament: schedule its games, skip those a resumed record already holds, play the
rest on a backend with a progress bar, record each game the moment it ends, and work out the
standings from the games in schedule order."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from clients.tournament.backends import Backend, LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.play import jobs
from clients.tournament.record import Record
from clients.tournament.schedule import schedule
from clients.tournament.standings import SprtWatch, Standings, standings

RECORD_NAME = "record.jsonl"


def run_tournament(
    config: TournamentConfig,
    out: Path,
    resume: bool = False,
    backend: Backend | None = None,
    progress: bool = False,
) -> Standings:
    """Play the tournament into `out`/record.jsonl (continue it with `resume`) and return its
    standings. RecordError when the record is missing, exists already, or is another's."""
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
            todo = [job for job in jobs(config, games) if job.index not in finished]
            played = len(games) - len(todo)
            bar = tqdm(total=len(games), initial=played, unit="game", disable=not progress,
                       file=sys.stderr, dynamic_ncols=True)  # fmt: skip
            with bar:
                results = (backend or LocalBackend()).run(todo)
                try:
                    for game in results:
                        record.append(game)
                        finished[game["index"]] = game
                        bar.update()
                        if watch is not None and watch.advance(finished):
                            break
                finally:
                    results.close()
    counted = len(games) if watch is None else watch.counted
    in_order = [finished[i] for i in range(counted)]
    sprt = watch.state if watch is not None else None
    return standings(config, in_order, sprt, uncounted=len(finished) - len(in_order))
