"""The `regent` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from server.config import add_limit_flags

if TYPE_CHECKING:
    from engine.registry import GameSpec

#: Where the hint page listens by default.
WEB_ADDRESS = "127.0.0.1:8080"


def _bench(args: argparse.Namespace) -> int:
    if args.target == "fuzz":
        from bench.fuzz import run as run_fuzz

        workers = args.clients or 4
        return 0 if run_fuzz(args.requests, args.seed, workers, args.json).ok else 1
    if args.target == "matches":
        from bench.matches import run as run_matches

        run_matches(args.steps, args.step_seconds, args.think, args.replicas, args.db, args.seed,
                    args.json)  # fmt: skip
        return 0
    if args.target == "service":
        from bench.service import run as run_service

        clients = args.clients or 64
        game = args.game.replace("-", "_") if args.game else None
        run_service(args.iterations, args.calls, clients, args.json, args.max_searches, game)
        return 0
    import engine
    from convert import served_games

    chosen = [engine.game(args.game)] if args.game else served_games()
    games = {
        spec.name: list(args.players or spec.bench_players.get(args.target, ())) for spec in chosen
    }
    if args.target == "engine":
        from bench.engine import run as run_engine

        run_engine(games, args.seconds, args.seed, args.json)
    else:
        from bench.search import run as run_search

        run_search(games, args.seconds, args.seed, args.json)
    return 0


def _bench_matches_options(bench: argparse.ArgumentParser) -> None:
    """`regent bench matches`' options (bench/matches.py)."""
    from bench.matches import STEPS

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


def _match(args: argparse.Namespace) -> int:
    from clients.tournament.matchup import run

    return run(args)


def _tournament(args: argparse.Namespace) -> int:
    from clients.tournament.command import run

    return run(args)


def _serve(args: argparse.Namespace) -> int:
    from clients.commands import refuse_busy_addresses, serve

    return refuse_busy_addresses(args) or serve(args)


def _web(args: argparse.Namespace) -> int:
    from clients.commands import web

    return web(args)


def _hint(args: argparse.Namespace) -> int:
    from clients.commands import hint

    return hint(args)


def _play(args: argparse.Namespace) -> int:
    from clients.commands import play

    return play(args)


def _watch(args: argparse.Namespace) -> int:
    from clients.commands import watch

    return watch(args)


def _games(args: argparse.Namespace) -> int:
    from clients.commands import games

    return games(args)


def _review(args: argparse.Namespace) -> int:
    from clients.review import run

    return run(args)


def _add_review_command(commands: argparse._SubParsersAction) -> None:
    """`review`: one seat's game reviewed, from a tournament record or a hosted match."""
    from clients.review import add_arguments

    review = commands.add_parser(
        "review", help="review one seat's game: win chance per decision, the worst moments"
    )
    add_arguments(review)
    review.set_defaults(func=_review)


