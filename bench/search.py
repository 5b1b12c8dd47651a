"""`regent bench search`: iterations and simulated actions per second of each game's
default bot at each player count (the registry's spec) on one core, the speedup of
root parallelization on two, and how far past its time budget each search ended (which a
test cannot assert on a busy machine: tests/timing.py)."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass

import engine
from bench.games import bench_position
from engine.interface import State
from search.bots import search_config
from search.games import default_bot
from search.search import search


@dataclass(frozen=True)
class SearchFigures:
    game: str
    players: int
    bot: str  # the spec measured: the game's default bot at this player count
    position: str  # "opening" or "mid-game"
    threads: int
    iterations: int
    simulated_actions: int
    seconds: float
    #: Seconds past its time budget the search ended (its threads' last clock check and join).
    over_budget: float

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.simulated_actions / self.seconds


def mid_game(game: str, players: int, seed: int) -> State:
    """A seeded random game played on to its mid-game position (see `bench.games`)."""
    state = engine.new_game(game, players, seed=seed)
    is_mid_game = bench_position(game)
    rng = random.Random(seed)
    while not is_mid_game(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def measure(
    game: str, state: State, players: int, position: str, threads: int, seconds: float
) -> SearchFigures:
    """The game's default bot searching `state` for `seconds` alone, on `threads` threads."""
    bot = default_bot(game, players)
    config = search_config(
        bot, game, players, iterations=0, seconds=seconds, threads=threads, seed=1
    )
    assert config is not None, f"{game}'s default bot at {players} players does not search"
    result = search(state, config)
    return SearchFigures(
        game, players, bot, position, threads,
        result.iterations, result.simulated_actions, result.elapsed, result.elapsed - seconds,
    )  # fmt: skip


def run(
    games: dict[str, list[int]], seconds: float, seed: int, as_json: bool
) -> list[SearchFigures]:
    """Measure each game at each of its player counts, opening and mid-game."""
    figures = []
    for game, counts in games.items():
        for n in counts:
            positions = {
                "opening": engine.new_game(game, n, seed=seed),
                "mid-game": mid_game(game, n, seed),
            }
            for name, state in positions.items():
                for threads in (1, 2):
                    figures.append(measure(game, state, n, name, threads, seconds))
    if as_json:
        rows = []
        for f in figures:
            row = asdict(f) | {
                "iterations_per_second": round(f.iterations_per_second),
                "actions_per_second": round(f.actions_per_second),
            }
            if f.threads == 2:
                row["speedup"] = round(f.actions_per_second / _one_thread(figures, f), 2)
            rows.append(row)
        print(json.dumps(rows, indent=2))
        return figures
    print(f"{'game':<13} {'players':>7} {'bot':<22} {'position':<9} {'threads':>7} "
          f"{'iterations/s':>13} {'actions/s':>12} {'speedup':>8} {'over ms':>8}")  # fmt: skip
    for f in figures:
        ratio = f.actions_per_second / _one_thread(figures, f)
        speedup = f"{ratio:.2f}x" if f.threads == 2 else ""
        print(
            f"{f.game:<13} {f.players:>7} {f.bot:<22} {f.position:<9} {f.threads:>7} "
            f"{f.iterations_per_second:>13,.0f} {f.actions_per_second:>12,.0f} {speedup:>8} "
            f"{1000 * f.over_budget:>8.1f}"
        )
    return figures


def _one_thread(figures: list[SearchFigures], f: SearchFigures) -> float:
    return next(
        g.actions_per_second
        for g in figures
        if (g.game, g.players, g.position, g.threads) == (f.game, f.players, f.position, 1)
    )
