"""What the recorded games say about each bot: games, wins, win rate with its 95% interval,
mean score and margin; and who finished ahead of whom (the pairwise win matrix).

A bot in several seats of one game (a gauntlet's field) counts one game per seat. One seat is
ahead of another when it won more (a shared win counts its share), or won as much with more
points; a tie counts half to each. A game a bot's failure ended counts as that bot's loss (a
win shared by the others) with no scores, so only the games played to the end make the mean
score and margin; a game whose worker died has no result and counts for no bot
(`decided`)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


def margin(scores: Sequence[int], seat: int) -> int:
    """A seat's score minus the best other score (in solo, the automated opponent's: it is
    scored last)."""
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count fractionally)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class BotResult:
    name: str
    spec: str
    games: int
    #: Wins, a shared win counted by its share.
    wins: float
    interval: tuple[float, float]
    mean_score: float
    mean_margin: float
    #: The games played to their end, which alone have scores (and make the means).
    finished: int = 0
    #: The games it lost by failing, by reason (`error`, `timeout`, `disconnected`).
    failures: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def decided(games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games with a result: all but those whose worker died."""
    return [game for game in games if game["returns"] is not None]


def bot_results(specs: dict[str, str], games: Sequence[dict[str, Any]]) -> list[BotResult]:
    """Each bot's line, in the order of `specs`, from the decided games among `games`."""
    out = []
    games = decided(games)
    for name, spec in specs.items():
        seats = [(g, s) for g in games for s, who in enumerate(g["seats"]) if who == name]
        wins = sum(g["returns"][s] for g, s in seats)
        scored = [(g["scores"], s) for g, s in seats if g["scores"] is not None]
        failures = Counter(g["failure"]["reason"] for g, s in seats
                           if "failure" in g and g["failure"]["seat"] == s)  # fmt: skip
        out.append(
            BotResult(
                name=name,
                spec=spec,
                games=len(seats),
                wins=wins,
                interval=wilson(wins, len(seats)),
                mean_score=statistics.fmean(sc[s] for sc, s in scored) if scored else 0.0,
                mean_margin=statistics.fmean(margin(sc, s) for sc, s in scored) if scored else 0.0,
                finished=len(scored),
                failures=dict(sorted(failures.items())),
            )
        )
    return out


def ahead(game: dict[str, Any], a: int, b: int) -> float:
    """1 if seat a finished ahead of seat b, 0 if behind, 1/2 for a tie (by the returns alone
    in a game a failure ended)."""
    scores = game["scores"] or [0] * len(game["seats"])
    key_a = (game["returns"][a], scores[a])
    key_b = (game["returns"][b], scores[b])
    return 1.0 if key_a > key_b else 0.0 if key_a < key_b else 0.5


def pairwise(
    names: Sequence[str], games: Sequence[dict[str, Any]], deals: Sequence[int]
) -> np.ndarray:
    """points[d, i, j]: how often bot i finished ahead of bot j in deal `deals[d]` (over every
    pair of their seats, ties halved). Seats of the same bot are not compared."""
    index = {name: i for i, name in enumerate(names)}
    slot = {deal: d for d, deal in enumerate(deals)}
    points = np.zeros((len(deals), len(names), len(names)))
    for game in decided(games):
        d = slot[game["deal"]]
        seats = game["seats"]
        for a, name_a in enumerate(seats):
            for b, name_b in enumerate(seats):
                if name_a != name_b:
                    points[d, index[name_a], index[name_b]] += ahead(game, a, b)
    return points


def win_matrix(points: np.ndarray) -> list[list[float | None]]:
    """matrix[i][j]: the share of i's meetings with j that i finished ahead (None: never met)."""
    total = points.sum(axis=0)
    met = total + total.T
    n = len(total)
    return [
        [float(total[i, j] / met[i, j]) if met[i, j] else None for j in range(n)] for i in range(n)
    ]