def count(text: str) -> int:
    """A non-negative integer option (argparse names the function in its errors)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive(text: str) -> int:
    """An integer option of 1 or more."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def seconds(text: str) -> float:
    """A non-negative number of seconds."""
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _web_access_options(parser: argparse.ArgumentParser) -> None:
    """Who may use the hint page: `regent serve` and `regent web` take the same options."""
    from clients.web import guard

    def web_host(text: str) -> str:
        try:
            return guard.host_name(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    def web_token(text: str) -> str:
        try:
            return guard.check_token(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parser.add_argument(
        "--web-host",
        action="append",
        default=[],
        type=web_host,
        metavar="NAME",
        help="one more host name or address the page may be opened with (repeatable); on "
        "0.0.0.0 or :: this machine's name and addresses are accepted without it",
    )
    parser.add_argument(
        "--web-token",
        type=web_token,
        metavar="TOKEN",
        help="the page's access token (default: none on loopback; beyond it, a new one "
        "each start, printed in the page's address)",
    )


def _game_names(specs: Sequence[GameSpec]) -> list[str]:
    """The games as the command line names them: dashes between words (`a_b` as `a-b`)."""
    return [spec.name.replace("_", "-") for spec in specs]


def _player_counts(specs: Sequence[GameSpec]) -> str:
    """Each game's player counts, for a help text: `Game 2-5, Other 1-4 (1: solo)`."""
    return ", ".join(
        f"{spec.title} {spec.player_counts[0]}-{spec.player_counts[-1]}"
        + (" (1: the solo mode)" if 1 in spec.player_counts else "")
        for spec in specs
    )


def _add_service_commands(commands: argparse._SubParsersAction) -> None:
    """`serve`, `hint`, `play` and `watch`: the gRPC service and its clients."""
    from clients.text import text_module
    from convert import served_games

    playable = [spec for spec in served_games() if text_module(spec.name) is not None]
    serve = commands.add_parser(
        "serve", help="run the gRPC service (Advisor and Match) and the hint page"
    )
    serve.add_argument(
        "--address", default="127.0.0.1:50051", metavar="HOST:PORT", help="where to listen"
    )
    serve.add_argument(
        "--config",
        metavar="FILE",
        type=Path,
        help="a TOML file of [limits] and [api_keys.NAME] tables; the flags override it "
        "(docs/operating.md)",
    )
    serve.add_argument(
        "--api-keys",
        metavar="FILE",
        type=Path,
        help="a TOML file of [api_keys.NAME] tables: the callers' keys (metadata x-api-key) "
        "and quotas, in place of the config file's",
    )
    serve.add_argument(
        "--metrics-address",
        metavar="HOST:PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics (default: none)",
    )
    serve.add_argument(
        "--grace",
        metavar="S",
        type=seconds,
        default=5.0,
        help="seconds running calls get to finish at shutdown (default: 5)",
    )
    # Hosted matches: where they are kept, how long an idle one lasts, their bots' share.
    serve.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the matches' database: a SQLite file, sqlite:///PATH, :memory:, or "
        "postgresql://USER:PASSWORD@HOST/DB (default: matches.sqlite3 in the user's data "
        "directory)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="info logs one line per call (default: info)",
    )
    serve.add_argument(
        "--log-format",
        default="text",
        choices=["text", "json"],
        help="json: one JSON object a line, for a log collector (default: text)",
    )
    serve.add_argument(
        "--web-address",
        default=WEB_ADDRESS,
        metavar="HOST:PORT",
        help=f"where the hint page listens (default: {WEB_ADDRESS})",
    )
    serve.add_argument("--no-web", action="store_true", help="do not serve the hint page")
    serve.add_argument(
        "--heuristic-weights",
        metavar="FILE",
        type=Path,
        action="append",
        default=[],
        help="the playouts' heuristic weights of a fit by bench/balance_heuristic.py (JSON), "
        "for the searches of its game at the player counts it names; repeat for each game",
    )
    _web_access_options(serve)
    add_limit_flags(serve)
    serve.set_defaults(func=_serve)

    web = commands.add_parser("web", help="serve the hint page against a running service")
    web.add_argument("--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service")
    web.add_argument(
        "--web-address",
        default=WEB_ADDRESS,
        metavar="HOST:PORT",
        help=f"where the hint page listens (default: {WEB_ADDRESS})",
    )
    _web_access_options(web)
    web.set_defaults(func=_web)

    hint = commands.add_parser("hint", help="the recommended move of an observation (JSON)")
    hint.add_argument("file", help="a regent.v1.Observation in protobuf JSON, or - for stdin")
    where = hint.add_mutually_exclusive_group()
    where.add_argument(
        "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service"
    )
    where.add_argument("--local", action="store_true", help="search in this process")
    hint.add_argument(
        "--iterations",
        metavar="N",
        type=count,
        default=0,
        help="search iterations (0: the server's default)",
    )
    hint.add_argument(
        "--seconds", metavar="S", type=seconds, default=0.0, help="search time (0: no limit)"
    )
    hint.add_argument(
        "--threads",
        metavar="N",
        type=count,
        default=0,
        help="search threads (0: the server's default)",
    )
    hint.add_argument("--seed", metavar="N", type=count, default=0, help="search seed (default: 0)")
    hint.add_argument(
        "--bot",
        metavar="SPEC",
        default="",
        help="search bot spec, e.g. mo-ismcts:c=0.7 (default: the game's strongest measured bot "
        "for its player count)",
    )
    hint.set_defaults(func=_hint)

    from clients.follow import add_parser as add_follow

    add_follow(commands)

    play = commands.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("game", choices=_game_names(playable))
    play.add_argument(
        "--players",
        type=int,
        default=2,
        choices=range(1, _most_players(playable) + 1),
        metavar="N",
        help=f"players, you included: {_player_counts(playable)} (default: 2)",
    )
    play.add_argument(
        "--bot",
        default="mo-ismcts:iterations=2000",
        metavar="SPEC",
        help="the other seats' bot (default: mo-ismcts:iterations=2000)",
    )
    play.add_argument(
        "--server", metavar="HOST:PORT", help="the service (default: one in this process)"
    )
    play.add_argument("--seed", metavar="N", type=count, help="the deal (default: a random one)")
    play.add_argument("--hint", action="store_true", help="show the advisor's move before yours")
    play.add_argument(
        "--hint-iterations",
        metavar="N",
        type=count,
        default=2000,
        help="the advisor's iterations (default: 2000)",
    )
    play.set_defaults(func=_play)

    watch = commands.add_parser("watch", help="print a match's events until it ends")
    watch.add_argument("match", help="the match id")
    watch.add_argument(
        "--token", required=True, metavar="TOKEN", help="a seat's token: you see what it sees"
    )
    watch.add_argument(
        "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service"
    )
    watch.set_defaults(func=_watch)

    games = commands.add_parser("games", help="the games the service offers, with their levels")
    games.add_argument(
        "--server", metavar="HOST:PORT", help="the service (default: one in this process)"
    )
    games.set_defaults(func=_games)


def _most_players(specs: Sequence[GameSpec]) -> int:
    return max(spec.player_counts[-1] for spec in specs)


def build_parser() -> argparse.ArgumentParser:
    import engine
    from convert import served_games

    specs = served_games()  # not the test games: those the service does not serve
    titles = sorted((spec.title for spec in specs), key=lambda t: t != engine.primary_game().title)
    listed = " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
    parser = argparse.ArgumentParser(
        prog="regent", description=f"Regent: AI opponents for {listed}."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    bench = commands.add_parser("bench", help="print speed figures")
    bench.add_argument(
        "target", choices=["engine", "search", "service", "fuzz", "matches"], help="what to measure"
    )
    primary = engine.primary_game().name.replace("_", "-")
    bench.add_argument(
        "--game",
        choices=_game_names(specs),
        help=f"one game only (default: every game; service: {primary})",
    )
    bench.add_argument(
        "--players",
        type=int,
        nargs="+",
        choices=range(1, _most_players(specs) + 1),
        metavar="N",
        help="player counts (default: "
        + "; ".join(
            f"{target} "
            + ", ".join(
                f"{spec.title} {' '.join(map(str, spec.bench_players.get(target, ())))}"
                for spec in specs
            )
            for target in ("engine", "search")
        )
        + ")",
    )
    bench.add_argument(
        "--seconds", type=float, default=2.0, help="time per measurement (default: 2)"
    )
    bench.add_argument("--seed", type=int, default=1, help="first deal's seed (default: 1)")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument(
        "--iterations", type=int, default=1000, help="service: search budget per call"
    )
    bench.add_argument("--calls", type=int, default=30, help="service: calls per measurement")
    bench.add_argument("--clients", type=int, help="concurrent clients (service: 64, fuzz: 4)")
    bench.add_argument(
        "--max-searches", type=int, default=4, help="service: the server's --max-searches"
    )
    bench.add_argument(
        "--requests", type=int, default=10_000, help="fuzz: mutated requests to send"
    )
    _bench_matches_options(bench)
    bench.set_defaults(func=_bench)

    match = commands.add_parser(
        "match", help="one bot against a field, seats rotated (or against the Regent)"
    )
    match.add_argument("--game", default=primary, choices=_game_names(specs))
    match.add_argument(
        "--players", type=int, default=2, choices=range(1, _most_players(specs) + 1), metavar="N"
    )
    match.add_argument("--bot", required=True, help="bot spec, e.g. mo-ismcts:iterations=2000")
    match.add_argument("--field", default="random", help="the other seats' bot spec")
    match.add_argument("--games", type=int, default=100)
    match.add_argument("--seed", type=int, default=1)
    match.add_argument("--workers", type=int, default=2, help="worker processes")
    match.set_defaults(func=_match)

    from clients.tournament.command import add_arguments as tournament_arguments

    tournament = commands.add_parser(
        "tournament", help="bots play a rated tournament: round robin, gauntlet or SPRT"
    )
    tournament_arguments(tournament, primary)
    tournament.set_defaults(func=_tournament)
    _add_service_commands(commands)
    _add_review_command(commands)
    return parser


#: The exit status of a command whose output's reader went away (`regent games | head -1`):
#: what a shell reports for a Unix tool that SIGPIPE ended, 128 + 13.
BROKEN_PIPE = 141


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()  # a pipe closed early breaks here rather than at exit
    except BrokenPipeError:
        # Quietly, as Unix tools end: nothing more can be written, and Python's own flush
        # of stdout at exit would fail again, so stdout goes to /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    return status


if __name__ == "__main__":
    sys.exit(main())
