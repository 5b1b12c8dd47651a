"""bench/royal_cities_inference.py: positions where the others hold cards unseen, and a row per
inference setting."""

from __future__ import annotations

from pathlib import Path

from bench.royal_cities_inference import main, sampled, unseen
from tests.support.records import tournament_record


def test_a_row_per_setting_from_positions_with_unseen_cards(tmp_path: Path, capsys) -> None:
    path = tournament_record(tmp_path, "royal_cities", 3, 3)
    positions = list(sampled(path, 2, 3))
    assert positions and all(any(held for _, held in unseen(p)) for p in positions)
    assert main([str(path), "--games", "2", "--every", "3", "--worlds", "3",
                 "--infer", "0", "16"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert f"{len(positions)} positions" in out and "infer=0: " in out and "infer=16: " in out
