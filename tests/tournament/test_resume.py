"""`regent tournament` as a user runs it: killed with SIGKILL in the middle, then resumed, it
loses no game, plays none twice, and ends with the results of an uninterrupted run."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.commands import ENV, REGENT, ROOT, regent

ARGS = ("tournament", "--bot", "random", "--bot", "heuristic", "--bot", "p=pimc:iterations=150",
        "--games", "18", "--seed", "4")  # fmt: skip


def game_lines(out: Path) -> list[str]:
    return (out / "record.jsonl").read_text().splitlines()[1:]


@pytest.mark.slow
def test_a_killed_tournament_resumes_without_loss_or_duplicates(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert regent(*ARGS, "--workers", "1", "--out", str(whole), timeout=300).returncode == 0
    process = subprocess.Popen(
        [*REGENT, *ARGS, "--workers", "2", "--out", str(cut)],
        cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the workers die with it
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (cut / "record.jsonl").exists() or len(game_lines(cut)) < 6:
            assert process.poll() is None and time.monotonic() < deadline, "no games recorded"
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = {json.loads(line)["index"]: line for line in game_lines(cut)}
    assert 6 <= len(before) < 18, "killed too late to test a resume"

    resumed = regent(*ARGS, "--workers", "2", "--out", str(cut), "--resume", timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    after = [json.loads(line)["index"] for line in game_lines(cut)]
    assert sorted(after) == list(range(18))  # nothing lost, nothing twice
    assert all(line in game_lines(cut) for line in before.values())  # kept as recorded
    assert sorted(game_lines(cut)) == sorted(game_lines(whole))
    assert json.loads((cut / "results.json").read_text()) == json.loads(
        (whole / "results.json").read_text()
    )


def start_and_wait_for_games(out: Path, games: int) -> tuple[subprocess.Popen[str], list[int]]:
    """`regent tournament` with two workers in the background, once `games` are recorded; and
    the pids of its children (the workers and multiprocessing's resource tracker)."""
    process = subprocess.Popen(
        [*REGENT, *ARGS, "--games", "400", "--workers", "2",
         "--out", str(out)],
        cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not (out / "record.jsonl").exists() or len(game_lines(out)) < games:
        assert process.poll() is None and time.monotonic() < deadline, "no games recorded"
        time.sleep(0.02)
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    return process, [int(pid) for pid in children]


def gone(pids: list[int], seconds: float) -> bool:
    """Whether every one of `pids` has ended within `seconds` (zombies count as ended)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            with contextlib.suppress(FileNotFoundError):
                if Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z":
                    alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
def test_sigterm_stops_the_games_in_play_and_keeps_the_finished_ones(tmp_path: Path) -> None:
    process, children = start_and_wait_for_games(tmp_path, 3)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    assert "terminated; every finished game is in" in err and "--resume continues" in err
    assert len(children) >= 2 and gone(children, 10)
    recorded = [json.loads(line)["index"] for line in game_lines(tmp_path)]
    assert 3 <= len(recorded) < 400 and len(set(recorded)) == len(recorded)


@pytest.mark.slow
def test_no_worker_outlives_a_tournament_killed_alone(tmp_path: Path) -> None:
    """kill -9 of the tournament's process only (not its group): its workers end too."""
    process, children = start_and_wait_for_games(tmp_path, 1)
    process.kill()
    process.wait()
    assert len(children) >= 2 and gone(children, 10)


def test_bad_input_exits_2_with_the_reason(tmp_path: Path) -> None:
    unknown = regent("tournament", "--bot", "random", "--bot", "genius", "--out", str(tmp_path))
    assert unknown.returncode == 2 and "unknown bot 'genius'" in unknown.stderr
    nothing = regent(*ARGS, "--out", str(tmp_path / "none"), "--resume")
    assert nothing.returncode == 2 and "nothing to resume" in nothing.stderr


def test_a_finished_tournament_is_neither_overwritten_nor_resumed_as_another(
    tmp_path: Path,
) -> None:
    args = ("tournament", "--bot", "random", "--bot", "heuristic", "--games", "4",
            "--workers", "1", "--out", str(tmp_path))  # fmt: skip
    first = regent(*args)
    assert first.returncode == 0 and "Elo [95%]" in first.stdout
    again = regent(*args)
    assert again.returncode == 2 and "--resume" in again.stderr
    other = regent(*args, "--seed", "9", "--resume")
    assert other.returncode == 2 and "seed: recorded 1, now 9" in other.stderr
    resumed = regent(*args, "--resume")  # nothing left to play: the same report
    assert resumed.returncode == 0 and resumed.stdout == first.stdout
