"""Rating math against known values: the logistic Elo of a score, cutechess's interval, the
Bradley-Terry fit, the Weng-Lin Plackett-Luce update, and the fishtest GSPRT."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clients.tournament.ratings import (
    elo_difference,
    elo_from_score,
    elo_ratings,
    openskill_ratings,
)
from clients.tournament.sprt import (
    bounds,
    elo_of_share,
    expected_score,
    llr,
    outcomes,
    sprt_state,
)


@pytest.mark.parametrize(
    ("score", "elo"),
    [(0.5, 0.0), (0.75, 190.849), (0.25, -190.849), (0.9, 381.697), (0.64, 100.0)],
)
def test_elo_of_a_score(score: float, elo: float) -> None:
    assert elo_from_score(score) == pytest.approx(elo, abs=0.05)
    assert expected_score(elo_from_score(score)) == pytest.approx(score)


def test_elo_difference_interval_is_the_score_interval_mapped() -> None:
    """75 wins, 25 losses: score 0.75, per-game variance 0.1875, so the score's 95% interval
    is 0.75 ± 1.96 * sqrt(0.1875 / 100) = [0.6651, 0.8349]."""
    elo, low, high = elo_difference(75, 0, 25)
    assert elo == pytest.approx(190.85, abs=0.01)
    assert low == pytest.approx(elo_from_score(0.75 - 1.96 * math.sqrt(0.001875)), abs=0.1)
    assert high == pytest.approx(elo_from_score(0.75 + 1.96 * math.sqrt(0.001875)), abs=0.1)
    assert (low, high) == pytest.approx((119.2, 281.5), abs=0.1)
    # draws shrink the variance but not the score
    elo_d, low_d, high_d = elo_difference(50, 50, 0)
    assert elo_d == pytest.approx(190.85, abs=0.01) and high_d - low_d < high - low


def test_bradley_terry_recovers_known_strengths() -> None:
    """Points that match Elo 0, 100 and 300 exactly give those ratings back (mean 0)."""
    truth = np.array([0.0, 100.0, 300.0])
    points = np.zeros((1, 3, 3))
    for i in range(3):
        for j in range(3):
            if i != j:
                points[0, i, j] = 1e6 * expected_score(truth[i] - truth[j])
    ratings = elo_ratings(["a", "b", "c"], points, seed=1, resamples=20)
    assert [r.value for r in ratings] == pytest.approx(list(truth - truth.mean()), abs=0.1)


def test_elo_prior_is_one_virtual_draw_per_pair() -> None:
    """3 wins to 1 becomes 3.5 to 1.5 with the virtual draw: a gap of elo(0.7) = 147.2."""
    points = np.zeros((4, 2, 2))
    points[:3, 0, 1] = 1
    points[3, 1, 0] = 1
    a, b = elo_ratings(["a", "b"], points, seed=1, resamples=200)
    assert a.value - b.value == pytest.approx(elo_from_score(0.7), abs=0.01)
    assert a.low < a.value < a.high and b.low < b.value < b.high
    again = elo_ratings(["a", "b"], points, seed=1, resamples=200)
    assert (again[0].low, again[0].high) == (a.low, a.high)  # seeded bootstrap


def _game(seats: list[str], returns: list[float], scores: list[int]) -> dict:
    return {"seats": seats, "returns": returns, "scores": scores, "deal": 0}


def test_openskill_matches_the_weng_lin_update() -> None:
    """One 2-player game from the default (mu 25, sigma 25/3, beta 25/6): the winner goes to
    mu 25 + sigma^2 / c / 2 = 27.635 with c = sqrt(2 sigma^2 + 2 beta^2), the loser to 22.365,
    both to sigma 8.066 (Weng and Lin's update with tau 25/300)."""
    winner, loser = openskill_ratings(["w", "l"], [_game(["l", "w"], [0, 1], [10, 20])])
    assert winner.value == pytest.approx(27.635, abs=1e-3)
    assert loser.value == pytest.approx(22.365, abs=1e-3)
    assert winner.high - winner.value == pytest.approx(1.96 * 8.066, abs=1e-2)


def test_openskill_ranks_losers_by_score_and_splits_shared_wins() -> None:
    game = _game(["a", "b", "c", "d"], [0.5, 0.5, 0, 0], [30, 30, 20, 25])
    a, b, c, d = openskill_ratings(["a", "b", "c", "d"], [game])
    assert a.value == pytest.approx(b.value) and a.value > d.value + 5 > c.value + 10


@pytest.mark.parametrize(
    ("elo0", "elo1", "results", "expected"),
    [  # (losses, draws, wins); expected from fishtest's LLRcalc.LLR_logistic
        (0, 5, (400, 200, 450), 0.7546243759266095),
        (0, 10, (1000, 500, 1200), 5.693883496196924),
        (-5, 5, (30, 10, 60), 0.9594024610309636),
        (0, 50, (0, 0, 20), 2.671816269117305),
        (0, 10, (120, 80, 100), -0.9538817339533147),
    ],
)
def test_llr_matches_fishtest(
    elo0: float, elo1: float, results: tuple[int, int, int], expected: float
) -> None:
    losses, draws, wins = results
    trinomial = {0.0: losses, 0.5: draws, 1.0: wins}
    assert llr(trinomial, elo0, elo1) == pytest.approx(expected, rel=1e-9)


def test_sprt_bounds_and_verdicts() -> None:
    assert bounds(0.05, 0.05) == pytest.approx((-2.944, 2.944), abs=1e-3)
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert sprt_state({1.0: 20}, 0, 50, 0.05, 0.05).verdict is None  # 2.67 < 2.94
    assert sprt_state({1.0: 23}, 0, 50, 0.05, 0.05).verdict == "H1"
    assert sprt_state({0.0: 23}, 0, 50, 0.05, 0.05).verdict == "H0"


def test_a_field_of_equal_bots_shares_the_win_by_the_luce_odds() -> None:
    """With more players, Elo d means odds 10^(d/400) against each other seat's bot."""
    assert expected_score(0, players=4) == pytest.approx(0.25)
    assert expected_score(0, players=6) == pytest.approx(1 / 6)
    assert expected_score(400, players=4) == pytest.approx(10 / 13)
    assert expected_score(120, players=2) == pytest.approx(expected_score(120))
    for players, elo in [(2, 0.0), (4, 83.0), (6, -120.0), (7, 400.0)]:
        assert elo_of_share(expected_score(elo, players), players) == pytest.approx(elo)
    assert elo_of_share(0.0, 4) == -math.inf and elo_of_share(1.0, 4) == math.inf
    assert outcomes(4) == (0.0, 0.25, 1 / 3, 0.5, 1.0) and outcomes(2) == (0.0, 0.5, 1.0)


def test_a_multiplayer_sprt_weighs_win_shares_against_the_field() -> None:
    """A quarter of the wins at 4 players is what an equal bot gets: it leans to H0 against
    +50 Elo, where at 2 players the same share would reject H1 far sooner; a third of the wins
    over many games accepts H1 (+50 Elo at 4 players is a 30.8% share)."""
    equal = {0.0: 75, 1.0: 25}
    assert llr(equal, 0, 50, players=4) < 0
    assert llr(equal, 0, 50, players=4) > llr(equal, 0, 50, players=2)
    third = {0.0: 400, 0.5: 20, 1.0: 190}
    assert sprt_state(third, 0, 50, 0.05, 0.05, players=4).verdict == "H1"
    assert sprt_state(third, 0, 50, 0.05, 0.05, players=2).verdict == "H0"
    # A shared win counts by its share: half-wins in half the games are an equal bot's mean,
    # and lean to H0 as well (more surely: the results vary less).
    shared = {0.0: 50, 0.5: 50}
    assert llr(shared, 0, 50, players=4) < llr(equal, 0, 50, players=4) < 0
