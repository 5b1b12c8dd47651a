"""bench/scaling.py: each budget plays the one below it, and the gaps add up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.scaling import main
from search.games import default_bot


def test_the_curve_climbs_each_budget_over_the_one_below(tmp_path: Path, capsys) -> None:
    chart = tmp_path / "curve.png"
    args = ["--game", "royal-cities", "--budget", "iterations", "--budgets", "2", "8", "200",
            "--games", "2", "--seed", "3", "--out", str(tmp_path),
            "--chart", str(chart)]  # fmt: skip
    assert main(args) == 0
    rows = json.loads((tmp_path / "ladder.json").read_text())
    assert [r["name"] for r in rows] == ["8 iterations", "200 iterations"]
    default = default_bot("royal_cities", 2)  # the curve's bot: the 2-player default
    assert rows[0]["below"] == f"{default},iterations=2,threads=1"
    assert rows[1]["elo"] == pytest.approx(rows[0]["gap"] + rows[1]["gap"])
    assert all(r["games"] == 2 for r in rows)
    row = f"| 200 iterations | `{default},iterations=200,threads=1` | 2 |"
    assert row in capsys.readouterr().out
    assert chart.stat().st_size > 0


def test_budgets_must_climb(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--budgets", "0.5", "0.25"])
    assert "ascending" in capsys.readouterr().err
