"""`regent tournament` (bots play a rated tournament: round robin, gauntlet or SPRT) and
`regent match` (one bot against a field), on the tournament runner (clients/tournament/): their
arguments and what they do with them. Of the runner only its constants are imported up front,
so `regent --help` stays quick."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

import engine
from clients.cli.shared import game_names, most_players
from clients.tournament import ON_BOT_ERROR
from convert import served_games
from engine.resources import missing_extra


def _primary() -> str:
    """The game `--game` is unless given: the primary game, as the command line names it."""
    return engine.primary_game().name.replace("_", "-")


def add_match(commands: argparse._SubParsersAction) -> None:
    """The `match` subcommand."""
    specs = served_games()
    match = commands.add_parser(
        "match", help="one bot against a field, seats rotated (or against the Regent)"
    )
    match.add_argument("--game", default=_primary(), choices=game_names(specs))
    match.add_argument(
        "--players", type=int, default=2, choices=range(1, most_players(specs) + 1), metavar="N"
    )
    match.add_argument("--bot", required=True, help="bot spec, e.g. mo-ismcts:iterations=2000")
    match.add_argument("--field", default="random", help="the other seats' bot spec")
    match.add_argument("--games", type=int, default=100)
    match.add_argument("--seed", type=int, default=1)
    match.add_argument("--workers", type=int, default=2, help="worker processes")
    match.set_defaults(func=run_match)


def run_match(args: argparse.Namespace) -> int:
    """Play the match and print one line of results (clients/tournament/matchup.py)."""
    if _without_extras("match", "tournament"):
        return 1
    from clients.tournament.matchup import run

    return run(args)


def add_tournament(commands: argparse._SubParsersAction) -> None:
    """The `tournament` subcommand; `--game` is the primary game unless given."""
    parser = commands.add_parser(
        "tournament", help="bots play a rated tournament: round robin, gauntlet or SPRT"
    )
    default_game = _primary()
    parser.add_argument("--game", default=default_game, help=f"the game (default: {default_game})")
    parser.add_argument("--players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="NAME=SPEC",
        help=(
            "a bot, e.g. mo=mo-ismcts:iterations=2000, far=grpc://host:50051 or "
            "mine=python:MODULE:NAME (repeat)"
        ),
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="at least this many games, in whole rounds of deals; an SPRT's most (default: 100)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the tournament seed (default: 1)")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a rules option"
    )
    parser.add_argument("--gauntlet", metavar="NAME", help="NAME against each other bot")
    parser.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        help="two bots: stop once H0 (the first's Elo over the second ELO0) or H1 (ELO1) is "
        "accepted; with more than 2 players, the --gauntlet bot against a field of the other",
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="SPRT false positive rate")
    parser.add_argument("--beta", type=float, default=0.05, help="SPRT false negative rate")
    parser.add_argument(
        "--workers",
        type=int,
        help="games played at once (default: one per core, or the Ray cluster's CPUs)",
    )
    parser.add_argument("--backend", choices=["local", "ray"], default="local")
    parser.add_argument(
        "--address", metavar="ADDR", help="ray: the cluster (default: a local Ray instance)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="directory for record.jsonl and the results (default: tournament-GAME-Np-seedS)",
    )
    parser.add_argument("--resume", action="store_true", help="continue the record in --out")
    parser.add_argument(
        "--on-bot-error",
        choices=ON_BOT_ERROR,
        default=ON_BOT_ERROR[0],
        help="a bot that errs, times out or disconnects, or a worker that dies: lose the game "
        "(the failed bot's loss, a dead worker's game counts for no one) and go on; retry "
        "(play it again from its seed after a growing pause, up to a minute in all, then "
        "lose it); or stop the tournament (default: lose)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the tournament, print the table, write JSON, CSV and PNG; 2 for bad input, 1
    without the extras it needs."""
    if _without_extras("tournament", "tournament", *(["ray"] if args.backend == "ray" else [])):
        return 1
    from clients.tournament.backends import Backend, LocalBackend, RayBackend
    from clients.tournament.config import (
        ConfigError,
        Sprt,
        TournamentConfig,
        parse_bot,
        parse_rule,
    )
    from clients.tournament.record import RecordError
    from clients.tournament.report import table, write_all
    from clients.tournament.runner import BotFailed, run_tournament

    game = args.game.replace("-", "_")
    try:
        if args.workers is not None and args.workers < 1:
            raise ConfigError("--workers must be 1 or more")
        sprt = Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta) if args.sprt else None
        config = TournamentConfig(
            game=game,
            players=args.players,
            bots=tuple(parse_bot(text) for text in args.bot),
            games=args.games,
            seed=args.seed,
            rules=dict(parse_rule(text, game) for text in args.rule),
            gauntlet=args.gauntlet,
            sprt=sprt,
        )
        out = args.out or Path(f"tournament-{game}-{args.players}p-seed{args.seed}")
        backend: Backend
        if args.backend == "ray":
            backend = RayBackend(args.address, args.workers)
        else:
            backend = LocalBackend(args.workers)
        previous = signal.signal(signal.SIGTERM, _terminate)
        try:
            result = run_tournament(config, out, args.resume, backend, True, args.on_bot_error)
        finally:
            signal.signal(signal.SIGTERM, previous)
    except (ConfigError, RecordError) as err:
        print(f"regent tournament: {err}", file=sys.stderr)
        return 2
    except BotFailed as err:
        print(f"regent tournament: stopped (--on-bot-error stop) at {err}; every finished "
              f"game is in {out}/record.jsonl, and --resume plays the rest",
              file=sys.stderr)  # fmt: skip
        return 1
    except KeyboardInterrupt as stop:
        print(f"\nregent tournament: {stop or 'interrupted'}; every finished game is in "
              f"{out}/record.jsonl, and --resume continues", file=sys.stderr)  # fmt: skip
        return 143 if isinstance(stop, Terminated) else 130
    print(table(result))
    paths = write_all(result, out)
    print(f"\nRecord: {out / 'record.jsonl'}; results: {', '.join(map(str, paths))}")
    return 0


def _without_extras(command: str, *extras: str) -> bool:
    """True, having printed what to install, when an optional extra `command` needs is not
    installed (numpy and the rest would otherwise end it in a traceback)."""
    for extra in extras:
        if (missing := missing_extra(extra)) is not None:
            print(f"regent {command}: {missing}", file=sys.stderr)
            return True
    return False


class Terminated(KeyboardInterrupt):
    """SIGTERM, met as Ctrl-C is: the games in play stop, every finished one is kept."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated("terminated")
