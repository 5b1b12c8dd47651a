"""A review of one seat's game: the estimated win chance after each of its decisions, and
the moments where its move lost the most win chance against the best move a deeper search
finds, each with the position and the alternatives.

Only the seat's information is used: the review reads the seat's observation before each
of its moves (`Decision`), never the true game, and every search is seeded from the
review's seed and the decision's number, so the same decisions, budgets and seed give the
same review wherever it runs (the command line, the service).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine.interface import State
from search.bots import advice_config, is_level, own_budget, parse_spec
from search.games import DEFAULT_BOT, default_bot
from search.ismcts import CancelToken
from search.search import SearchConfig, SearchResult, search

#: Seeds of decision n's searches: (seed * SEED_STRIDE + 2n + deep) mod 2**64.
SEED_STRIDE = 1_000_003


@dataclass(frozen=True)
class Decision:
    """One move of the reviewed seat: its observation just before, and the move's text."""

    observation: Any
    move: str


@dataclass(frozen=True)
class ReviewConfig:
    """How hard to look. Budgets of 0 mean no limit on that axis; each search needs one.
    With one thread and iteration budgets only, the review is a function of its input.
    A bot that sets budget parts itself searches with them in place of these, in every
    search, the first and the deeper: a level its whole budget (iterations, seconds and
    threads), a search bot's spec the parts it names (`mo-ismcts:iterations=100`)."""

    #: The search; empty means the game's default bot at the reviewed game's player count
    #: (the registry's, as the service's advice), chosen when the decisions are read; a
    #: level (`level:3`) is resolved for the reviewed game and player count.
    bot: str = ""
    iterations: int = 500
    seconds: float = 0.0
    #: The deeper search of the moments that look worst at the first budget.
    deep_iterations: int = 4000
    deep_seconds: float = 0.0
    #: How many moments get the deeper search (those whose first loss is largest).
    mistakes: int = 3
    threads: int = 1
    seed: int = 0

    def search_config(
        self, number: int, deep: bool, game: str | None = None, players: int = 0
    ) -> SearchConfig:
        """The configuration of decision `number`'s first (or deeper) search in `game` with
        `players` players (what a level needs); ValueError naming what is wrong."""
        if self.mistakes < 0:
            raise ValueError(f"mistakes must be 0 or more, got {self.mistakes}")
        budget = {
            "iterations": self.deep_iterations if deep else self.iterations,
            "seconds": self.deep_seconds if deep else self.seconds,
            "threads": self.threads,
        }
        return advice_config(
            self.bot,
            game,
            players,
            **(budget | own_budget(self.bot, game, players)),
            seed=decision_seed(self.seed, number, deep),
        )


def decision_seed(seed: int, number: int, deep: bool) -> int:
    """The seed of decision `number`'s world and search."""
    return (seed * SEED_STRIDE + 2 * number + int(deep)) % (1 << 64)


@dataclass(frozen=True)
class Alternative:
    """A move the seat could have played, as a search saw it."""

    move: str
    win_chance: float
    visits: int


@dataclass(frozen=True)
class Point:
    """One decision (a moment with two legal moves or more), at the first budget."""

    #: Counted from 1 over the seat's decisions (moves with no choice are not decisions).
    number: int
    move: str
    #: The estimated win chance after the move: the move's win chance in the search.
    win_chance: float
    #: The search's best move (most visited) and how much less the chosen move wins.
    best: str
    loss: float


@dataclass(frozen=True)
class Mistake:
    """A moment searched again deeper: the chosen move against the best move found."""

    number: int
    move: str
    best: str
    #: The best move's win chance minus the chosen move's, in the deeper search (>= 0).
    loss: float
    win_chance: float
    #: The seat's observation before the move, as the game's JSON.
    observation: dict[str, Any]
    #: Every legal move, most visited first.
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True)
class Review:
    seat: int
    points: tuple[Point, ...]
    #: The deeper-searched moments where the move lost win chance, largest loss first.
    mistakes: tuple[Mistake, ...]
    #: False when the review was stopped before the end (what was done is kept).
    complete: bool = True


