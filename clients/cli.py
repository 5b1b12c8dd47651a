"""The `regent` command."""

from __future__ import annotations

import argparse
import sys


def _bench(args: argparse.Namespace) -> int:
    if args.target == "engine":
        from bench.engine import run

        run(args.players, args.seconds, args.seed, args.json)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="regent", description="Regent: AI opponents for Royal Cities and Citadels."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    bench = commands.add_parser("bench", help="print speed figures")
    bench.add_argument("target", choices=["engine"], help="what to measure")
    bench.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[1, 2, 3, 4],
        choices=[1, 2, 3, 4],
        help="player counts (default: 1 2 3 4)",
    )
    bench.add_argument(
        "--seconds", type=float, default=2.0, help="time per measurement (default: 2)"
    )
    bench.add_argument("--seed", type=int, default=1, help="first deal's seed (default: 1)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.set_defaults(func=_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
