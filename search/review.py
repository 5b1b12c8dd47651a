"""A review of one seat's game: the estimated win chance after each of its decisions, and
the moments where its move lost the most win chance against the best move, each with the
position and the alternatives.

Every decision gets a first look: a search from the seat's observation, whose root statistics
say which move it prefers. Those statistics underrate every move the search did not settle
on (it spends nearly all its iterations on one), so they only choose which decisions to check:
the `mistakes` decisions where the first look liked another move most. A checked decision's
moves (the played one, the first look's choice and the deeper search's) are each valued from
the position after them, by `samples` seeded searches from as many worlds of the seat's
information; their spread is the value's uncertainty, and a move is a mistake only when the
best move's lead over it exceeds `NOISE_Z` standard errors of that lead.

Only the seat's information is used: the review reads the seat's observation before each
of its moves (`Decision`), never the true game, and every search is seeded from the
review's seed and the decision's number, so the same decisions, budgets and seed give the
same review wherever it runs (the command line, the service).
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine.errors import FieldError, wording_of
from engine.interface import State
from search.bots import Bot, HeuristicBot, advice_config, is_level, own_budget, parse_spec
from search.games import DEFAULT_BOT, default_bot
from search.ismcts import CancelToken
from search.search import SearchConfig, SearchResult, position_value, search

#: Seeds of decision n's first and deeper searches: (seed * SEED_STRIDE + 2n + deep) mod 2**64.
SEED_STRIDE = 1_000_003
#: Seeded searches per move at a checked decision (each from its own world of the seat's
#: information): the value is their mean, its uncertainty their spread.
SAMPLES = 8
#: Moves valued beside the played one at a checked decision: the first look's choice (the
#: move that made the decision a candidate) and the deeper search's most visited other move
#: (its runner-up when the two are one), the moves some search settled on.
ALTERNATIVES = 2
#: A loss is a mistake when it exceeds this many standard errors of itself.
NOISE_Z = 3.0


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
    #: Every search of a checked decision: the deeper search from its observation and the
    #: searches from the position after each move valued.
    deep_iterations: int = 4000
    deep_seconds: float = 0.0
    #: How many decisions are checked (those whose first look's loss is largest).
    mistakes: int = 3
    #: Searches per move valued at a checked decision (2 or more: their spread is the noise).
    samples: int = SAMPLES
    threads: int = 1
    seed: int = 0

    def search_config(
        self, number: int, deep: bool, game: str | None = None, players: int = 0
    ) -> SearchConfig:
        """The configuration of decision `number`'s first (or deeper) search in `game` with
        `players` players (what a level needs); ValueError naming what is wrong."""
        if self.mistakes < 0:
            raise ValueError(f"mistakes must be 0 or more, got {self.mistakes}")
        if self.samples < 2:
            raise ValueError(f"samples must be 2 or more, got {self.samples}")
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


def check_seed(seed: int, number: int, *parts: object) -> int:
    """The seed of one of decision `number`'s check searches, worlds or replies, named by
    `parts` (the same on every platform: a hash of their text)."""
    text = repr((seed, number, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def check_searches(config: ReviewConfig, alternatives: int = ALTERNATIVES) -> tuple[int, int]:
    """The most searches one checked decision runs: (at the deeper budget, at the first).
    The deeper search from its observation, `samples` from the position after each move
    valued (the played one and `alternatives` more), and, for a mistake, `samples - 1`
    first searches more, to tell whether the first search would play the move."""
    return 1 + (1 + alternatives) * config.samples, config.samples - 1


def planned_work(config: ReviewConfig, decisions: int) -> tuple[int, float]:
    """The most iterations and seconds a review of `decisions` decisions plans, at the
    configuration's budgets (0 on an axis with no limit): a first look at each, and
    `mistakes` of them checked."""
    checked = min(config.mistakes, decisions)
    deep, first = check_searches(config)
    first_looks = decisions + checked * first
    iterations = first_looks * config.iterations + checked * deep * config.deep_iterations
    seconds = first_looks * config.seconds + checked * deep * config.deep_seconds
    return iterations, seconds


@dataclass(frozen=True)
class Alternative:
    """A move the seat could have played, as a search saw it."""

    move: str
    win_chance: float
    visits: int


@dataclass(frozen=True)
class Estimate:
    """A move's value from the position after it: the mean win chance of `samples` seeded
    searches there, and the standard error of that mean."""

    move: str
    win_chance: float
    noise: float
    samples: int


@dataclass(frozen=True)
class Point:
    """One decision (a moment with two legal moves or more): the figures of its check when
    it was checked, else of its first look."""

    #: Counted from 1 over the seat's decisions (moves with no choice are not decisions).
    number: int
    move: str
    #: The estimated win chance after the move. Checked: its value from the position after
    #: it. First look: the move's win chance in the search (low for a move it barely tried).
    win_chance: float
    #: The best move and how much less the chosen move wins. Checked: the highest value of
    #: the moves valued (the played move on a tie). First look: the most visited move.
    best: str
    loss: float
    #: Whether the decision was checked (its moves valued from the positions after them).
    checked: bool = False
    #: Checked: `NOISE_Z` standard errors of the loss; a loss above it is a mistake.
    noise: float = 0.0


@dataclass(frozen=True)
class Mistake:
    """A checked decision whose move loses more than the noise: its figures are its
    point's (number, move, best, loss, win_chance, noise)."""

    number: int
    move: str
    best: str
    #: The best move's value minus the chosen move's, from the positions after them (> noise).
    loss: float
    win_chance: float
    noise: float
    #: The seat's observation before the move, as the game's JSON.
    observation: dict[str, Any]
    #: Every legal move in the deeper search from the observation, most visited first (its
    #: root statistics: they underrate what it did not settle on).
    alternatives: tuple[Alternative, ...]
    #: The moves valued from the positions after them, the highest first.
    estimates: tuple[Estimate, ...] = ()
    #: Of `samples` first searches (the first look and more seeds), how many play the move.
    default_plays: int = 0
    #: When the first search plays the move (`default_plays` > 0): a sentence saying that a
    #: deeper search changes its mind, with the figures; else empty.
    deeper_search_prefers: str = ""


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