@dataclass(frozen=True)
class Progress:
    """How far a review is: searches done out of the total planned."""

    done: int
    total: int
    #: The last point searched, once the first budget's searches start coming in.
    point: Point | None = field(default=None)


class ReviewError(ValueError):
    """Decisions that cannot be reviewed; `field` names the input at fault."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled (see engine.errors)."""
        return type(self), (self.field, self.reason), self.__dict__


def decisions_of_game(state: State, moves: Sequence[str], seat: int) -> list[Decision]:
    """Replay a recorded game from its deal (`state`, not changed) and keep what `seat` saw
    before each of its own moves: the input of `review`. ValueError for a move that does not
    replay."""
    state = state.clone()
    found = []
    for index, text in enumerate(moves):
        if state.is_terminal():
            raise ValueError(f"moves[{index}]: the game is over before it")
        if state.current_player == seat:
            found.append(Decision(state.observation(seat), text))
        try:
            state.apply_action(state.string_to_action(text))
        except (ValueError, engine.IllegalMoveError) as err:
            raise ValueError(f"moves[{index}]: {text!r} does not replay: {err}") from None
    return found


@dataclass(frozen=True)
class _Moment:
    number: int
    decision: Decision
    state: State
    action: int


def _moments(decisions: Sequence[Decision], config: ReviewConfig) -> list[_Moment]:
    """The decisions with a choice, numbered from 1, each continued from its observation."""
    moments: list[_Moment] = []
    seat = None
    for index, decision in enumerate(decisions):
        where = f"decisions[{index}]"
        observer = getattr(decision.observation, "observer", None)
        if seat is None:
            seat = observer
        if observer != seat:
            raise ReviewError(f"{where}.observation", f"is seat {observer}'s, not seat {seat}'s")
        number = len(moments) + 1
        try:
            state = engine.state_from_observation(
                decision.observation, seed=decision_seed(config.seed, number, False)
            )
        except engine.InvalidObservationError as err:
            raise ReviewError(f"{where}.observation.{err.field}", err.reason) from None
        if state.is_terminal() or state.current_player != seat:
            raise ReviewError(f"{where}.observation", f"seat {seat} is not the player to act")
        try:
            action = state.string_to_action(decision.move)
        except ValueError as err:
            raise ReviewError(f"{where}.move", str(err)) from None
        legal = state.legal_actions()
        if action not in legal:
            raise ReviewError(f"{where}.move", f"{decision.move!r} is not legal there")
        if len(legal) > 1:
            moments.append(_Moment(number, decision, state, action))
    return moments


def _check(config: ReviewConfig, game: str | None = None, players: int = 0) -> None:
    """ValueError when a search of the review could not be configured."""
    for deep in (False, True):
        config.search_config(1, deep, game, players)


def _game(moments: Sequence[_Moment]) -> tuple[str | None, int]:
    """The reviewed game's name and player count (None and 0 when nothing is searched)."""
    if not moments:
        return None, 0
    first = moments[0]
    return first.decision.observation.game, first.state.num_players


def _default_bot(game: str | None, players: int) -> str:
    """The reviewed game's default bot at its player count (any search when nothing is
    searched)."""
    return DEFAULT_BOT if game is None else default_bot(game, players)


def _stats(result: SearchResult, action: int) -> tuple[float, str, float]:
    """(the chosen move's win chance, the best move, the chosen move's loss against it). A
    move the search never tried is given the position's value (its visit-weighted mean)."""
    chosen = next(m for m in result.moves if m.action == action)
    best = result.moves[0]
    if chosen.visits:
        win = chosen.win_chance
    else:
        visits = sum(m.visits for m in result.moves)
        win = sum(m.win_chance * m.visits for m in result.moves) / visits if visits else 0.0
    return win, best.text, max(0.0, best.win_chance - win)


