"""Tune a game's default bot at equal time per move by successive halving: every candidate
plays a gauntlet against the same reference on the same seeded deals; the better half goes
on with twice the games, until one is left. Reproducible but for the clock: the deals and
the search seeds come from `--seed`, and every bot gets the same seconds per move.

    python -m bench.tune --game GAME --players 4 --budget seconds=0.25 --games 8 --seed 1 \\
        --reference 'grpc://127.0.0.1:50061?bot=mo-ismcts&seconds=0.25&threads=1' \\
        --candidate pimc --candidate so-ismcts --candidate mo-ismcts:c=0.5
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from clients.tournament.backends import LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.runner import run_tournament

REFERENCE = "reference"


@dataclass(frozen=True)
class Entry:
    """One candidate's gauntlet in one round: its share of wins against the reference."""

    spec: str
    games: int
    win_rate: float
    interval: tuple[float, float]
    margin: float


def budgeted(spec: str, budget: str) -> str:
    """`spec` searching with `budget` (`seconds=S` or `iterations=N`) per move on one thread
    (a remote spec is taken as given)."""
    if spec.startswith("grpc://"):
        return spec
    kind, _, options = spec.partition(":")
    extra = f"{budget},threads=1"
    return f"{kind}:{options},{extra}" if options else f"{kind}:{extra}"


def gauntlet(args: argparse.Namespace, spec: str, games: int, out: Path) -> Entry:
    """The candidate `spec` in one seat, the reference in the others, `games` games."""
    config = TournamentConfig(
        game=args.game.replace("-", "_"),
        players=args.players,
        bots=(("candidate", budgeted(spec, args.budget)), (REFERENCE, args.reference)),
        games=games,
        seed=args.seed,
        gauntlet="candidate",
    )
    result = run_tournament(config, out, backend=LocalBackend(args.workers), progress=True)
    row = next(bot for bot in result.bots if bot.name == "candidate")
    return Entry(spec, row.games, row.win_rate, row.interval, row.mean_margin)


def halving(args: argparse.Namespace) -> list[list[Entry]]:
    """The rounds of successive halving, each ranked best first."""
    alive = list(dict.fromkeys(args.candidate))
    games = args.games
    rounds: list[list[Entry]] = []
    while True:
        number = len(rounds) + 1
        entries = [
            gauntlet(args, spec, games, args.out / f"round{number}" / f"candidate{i}")
            for i, spec in enumerate(alive)
        ]
        entries.sort(key=lambda e: (-e.win_rate, -e.margin))
        rounds.append(entries)
        print_round(number, entries, args.players)
        if len(alive) == 1 or number == args.rounds:
            return rounds
        alive = [e.spec for e in entries[: max(1, len(entries) // 2)]]
        games *= 2


def print_round(number: int, entries: list[Entry], players: int) -> None:
    print(f"\nround {number} ({entries[0].games} games each; an equal bot wins {1 / players:.1%})")
    print("| candidate | games | win rate [95%] | margin |")
    print("| --- | --- | --- | --- |")
    for e in entries:
        low, high = e.interval
        rate = f"{e.win_rate:.1%} [{low:.1%}-{high:.1%}]"
        print(f"| `{e.spec}` | {e.games} | {rate} | {e.margin:+.1f} |")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bench.tune", description=summary)
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument(
        "--budget",
        default="seconds=0.25",
        help="every candidate's budget a move: seconds=S (equal time, the default 0.25 s) or, "
        "for options that do not change the speed, iterations=N",
    )
    parser.add_argument("--games", type=int, default=8, help="first round's games per candidate")
    parser.add_argument("--rounds", type=int, default=3, help="at most this many rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", required=True, help="the bot every candidate plays")
    parser.add_argument("--candidate", action="append", required=True, help="a bot spec (repeat)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("tune"))
    args = parser.parse_args(argv)
    rounds = halving(args)
    ranked = [[e.__dict__ for e in entries] for entries in rounds]
    (args.out / "tune.json").write_text(json.dumps(ranked, indent=2) + "\n")
    print(f"\nbest: {rounds[-1][0].spec}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
