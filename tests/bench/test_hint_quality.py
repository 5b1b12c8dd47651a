"""bench/hint_quality.py: each shown move valued in the same worlds, its error, its value's
own noise and the regret read with and without the selection's noise; the others reply by
the playout policy or by a bot named."""

from __future__ import annotations

import math

import pytest

from bench.hint_quality import Position, main, measure, reply_spec, true_error, within_by_noise


def test_each_shown_move_is_valued_in_every_sample() -> None:
    found = measure("royal_cities", 2, 2, 200, 100, 2, 3, seed=1)
    assert len(found) == 2
    for position in found:
        shown = len(position.win_chances)
        assert shown >= 1 and len(position.visits) == len(position.samples) == shown
        assert all(len(s) == 2 for s in position.samples)
        assert 0 <= position.chosen < shown
        assert all(0.0 <= c <= 1.0 for c in position.ceiling)
        assert position.regret >= 0.0 and all(n >= 0.0 for n in position.noise)


def test_the_others_can_reply_by_a_search(capsys) -> None:
    args = ["--game", "citadels", "--players", "4", "--positions", "1", "--iterations", "200",
            "--deep", "100", "--samples", "2", "--replies", "mo-ismcts:iterations=50"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "the others replying by mo-ismcts:iterations=50" in out
    assert "the values' own standard error" in out
    assert "scored on separate halves of the samples" in out
    assert "the largest regret's standard error" in out
    assert "with the values' noise taken out" in out
    assert "one valuing search against the mean of the move's other samples" in out
    assert "their noise alone would leave" in out


def test_the_regrets_bracket_a_choice_among_equal_moves() -> None:
    # Two equal moves scored in four worlds: the measure's noise makes the second look
    # better, so the plain regret reads 0.05; the halves find no better move than the chosen.
    position = Position((0.5, 0.5), (100, 100), ((0.5, 0.5, 0.5, 0.5), (0.7, 0.5, 0.3, 0.7)), 0)
    assert position.regret == pytest.approx(0.05)
    assert position.split_regret == pytest.approx(0.0)
    # A move truly better in every half is found by both.
    better = Position((0.5, 0.6), (100, 100), ((0.5, 0.5, 0.5, 0.5), (0.6, 0.6, 0.6, 0.6)), 0)
    assert better.regret == pytest.approx(0.1) == better.split_regret


def test_the_regret_has_its_standard_error() -> None:
    # The chosen move and a better one valued in the same four worlds: their differences
    # (0.1, 0.3, 0.1, 0.3) are paired world by world, whatever each world is worth.
    paired = Position((0.5, 0.5), (100, 100), ((0.2, 0.6, 0.2, 0.6), (0.3, 0.9, 0.3, 0.9)), 0)
    assert paired.regret == pytest.approx(0.2)
    assert paired.regret_noise == pytest.approx(0.1155 / 2, abs=1e-4)
    # A world the better move could not be valued in: the two means taken as independent.
    unpaired = Position((0.5, 0.5), (100, 100), ((0.2, 0.6, 0.2, 0.6), (0.3, 0.9, 0.3)), 0)
    assert unpaired.regret_noise == pytest.approx(math.hypot(*unpaired.noise))
    assert Position((0.5,), (100,), ((0.4, 0.6),), 0).regret_noise == 0.0


def test_the_noise_is_taken_out_of_the_error() -> None:
    # A win chance of 0.5 valued at 0.4 and 0.6 in two worlds: no error but the measure's.
    exact = Position((0.5,), (100,), ((0.4, 0.6),), 0)
    assert exact.errors == (pytest.approx(0.0),)
    noisy = Position((0.5,), (100,), ((0.45, 0.75),), 0)
    # error 0.1, the value's standard error 0.15: all of the error is noise
    assert true_error([noisy]) == 0.0
    off = Position((0.9,), (100,), ((0.45, 0.55),), 0)
    assert true_error([off]) == pytest.approx(math.sqrt(0.4**2 - 0.05**2))


def test_one_valuing_search_is_scored_against_the_others() -> None:
    position = Position((0.5,), (100,), ((0.4, 0.6, 0.5),), 0)
    assert position.single_errors == pytest.approx((0.15, 0.15, 0.0))


def test_the_noise_alone_ceiling() -> None:
    assert within_by_noise(0.5, 10**9, 0.0) > 0.999
    # a binomial share of 100 playouts at 0.5 has a standard error of 0.05: about 68% lie within
    assert abs(within_by_noise(0.5, 100, 0.0) - 0.6827) < 0.001
    assert within_by_noise(0.0, 100, 0.0) == 1.0


def test_the_others_can_reply_as_strongly_as_the_valuing_search() -> None:
    assert reply_spec("heuristic", "citadels", 4, 6000) == "heuristic"
    assert (
        reply_spec("default", "royal_cities", 1, 6000)
        == "mo-ismcts:margin_weight=1.0,margin_scale=40,epsilon=0,iterations=6000"
    )
    for players in (2, 3, 4):
        assert (
            reply_spec("default", "royal_cities", players, 100)
            == "mo-ismcts:epsilon=0.1,bias=3,c=0.5,iterations=100"
        )


def test_a_move_can_be_valued_by_searches_from_the_position_after_it(capsys) -> None:
    args = ["--game", "royal_cities", "--players", "3", "--positions", "1", "--iterations",
            "200", "--deep", "100", "--samples", "2", "--replies", "tree"]  # fmt: skip
    assert main(args) == 0
    assert "the others replying by the valuing search's own trees" in capsys.readouterr().out
