"""Ratings with 95% intervals: Elo for 2-player games, OpenSkill for multiplayer games.

Elo: a Bradley-Terry fit (choix's ILSR) of who finished ahead of whom, with one virtual draw
added for every pair that met so a bot that never lost still gets a finite rating; Elo is
400/ln 10 times the Bradley-Terry strength, and the ratings average 0. The interval comes from
a bootstrap over deals (a deal's games are resampled together, since duplicate deals are
correlated by design), seeded from the tournament seed.

OpenSkill: the Weng-Lin Bradley-Terry model over all pairs of seats ("full pairing") of the
openskill library, updated game by game in schedule order; the interval is mu ± 1.96 sigma.
(Its Plackett-Luce model gives two players who share a win the same update as the player in
third place of four, so ties, which the game has, would be misread.) A bot in several seats of
one game takes the mean of its seats' updates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import choix
import numpy as np
from openskill.models import BradleyTerryFull

from clients.tournament.results import ahead

ELO_PER_NAT = 400 / math.log(10)
Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 1000


@dataclass(frozen=True)
class Rating:
    name: str
    value: float
    low: float
    high: float


def elo_from_score(score: float) -> float:
    """The logistic Elo difference that gives an expected score (0.75 -> +190.85)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_difference(wins: float, draws: float, losses: float) -> tuple[float, float, float]:
    """(Elo, low, high) of one bot over another from its wins, draws and losses, as cutechess
    reports it: the score's 95% normal interval (per-game variance) mapped through the logistic."""
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    half = Z95 * math.sqrt(variance / n)
    return elo_from_score(score), elo_from_score(score - half), elo_from_score(score + half)


def _bradley_terry(points: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Elo of each bot from the pairwise points (i ahead of j), prior draws added."""
    strengths = choix.ilsr_pairwise_dense(points + prior, max_iter=1000)
    return strengths * ELO_PER_NAT


def elo_ratings(
    names: Sequence[str], points: np.ndarray, seed: int, resamples: int = BOOTSTRAP_RESAMPLES
) -> list[Rating]:
    """Elo ratings from points[deal, i, j] (see `results.pairwise`), intervals by bootstrap."""
    total = points.sum(axis=0)
    prior = 0.5 * ((total + total.T) > 0)  # one virtual draw: half a point each way
    value = _bradley_terry(total, prior)
    rng = np.random.default_rng(seed)
    deals = len(points)
    samples = np.array(
        [_bradley_terry(points[rng.integers(0, deals, deals)].sum(axis=0), prior)
         for _ in range(resamples)]
    )  # fmt: skip
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return [
        Rating(name, float(v), float(lo), float(hi))
        for name, v, lo, hi in zip(names, value, low, high, strict=True)
    ]


def openskill_ratings(names: Sequence[str], games: Sequence[dict[str, Any]]) -> list[Rating]:
    """Weng-Lin Bradley-Terry ratings after every game in order (`games` sorted by index)."""
    model = BradleyTerryFull()
    current = {name: model.rating(name=name) for name in names}
    for game in games:
        seats = game["seats"]
        ranks: list[float] = [
            sum(ahead(game, other, seat) == 1.0 for other in range(len(seats)))
            for seat in range(len(seats))
        ]
        updated = model.rate([[current[name]] for name in seats], ranks=ranks)
        for name in set(seats):
            mine = [team[0] for team, who in zip(updated, seats, strict=True) if who == name]
            mu = sum(r.mu for r in mine) / len(mine)
            sigma = sum(r.sigma for r in mine) / len(mine)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return [
        Rating(name, r.mu, r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma)
        for name, r in current.items()
    ]
