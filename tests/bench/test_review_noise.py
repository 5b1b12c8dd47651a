"""bench.review_noise runs and prints one row per game and budget (on Kuhn poker: small)."""

from __future__ import annotations

import pytest

from bench.review_noise import main


def test_one_row_per_budget(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "kuhn_poker", "--budgets", "20", "40", "--positions", "1", "--repeats", "2"]
    assert main(argv) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| kuhn")]
    assert [row.split(" | ")[2] for row in rows] == ["20", "40"]
