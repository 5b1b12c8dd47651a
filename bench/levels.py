"""The difficulty levels' calibration ladder: each level plays the one below it (level 1 plays
random) in 2-player duplicate deals through the tournament runner; the gaps add up to an Elo per
level, random at 0, printed as a table and drawn as a chart (docs/strength.md shows it).

    nice -n 5 python -m bench.levels --game GAME --games 40 --games-at 10=12 --workers 1 \\
        --out levels-GAME-2p --chart docs/ladders/levels-GAME-2p.png

Each pair's record is kept in OUT/level-<N>; a rerun continues it, or plays it again from the start
when the level's spec (or the one below) has changed since.
"""

from __future__ import annotations

import argparse
import sys

import engine
from bench.ladder import PLAYERS, Rung, add_arguments, chart, run_ladder
from search.bots import resolve
from search.levels import LEVELS


def rung(game: str, level: int) -> Rung:
    """Level `level` of `game` at 2 players (level 0: random, the bottom)."""
    if level == 0:
        return Rung("random", "random")
    return Rung(f"level-{level}", resolve(f"level:{level}", game, PLAYERS))


def _games_at(text: str) -> tuple[int, int]:
    level, _, games = text.partition("=")
    return int(level), int(games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.levels", description=__doc__)
    add_arguments(parser, "levels")
    parser.add_argument("--games", type=int, default=40, help="games per pair (default: 40)")
    parser.add_argument(
        "--games-at",
        action="append",
        default=[],
        metavar="LEVEL=N",
        help="N games for LEVEL against the one below, instead of --games (repeat)",
    )
    parser.add_argument("--bottom", type=int, default=1, help="the lowest level played")
    parser.add_argument("--top", type=int, default=len(LEVELS), help="the highest level played")
    args = parser.parse_args(argv)
    game = args.game.replace("-", "_")
    games_at = dict(_games_at(text) for text in args.games_at)
    levels = range(args.bottom, args.top + 1)
    pairs = [(rung(game, n), rung(game, n - 1), games_at.get(n, args.games)) for n in levels]
    rows = run_ladder(game, pairs, args, "level", "random")
    if args.chart:
        title = f"Difficulty levels, {engine.game(game).title}, {PLAYERS} players"
        xs = [args.bottom - 1, *levels]
        labels = ["random" if n == 0 else str(n) for n in xs]
        chart(rows, xs, labels, ("level", "Elo over random (95% interval)"), title, args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