class ReviewError(FieldError):
    """Decisions that cannot be reviewed; `field` names the input at fault."""


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
            raise ReviewError(
                f"{where}.observation",
                "is {observer_player}'s, not {player}'s",
                observer_player=observer,
                player=seat,
            )
        number = len(moments) + 1
        try:
            state = engine.state_from_observation(
                decision.observation, seed=decision_seed(config.seed, number, False)
            )
        except engine.InvalidObservationError as err:
            raise ReviewError(f"{where}.observation.{err.field}", err.wording) from None
        if state.is_terminal() or state.current_player != seat:
            raise ReviewError(f"{where}.observation", "the observer is not the player to act")
        try:
            action = state.string_to_action(decision.move)
        except ValueError as err:
            raise ReviewError(f"{where}.move", wording_of(err)) from None
        legal = state.legal_actions()
        if action not in legal:
            raise ReviewError(f"{where}.move", "'{move}' is not legal there", move=decision.move)
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
        """The searches planned: a first look at every decision, and the checks' at most."""
        checks = min(self.config.mistakes, len(self.moments))
        return len(self.moments) + checks * sum(check_searches(self.config))

    def _config(self, moment: _Moment, deep: bool, seed: int | None = None) -> SearchConfig:
        config = self.config.search_config(moment.number, deep, self.game, self.players)
        return config if seed is None else replace(config, seed=seed)

    def _search(self, moment: _Moment, deep: bool) -> SearchResult | None:
        """The moment's first (or deeper) search, or None once the review is stopped."""
        state = moment.state if not deep else self._deep_world(moment)
        return self._run(state, self._config(moment, deep))

    def _run(self, state: State, config: SearchConfig) -> SearchResult | None:
        if self._cancel.cancelled:
            return None
        result = search(state, config, self._cancel)
        return None if self._cancel.cancelled else result

    def _deep_world(self, moment: _Moment) -> State:
        """The world of the moment's deeper search (its first search's is `moment.state`)."""
        seed = decision_seed(self.config.seed, moment.number, True)
        return engine.state_from_observation(moment.decision.observation, seed=seed)

    def _world_after(self, moment: _Moment, action: int, sample: int) -> State:
        """World `sample` of the seat's information at `moment` (the same for every move
        valued there), after `action`."""
        seed = check_seed(self.config.seed, moment.number, "world", sample)
        world = engine.state_from_observation(moment.decision.observation, seed=seed)
        world.apply_action(action)
        return world

    def value_searched(self, moment: _Moment, action: int, sample: int) -> float | None:
        """The seat's win chance after `action` at `moment`, in world `sample` of the seat's
        information, by a search for the seat from the position right after the move at the
        deeper budget (`position_value`: the others searched in its trees, as the first
        search models them, whoever is to move); the result if the game ends there. The
        bot must be MO-ISMCTS. None once the review is stopped."""
        world = self._world_after(moment, action, sample)
        if world.is_terminal():
            return world.returns()[self.seat]
        seed = check_seed(self.config.seed, moment.number, "searched", sample, action)
        if self._cancel.cancelled:
            return None
        value = position_value(world, self._config(moment, True, seed), self.seat, self._cancel)
        return None if self._cancel.cancelled else value

    def value_after(
        self, moment: _Moment, action: int, sample: int, reply: Bot | None = None
    ) -> float | None:
        """The seat's win chance after `action` at `moment` (one of `moments`), in world
        `sample` of the seat's information: the others reply by the game's heuristic (the
        search's playout policy, on a world dealt for the one replying; or by `reply`) up to
        the seat's next choice, which a search at the deeper budget values (its most visited
        move's win chance); the result if the game ends first. None once the review is
        stopped."""
        replier = reply or HeuristicBot()
        seed, number = self.config.seed, moment.number
        world = self._world_after(moment, action, sample)
        step = 0
        while not world.is_terminal():
            legal = world.legal_actions()
            if world.current_player == self.seat and len(legal) > 1:
                break
            if world.current_player == self.seat:
                world.apply_action(legal[0])
            else:
                reply_seed = check_seed(seed, number, "reply", sample, action, step)
                world.apply_action(replier.choose(world, reply_seed))
            step += 1
        if world.is_terminal():
            return world.returns()[self.seat]
        config = self._config(moment, True, check_seed(seed, number, "after", sample, action))
        result = self._run(world, config)
        return None if result is None else result.moves[0].win_chance

    def run(self, on_progress: Callable[[Progress], None] | None = None) -> Review:
        report = on_progress or (lambda progress: None)
        total = self.total
        points: list[Point] = []
        first: dict[int, SearchResult] = {}
        for moment in self.moments:
            result = self._search(moment, deep=False)
            if result is None:
                return Review(self.seat, tuple(points), (), complete=False)
            first[moment.number] = result
            win, best, loss = _stats(result, moment.action)
            points.append(Point(moment.number, moment.decision.move, win, best, loss))
            report(Progress(len(points), total, points[-1]))
        worst = sorted((p for p in points if p.loss > 0), key=lambda p: (-p.loss, p.number))
        worst = worst[: self.config.mistakes]
        done = [len(points)]
        total = len(points) + len(worst) * sum(check_searches(self.config))

        def tick(searches: int = 1) -> None:
            done[0] += searches
            report(Progress(done[0], total))

        report(Progress(done[0], total))
        by_number = {m.number: m for m in self.moments}
        checked: dict[int, Point] = {}
        mistakes = []
        for point in worst:
            found = _Check(self, by_number[point.number], first[point.number], tick).run()
            if found is None:
                break
            checked[point.number], mistake = found
            if mistake is not None:
                mistakes.append(mistake)
        mistakes.sort(key=lambda m: (-m.loss, m.number))
        final = tuple(checked.get(p.number, p) for p in points)
        return Review(self.seat, final, tuple(mistakes), not self._cancel.cancelled)


