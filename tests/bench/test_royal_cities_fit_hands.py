"""bench/royal_cities_fit_hands.py: the others' hands in recorded games, the fitted model's
file, and its likelihood beside a uniform guess's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.royal_cities_fit_hands import hands, main
from tests.support.records import tournament_record

MODELS = Path(__file__).resolve().parents[2] / "engine" / "royal_cities" / "models"


@pytest.fixture(scope="module")
def heuristic_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament_record(tmp_path_factory.mktemp("records"), "royal_cities", 3, 6)


def test_each_row_is_a_hand_with_unseen_cards_of_kinds_its_observer_cannot_see(
    heuristic_record: Path,
) -> None:
    data = hands([heuristic_record], 3)
    assert data.players == 3 and len(data.x) == len(data.held) == len(data.deal) > 20
    assert data.x.shape[1:] == (49, 16) and (data.held.sum(axis=1) > 0).all()
    assert np.isfinite(data.log_pool[data.held > 0]).all()  # a card held is one unseen
    assert len(hands([heuristic_record], 1).x) > len(data.x)


def test_a_fit_writes_a_model_the_engine_loads_and_its_score_repeats_the_fit(
    heuristic_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file is a model the engine loads, and scoring it gives the fit's figures."""
    out = tmp_path / "hands.json"
    assert main([str(heuristic_record), "--every", "2", "--out", str(out)]) == 0
    model = json.loads(out.read_text())
    assert model["players"] == [3] and len(model["weights"]) == 16
    loaded = subprocess.run(
        [sys.executable, "-c",
         f"from engine.royal_cities.belief import load_model; print(load_model({str(out)!r}))"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert loaded.stdout.strip() == "(3,)"
    capsys.readouterr()
    assert main([str(heuristic_record), "--every", "2", "--score", str(out)]) == 0
    figures = model["held_out_loglik"]
    printed = capsys.readouterr().out
    assert f"uniform {figures['uniform']:.4f}, scored {figures['fitted']:.4f}" in printed
    with pytest.raises(SystemExit):
        main([str(heuristic_record), "--score", str(MODELS / "hands-2p.json")])


def test_records_of_another_game_are_refused(tmp_path: Path) -> None:
    citadels = tournament_record(tmp_path, "citadels", 3, 1)
    with pytest.raises(SystemExit):
        main([str(citadels), "--out", str(tmp_path / "x.json")])
