"""bench/balance_heuristic.py: positions from tournament records, the unbiased loss, and a
short fit at the records' player count that writes every weight and leaves the process's
weights at their defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.balance_heuristic import decisions, disagreement, loss, main, positions
from clients.tournament.record import read
from engine.citadels.heuristic import TABLE
from engine.heuristics import load_weights
from tests.support.records import tournament_record, with_unfinished

HAND_SET = TABLE.hand_set


def at_defaults() -> bool:
    return all(TABLE.get(p) == TABLE.defaults(p) for p in range(1, 8))


@pytest.fixture(scope="module")
def citadels_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament_record(tmp_path_factory.mktemp("records"), "citadels", 3, 6)


def test_positions_replay_the_recorded_games(citadels_record: Path) -> None:
    game, data = positions([citadels_record], every=10)
    assert game == "citadels"
    assert {p.deal for p in data} == {0, 1}  # 6 games: 2 deals, each from 3 seatings
    assert all(not p.state.is_terminal() and sum(p.returns) == pytest.approx(1) for p in data)
    _, games, _ = read(citadels_record)
    assert len(data) == sum(-(-len(g["moves"]) // 10) for g in games)


def test_the_loss_is_reproducible_and_bounded(citadels_record: Path) -> None:
    _, data = positions([citadels_record], every=10)
    assert loss(data[:30], 8, 0.2, seed=2) == loss(data[:30], 8, 0.2, seed=2)
    assert -0.1 < loss(data[:30], 8, 0.2, seed=2) < 1.0


def test_a_short_fit_writes_every_weight_and_restores_the_defaults(
    citadels_record: Path, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "fit.json"
    args = [str(citadels_record), "--every", "10", "--steps", "3", "--batch", "20", "--playouts",
            "4", "--held-playouts", "4", "--seed", "1", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    fitted = json.loads(out.read_text())
    assert fitted["game"] == "citadels" and fitted["players"] == [3]
    assert set(fitted["weights"]) == set(TABLE.names)
    assert fitted["weights"] != HAND_SET
    assert at_defaults()
    assert "held-out loss" in capsys.readouterr().out
    # The service puts a fit in force with `regent serve --heuristic-weights`: at 3 players.
    assert load_weights(out) == "citadels"
    assert TABLE.get(3) == fitted["weights"] and TABLE.get(2) == TABLE.defaults(2)
    # A fit starts from the hand-set weights, whatever is in force: the same fit again.
    assert main([*args[:-2], "--out", str(tmp_path / "same.json")]) == 0
    assert json.loads((tmp_path / "same.json").read_text())["weights"] == fitted["weights"]
    assert at_defaults()
    # A longer fit may start where this one ended.
    assert main([*args[:-2], "--start", str(out), "--out", str(tmp_path / "again.json")]) == 0
    assert at_defaults()


def test_fitting_to_moves_starts_near_the_heuristics_own_moves(
    citadels_record: Path, tmp_path: Path, capsys
) -> None:
    """`--target moves`: each decision of the seats named, in a world dealt from the mover's
    view. The heuristic bot's own moves are the playouts' choice at the hand-set weights (but
    for its random tie-breaks), the random bot's are not; a short fit writes every weight."""
    _, own = decisions([citadels_record], {"h"}, seed=1)
    _, everyone = decisions([citadels_record], None, seed=1)
    _, other = decisions([citadels_record], {"r"}, seed=1)
    assert len(own) + len(other) == len(everyone)
    assert all(p.move in p.state.legal_actions() and len(p.state.legal_actions()) > 1 for p in own)
    TABLE.set(HAND_SET, 3)  # the heuristic bot's weights, whatever fit is the playouts' default
    try:
        assert disagreement(own, seed=1) < 0.1 < 0.5 < disagreement(other, seed=1)
        assert disagreement(own, seed=1) == disagreement(own, seed=1)
    finally:
        TABLE.reset()
    out = tmp_path / "moves.json"
    args = [str(citadels_record), "--target", "moves", "--seats", "h", "--steps", "2",
            "--batch", "50", "--seed", "1", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    fitted = json.loads(out.read_text())
    assert fitted["players"] == [3] and set(fitted["weights"]) == set(TABLE.names)
    assert fitted["held_out_loss"]["start"] < 0.1
    assert at_defaults()


def test_records_of_two_player_counts_are_refused(
    citadels_record: Path, tmp_path: Path, capsys
) -> None:
    other = tournament_record(tmp_path, "citadels", 4, 4)
    with pytest.raises(SystemExit):
        main([str(citadels_record), str(other), "--steps", "1", "--out", str(tmp_path / "f.json")])
    assert "records of 3 and 4 players: one count a fit" in capsys.readouterr().err
    assert not (tmp_path / "f.json").exists()


def test_records_of_two_games_are_refused(citadels_record: Path, tmp_path: Path) -> None:
    other = tournament_record(tmp_path, "royal_cities", 2, 2)
    with pytest.raises(ValueError, match="records royal_cities, the others citadels"):
        positions([citadels_record, other], every=10)


def test_a_start_from_another_counts_fit_starts_at_the_records_count(
    citadels_record: Path, tmp_path: Path
) -> None:
    """A 3-player fit may start from a 4-player one: its weights, not the hand-set."""
    changed = {name: value + 1.0 for name, value in HAND_SET.items()}
    four = tmp_path / "4p.json"
    four.write_text(json.dumps({"game": "citadels", "weights": changed, "players": [4]}))
    out = tmp_path / "fit.json"
    assert main([str(citadels_record), "--every", "10", "--steps", "0", "--held-playouts", "4",
                 "--start", str(four), "--out", str(out)]) == 0  # fmt: skip
    fitted = json.loads(out.read_text())
    assert fitted["players"] == [3] and fitted["weights"] == pytest.approx(changed)
    assert at_defaults()


@pytest.mark.parametrize(
    ("fit", "reason"),
    [({"game": "royal_cities", "weights": {}}, "a fit of another game than citadels"),
     ({"game": "citadels", "weights": {"no_such_weight": 1.0}}, "no_such_weight"),
     ({"weights": {}}, "not a fit of heuristic weights")],
)  # fmt: skip
def test_a_bad_start_is_refused_and_changes_nothing(
    citadels_record: Path, tmp_path: Path, capsys, fit: dict, reason: str
) -> None:
    other = tmp_path / "start.json"
    other.write_text(json.dumps(fit))
    with pytest.raises(SystemExit):
        main([str(citadels_record), "--steps", "1", "--start", str(other),
              "--out", str(tmp_path / "fit.json")])  # fmt: skip
    err = capsys.readouterr().err
    assert f"--start {other}: " in err
    assert reason in err
    assert at_defaults()
    assert not (tmp_path / "fit.json").exists()


def test_games_that_did_not_finish_are_skipped_and_counted(
    citadels_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game a bot's failure ended (a forfeit's returns) and one whose worker died (no
    result) say nothing of how games go: both are skipped, and the count said on stderr."""
    mixed, _, _ = with_unfinished(citadels_record, tmp_path / "mixed.jsonl")
    for read_games in (
        lambda path: positions([path], every=10)[1],
        lambda path: decisions([path], None, seed=1)[1],
    ):
        clean = read_games(citadels_record)
        assert "did not finish" not in capsys.readouterr().err
        kept = read_games(mixed)
        assert f"{mixed}: skipped 2 games that did not finish" in capsys.readouterr().err
        assert [(p.deal, p.returns, p.move) for p in kept] == [
            (p.deal, p.returns, p.move) for p in clean
        ]
