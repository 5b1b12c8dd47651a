"""bench/citadels_inference.py: the positions after each draft and a row per inference setting."""

from __future__ import annotations

from pathlib import Path

from bench.citadels_inference import after_drafts, main
from tests.bench.test_balance_heuristic import record


def test_a_row_per_setting_from_the_positions_after_each_draft(tmp_path: Path, capsys) -> None:
    path = record(tmp_path, "citadels", 4, 4)
    positions = list(after_drafts(path, 2))
    assert positions and all(p.phase not in ("pick", "discard") for p in positions)
    assert {p.round for p in positions} == set(range(1, max(p.round for p in positions) + 1))
    assert main([str(path), "--games", "2", "--worlds", "3", "--infer", "0", "16"]) == 0
    out = capsys.readouterr().out
    assert f"{len(positions)} positions" in out and "infer=0: " in out and "infer=16: " in out
