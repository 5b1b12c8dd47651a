"""One scheduled game, played where a backend puts it (a worker process, a Ray task): a job in,
the game's record out. A game is a function of its job alone, so results do not depend on
the worker count or the backend.

A bot that fails (raises, answers an illegal move, times out, loses its server) loses the
game there and then: the record keeps the moves so far and a `failure` (the seat, the
reason and the message), the failed seat's return is 0 and the others share the win. A job
with `retries` plays such a game again from its seed, after a growing pause, up to that many
times (a remote bot whose server is restarting). A game whose worker process died is
recorded by the backend as `crashed`: no result, no bot to blame (`crashed_record`)."""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import engine
from clients.tournament.config import TournamentConfig
from clients.tournament.remote import bot_for, failure_reason, forget_clients
from clients.tournament.schedule import ScheduledGame
from search.bots import Bot, forced_move

#: The first and the longest pause before a failed game is played again, in seconds.
RETRY_PAUSE = (1.0, 30.0)
#: How long a failure's message may be in the record.
MESSAGE_LIMIT = 500


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
    #: How many times a game a bot's failure ended is played again before it counts.
    retries: int = 0


def jobs(config: TournamentConfig, games: list[ScheduledGame], retries: int = 0) -> list[Job]:
    """The jobs of scheduled games."""
    specs = config.specs
    common = (config.game, config.players, config.rules)
    return [
        Job(*common, g.index, g.deal, g.seed, g.seats, tuple(specs[n] for n in g.seats), retries)
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
class Failure:
    """What ended a game early: the seat whose bot failed and why (`error`, `timeout` or
    `disconnected`: `remote.failure_reason`), or None and `crashed` for a worker's death;
    and what the bot raised or answered."""

    seat: int | None
    reason: str
    message: str


@dataclass(frozen=True)
class GameResult:
    #: None for a game a failure ended: it has no final score.
    scores: tuple[int, ...] | None
    #: None for a game whose worker died: it has no result.
    returns: tuple[float, ...] | None
    #: The texts of the moves played, in order.
    moves: tuple[str, ...]
    failure: Failure | None = None


def forfeit_returns(players: int, seat: int) -> tuple[float, ...]:
    """The returns of a game `seat` lost by failing: 0 for it, the win shared by the others."""
    others = 1 / (players - 1) if players > 1 else 0.0
    return tuple(0.0 if i == seat else others for i in range(players))


def clip(text: str) -> str:
    """`text`, cut to `MESSAGE_LIMIT` characters for the record."""
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def describe(error: Exception) -> str:
    """`Type: message` of an exception, clipped for the record."""
    return clip(f"{type(error).__name__}: {error}")


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
    A move with no choice is played without asking the bot (`forced_move`). A bot that
    raises, or answers a move that is not legal, loses the game then (`failure`)."""
    bots = [make(spec, game, players) for spec in specs]
    state = engine.new_game(game, players, seed=seed, rules=rules)
    moves: list[str] = []
    while not state.is_terminal():
        player = state.current_player
        action = forced_move(state)
        if action is None:
            try:
                action = bots[player].choose(state, seed * 100_003 + len(moves))
                if action not in state.legal_actions():
                    raise engine.IllegalMoveError(f"the bot chose action {action}, not legal now")
            except Exception as err:  # a bot is foreign code: whatever it raises loses its game
                failure = Failure(player, failure_reason(err), describe(err))
                return GameResult(None, forfeit_returns(players, player), tuple(moves), failure)
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return GameResult(tuple(state.scores()), tuple(state.returns()), tuple(moves))


def play(job: Job) -> dict[str, Any]:
    """Play the job's game, again from its seed while a bot's failure ends it and the job's
    retries last (each after a longer pause, with fresh connections); its record."""
    rules = engine.game(job.game).rules_class(**job.rules)
    pause = RETRY_PAUSE[0]
    for attempt in range(job.retries + 1):
        if attempt:
            time.sleep(pause)
            pause = min(RETRY_PAUSE[1], 2 * pause)
            forget_clients()
        result = play_game(job.game, job.specs, job.seed, rules, job.players, make=bot_for)
        if result.failure is None:
            break
    return record_of(job, result, rules_json(rules))


def record_of(job: Job, result: GameResult, rules: dict[str, Any]) -> dict[str, Any]:
    """A game's record (JSON-ready): a game a failure ended has no scores, and says why."""
    record: dict[str, Any] = {
        "index": job.index,
        "deal": job.deal,
        "seed": job.seed,
        "seats": list(job.seats),
        "specs": list(job.specs),
        "game": job.game,
        "engine": engine_version(),
        "rules": rules,
        "moves": list(result.moves),
        "scores": None if result.scores is None else list(result.scores),
        "returns": None if result.returns is None else list(result.returns),
    }
    if result.failure is not None:
        failure = result.failure
        bot = None if failure.seat is None else job.seats[failure.seat]
        record["failure"] = {"seat": failure.seat, "bot": bot, "reason": failure.reason,
                             "message": failure.message}  # fmt: skip
    return record


def crashed_record(job: Job, message: str) -> dict[str, Any]:
    """The record of a game whose worker process died: no moves, no result (it counts for no
    bot), the reason `crashed`."""
    rules = rules_json(engine.game(job.game).rules_class(**job.rules))
    failure = Failure(None, "crashed", clip(message))
    return record_of(job, GameResult(None, None, (), failure), rules)
