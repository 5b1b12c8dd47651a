"""The sequential probability ratio test of fishtest and cutechess: the generalized (GSPRT)
log-likelihood ratio of one bot's results for an expected score at the logistic Elo difference
elo1 against elo0, stopped at the Wald bounds of alpha and beta.

A result is the tested bot's share of the win: 0 (lost), 1 (won alone) or 1/k (a win shared
by k). Two players give the trinomial of fishtest (loss, draw, win). With more players the bot
plays a field of equal bots in the other seats (a gauntlet), and an Elo difference d means,
as in Bradley-Terry and Luce's choice model, that it wins with the odds 10^(d/400) against
each of them: an expected share of 10^(d/400) / (10^(d/400) + players - 1).

Under each hypothesis the result distribution is the maximum-likelihood one whose mean score
is that hypothesis's; a result that never happened counts 0.001 so that the ratio stays
finite."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from scipy.optimize import brentq

#: What a result that never happened counts as.
EPSILON = 1e-3


def expected_score(elo: float, players: int = 2) -> float:
    """The expected share of the win at an Elo difference over each other seat's bot."""
    odds = 10 ** (elo / 400)
    return odds / (odds + players - 1)


def elo_of_share(share: float, players: int = 2) -> float:
    """The Elo difference over each other seat's bot whose expected share is `share` (the
    inverse of `expected_score`); infinite at a share of 0 or 1."""
    if share <= 0.0:
        return -math.inf
    if share >= 1.0:
        return math.inf
    return 400 * math.log10(share * (players - 1) / (1 - share))


def outcomes(players: int) -> tuple[float, ...]:
    """The results a game of `players` can give one bot: lost, a win shared by k, won."""
    return (0.0, *(1 / k for k in range(players, 1, -1)), 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _constrained(values: list[float], freqs: list[float], score: float) -> list[float]:
    """The distribution over `values` of greatest likelihood for the frequencies `freqs`
    among those with mean `score`: p_i = f_i / (1 + x (a_i - s)), x from the mean's equation."""
    shifted = [a - score for a in values]

    def mean_gap(x: float) -> float:
        return sum(f * d / (1 + x * d) for f, d in zip(freqs, shifted, strict=True))

    # 1 + x d_i must stay positive: x between -1/max(d) and -1/min(d).
    low, high = -1 / max(shifted), -1 / min(shifted)
    margin = 1e-9 * (high - low)
    x = brentq(mean_gap, low + margin, high - margin, xtol=1e-15)
    return [f / (1 + x * d) for f, d in zip(freqs, shifted, strict=True)]


def llr(results: Mapping[float, float], elo0: float, elo1: float, players: int = 2) -> float:
    """The GSPRT log-likelihood ratio of H1 (Elo difference elo1) over H0 (elo0), from how
    many games gave each result (the tested bot's share of the win)."""
    values = sorted(set(outcomes(players)) | set(results))
    counts = [results.get(v, 0.0) or EPSILON for v in values]
    n = sum(counts)
    freqs = [c / n for c in counts]
    p0 = _constrained(values, freqs, expected_score(elo0, players))
    p1 = _constrained(values, freqs, expected_score(elo1, players))
    return n * sum(f * (math.log(b) - math.log(a)) for f, a, b in zip(freqs, p0, p1, strict=True))


@dataclass(frozen=True)
class SprtState:
    """Where the test stands: the LLR, its bounds, and the verdict once a bound is reached."""

    llr: float
    lower: float
    upper: float

    @property
    def verdict(self) -> str | None:
        """H1 (the difference is at least elo1), H0 (at most elo0), or None: go on."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt_state(
    results: Mapping[float, float],
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    players: int = 2,
) -> SprtState:
    """The test after these results of the tested bot (see `llr`)."""
    return SprtState(llr(results, elo0, elo1, players), *bounds(alpha, beta))
