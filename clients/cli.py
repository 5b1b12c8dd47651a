"""The `regent` command."""

from __future__ import annotations

import argparse
import sys


def _bench(args: argparse.Namespace) -> int:
    if args.target == "engine":
        from bench.engine import run
    else:
        from bench.search import run
    players = args.players or ([1, 2, 3, 4] if args.target == "engine" else [2, 4])
    run(players, args.seconds, args.seed, args.json)
    return 0


def _match(args: argparse.Namespace) -> int:
    from search.match import legend_grade, pairing, solo

    game = args.game.replace("-", "_")
    if args.players == 1:
        result = solo(game, args.bot, args.games, args.seed, args.workers)
        print(f"{args.bot} vs the Regent, {result.games} games: mean margin {result.mean:+.1f}, "
              f"median {result.median:+.1f} ({legend_grade(int(result.median))})")  # fmt: skip
        return 0
    result = pairing(game, args.players, args.bot, args.field, args.games, args.seed, args.workers)
    low, high = result.interval
    print(f"{args.bot} vs {args.field} ({args.players} players, {result.games} games): "
          f"win rate {result.win_rate:.1%} [95% {low:.1%}-{high:.1%}], "
          f"mean margin {result.mean_margin:+.1f} VP")  # fmt: skip
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="regent", description="Regent: AI opponents for Royal Cities and Citadels."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    bench = commands.add_parser("bench", help="print speed figures")
    bench.add_argument("target", choices=["engine", "search"], help="what to measure")
    bench.add_argument(
        "--players",
        type=int,
        nargs="+",
        choices=[1, 2, 3, 4],
        help="player counts (default: 1 2 3 4 for the engine, 2 4 for search)",
    )
    bench.add_argument(
        "--seconds", type=float, default=2.0, help="time per measurement (default: 2)"
    )
    bench.add_argument("--seed", type=int, default=1, help="first deal's seed (default: 1)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.set_defaults(func=_bench)

    match = commands.add_parser(
        "match", help="one bot against a field, seats rotated (or against the Regent)"
    )
    match.add_argument("--game", default="royal-cities", choices=["royal-cities"])
    match.add_argument("--players", type=int, default=2, choices=[1, 2, 3, 4])
    match.add_argument("--bot", required=True, help="bot spec, e.g. mo-ismcts:iterations=2000")
    match.add_argument("--field", default="random", help="the other seats' bot spec")
    match.add_argument("--games", type=int, default=100)
    match.add_argument("--seed", type=int, default=1)
    match.add_argument("--workers", type=int, default=2, help="worker processes")
    match.set_defaults(func=_match)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
