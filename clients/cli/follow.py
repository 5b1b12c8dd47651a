"""`regent follow FILE`: follow a game at a real table in an observation file, a move at a time.

Without `--move` it prints who is to act and the moves to enter: the observer's legal moves, or
another player's moves as the observer sees them (`LegalMoves.observed_moves`). With `--move`
it applies the move of the player to act (`ApplyObservedMove`), the `--reveal` answers in the
order asked; it prints each slot, the open one last, and once every one is answered writes the
new observation (to stdout, or back to FILE with `--write`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from google.protobuf import json_format

from clients.cli.shared import BadInput, read_observation, report_failure, service_at
from clients.client import RegentClient, RegentError


def run(args: argparse.Namespace) -> int:
    """Print the moves to enter, or apply one (see the module docstring)."""
    server = None if args.local else args.server
    try:
        observation = read_observation(args.file)
        with service_at(server) as address, RegentClient(address) as client:
            legal = client.legal_moves(observation)
            if not legal.HasField("player"):
                print("the game is over")
                return 0
            if not args.move:
                moves = legal.moves or legal.observed_moves
                print(f"p{legal.player} to act; enter one of:")
                for move in moves:
                    print(f"  {move.text}")
                return 0
            response = client.apply_observed_move(observation, legal.player, args.move, args.reveal)
    except (BadInput, RegentError) as err:
        return report_failure("follow", err, server, "use --local")
    for slot in response.reveals:
        options = f" (one of: {'; '.join(slot.options)})" if slot.options else ""
        answer = slot.card or "? -- give it with --reveal"
        print(f"{slot.description}{options}: {answer}", file=sys.stderr)
    if not response.complete:
        return 3
    text = json_format.MessageToJson(response.observation) + "\n"
    if args.write and args.file != "-":
        Path(args.file).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def add_follow(commands: argparse._SubParsersAction) -> None:
    """The `follow` subcommand."""
    parser = commands.add_parser(
        "follow", help="apply a move seen at the table to an observation (JSON)"
    )
    parser.add_argument("file", help="a regent.v1.Observation in protobuf JSON, or - for stdin")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service"
    )
    where.add_argument("--local", action="store_true", help="use a service in this process")
    parser.add_argument("--move", default="", help="the move as seen, e.g. 'add' or 'play hand ?'")
    parser.add_argument(
        "--reveal",
        action="append",
        default=[],
        metavar="ANSWER",
        help="what the table showed, one per slot in order (repeat)",
    )
    parser.add_argument(
        "--write", action="store_true", help="write the new observation back to FILE"
    )
    parser.set_defaults(func=run)
