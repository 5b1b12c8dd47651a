"""`regent tournament` as a user runs it (its output not a terminal), through crashes: the
remote bot's `regent serve` killed and restarted mid-tournament, a worker process killed.
With `--on-bot-error retry` nothing is lost; with the default `lose` the games a crash ended
are recorded and counted apart, the tournament goes on, and `--resume` replays none of them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.commands import ENV, REGENT, ROOT, Serving, regent
from tests.support.server import free_port

LOCAL = ("--bot", "random", "--bot", "heuristic", "--bot", "p=pimc:iterations=150")


def games_of(out: Path) -> list[dict]:
    """The record's games (what is written so far), in index order."""
    path = out / "record.jsonl"
    lines = path.read_text().splitlines()[1:] if path.exists() else []
    return sorted((json.loads(line) for line in lines), key=lambda game: game["index"])


def started(out: Path, *args: str) -> subprocess.Popen[str]:
    """`regent tournament ARGS --out OUT` in the background, its stderr a pipe."""
    return subprocess.Popen(
        [*REGENT, "tournament", *args, "--out", str(out)],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def wait_for_games(process: subprocess.Popen[str], out: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(games_of(out)) < count:
        assert process.poll() is None and time.monotonic() < deadline, "no games recorded"
        time.sleep(0.02)


def serve(port: int) -> Serving:
    return Serving("--address", f"127.0.0.1:{port}", "--no-web", "--db", ":memory:", wait=60)


def kill(server: Serving) -> None:
    server.process.kill()
    server.process.wait()


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["retry", "lose"])
def test_a_remote_bot_whose_server_is_killed_and_restarted(tmp_path: Path, policy: str) -> None:
    port = free_port()
    server = serve(port)
    far = f"far=grpc://127.0.0.1:{port}?bot=mo-ismcts&iterations=100"
    args = ("--bot", far, "--bot", "heuristic", "--games", "12", "--seed", "5",
            "--workers", "2", "--on-bot-error", policy)  # fmt: skip
    process = started(tmp_path, *args)
    try:
        wait_for_games(process, tmp_path, 2)
        kill(server)
        time.sleep(1.0)  # games go on meanwhile: they fail, or wait to be played again
        server = serve(port)
        out, err = process.communicate(timeout=300)
    finally:
        process.kill()
        kill(server)
    assert process.returncode == 0, err
    games = games_of(tmp_path)
    assert [g["index"] for g in games] == list(range(12))  # each once
    failed = [g for g in games if "failure" in g]
    assert "regent tournament: 12/12 games (100%)" in err  # progress lines, not a bar
    if policy == "retry":
        assert not failed, failed
        return
    # The games the server's death ended: lost by far, said on stderr and in the summary.
    assert failed and all(g["failure"]["bot"] == "far" for g in failed)
    assert all(g["failure"]["reason"] == "disconnected" for g in failed)
    assert all(f"game {g['index']}: far (seat " in err for g in failed)
    n = len(failed)
    assert f"Games lost by a bot's failure, each a loss above: far {n} ({n} disconnected)" in out
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["bots"][0]["failures_by_reason"] == {"disconnected": n}
    # Resumed, it replays none of them: the record stays as it is.
    before = (tmp_path / "record.jsonl").read_text()
    resumed = regent("tournament", *args, "--out", str(tmp_path), "--resume", timeout=120)
    assert resumed.returncode == 0 and resumed.stdout == out
    assert (tmp_path / "record.jsonl").read_text() == before


def workers_of(process: subprocess.Popen[str]) -> list[int]:
    """The tournament's worker processes (its spawned children but the resource tracker)."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    return [pid for pid in map(int, children)
            if b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()]  # fmt: skip


@pytest.mark.slow
def test_a_killed_worker_loses_only_its_game(tmp_path: Path) -> None:
    """Killed, a worker loses its game in progress alone: counted for no bot (`lose`), or
    played again from its seed (`retry`: the record is then an uninterrupted run's)."""
    args = (*LOCAL, "--games", "18", "--seed", "4", "--workers", "2")
    whole = regent("tournament", *args, "--out", str(tmp_path / "whole"), timeout=300)
    assert whole.returncode == 0, whole.stderr
    for policy in ("lose", "retry"):
        out = tmp_path / policy
        process = started(out, *args, "--on-bot-error", policy)
        try:
            wait_for_games(process, out, 3)
            os.kill(workers_of(process)[0], signal.SIGKILL)
            stdout, err = process.communicate(timeout=300)
        finally:
            process.kill()
        assert process.returncode == 0, err
        games = games_of(out)
        assert [g["index"] for g in games] == list(range(18))
        crashed = [g for g in games if "failure" in g]
        if policy == "retry":
            assert crashed == [] and games == games_of(tmp_path / "whole")
            continue
        (game,) = crashed
        assert game["failure"] == {"seat": None, "bot": None, "reason": "crashed",
                                   "message": "its worker process was killed by SIGKILL "
                                              "during the game"}  # fmt: skip
        assert game["returns"] is None and f"game {game['index']}: its worker" in err
        assert "Games whose worker process died, counted for no bot: 1" in stdout
        others = [g for g in games_of(tmp_path / "whole") if g["index"] != game["index"]]
        assert [g for g in games if g is not game] == others
        resumed = regent("tournament", *args, "--out", str(out), "--resume", timeout=120)
        assert resumed.returncode == 0 and resumed.stdout == stdout
        assert games_of(out) == games