class _Check:
    """One decision checked: the deeper search from its observation, then the played move
    and the alternatives each valued from the position after it (`samples` searches each,
    world k the same for every move, so that their difference is paired), and for a mistake
    how often the first search plays the move."""

    def __init__(
        self,
        reviewer: Reviewer,
        moment: _Moment,
        first: SearchResult,
        tick: Callable[[int], None],
    ) -> None:
        self.reviewer = reviewer
        self.moment = moment
        self.first = first
        self.tick = tick
        self.seed = reviewer.config.seed
        self.samples = reviewer.config.samples

    def run(self) -> tuple[Point, Mistake | None] | None:
        """The checked point and, when its loss exceeds the noise, the mistake; None once the
        review is stopped."""
        moment, samples = self.moment, self.samples
        deep = self.reviewer._search(moment, deep=True)
        if deep is None:
            return None
        self.tick(1)
        moves = _valued(moment.action, self.first, deep)
        values: dict[int, list[float]] = {action: [] for action in moves}
        for k in range(samples):
            for action in moves:
                value = self.reviewer.value_after(moment, action, k)
                if value is None:
                    return None
                values[action].append(value)
                self.tick(1)
        if len(moves) < 1 + ALTERNATIVES:  # fewer legal moves than planned for
            self.tick((1 + ALTERNATIVES - len(moves)) * samples)
        mean = {action: statistics.fmean(found) for action, found in values.items()}
        best = max(moves, key=lambda a: (mean[a], a == moment.action))  # a tie is no loss
        loss = mean[best] - mean[moment.action]
        lead = [b - p for b, p in zip(values[best], values[moment.action], strict=True)]
        noise = NOISE_Z * _standard_error(lead)
        text = moment.state.action_to_string
        point = Point(
            moment.number, moment.decision.move, mean[moment.action], text(best), loss,
            checked=True, noise=noise,
        )  # fmt: skip
        if loss <= noise:
            self.tick(samples - 1)
            return point, None
        plays = self._default_plays()
        if plays is None:
            return None
        estimates = sorted(
            (Estimate(text(a), mean[a], _standard_error(values[a]), samples) for a in moves),
            key=lambda e: -e.win_chance,
        )
        mistake = Mistake(
            number=moment.number,
            move=moment.decision.move,
            best=point.best,
            loss=loss,
            win_chance=point.win_chance,
            noise=noise,
            observation=moment.decision.observation.to_json(),
            alternatives=tuple(Alternative(m.text, m.win_chance, m.visits) for m in deep.moves),
            estimates=tuple(estimates),
            default_plays=plays,
            deeper_search_prefers=self._prefers(point, plays) if plays else "",
        )
        return point, mistake

    def _default_plays(self) -> int | None:
        """Of `samples` first searches (the first look and `samples - 1` more seeds, each
        from its own world), how many play the decision's move; None once stopped."""
        moment = self.moment
        plays = int(self.first.action == moment.action)
        for k in range(1, self.samples):
            world = engine.state_from_observation(
                moment.decision.observation,
                seed=check_seed(self.seed, moment.number, "first world", k),
            )
            config = self.reviewer._config(
                moment, False, check_seed(self.seed, moment.number, "first", k)
            )
            result = self.reviewer._run(world, config)
            if result is None:
                return None
            plays += result.action == moment.action
            self.tick(1)
        return plays

    def _prefers(self, point: Point, plays: int) -> str:
        """The sentence of a mistake the first search would play."""
        first = _budget_words(self.reviewer._config(self.moment, False))
        deep = _budget_words(self.reviewer._config(self.moment, True))
        return (
            f"The first search ({first}) plays {point.move} in {plays} of {self.samples} seeds; "
            f"a deeper search prefers {point.best}: valued from the position after each move "
            f"({self.samples} searches of {deep} each), it wins {100 * point.loss:.1f} points "
            f"more (noise {100 * point.noise:.1f})."
        )


