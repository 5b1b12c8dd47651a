"""The Node.js client (clients/node/recommend.js) against a real Regent server.

Proves that a front end outside Python can query Regent: the client reads an observation in
protobuf's JSON mapping, calls AdvisorService.Recommend and prints a legal move; a broken
observation makes it exit non-zero with the server's INVALID_ARGUMENT. Skipped without `node`;
installs the client's dependencies with `npm ci` (a few seconds) when node_modules is missing.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.protobuf import json_format

import engine
from convert import observation_to_proto
from server.app import RegentServer

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "node"
NODE = shutil.which("node")
NPM = shutil.which("npm")
ITERATIONS = 300
TIMEOUT = 120

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js (`node`) is not installed")


@pytest.fixture(scope="module")
def client() -> Path:
    """clients/node with its dependencies installed."""
    if not (CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        if NPM is None:
            pytest.skip("clients/node/node_modules is missing and `npm` is not installed")
        result = subprocess.run(
            [NPM, "ci", "--no-audit", "--no-fund"],
            cwd=CLIENT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    return CLIENT


@pytest.fixture(scope="module")
def server_address() -> Iterator[str]:
    """A real RegentServer on 127.0.0.1 (ephemeral port), on its own loop in a thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="regent-server", daemon=True)
    thread.start()

    async def start() -> RegentServer:
        server = RegentServer("127.0.0.1:0")
        await server.start()
        return server

    server = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=30)
    try:
        yield server.address
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(0), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


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


def observation_json(state: engine.State) -> dict:
    """The player to act's observation in protobuf's JSON mapping."""
    proto = observation_to_proto(state.observation(state.current_player))
    return json.loads(json_format.MessageToJson(proto))


def recommend(client: Path, address: str, observation: dict, tmp_path: Path):
    path = tmp_path / "observation.json"
    path.write_text(json.dumps(observation))
    command = [NODE, "recommend.js", "--server", address, "--observation", str(path)]
    command += ["--iterations", str(ITERATIONS)]
    return subprocess.run(command, cwd=client, capture_output=True, text=True, timeout=TIMEOUT)


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
    result = recommend(client, server_address, observation_json(state), tmp_path)
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


def test_broken_observation_is_invalid_argument(
    client: Path, server_address: str, tmp_path: Path
) -> None:
    observation = observation_json(game(2, 3, 0))
    observation["royalCities"]["observer"] = 7  # a 2-player game: players 0 and 1
    result = recommend(client, server_address, observation, tmp_path)
    assert result.returncode != 0, result.stdout
    assert "INVALID_ARGUMENT" in result.stderr, result.stderr
    assert "observer" in result.stderr, result.stderr
    assert "move:" not in result.stdout
