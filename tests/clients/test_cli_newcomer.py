"""The command line as a newcomer meets it, each case run as the user runs it (a subprocess,
and a real `regent serve` where the command calls one): a hosted `regent play` says how to
follow its match; a closed pipe ends a command quietly; a server that is not running, a busy
port and an unknown game each get one line that says what to do; only the served games are
offered; a bad number in an observation is reported under its own field."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

import engine
from clients.cli.main import BROKEN_PIPE, build_parser
from convert import observation_from_proto, served_games
from engine.errors import InvalidObservationError
from regent.v1 import advisor_pb2
from tests.clients.test_cli import EXAMPLES, RC_EXAMPLE, Serve, assert_one_line_error
from tests.commands import ENV, REGENT, ROOT, regent

SERVED = sorted(spec.name.replace("_", "-") for spec in served_games())


@pytest.fixture(scope="module")
def served() -> Iterator[Serve]:
    server = Serve()
    yield server
    assert server.stop() == 0, "\n".join(server.log)


@pytest.fixture
def closed_port() -> Iterator[str]:
    """An address where nothing listens (bound, so that nothing else takes it meanwhile)."""
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield f"127.0.0.1:{bound.getsockname()[1]}"


@pytest.fixture
def busy_port() -> Iterator[str]:
    """An address another program listens on."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        yield f"127.0.0.1:{listening.getsockname()[1]}"


# -- regent play --server: the match can be followed -----------------------------------


def test_a_hosted_play_names_its_match_and_token_for_watch_and_review(
    served: Serve, tmp_path: Path
) -> None:
    address = served.address
    result = regent("play", "royal-cities", "--players", "2", "--bot", "random",
                    "--server", address, "--seed", "5", stdin="1\n")  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = re.search(r"^Match (\S+): watch it with `regent watch \1 --token (\S+) --server "
                      rf"{re.escape(address)}`$", result.stdout, re.MULTILINE)  # fmt: skip
    assert found, result.stdout
    match, token = found.groups()
    assert re.search(rf"^Your seat's token: {re.escape(token)} \(after the game: `regent review "
                     rf"{match} --token {re.escape(token)} --server {re.escape(address)}`\)$",
                     result.stdout, re.MULTILINE)  # fmt: skip
    assert "You resigned." in result.stdout

    watched = regent("watch", match, "--token", token, "--server", address)
    assert watched.returncode == 0, watched.stderr
    assert watched.stdout.splitlines()[-1].startswith("Final scores: ")

    chart = tmp_path / "review.png"
    reviewed = regent("review", match, "--token", token, "--server", address,
                      "--iterations", "20", "--deep-iterations", "20", "--mistakes", "1",
                      "--chart", str(chart))  # fmt: skip
    assert reviewed.returncode == 0, reviewed.stderr
    assert "Reviewing seat 0" in reviewed.stderr
    assert chart.exists()


def test_play_in_process_prints_no_match_to_follow() -> None:
    result = regent("play", "royal-cities", "--players", "1", "--seed", "2", stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "Match " not in result.stdout and "token" not in result.stdout


# -- a closed pipe ---------------------------------------------------------------------


def run_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """`regent ARGS | head -c0`, deterministically: the pipe's reader is gone before
    `regent` starts, so its first write fails."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run([*REGENT, *args], stdout=writer, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, cwd=ROOT, env=ENV, text=True,
                              timeout=60)  # fmt: skip
    finally:
        os.close(writer)


@pytest.mark.parametrize(
    "args",
    [
        ["hint", str(RC_EXAMPLE), "--local", "--iterations", "50"],
        ["hint", str(RC_EXAMPLE), "--iterations", "50", "--server", "SERVER"],
        ["games"],
        ["games", "--server", "SERVER"],
        ["play", "royal-cities", "--players", "1", "--seed", "2"],
    ],
    ids=["hint-local", "hint", "games-local", "games", "play"],
)
def test_a_closed_pipe_ends_quietly(served: Serve, args: list[str]) -> None:
    result = run_into_a_closed_pipe(*[served.address if a == "SERVER" else a for a in args])
    assert (result.returncode, result.stderr) == (BROKEN_PIPE, "")


# -- no server, a busy port --------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "instead"),
    [
        (["hint", str(RC_EXAMPLE)], ", or use --local"),
        (["follow", str(RC_EXAMPLE)], ", or use --local"),
        (["play", "royal-cities", "--seed", "1"], ", or leave out --server"),
        (["games"], ", or leave out --server"),
        (["watch", "m", "--token", "t"], ""),
        (["review", "m", "--token", "t"], ""),
    ],
    ids=lambda value: value[0] if isinstance(value, list) else None,
)
def test_no_server_running_says_to_start_one(
    closed_port: str, args: list[str], instead: str
) -> None:
    result = regent(*args, "--server", closed_port)
    assert result.returncode == 1 and result.stdout == "", result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"regent {args[0]}: no Regent server at {closed_port} "), lines[0]
    said = f"start one with `regent serve --address {closed_port}`{instead}"
    assert said in lines[0] and (instead or lines[0].endswith(said)), lines[0]


@pytest.mark.parametrize("flag", ["--address", "--web-address"])
def test_serve_on_a_busy_port_says_so_in_one_line(busy_port: str, flag: str) -> None:
    other = "--web-address" if flag == "--address" else "--address"
    result = regent("serve", flag, busy_port, other, "127.0.0.1:0", "--db", ":memory:")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"regent serve: {busy_port} is in use: another program (another regent serve?) "
        f"listens; pick another with {flag}"
    ]


# -- the games offered -----------------------------------------------------------------


def test_help_names_only_the_served_games() -> None:
    result = regent("--help")
    assert result.returncode == 0, result.stderr
    for spec in engine.games():
        assert (spec.title in result.stdout) == (spec in served_games()), spec.title


def test_every_choice_of_a_game_is_a_served_game() -> None:
    """Every option or argument of every subcommand that chooses among games offers exactly
    the served ones (Kuhn poker is registered for the search's tests, not offered)."""
    names = {spec.name.replace("_", "-") for spec in engine.games()}
    commands = next(a for a in build_parser()._actions if a.choices and "play" in a.choices)
    checked = []
    for name, parser in commands.choices.items():
        for action in parser._actions:
            if action.choices is not None and names & set(action.choices):
                assert sorted(action.choices) == SERVED, (name, action.dest)
                checked.append(name)
    assert {"bench", "match", "play"} <= set(checked)


def test_games_lists_only_the_served_games() -> None:
    result = regent("games")
    assert result.returncode == 0, result.stderr
    for spec in engine.games():
        assert (f"{spec.title} (" in result.stdout) == (spec in served_games()), spec.title


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--game", "chess", "--bot", "a=random", "--bot", "b=random"],
        ["match", "--game", "chess", "--bot", "random"],
        ["bench", "engine", "--game", "chess"],
        ["play", "chess"],
    ],
    ids=lambda args: args[0],
)
def test_an_unknown_game_lists_the_served_ones(args: list[str], tmp_path: Path) -> None:
    result = regent(*args, "--out", str(tmp_path)) if args[0] == "tournament" else regent(*args)
    assert result.returncode == 2 and result.stdout == ""
    line = result.stderr.splitlines()[-1]
    assert "chess" in line
    for name in SERVED:
        assert name in line or name.replace("-", "_") in line, line
    assert "kuhn" not in line


