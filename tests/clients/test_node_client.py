"""The Node.js clients (clients/node/recommend.js and match.js) against a real Regent server.

Proves that a front end outside Python can use Regent: recommend.js reads an observation in
any form of protobuf's JSON mapping (every file in examples/, each in every form of
tests/example_files.py), calls AdvisorService.Recommend and prints a legal move; a broken
observation makes it exit non-zero with the server's INVALID_ARGUMENT, a malformed file with
the field it cannot read. match.js plays a whole hosted match against bot seats. Skipped
without `node`; installs the client's dependencies with `npm ci` (a few seconds) when
node_modules is missing, and builds its descriptor set from proto/ (`npm run build`) every run.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.protobuf import json_format

import engine
from clients.client import RegentClient
from convert import observation_to_proto
from regent.v1 import matches_pb2
from tests.example_files import EXAMPLES, FORMS, legal_moves, rendering
from tests.support.server import serving

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "node"
NODE = shutil.which("node")
NPM = shutil.which("npm")
RC_EXAMPLE = ROOT / "examples" / "royal-cities-2p.json"
ITERATIONS = 300
TIMEOUT = 120

pytestmark = pytest.mark.skipif(
    NODE is None or NPM is None, reason="Node.js (`node` and `npm`) is not installed"
)


def npm(*args: str) -> subprocess.CompletedProcess[str]:
    assert NPM is not None
    return subprocess.run([NPM, *args], cwd=CLIENT, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def client() -> Path:
    """clients/node with its dependencies installed and its schema built."""
    needed = json.loads((CLIENT / "package.json").read_text())["dependencies"]
    if not all((CLIENT / "node_modules" / name).is_dir() for name in needed):
        result = npm("ci", "--no-audit", "--no-fund")
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    # The schema is compiled from proto/ as it is now, not as it was at the last `npm ci`.
    result = npm("run", "--silent", "build")
    assert result.returncode == 0, f"npm run build failed:\n{result.stdout}\n{result.stderr}"
    return CLIENT


@pytest.fixture(scope="module")
def server_address() -> Iterator[str]:
    """A real server on 127.0.0.1 (ephemeral port), in this process."""
    with serving() as running:
        yield running.address


def game(num_players: int, seed: int, moves: int) -> engine.State:
    """A seeded game after `moves` random moves (stopping before its end)."""
    state = engine.new_game("royal_cities", num_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        actions = state.legal_actions()
        if len(actions) == 0:
            break
        after = state.clone()
        after.apply_action(rng.choice(actions))
        if after.is_terminal():
            break
        state = after
    return state


def observation_json(state: engine.State) -> str:
    """The player to act's observation in protobuf's JSON mapping."""
    return json_format.MessageToJson(observation_to_proto(state.observation(state.current_player)))


def node(client: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    command = [NODE, script, *args]
    return subprocess.run(command, cwd=client, capture_output=True, text=True, timeout=TIMEOUT)


def recommend(client: Path, address: str, observation: str, tmp_path: Path):
    """recommend.js on the JSON text `observation`."""
    path = tmp_path / "observation.json"
    path.write_text(observation)
    return node(client, "recommend.js", "--server", address, "--observation", str(path),
                "--iterations", str(ITERATIONS))  # fmt: skip


def assert_recommends(result: subprocess.CompletedProcess[str], legal: set[str]) -> None:
    """recommend.js printed a legal move, its search and legal alternatives."""
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("move: "), result.stdout
    move = lines[0].removeprefix("move: ")
    assert move in legal, (move, sorted(legal))
    assert f"searched {ITERATIONS} iterations" in result.stdout
    alternatives = [line.split()[:-4] for line in lines[2:]]
    assert alternatives, result.stdout
    for line in lines[2:]:
        assert "visits" in line and "win" in line and line.endswith("%"), line
    assert {" ".join(words) for words in alternatives} <= legal


@pytest.mark.parametrize(
    ("num_players", "seed", "moves"),
    [(2, 3, 0), (3, 11, 40), (1, 5, 25)],
    ids=["2p-start", "3p-midgame", "solo-midgame"],
)
def test_recommends_a_legal_move(
    client: Path, server_address: str, tmp_path: Path, num_players: int, seed: int, moves: int
) -> None:
    state = game(num_players, seed, moves)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert_recommends(recommend(client, server_address, observation_json(state), tmp_path), legal)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_in_every_form(
    client: Path, server_address: str, tmp_path: Path, path: Path, form: str
) -> None:
    result = recommend(client, server_address, rendering(path, form), tmp_path)
    assert_recommends(result, legal_moves(path))


@pytest.mark.parametrize("form", ["as-written", "proto-names"])
def test_broken_observation_is_invalid_argument(
    client: Path, server_address: str, tmp_path: Path, form: str
) -> None:
    observation = json.loads(rendering(RC_EXAMPLE, form))
    (game_json,) = observation.values()
    game_json["observer"] = 7  # a 2-player game: players 0 and 1
    result = recommend(client, server_address, json.dumps(observation), tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "INVALID_ARGUMENT" in result.stderr, result.stderr
    assert "observation.royal_cities.observer" in result.stderr, result.stderr
    assert "move:" not in result.stdout


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"royalCities": {"handSize": 2}}', "handSize"),
        ('{"citadels": {"players": [{"hand": ["CITADELS_DISTRICT_GOLD"]}]}}', "GOLD"),
        ('{"royal_cities": {"observer": "one"}}', "observer"),
    ],
    ids=["no-such-field", "no-such-enum-value", "not-a-number"],
)
def test_a_malformed_file_names_what_is_wrong(
    client: Path, server_address: str, tmp_path: Path, text: str, named: str
) -> None:
    result = recommend(client, server_address, text, tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("cannot read the observation"), result.stderr
    assert named in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("game_name", "players"), [("royal-cities", 3), ("citadels", 4)])
def test_match_js_plays_a_hosted_match_to_its_end(
    client: Path, server_address: str, game_name: str, players: int
) -> None:
    result = node(client, "match.js", "--server", server_address, "--game", game_name,
                  "--players", str(players), "--bot", "level:1", "--seed", "7",
                  "--iterations", "30")  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    found = re.fullmatch(r"match (\w+), seat 0, token (\w+)", lines[0])
    assert found, lines[0]
    with RegentClient(server_address) as python:
        view = python.get_view(found[1], found[2])
    assert view.status == matches_pb2.MATCH_STATUS_FINISHED
    assert len(view.scores) == players and not view.resigned
    assert lines[-2:] == [
        f"scores: {' '.join(map(str, view.scores))}",
        f"returns: {' '.join(f'{r:g}' for r in view.returns)}",
    ]
    played = int(re.fullmatch(r"you played (\d+) moves; .* after (\d+)", lines[-3])[1])
    assert played > 0
    # Every move of the seat came back on its Watch stream, once each.
    assert sum(line.split()[1] == "p0:" for line in lines[1:-3]) == played


def test_match_js_stops_quietly_when_its_reader_does(client: Path, server_address: str) -> None:
    """`node match.js ... | head -1`: the script ends when the pipe closes, status 0, no trace."""
    command = [NODE, "match.js", "--server", server_address, "--bot", "random", "--iterations", "5"]
    with subprocess.Popen(
        command, cwd=client, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith("match ")
        process.stdout.close()
        assert process.wait(timeout=TIMEOUT) == 0
        assert process.stderr.read() == ""
