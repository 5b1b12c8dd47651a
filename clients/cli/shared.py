"""What several subcommands of `regent` share: their argument types, the served games' names
on the command line, reading an observation, the in-process service, and the one line a
failure prints with the exit status it calls for (0 when done, 2 for bad input, the message
naming the field, 1 when the service fails)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
from google.protobuf import json_format

from clients.client import RegentError
from regent.v1 import advisor_pb2

if TYPE_CHECKING:
    from engine.registry import GameSpec


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


def game_names(specs: Sequence[GameSpec]) -> list[str]:
    """The games as the command line names them: dashes between words (`a_b` as `a-b`)."""
    return [spec.name.replace("_", "-") for spec in specs]


def player_counts(specs: Sequence[GameSpec]) -> str:
    """Each game's player counts, for a help text: `Game 2-5, Other 1-4 (1: solo)`."""
    return ", ".join(
        f"{spec.title} {spec.player_counts[0]}-{spec.player_counts[-1]}"
        + (" (1: the solo mode)" if 1 in spec.player_counts else "")
        for spec in specs
    )


def most_players(specs: Sequence[GameSpec]) -> int:
    """The largest player count of any of the games."""
    return max(spec.player_counts[-1] for spec in specs)


class BadInput(Exception):
    """Input the command refuses; its message names what is wrong."""


def read_observation(path: str) -> advisor_pb2.Observation:
    """A `regent.v1.Observation` in protobuf's JSON mapping, from a file or `-` (stdin)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise BadInput(f"cannot read {path}: {err}") from None
    try:
        return json_format.Parse(text, advisor_pb2.Observation())
    except json_format.ParseError as err:
        raise BadInput(f"{path}: not a regent.v1.Observation in JSON: {err}") from None


#: What a command that starts its own service without `--server` can do instead of one.
IN_PROCESS = "leave out --server to use one in this process"


@contextmanager
def service_at(address: str | None) -> Iterator[str]:
    """The address of the server to use: `address`, or an in-process one started for the
    duration of the block."""
    if address:
        yield address
        return
    from server.app import BackgroundServer  # the service's modules only when one is started

    with BackgroundServer() as local:
        yield local.address


#: Codes that blame what the user gave (exit status 2), not the service (1).
_BAD_REQUEST = (
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
)

#: The start of gRPC's message when nothing answers at the address (connection refused, no
#: route to the host); its last words say which.
_NOT_CONNECTED = "failed to connect to all addresses"


def report_failure(
    command: str, error: Exception, address: str | None = None, instead: str = ""
) -> int:
    """Print one line about `error` and return the exit status it calls for. When no server
    answers at `address`, the line says to start one there, or to do `instead` (say,
    "use --local"), if the command can do without one."""
    if isinstance(error, RegentError):
        message = error.message
        if error.code == grpc.StatusCode.UNAVAILABLE and address:
            if message.startswith(_NOT_CONNECTED):
                why = message.rsplit(": ", 1)[-1]
                message = (
                    f"no Regent server at {address} ({why}): start one with "
                    f"`regent serve --address {address}`" + (f", or {instead}" if instead else "")
                )
            else:
                message = f"cannot reach a Regent server at {address}: {message}"
        print(f"regent {command}: {message}", file=sys.stderr)
        return 2 if error.code in _BAD_REQUEST else 1
    print(f"regent {command}: {error}", file=sys.stderr)
    return 2
