"""bench/citadels_inference.py: the positions after each draft and a row per inference setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.citadels_inference import after_drafts, main
from tests.support.records import tournament_record, with_unfinished


def test_a_row_per_setting_from_the_positions_after_each_draft(tmp_path: Path, capsys) -> None:
    path = tournament_record(tmp_path, "citadels", 4, 4)
    positions = list(after_drafts(path, 2))
    assert positions and all(p.phase not in ("pick", "discard") for p in positions)
    assert {p.round for p in positions} == set(range(1, max(p.round for p in positions) + 1))
    assert main([str(path), "--games", "2", "--worlds", "3", "--infer", "0", "16"]) == 0
    out = capsys.readouterr().out
    assert f"{len(positions)} positions" in out and "infer=0: " in out and "infer=16: " in out


def test_games_that_did_not_finish_are_skipped_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_record(tmp_path, "citadels", 4, 2)
    mixed, _, _ = with_unfinished(path, tmp_path / "mixed.jsonl")
    kept = list(after_drafts(mixed, 10))  # more than the record holds: every game read
    assert f"{mixed}: skipped 2 games that did not finish" in capsys.readouterr().err
    clean = list(after_drafts(path, 10))
    seen = [p.observation(p.current_player).to_json() for p in kept]
    assert kept and seen == [p.observation(p.current_player).to_json() for p in clean]
