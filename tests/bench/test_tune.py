"""bench/tune.py: successive halving keeps the better half and doubles the games each round."""

from __future__ import annotations

import json
from pathlib import Path

from bench.tune import budgeted, main


def test_a_budget_is_appended_to_every_local_spec() -> None:
    assert budgeted("pimc", "seconds=0.25") == "pimc:seconds=0.25,threads=1"
    assert budgeted("mo-ismcts:c=0.5", "iterations=50") == "mo-ismcts:c=0.5,iterations=50,threads=1"
    remote = "grpc://127.0.0.1:1?bot=mo-ismcts&seconds=1"
    assert budgeted(remote, "seconds=0.25") == remote


def test_halving_ranks_the_candidates_and_keeps_the_best(tmp_path: Path, capsys) -> None:
    args = ["--game", "royal_cities", "--players", "2", "--budget", "iterations=20",
            "--games", "2", "--seed", "3", "--reference", "random", "--out", str(tmp_path),
            "--candidate", "mo-ismcts", "--candidate", "mo-ismcts:epsilon=1"]  # fmt: skip
    assert main(args) == 0
    rounds = json.loads((tmp_path / "tune.json").read_text())
    assert [len(r) for r in rounds] == [2, 1]
    assert [r[0]["games"] for r in rounds] == [2, 4]
    assert rounds[1][0]["spec"] == rounds[0][0]["spec"]
    assert f"best: {rounds[1][0]['spec']}" in capsys.readouterr().out
