"""`regent serve`, `hint`, `play` and `watch` as a user runs them: each a subprocess.

One `regent serve` on an ephemeral port of 127.0.0.1 serves the module; `hint` runs on every
example file both against it and in process (`--local`); bad input exits with status 2 and
one line naming the field; `play` is driven through a pipe; `watch` follows a match to its end.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.protobuf import json_format

import engine
from clients.client import RegentClient
from convert import observation_from_proto, served_games
from regent.v1 import advisor_pb2, matches_pb2
from tests.commands import ENV, REGENT, ROOT, Serving, regent

EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
RC_EXAMPLE = ROOT / "examples" / "royal-cities-2p.json"
ITERATIONS = "200"


class Serve(Serving):
    """`regent serve` with its page, on free ports, its matches in memory."""

    def __init__(self, *extra: str) -> None:
        super().__init__("--address", "127.0.0.1:0", "--web-address", "127.0.0.1:0", *extra,
                         "--db", ":memory:", wait=20)  # fmt: skip


@pytest.fixture(scope="module")
def served() -> Iterator[Serve]:
    server = Serve()
    yield server
    assert server.stop() == 0, "\n".join(server.log)
    assert "regent stopped" in server.log[-1]


@pytest.fixture
def client(served: Serve) -> Iterator[RegentClient]:
    with RegentClient(served.address) as client:
        yield client


def legal_texts(path: Path) -> list[str]:
    """The moves of the player to act in an observation file, by the engine."""
    message = json_format.Parse(path.read_text(), advisor_pb2.Observation())
    state = engine.state_from_observation(observation_from_proto(message))
    return [state.action_to_string(a) for a in state.legal_actions()]


def broken_example(path: Path) -> str:
    """The example's JSON with its first Market card given value 9."""
    data = json.loads(path.read_text())
    data["royalCities"]["market"][0]["value"] = 9
    return json.dumps(data)


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("regent "), result.stderr
    for word in words:
        assert word in lines[0]


# -- serve -----------------------------------------------------------------------------


def test_serve_logs_one_line_per_call(served: Serve, client: RegentClient) -> None:
    client.list_games()
    served.wait_for(r"/regent\.v1\.AdvisorService/ListGames OK \d+\.\dms")


def test_serve_refuses_inconsistent_limits() -> None:
    result = regent("serve", "--threads", "3", "--max-threads", "2")
    assert_one_line_error(result, "--max-threads")


def test_serve_puts_fitted_heuristic_weights_in_force(tmp_path: Path) -> None:
    fit = tmp_path / "fit.json"
    fit.write_text(json.dumps({"game": "citadels", "weights": {"income": 2.0}}))
    server = Serve("--heuristic-weights", str(fit))
    try:
        server.wait_for(rf"citadels's heuristic weights from {re.escape(str(fit))}")
        with RegentClient(server.address) as client:
            assert client.list_games()
    finally:
        assert server.stop() == 0


@pytest.mark.timing
def test_serve_keeps_its_deadline_margin_back() -> None:
    """`--deadline-margin 1`: a search under a 1.5 s deadline gets about 0.5 s of it (the
    default margin would leave 1.47 s); the second kept back is room for a loaded host."""
    server = Serve("--deadline-margin", "1")
    try:
        state = engine.new_game("royal_cities", 2, seed=3)
        with RegentClient(server.address) as client:
            report = client.recommend(
                state.observation(state.current_player), iterations=10**6, timeout=1.5
            )
        assert 0 < report.elapsed_seconds < 1.0
    finally:
        assert server.stop() == 0


def test_serve_refuses_a_bad_weights_file(tmp_path: Path) -> None:
    fit = tmp_path / "fit.json"
    fit.write_text(json.dumps({"game": "citadels", "weights": {"incomes": 2.0}}))
    result = regent("serve", "--heuristic-weights", str(fit))
    assert_one_line_error(result, "--heuristic-weights", str(fit), "'incomes'")


# -- hint ------------------------------------------------------------------------------