class Reviewer:
    """A review run step by step, so that a caller can show progress and stop it: `run`
    calls `on_progress` after every search; `cancel()` (from any thread) ends it within
    milliseconds, keeping only the searches that finished."""

    def __init__(self, decisions: Sequence[Decision], config: ReviewConfig) -> None:
        if is_level(config.bot):
            parse_spec(config.bot)  # a bad level fails before any work; it needs the game
        elif config.bot:
            _check(config)  # a named bot or a budget that is wrong fails before any work
        self.moments = _moments(decisions, config)
        #: The reviewed game and its player count (None and 0 when nothing is searched).
        self.game, self.players = _game(self.moments)
        if not config.bot:
            config = replace(config, bot=_default_bot(self.game, self.players))
        if self.game is not None or not is_level(config.bot):
            _check(config, self.game, self.players)
        self.config = config
        self.seat = decisions[0].observation.observer if decisions else -1
        self._cancel = CancelToken()

    def cancel(self) -> None:
        self._cancel.cancel()

    @property
    def total(self) -> int:
        return len(self.moments) + min(self.config.mistakes, len(self.moments))

    def _search(self, moment: _Moment, deep: bool) -> SearchResult | None:
        """The moment's search, or None once the review is stopped."""
        if self._cancel.cancelled:
            return None
        config = self.config.search_config(moment.number, deep, self.game, self.players)
        state = moment.state if not deep else self._state(moment)
        result = search(state, config, self._cancel)
        return None if self._cancel.cancelled else result

    def _state(self, moment: _Moment) -> State:
        seed = decision_seed(self.config.seed, moment.number, True)
        return engine.state_from_observation(moment.decision.observation, seed=seed)

    def run(self, on_progress: Callable[[Progress], None] | None = None) -> Review:
        report = on_progress or (lambda progress: None)
        total = self.total
        points: list[Point] = []
        for moment in self.moments:
            result = self._search(moment, deep=False)
            if result is None:
                return Review(self.seat, tuple(points), (), complete=False)
            win, best, loss = _stats(result, moment.action)
            points.append(Point(moment.number, moment.decision.move, win, best, loss))
            report(Progress(len(points), total, points[-1]))
        worst = sorted((p for p in points if p.loss > 0), key=lambda p: (-p.loss, p.number))
        worst = worst[: self.config.mistakes]
        total = len(points) + len(worst)
        report(Progress(len(points), total))
        mistakes = []
        by_number = {m.number: m for m in self.moments}
        for done, point in enumerate(worst, 1):
            moment = by_number[point.number]
            result = self._search(moment, deep=True)
            if result is None:
                break
            mistake = _mistake(moment, result)
            if mistake.loss > 0:
                mistakes.append(mistake)
            report(Progress(len(points) + done, total))
        mistakes.sort(key=lambda m: (-m.loss, m.number))
        complete = not self._cancel.cancelled
        return Review(self.seat, tuple(points), tuple(mistakes), complete)


def _mistake(moment: _Moment, result: SearchResult) -> Mistake:
    win, best, loss = _stats(result, moment.action)
    return Mistake(
        number=moment.number,
        move=moment.decision.move,
        best=best,
        loss=loss,
        win_chance=win,
        observation=moment.decision.observation.to_json(),
        alternatives=tuple(Alternative(m.text, m.win_chance, m.visits) for m in result.moves),
    )


def review(
    decisions: Sequence[Decision],
    config: ReviewConfig,
    on_progress: Callable[[Progress], None] | None = None,
) -> Review:
    """Review one seat's decisions (see `Reviewer` to stop one midway)."""
    return Reviewer(decisions, config).run(on_progress)


__all__ = [
    "Alternative",
    "Decision",
    "Mistake",
    "Point",
    "Progress",
    "Review",
    "ReviewConfig",
    "ReviewError",
    "Reviewer",
    "decision_seed",
    "decisions_of_game",
    "review",
]
