"""`regent games`: the games the service offers (at `--server`, or of one in this process),
their player counts and difficulty levels."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from clients.cli.shared import IN_PROCESS, report_failure, service_at
from clients.client import RegentClient, RegentError
from regent.v1 import advisor_pb2


def add_games(commands: argparse._SubParsersAction) -> None:
    """The `games` subcommand."""
    games = commands.add_parser("games", help="the games the service offers, with their levels")
    games.add_argument(
        "--server", metavar="HOST:PORT", help="the service (default: one in this process)"
    )
    games.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the games the service offers, their player counts and difficulty levels."""
    try:
        with service_at(args.server) as address, RegentClient(address) as client:
            response = client.list_games()
    except RegentError as err:
        return report_failure("games", err, args.server, IN_PROCESS)
    print(format_games(response))
    return 0


def format_games(response: advisor_pb2.ListGamesResponse) -> str:
    """Each game's title, command-line name and player counts, then its levels: number,
    description and spec (one spec, or the spec per player count where they differ)."""
    lines = []
    for info in response.games:
        counts = ", ".join(map(str, info.player_counts))
        lines.append(f"{info.title} ({info.name.replace('_', '-')}): {counts} players")
        rows = [("default", "the strongest measured", info.default_bots)]
        rows += [(f"level:{lv.level}", lv.description, lv.bots) for lv in info.levels]
        lines += [f"  {name:<9} {text:<52} {_per_count(specs)}" for name, text, specs in rows]
    return "\n".join(lines)


def _per_count(specs: Mapping[int, str]) -> str:
    """One spec, or the spec per player count where they differ."""
    ordered = sorted(specs.items())
    if len({spec for _, spec in ordered}) == 1:
        return ordered[0][1]
    return "; ".join(f"{n}p: {spec}" for n, spec in ordered)