def test_the_examples_are_mid_game_positions() -> None:
    assert [p.name for p in EXAMPLES] == [
        "citadels-4p.json",
        "citadels-7p.json",
        "royal-cities-2p.json",
        "royal-cities-4p.json",
        "royal-cities-solo.json",
    ]
    for path in EXAMPLES:
        observation = json_format.Parse(path.read_text(), advisor_pb2.Observation())
        game = observation.WhichOneof("game")
        message = getattr(observation, game)
        assert (message.season if game == "royal_cities" else message.round) in (2, 3)
        assert message.decision.player == message.observer


@pytest.mark.parametrize("where", ["--local", "--server"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_hint_names_a_legal_move(served: Serve, path: Path, where: str) -> None:
    place = ["--local"] if where == "--local" else ["--server", served.address]
    result = regent("hint", str(path), *place, "--iterations", ITERATIONS, "--seed", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    move = lines[0].removeprefix("Recommended move: ")
    assert move in legal_texts(path)
    assert f"{ITERATIONS} iterations" in lines[1]
    table = lines[lines.index("") + 2 : lines.index("", 3)]
    assert table and all(row.split()[-3].replace(".", "").isdigit() for row in table)
    assert {row.rsplit(None, 3)[0].strip() for row in table} <= set(legal_texts(path))
    line = next(row for row in lines if row.startswith("Principal variation: "))
    assert line.startswith(f"Principal variation: you {move}")
    why = lines[lines.index(line) + 1]
    assert why.startswith("Why: you expect ") and why.split()[4].rstrip(";") in ("VP", "points")
    if path.stem.startswith("citadels"):  # who probably holds which character, in %
        table = lines[lines.index("Who probably holds what (% of the search's worlds):") + 1 :]
        assert table[-1].split()[0] == "nobody" and "you" not in {r.split()[0] for r in table}


def test_hint_reads_stdin(served: Serve) -> None:
    path = RC_EXAMPLE
    result = regent("hint", "-", "--server", served.address, "--iterations", ITERATIONS,
                    stdin=path.read_text())  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].removeprefix("Recommended move: ") in legal_texts(path)


def test_hint_rejects_broken_json() -> None:
    result = regent("hint", "-", "--local", stdin='{"royal_cities": {"season": 2,}}')
    assert_one_line_error(result, "not a regent.v1.Observation in JSON", "line 1")
    result = regent("hint", "-", "--local", stdin='{"royal_cities": {"season": "two"}}')
    assert_one_line_error(result, "season")
    result = regent("hint", str(ROOT / "examples" / "no-such-file.json"), "--local")
    assert_one_line_error(result, "no-such-file.json")


@pytest.mark.parametrize("where", ["--local", "--server"])
def test_hint_names_the_bad_field(served: Serve, where: str) -> None:
    place = ["--local"] if where == "--local" else ["--server", served.address]
    result = regent("hint", "-", *place, stdin=broken_example(RC_EXAMPLE))
    assert_one_line_error(result, "observation.royal_cities.market[0]", "0 to 6")


def test_hint_without_a_server() -> None:
    result = regent("hint", str(RC_EXAMPLE), "--server", "127.0.0.1:1")
    assert result.returncode == 1
    assert "no Regent server at 127.0.0.1:1" in result.stderr


# -- play ------------------------------------------------------------------------------


def test_play_through_a_pipe(served: Serve) -> None:
    """Moves by number and by text, a refused move, help, hints; end of input resigns."""
    moves = "1\nplay hand purple-9\n2\n9999\n?\n1\n1\n"
    result = regent("play", "royal-cities", "--players", "3", "--bot", "random",
                    "--server", served.address, "--seed", "5", "--hint",
                    "--hint-iterations", ITERATIONS, stdin=moves)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert result.stderr == ""
    assert "seed 5: you are p0" in out
    for heading in ("Season 1 of 4", "VP:", "Your hand:", "Market:", "Cities", "Decision:"):
        assert heading in out
    assert out.count("Hint: ") >= 4
    assert "Not a legal move: move.text" in out
    assert "No move 9999" in out
    assert "Type a move's number or its text" in out  # `?` lists the moves again
    assert out.count("Your moves:") > out.count("Decision:")
    assert re.search(r"^  p1: \(secret choice made\)$", out, re.MULTILINE)
    assert re.search(r"^Final scores: you \d+ · p1 \d+ · p2 \d+; .+\.$", out, re.MULTILINE)
    assert "You resigned." in out


def test_play_with_its_own_server_and_quit() -> None:
    result = regent("play", "royal-cities", "--players", "1", "--seed", "2", stdin="2\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "solo, against the Regent" in result.stdout
    assert "Regent  " in result.stdout  # the Regent's Cities
    assert "You resigned." in result.stdout
    assert "the Regent wins." in result.stdout


def test_play_citadels_through_a_pipe(served: Serve) -> None:
    """Citadels in the terminal: the draft and turns by number, hints, the others' secret
    picks hidden; end of input resigns."""
    result = regent("play", "citadels", "--players", "4", "--bot", "random",
                    "--server", served.address, "--seed", "3", "--hint",
                    "--hint-iterations", ITERATIONS, stdin="1\n1\n1\n1\n1\n")  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Citadels, 4 players, seed 3: you are p0" in out
    for heading in ("Round 1", "gold 2", "Your hand:", "Draft:", "Decision:  pick for you"):
        assert heading in out
    assert out.count("Hint: ") >= 3
    assert re.search(r"^  p\d: \(secret choice made\)$", out, re.MULTILINE)
    assert not re.search(r"^  p[123]: pick ", out, re.MULTILINE), "another seat's pick shown"
    assert "You resigned." in out


def test_play_refuses_a_player_count_the_game_has_not(served: Serve) -> None:
    result = regent("play", "citadels", "--players", "1", "--server", served.address)
    assert_one_line_error(result, "Citadels", "2 to 7 players")
    result = regent("play", "royal-cities", "--players", "7", "--server", served.address)
    assert_one_line_error(result, "Royal Cities", "1 to 4 players")


def test_play_refuses_a_bad_bot(served: Serve) -> None:
    result = regent("play", "royal-cities", "--bot", "nonsense", "--server", served.address)
    assert_one_line_error(result, "seats[1].bot", "unknown bot")


# -- watch -----------------------------------------------------------------------------


def test_watch_follows_a_match_to_its_end(served: Serve, client: RegentClient) -> None:
    created = client.create_match("royal_cities", ["human:eve", "random", "heuristic"], seed=4)
    match, token = created.match_id, created.tokens[0].token
    watcher = subprocess.Popen(
        [*REGENT, "watch", match, "--token", token,
         "--server", served.address],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while (view := client.get_view(match, token)).status != matches_pb2.MATCH_STATUS_FINISHED:
        assert time.monotonic() < deadline
        if view.legal_moves:
            client.play(match, token, view.legal_moves[-1].text)
        else:
            time.sleep(0.002)
    out, err = watcher.communicate(timeout=30)
    assert watcher.returncode == 0, err

    with client.watch(match, token) as stream:
        events = list(stream)
    lines = out.splitlines()
    assert len(lines) == len(events) + 1
    for line, event in zip(lines, events, strict=False):
        assert line.split()[0] == str(event.sequence)
        assert f"p{event.seat}: {event.move.text}" in line
        assert "Season " in line and "VP p0" in line
    scores = " · ".join(f"p{i} {s}" for i, s in enumerate(view.scores))
    assert lines[-1].startswith(f"Final scores: {scores};")


def test_watch_an_unknown_match(served: Serve) -> None:
    result = regent("watch", "no-such-match", "--token", "t", "--server", served.address)
    assert_one_line_error(result, "no match")


def test_games_lists_each_game_with_its_default_and_levels(served: Serve) -> None:
    result = regent("games", "--server", served.address)
    assert result.returncode == 0, result.stderr
    served = served_games()
    for spec in served:
        assert f"{spec.title} ({spec.name.replace('_', '-')})" in result.stdout
    assert result.stdout.count("level:10 ") == len(served)
    assert result.stdout.count("  default ") == len(served)
