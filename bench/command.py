"""`regent bench TARGET`: the benchmarks that print speed figures, registered as a `regent`
subcommand by this package's own entry point (pyproject.toml's `regent.commands`), so that
the command's package names nothing of `bench`. Each target's module is imported when it
runs."""

from __future__ import annotations

import argparse

import engine
from bench.games import bench_players
from bench.matches import STEPS
from clients.cli.shared import game_names, most_players, positive, seconds
from convert import served_games

#: What `regent bench` measures, each a module of this package.
TARGETS = ("engine", "search", "service", "fuzz", "matches", "health")


def add_bench(commands: argparse._SubParsersAction) -> None:
    """The `bench` subcommand: the served games only."""
    specs = served_games()
    bench = commands.add_parser("bench", help="print speed figures")
    bench.add_argument("target", choices=TARGETS, help="what to measure")
    primary = engine.primary_game().name.replace("_", "-")
    bench.add_argument(
        "--game",
        choices=game_names(specs),
        help=f"one game only (default: every game; service: {primary})",
    )
    bench.add_argument(
        "--players",
        type=int,
        nargs="+",
        choices=range(1, most_players(specs) + 1),
        metavar="N",
        help="player counts (default: "
        + "; ".join(
            f"{target} "
            + ", ".join(
                f"{spec.title} {' '.join(map(str, bench_players(spec.name, target)))}"
                for spec in specs
            )
            for target in ("engine", "search")
        )
        + ")",
    )
    bench.add_argument(
        "--seconds",
        type=seconds,
        metavar="S",
        help="time per measurement (default: 2; health: 10 a phase)",
    )
    bench.add_argument("--seed", type=int, default=1, help="first deal's seed (default: 1)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument(
        "--iterations", type=int, default=1000, help="service: search budget per call"
    )
    bench.add_argument("--calls", type=int, default=30, help="service: calls per measurement")
    bench.add_argument(
        "--clients", type=int, help="concurrent clients (service: 64, fuzz: 4, health: 4)"
    )
    bench.add_argument(
        "--max-searches", type=int, default=4, help="service: the server's --max-searches"
    )
    bench.add_argument(
        "--requests", type=int, default=10_000, help="fuzz: mutated requests to send"
    )
    _matches_options(bench)
    bench.set_defaults(func=run)


def _matches_options(bench: argparse.ArgumentParser) -> None:
    """`regent bench matches`' options (bench/matches.py)."""
    bench.add_argument(
        "--steps",
        type=positive,
        nargs="+",
        default=list(STEPS),
        metavar="N",
        help="matches: the live matches of each step (default: "
        f"{' '.join(map(str, STEPS))}; it stops once Play's p99 passes 250 ms)",
    )
    bench.add_argument(
        "--step-seconds",
        type=seconds,
        default=30.0,
        metavar="S",
        help="matches: time measured per step (default: 30)",
    )
    bench.add_argument(
        "--think",
        type=seconds,
        default=3.0,
        metavar="S",
        help="matches: a human seat's time per move, on average (default: 3)",
    )
    bench.add_argument(
        "--replicas",
        type=positive,
        default=1,
        metavar="N",
        help="matches: servers on one database (more than 1: PostgreSQL)",
    )
    bench.add_argument(
        "--db",
        default=":memory:",
        metavar="PATH|URL",
        help="matches: the servers' database (default: :memory:)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the benchmark `args.target` and print its figures; 1 if the fuzzer found a fault."""
    if args.target == "fuzz":
        from bench.fuzz import run as run_fuzz

        workers = args.clients or 4
        return 0 if run_fuzz(args.requests, args.seed, workers, args.json).ok else 1
    if args.target == "matches":
        from bench.matches import run as run_matches

        run_matches(args.steps, args.step_seconds, args.think, args.replicas, args.db, args.seed,
                    args.json)  # fmt: skip
        return 0
    if args.target == "health":
        from bench.health import run as run_health

        game = [args.game.replace("-", "_")] if args.game else None
        phase = 10.0 if args.seconds is None else args.seconds
        run_health(phase, args.clients or 4, args.max_searches, game, args.seed, args.json)
        return 0
    if args.target == "service":
        from bench.service import run as run_service

        clients = args.clients or 64
        game = args.game.replace("-", "_") if args.game else None
        run_service(args.iterations, args.calls, clients, args.json, args.max_searches, game)
        return 0
    measure = 2.0 if args.seconds is None else args.seconds
    chosen = [engine.game(args.game)] if args.game else served_games()
    games = {
        spec.name: list(args.players or bench_players(spec.name, args.target)) for spec in chosen
    }
    if args.target == "engine":
        from bench.engine import run as run_engine

        run_engine(games, measure, args.seed, args.json)
    else:
        from bench.search import run as run_search

        run_search(games, measure, args.seed, args.json)
    return 0
