"""`regent bench engine`: random full games per second and actions per second,
through the C core on one core and through the Python API for comparison."""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass

import engine


@dataclass(frozen=True)
class EngineFigures:
    game: str
    players: int
    path: str  # "c-core" or "python-api"
    games: int
    actions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


def _timed(run_batch, batch: int, seconds: float) -> tuple[int, int, float]:
    """Run batches until `seconds` have passed; return games, actions, elapsed."""
    games = actions = 0
    start = time.perf_counter()
    while True:
        actions += run_batch(games, batch)
        games += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, actions, elapsed


def c_core(game: str, players: int, seconds: float, seed: int) -> EngineFigures:
    """Random games dealt and played entirely in C, without the GIL, on this thread."""
    play_random_games = engine.game(game).random_games
    games, actions, elapsed = _timed(
        lambda done, batch: play_random_games(players, batch, seed + done), 2000, seconds
    )
    return EngineFigures(game, players, "c-core", games, actions, elapsed)


def python_api(game: str, players: int, seconds: float, seed: int) -> EngineFigures:
    """The same random games through legal_actions() and apply_action() from Python."""

    def batch(done: int, size: int) -> int:
        actions = 0
        for g in range(size):
            state = engine.new_game(game, players, seed=seed + done + g)
            rng = random.Random(seed + done + g)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions

    games, actions, elapsed = _timed(batch, 5, seconds)
    return EngineFigures(game, players, "python-api", games, actions, elapsed)


def run(
    games: dict[str, list[int]], seconds: float, seed: int, as_json: bool
) -> list[EngineFigures]:
    """Measure each game at each of its player counts."""
    figures = []
    for game, counts in games.items():
        for n in counts:
            figures.append(c_core(game, n, seconds, seed))
            figures.append(python_api(game, n, seconds, seed))
    if as_json:
        print(
            json.dumps(
                [
                    asdict(f)
                    | {
                        "games_per_second": round(f.games_per_second, 1),
                        "actions_per_second": round(f.actions_per_second),
                    }
                    for f in figures
                ],
                indent=2,
            )
        )
    else:
        print(f"{'game':<13} {'players':>7} {'path':<11} {'games/s':>12} {'actions/s':>14}")
        for f in figures:
            print(
                f"{f.game:<13} {f.players:>7} {f.path:<11} "
                f"{f.games_per_second:>12,.0f} {f.actions_per_second:>14,.0f}"
            )
    return figures
