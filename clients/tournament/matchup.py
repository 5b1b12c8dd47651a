"""`regent match`: one bot against a field (seats rotated), or alone in a game's solo mode, on
the tournament's machinery (its jobs, backends and statistics) without a record on disk."""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from typing import Any

import engine
from clients.tournament.backends import LocalBackend
from clients.tournament.config import ConfigError, check_spec
from clients.tournament.play import Job
from clients.tournament.progress import failure_line
from clients.tournament.results import bot_results, margin

#: The seat names of a match's records: the bot under test and the field.
BOT, FIELD = "bot", "field"


def match_jobs(game: str, players: int, bot: str, field: str, games: int, seed: int) -> list[Job]:
    """Game g is dealt from `seed + g`, `bot` in seat g mod `players`, `field` elsewhere."""
    jobs = []
    for g in range(games):
        seats = tuple(BOT if i == g % players else FIELD for i in range(players))
        specs = tuple(bot if name == BOT else field for name in seats)
        jobs.append(Job(game, players, {}, g, g, seed + g, seats, specs))
    return jobs


def play_all(jobs: Sequence[Job], workers: int) -> list[dict[str, Any]]:
    """The jobs' game records, in job order."""
    return sorted(LocalBackend(max(workers, 1)).run(jobs), key=lambda game: game["index"])


def run(args: argparse.Namespace) -> int:
    """Play the match and print one line of results; 2 for a player count the game lacks or
    a bot spec that is not one."""
    spec = engine.game(args.game)
    counts = spec.player_counts
    if args.players not in counts:
        print(f"regent match: {args.game} is for {counts[0]} to {counts[-1]} players, "
              f"not {args.players}", file=sys.stderr)  # fmt: skip
        return 2
    for option, text in (("--bot", args.bot), ("--field", args.field)):
        try:
            check_spec(option, text)
        except ConfigError as err:
            print(f"regent match: {err}", file=sys.stderr)
            return 2
    jobs = match_jobs(spec.name, args.players, args.bot, args.field, args.games, args.seed)
    games = play_all(jobs, args.workers)
    failed = sum("failure" in game for game in games)
    note = f" ({failed} ended by a failure, see above)" if failed else ""
    for game in games:
        if "failure" in game:
            print(f"regent match: {failure_line(game)}", file=sys.stderr)
    if args.players == 1:
        margins = [margin(game["scores"], 0) for game in games if game["scores"] is not None]
        if not margins:
            print(f"regent match: no game of {args.bot} was played to its end", file=sys.stderr)
            return 1
        mean, median = statistics.fmean(margins), statistics.median(margins)
        grade = f" ({spec.solo_grade(int(median))})" if spec.solo_grade is not None else ""
        print(f"{args.bot} vs the Regent, {len(games)} games{note}: mean margin {mean:+.1f}, "
              f"median {median:+.1f}{grade}")  # fmt: skip
        return 0
    result = bot_results({BOT: args.bot}, games)[0]
    low, high = result.interval
    print(f"{args.bot} vs {args.field} ({args.players} players, {result.games} games{note}): "
          f"win rate {result.win_rate:.1%} [95% {low:.1%}-{high:.1%}], "
          f"mean margin {result.mean_margin:+.1f} {spec.score_unit}")  # fmt: skip
    return 0
