"""The budget-scaling curve of a game's default bot: the bot at each time a move plays itself at
the time before it, 2 players, one thread each, in duplicate deals; the gaps add up to an Elo
per budget (the smallest at 0), printed as a table and drawn as a chart against the time a move
(docs/strength.md shows it).

    python -m bench.scaling --game GAME --budgets 0.0625 0.125 0.25 0.5 1 --games 40 \\
        --workers 1 --out scaling-GAME --chart docs/ladders/scaling-GAME.png

`--budget iterations` climbs iteration budgets instead (reproducible on any machine). Each
pair's record is kept in OUT/<budget>; a rerun continues it.
"""

from __future__ import annotations

import argparse
import itertools
import sys

import engine
from bench.ladder import PLAYERS, Rung, add_arguments, chart, run_ladder
from bench.tune import budgeted
from search.games import default_bot


def rung(spec: str, axis: str, amount: float) -> Rung:
    """`spec` searching `amount` (seconds or iterations) a move on one thread."""
    value = f"{amount:g}" if axis == "seconds" else str(int(amount))
    unit = " s" if axis == "seconds" else " iterations"
    return Rung(value + unit, budgeted(spec, f"{axis}={value}"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scaling", description=__doc__)
    add_arguments(parser, "scaling")
    parser.add_argument("--bot", help="the bot spec (default: the game's 2-player default)")
    parser.add_argument("--budget", choices=("seconds", "iterations"), default="seconds")
    parser.add_argument(
        "--budgets",
        dest="amounts",
        type=float,
        nargs="+",
        default=[0.0625, 0.125, 0.25, 0.5, 1.0],
        help="the budgets a move, ascending (seconds, or iterations with --budget iterations)",
    )
    parser.add_argument("--games", type=int, default=40, help="games per pair (default: 40)")
    args = parser.parse_args(argv)
    game = args.game.replace("-", "_")
    if len(args.amounts) < 2 or sorted(args.amounts) != args.amounts or args.amounts[0] <= 0:
        parser.error("give two or more budgets, positive and ascending")
    spec = args.bot or default_bot(game, PLAYERS)
    rungs = [rung(spec, args.budget, amount) for amount in args.amounts]
    pairs = [(upper, below, args.games) for below, upper in itertools.pairwise(rungs)]
    rows = run_ladder(game, pairs, args, args.budget, rungs[0].name)
    if args.chart:
        title = f"{engine.game(game).title}, {PLAYERS} players: `{spec}`"
        axes = (f"{args.budget} a move", f"Elo over {rungs[0].name} (95% interval)")
        labels = [f"{amount:g}" for amount in args.amounts]
        chart(rows, args.amounts, labels, axes, title, args.chart, log_x=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
