"""The `regent` command's top level: the parser of its subcommands, found through the
`regent.commands` entry points (pyproject.toml; each names a function that adds one
subcommand's parser, its `func` the subcommand), and the exit statuses."""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points

#: The entry points' group: `NAME = "module:add_NAME"`, a function of the subparsers.
COMMANDS = "regent.commands"


def build_parser() -> argparse.ArgumentParser:
    """The `regent` parser with every subcommand registered in the `regent.commands` group
    (none if the distribution is not installed: `pip install -e .` registers them)."""
    import engine
    from convert import served_games

    specs = served_games()  # not the test games: those the service does not serve
    titles = sorted((spec.title for spec in specs), key=lambda t: t != engine.primary_game().title)
    listed = " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
    parser = argparse.ArgumentParser(
        prog="regent", description=f"Regent: AI opponents for {listed}."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    found = entry_points(group=COMMANDS)
    if not found:
        parser.error(f"no subcommands registered ({COMMANDS} entry points): install Regent")
    for command in found:
        command.load()(commands)
    return parser


#: The exit status of a command whose output's reader went away (`regent games | head -1`):
#: what a shell reports for a Unix tool that SIGPIPE ended, 128 + 13.
BROKEN_PIPE = 141


def main(argv: list[str] | None = None) -> int:
    """Run `regent ARGV` (default: the process's arguments); its exit status."""
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
