"""`level:N` through the clients is level N: `regent hint --bot level:1` searches the level's 10
iterations against a server and in process, and refuses a budget beside it; a remote bot
`grpc://...?bot=level:3` plays a tournament against `level:3` in process as its equal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clients.tournament.remote import parse_address
from search.bots import search_config
from tests.commands import ROOT, regent
from tests.support.server import RunningServer

EXAMPLE = ROOT / "examples" / "royal-cities-2p.json"


@pytest.mark.parametrize("where", ["server", "local"])
def test_hint_searches_the_levels_budget(regent_server: RunningServer, where: str) -> None:
    place = ["--local"] if where == "local" else ["--server", regent_server.address]
    config = search_config("level:1", "royal_cities", 2)
    assert config is not None
    result = regent("hint", str(EXAMPLE), *place, "--bot", "level:1", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert f"; {config.iterations} iterations in " in result.stdout
    refused = regent("hint", str(EXAMPLE), *place, "--bot", "level:1", "--iterations", "100")
    assert refused.returncode == 2 and refused.stdout == ""
    (line,) = refused.stderr.splitlines()
    assert "budget.iterations" in line and "level:1 has its own budget" in line


def test_a_remote_level_takes_no_budget() -> None:
    assert parse_address("grpc://h:1?bot=level:3").bot == "level:3"
    for budget in ("iterations=100", "seconds=1", "threads=1"):
        with pytest.raises(ValueError, match="level:3 has its own budget"):
            parse_address(f"grpc://h:1?bot=level:3&{budget}")


@pytest.mark.slow
def test_a_remote_level_plays_as_its_equal(regent_server: RunningServer, tmp_path: Path) -> None:
    """40 games of `level:3` in process against `level:3` over gRPC, seats swapped on each
    deal. The remote bot searches the same spec from the same seed, so it plays each deal's
    moves as the bot in process does (both games of a deal are one game, mirrored), and wins
    half; the loose bound is the claim itself (before levels had their own budget through
    the service, the remote bot won 24 of 24)."""
    remote = f"grpc://{regent_server.address}?bot=level:3"
    result = regent(
        "tournament", "--game", "royal_cities", "--players", "2", "--bot", "local=level:3",
        "--bot", f"remote={remote}", "--games", "40", "--seed", "5", "--workers", "2",
        "--out", str(tmp_path), timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    games = [json.loads(line) for line in (tmp_path / "record.jsonl").read_text().splitlines()]
    games = [game for game in games if game["type"] == "game"]
    assert len(games) == 40
    wins = sum(game["returns"][game["seats"].index("remote")] for game in games)
    assert 8 <= wins <= 32, wins
    deals: dict[int, list[list[str]]] = {}
    for game in games:
        deals.setdefault(game["deal"], []).append(game["moves"])
    assert all(len(moves) == 2 and moves[0] == moves[1] for moves in deals.values())
