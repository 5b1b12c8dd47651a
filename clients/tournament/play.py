"""One scheduled game, played where a backend puts it (a worker process, a Ray task): a job in,
the game's record out. A game is a function of its job alone, so results do not depend on
the worker count or the backend."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import engine
from clients.tournament.config import TournamentConfig
from clients.tournament.remote import bot_for
from clients.tournament.schedule import ScheduledGame
from search.bots import Bot, forced_move


@dataclass(frozen=True)
class Job:
    """Everything a worker needs for one game (picklable, small)."""

    game: str
    players: int
    rules: dict[str, Any]
    index: int
    deal: int
    seed: int
    seats: tuple[str, ...]
    specs: tuple[str, ...]


def jobs(config: TournamentConfig, games: list[ScheduledGame]) -> list[Job]:
    """The jobs of scheduled games."""
    specs = config.specs
    common = (config.game, config.players, config.rules)
    return [
        Job(*common, g.index, g.deal, g.seed, g.seats, tuple(specs[n] for n in g.seats))
        for g in games
    ]


@functools.cache
def engine_version() -> str:
    """The installed regent package's version ("unknown" when run from a source tree)."""
    try:
        return metadata.version("regent")
    except metadata.PackageNotFoundError:
        return "unknown"


def rules_json(rules: Any) -> dict[str, Any]:
    """Every option of a rules object, defaults included: the rules a game was played by."""
    return dataclasses.asdict(rules)


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    #: The texts of the moves played, in order.
    moves: tuple[str, ...]


def play_game(
    game: str,
    specs: Sequence[str],
    seed: int,
    rules: Any,
    players: int,
    make: Callable[[str, str, int], Bot],
) -> GameResult:
    """One game: seat i is played by the bot `make(specs[i], game, players)`; every move seed
    derives from `seed`, so a game of deterministic bots is a function of its arguments.
    A move with no choice is played without asking the bot (`forced_move`)."""
    bots = [make(spec, game, players) for spec in specs]
    state = engine.new_game(game, players, seed=seed, rules=rules)
    moves: list[str] = []
    while not state.is_terminal():
        player = state.current_player
        action = forced_move(state)
        if action is None:
            action = bots[player].choose(state, seed * 100_003 + len(moves))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return GameResult(tuple(state.scores()), tuple(state.returns()), tuple(moves))


def play(job: Job) -> dict[str, Any]:
    """Play the job's game; its record (JSON-ready)."""
    rules = engine.game(job.game).rules_class(**job.rules)
    result = play_game(job.game, job.specs, job.seed, rules, job.players, make=bot_for)
    return {
        "index": job.index,
        "deal": job.deal,
        "seed": job.seed,
        "seats": list(job.seats),
        "specs": list(job.specs),
        "game": job.game,
        "engine": engine_version(),
        "rules": rules_json(rules),
        "moves": list(result.moves),
        "scores": list(result.scores),
        "returns": list(result.returns),
    }
