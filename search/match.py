"""A simple match runner: bots play seeded games with seats rotated, in worker
processes; win rates come with 95% Wilson intervals."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import engine
from search.bots import Bot, make_bot

#: The Legend table of the solo mode: (lowest margin, grade), best first.
LEGEND = (
    (31, "Your Cities will shine forever"),
    (21, "Wonders: talked about in 200 years"),
    (11, "No greater prestige across the provinces"),
    (1, "Neighbouring Cities envy you"),
    (0, "Talked about in the taverns (tie)"),
    (-9, "A few lines in a history book"),
    (-10_000, "You could do better"),
)


def legend_grade(margin: int) -> str:
    """The Legend-table grade of a final solo margin (player VP minus Regent VP)."""
    return next(grade for low, grade in LEGEND if margin >= low)


@dataclass(frozen=True)
class GameResult:
    seed: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    #: The texts of the moves played, in order.
    moves: tuple[str, ...]


def play_game(
    game: str,
    specs: Sequence[str],
    seed: int,
    rules: object = None,
    players: int | None = None,
    make: Callable[[str], Bot] = make_bot,
) -> GameResult:
    """One game: seat i is played by the bot `make(specs[i])`; every move seed derives from
    `seed`, so a game of deterministic bots is a function of its arguments."""
    num_players = players if players is not None else len(specs)
    bots = [make(spec) for spec in specs]
    state = engine.new_game(game, num_players, seed=seed, rules=rules)
    moves: list[str] = []
    while not state.is_terminal():
        player = state.current_player
        action = bots[player].choose(state, seed * 100_003 + len(moves))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return GameResult(
        seed, tuple(specs), tuple(state.scores()), tuple(state.returns()), tuple(moves)
    )


def margin(scores: Sequence[int], seat: int) -> int:
    """A seat's score minus the best other score (in solo, the Regent's: it is scored last)."""
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


Job = tuple[str, tuple[str, ...], int, "int | None"]


def _play(job: Job) -> GameResult:
    game, specs, seed, players = job
    return play_game(game, specs, seed, players=players)


def run_games(
    jobs: list[tuple[str, tuple[str, ...], int, int | None]], workers: int
) -> list[GameResult]:
    """Play jobs in `workers` processes (in this process when workers is 1)."""
    if workers <= 1:
        return [_play(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_play, jobs, chunksize=1))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count fractionally)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class PairingResult:
    bot: str
    field: str
    players: int
    games: int
    score: float  # wins of `bot`, shared wins split
    interval: tuple[float, float]
    mean_margin: float

    @property
    def win_rate(self) -> float:
        return self.score / self.games


def pairing(
    game: str, players: int, bot: str, field: str, games: int, seed: int, workers: int = 1
) -> PairingResult:
    """`bot` in one seat against `field` in all others, its seat rotated every game."""
    jobs = []
    for g in range(games):
        seat = g % players
        specs = tuple(bot if i == seat else field for i in range(players))
        jobs.append((game, specs, seed + g, None))
    results = run_games(jobs, workers)
    score = total_margin = 0.0
    for g, result in enumerate(results):
        seat = g % players
        score += result.returns[seat]
        total_margin += margin(result.scores, seat)
    return PairingResult(
        bot, field, players, games, score, wilson(score, games), total_margin / games
    )


@dataclass(frozen=True)
class SoloResult:
    bot: str
    games: int
    margins: tuple[int, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.margins)

    @property
    def median(self) -> float:
        return statistics.median(self.margins)


def solo(game: str, bot: str, games: int, seed: int, workers: int = 1) -> SoloResult:
    """`bot` against the Regent: the margins player VP minus Regent VP."""
    jobs = [(game, (bot,), seed + g, 1) for g in range(games)]
    results = run_games(jobs, workers)
    return SoloResult(bot, games, tuple(margin(r.scores, 0) for r in results))
