"""bench/citadels_fit_picks.py: the picks of recorded games, the fitted model's file, and its
likelihood beside a uniform guess's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.citadels_fit_picks import main, picks
from tests.support.records import tournament_record, with_unfinished


@pytest.fixture(scope="module")
def heuristic_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament_record(tmp_path_factory.mktemp("records"), "citadels", 3, 9)


def test_the_picks_with_a_choice_of_the_seats_named(heuristic_record: Path) -> None:
    own = picks([heuristic_record], {"h"})
    n = len(own.x)
    assert own.players == 3 and n == len(own.income) == len(own.shown) == len(own.deal) > 20
    assert all(own.shown[i][own.chosen[i]] and own.shown[i].sum() > 1 for i in range(n))
    assert len(picks([heuristic_record], None).x) > n


def test_a_fit_of_the_heuristics_picks_beats_a_uniform_guess_and_loads(
    heuristic_record: Path, tmp_path: Path
) -> None:
    """The heuristic picks by its judgement, which the features carry: the held-out picks are
    likelier under the fit than under a uniform guess; the file is a model the engine loads."""
    out = tmp_path / "picks.json"
    assert main([str(heuristic_record), "--seats", "h", "--steps", "300", "--out", str(out)]) == 0
    model = json.loads(out.read_text())
    assert model["players"] == [3] and len(model["table"]) == 8
    assert model["held_out_loglik"]["fitted"] > model["held_out_loglik"]["uniform"]
    loaded = subprocess.run(
        [sys.executable, "-c",
         f"from engine.citadels.belief import load_model; print(load_model({str(out)!r}))"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert loaded.stdout.strip() == "(3,)"


def test_a_model_scored_on_its_held_out_picks_gives_the_fits_figures(
    heuristic_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "picks.json"
    assert main([str(heuristic_record), "--seats", "h", "--steps", "300", "--out", str(out)]) == 0
    figures = json.loads(out.read_text())["held_out_loglik"]
    capsys.readouterr()
    assert main([str(heuristic_record), "--seats", "h", "--score", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"uniform {figures['uniform']:.4f}, scored {figures['fitted']:.4f}" in printed
    assert f"likeliest is the pick {figures['likeliest_picked']:.1%}" in printed
    six = Path(__file__).resolve().parents[2] / "engine" / "citadels" / "models" / "picks-6p.json"
    with pytest.raises(SystemExit):
        main([str(heuristic_record), "--score", str(six)])  # a 5- to 7-player model, 3-player picks


def test_records_of_another_game_are_refused(tmp_path: Path) -> None:
    other = tournament_record(tmp_path, "royal_cities", 2, 2)
    with pytest.raises(SystemExit):
        main([str(other), "--out", str(tmp_path / "x.json")])


def test_games_that_did_not_finish_are_skipped_and_counted(
    heuristic_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed, _, _ = with_unfinished(heuristic_record, tmp_path / "mixed.jsonl")
    kept = picks([mixed], None)
    assert f"{mixed}: skipped 2 games that did not finish" in capsys.readouterr().err
    clean = picks([heuristic_record], None)
    assert (kept.chosen == clean.chosen).all() and (kept.deal == clean.deal).all()