def _valued(played: int, first: SearchResult, deep: SearchResult) -> list[int]:
    """The moves a check values: the played one, the first look's choice, and the deeper
    search's most visited others, `1 + ALTERNATIVES` in all (fewer with fewer legal moves)."""
    moves = [played]
    for move in (first.moves[0], *deep.moves):
        if len(moves) == 1 + ALTERNATIVES:
            break
        if move.action not in moves:
            moves.append(move.action)
    return moves


def _standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of `values` (2 or more)."""
    return statistics.stdev(values) / math.sqrt(len(values))


def _budget_words(config: SearchConfig) -> str:
    """A search's budget in words: '4,000 iterations', '1 s', '4,000 iterations, 1 s'."""
    parts = []
    if config.iterations:
        parts.append(f"{config.iterations:,} iterations")
    if config.seconds:
        parts.append(f"{config.seconds:g} s")
    return ", ".join(parts)


def review(
    decisions: Sequence[Decision],
    config: ReviewConfig,
    on_progress: Callable[[Progress], None] | None = None,
) -> Review:
    """Review one seat's decisions (see `Reviewer` to stop one midway)."""
    return Reviewer(decisions, config).run(on_progress)


__all__ = [
    "ALTERNATIVES",
    "NOISE_Z",
    "SAMPLES",
    "Alternative",
    "Decision",
    "Estimate",
    "Mistake",
    "Point",
    "Progress",
    "Review",
    "ReviewConfig",
    "ReviewError",
    "Reviewer",
    "check_searches",
    "check_seed",
    "decision_seed",
    "decisions_of_game",
    "planned_work",
    "review",
]
