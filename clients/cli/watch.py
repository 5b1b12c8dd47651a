"""`regent watch MATCH --token TOKEN`: a hosted match's events as they come, as the seat of
the token sees them, each with a one-line summary, until it ends."""

from __future__ import annotations

import argparse

from clients.cli.printing import event_text, result_line, summary
from clients.cli.shared import report_failure
from clients.client import RegentClient, RegentError
from regent.v1 import matches_pb2


def add_watch(commands: argparse._SubParsersAction) -> None:
    """The `watch` subcommand."""
    watch = commands.add_parser("watch", help="print a match's events until it ends")
    watch.add_argument("match", help="the match id")
    watch.add_argument(
        "--token", required=True, metavar="TOKEN", help="a seat's token: you see what it sees"
    )
    watch.add_argument(
        "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service"
    )
    watch.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print a match's events as they come, each with a one-line summary, until it ends."""
    try:
        with RegentClient(args.server) as client, client.watch(args.match, args.token) as events:
            for event in events:
                print(f"{event.sequence:>4}  {event_text(event, None):<32}  "
                      f"{summary(event.observation)}", flush=True)  # fmt: skip
                if event.status == matches_pb2.MATCH_STATUS_FINISHED:
                    print(result_line(event.scores, event.returns), flush=True)
    except RegentError as err:
        return report_failure("watch", err, args.server)
    except KeyboardInterrupt:
        return 130
    return 0
