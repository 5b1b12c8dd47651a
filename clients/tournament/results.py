"""What the recorded games say about each bot: games, wins, win rate with its 95% interval,
mean score and margin; and who finished ahead of whom (the pairwise win matrix).

A bot in several seats of one game (a gauntlet's field) counts one game per seat. One seat is
ahead of another when it won more (a shared win counts its share), or won as much with more
points; a tie counts half to each."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
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

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def bot_results(specs: dict[str, str], games: Sequence[dict[str, Any]]) -> list[BotResult]:
    """Each bot's line, in the order of `specs`."""
    out = []
    for name, spec in specs.items():
        seats = [(g, s) for g in games for s, who in enumerate(g["seats"]) if who == name]
        wins = sum(g["returns"][s] for g, s in seats)
        out.append(
            BotResult(
                name=name,
                spec=spec,
                games=len(seats),
                wins=wins,
                interval=wilson(wins, len(seats)),
                mean_score=statistics.fmean(g["scores"][s] for g, s in seats) if seats else 0.0,
                mean_margin=statistics.fmean(margin(g["scores"], s) for g, s in seats)
                if seats
                else 0.0,
            )
        )
    return out


def ahead(game: dict[str, Any], a: int, b: int) -> float:
    """1 if seat a finished ahead of seat b, 0 if behind, 1/2 for a tie."""
    key_a = (game["returns"][a], game["scores"][a])
    key_b = (game["returns"][b], game["scores"][b])
    return 1.0 if key_a > key_b else 0.0 if key_a < key_b else 0.5


def pairwise(
    names: Sequence[str], games: Sequence[dict[str, Any]], deals: Sequence[int]
) -> np.ndarray:
    """points[d, i, j]: how often bot i finished ahead of bot j in deal `deals[d]` (over every
    pair of their seats, ties halved). Seats of the same bot are not compared."""
    index = {name: i for i, name in enumerate(names)}
    slot = {deal: d for d, deal in enumerate(deals)}
    points = np.zeros((len(deals), len(names), len(names)))
    for game in games:
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