@pytest.mark.parametrize("where", ["--local", "--server"])
def test_hint_on_an_observation_of_no_game_lists_the_games(served: Serve, where: str) -> None:
    place = ["--local"] if where == "--local" else ["--server", served.address]
    result = regent("hint", "-", *place, stdin="{}")
    oneofs = ", ".join(sorted(spec.name for spec in served_games()))
    assert_one_line_error(result, f"observation.game: no game is set: set one of {oneofs}")


# -- a bad number is reported under its own field -------------------------------------------


def int_fields(message: Message, path: str = "") -> Iterator[tuple[str, Message, str, int | None]]:
    """(path, message, field, index) of every integer field of `message` and of the messages
    it holds; a card's own numbers are left out (a bad card is named as the card)."""
    for field in message.DESCRIPTOR.fields:
        at = f"{path}.{field.name}" if path else field.name
        value = getattr(message, field.name)
        if field.type == field.TYPE_MESSAGE:
            if field.is_repeated:
                held = [(f"{at}[{i}]", sub) for i, sub in enumerate(value)]
            else:
                held = [(at, value)] if message.HasField(field.name) else []
            for sub_path, sub in held:
                if not sub.DESCRIPTOR.name.endswith("Card"):
                    yield from int_fields(sub, sub_path)
        elif field.cpp_type == field.CPPTYPE_INT32:
            if field.is_repeated:
                yield from ((f"{at}[{i}]", message, field.name, i) for i in range(len(value)))
            else:
                yield at, message, field.name, None


def blamed(observation: advisor_pb2.Observation) -> str:
    """The field the conversion or the engine names for the observation, from the message."""
    try:
        engine.state_from_observation(observation_from_proto(observation))
    except InvalidObservationError as err:
        game = observation.WhichOneof("game")
        return err.field if err.field.startswith(f"{game}.") else f"{game}.{err.field}"
    return "(accepted)"


@pytest.mark.parametrize("value", [-1, 10**6])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_bad_number_is_reported_under_its_own_field(path: Path, value: int) -> None:
    """Every integer of each example, set out of any range, is blamed on itself (or on one of
    its parts), never on another field, such as a count it adds up with."""
    example = json_format.Parse(path.read_text(), advisor_pb2.Observation())
    wrong = []
    for at, _, _, _ in list(int_fields(example)):
        observation = advisor_pb2.Observation()
        observation.CopyFrom(example)
        found = next(f for f in int_fields(observation) if f[0] == at)
        _, message, name, index = found
        if index is None:
            setattr(message, name, value)
        else:
            getattr(message, name)[index] = value
        field = blamed(observation)
        if not (field == at or field.startswith((f"{at}.", f"{at}["))):
            wrong.append(f"{at}={value}: {field}")
    assert not wrong


@pytest.mark.parametrize("where", ["--local", "--server"])
@pytest.mark.parametrize("size", [-1, 1000])
def test_hint_names_a_bad_hand_size(served: Serve, where: str, size: int) -> None:
    """Royal Cities: an opponent's hand size was blamed on `pile_size`, which the builder
    adds it up with."""
    observation = json_format.Parse(RC_EXAMPLE.read_text(), advisor_pb2.Observation())
    rc = observation.royal_cities
    opponent = next(q for q in range(rc.num_players) if q != rc.observer)
    rc.players[opponent].hand_size = size
    place = ["--local"] if where == "--local" else ["--server", served.address]
    result = regent("hint", "-", *place, stdin=json_format.MessageToJson(observation))
    assert_one_line_error(
        result, f"observation.royal_cities.players[{opponent}].hand_size: must be from 0 to 85"
    )
