"""The sequential probability ratio test of fishtest and cutechess: the generalized (GSPRT)
log-likelihood ratio of trinomial results (losses, draws, wins) for an expected score at the
logistic Elo difference elo1 against elo0, stopped at the Wald bounds of alpha and beta.

Under each hypothesis the result distribution is the maximum-likelihood one whose mean score
is that hypothesis's; a count of zero counts as 0.001 so that the ratio stays finite."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.optimize import brentq

#: The score of an outcome: loss, draw (a shared win), win.
OUTCOMES = (0.0, 0.5, 1.0)
#: What an outcome that never happened counts as.
EPSILON = 1e-3


def expected_score(elo: float) -> float:
    """The expected score at a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _constrained(freqs: list[float], score: float) -> list[float]:
    """The distribution over OUTCOMES of greatest likelihood for the frequencies `freqs`
    among those with mean `score`: p_i = f_i / (1 + x (a_i - s)), x from the mean's equation."""
    shifted = [a - score for a in OUTCOMES]

    def mean_gap(x: float) -> float:
        return sum(f * d / (1 + x * d) for f, d in zip(freqs, shifted, strict=True))

    # 1 + x d_i must stay positive: x between -1/max(d) and -1/min(d).
    low, high = -1 / max(shifted), -1 / min(shifted)
    margin = 1e-9 * (high - low)
    x = brentq(mean_gap, low + margin, high - margin, xtol=1e-15)
    return [f / (1 + x * d) for f, d in zip(freqs, shifted, strict=True)]


def llr(losses: float, draws: float, wins: float, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (Elo difference elo1) over H0 (elo0)."""
    counts = [c if c > 0 else EPSILON for c in (losses, draws, wins)]
    n = sum(counts)
    freqs = [c / n for c in counts]
    p0 = _constrained(freqs, expected_score(elo0))
    p1 = _constrained(freqs, expected_score(elo1))
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
    losses: float, draws: float, wins: float, elo0: float, elo1: float, alpha: float, beta: float
) -> SprtState:
    """The test after these results (of the first bot against the second)."""
    return SprtState(llr(losses, draws, wins, elo0, elo1), *bounds(alpha, beta))
