"""The Review call: a ReviewRequest read into the review's decisions and configuration (every
fault named by its field), and the review run off the event loop in one search slot,
streaming its progress (see `search.review`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import engine
from convert import observation_from_proto, observation_to_proto, observer_of
from engine.errors import InvalidObservationError, around, worded, wording_of
from regent.v1 import advisor_pb2, common_pb2
from search.bots import SEARCH_BOTS, resolve
from search.ismcts import check_config
from search.review import (
    Decision,
    Mistake,
    Point,
    Progress,
    Review,
    ReviewConfig,
    Reviewer,
    planned_work,
)
from server.levels import bot_budget
from server.limits import BudgetError, ServerLimits, check_tree
from server.moves import action_of
from server.searching import SearchSlots, start_in_slot
from server.status import Rejected, invalid_argument, resource_exhausted

#: The most decisions one review takes (a long game gives a seat a few hundred).
MAX_DECISIONS = 1000
#: The most decisions checked.
MAX_MISTAKES = 20


def read_request(
    request: advisor_pb2.ReviewRequest, limits: ServerLimits
) -> tuple[list[Decision], ReviewConfig]:
    """The decisions and the configuration of a review; Rejected naming the field."""
    decisions, players = _decisions(request)
    config = _config(request, limits, decisions[0].observation.game, players)
    _check_game(config, decisions[0])
    _check_total(config, len(decisions), limits)
    return decisions, config


def _decisions(request: advisor_pb2.ReviewRequest) -> tuple[list[Decision], int]:
    """The seat's decisions, each checked, and the number of players of the first one's game."""
    count, moves = len(request.observations), len(request.moves)
    if count == 0:
        raise Rejected(invalid_argument("observations", "is required: one per decision"))
    if count > MAX_DECISIONS:
        reason = "at most {most} decisions, not {count}"
        raise Rejected(invalid_argument("observations", reason, most=MAX_DECISIONS, count=count))
    if moves != count:
        reason = "one move per observation: {count} observations, {moves} moves"
        raise Rejected(invalid_argument("moves", reason, count=count, moves=moves))
    seat = None
    players = 0
    first = None
    decisions = []
    for i, (message, move) in enumerate(zip(request.observations, request.moves, strict=True)):
        try:
            observation = observation_from_proto(message)
        except InvalidObservationError as err:
            raise Rejected(
                invalid_argument(f"observations[{i}].{err.field}", err.wording)
            ) from None
        game, observer = observer_of(message)
        try:
            state = engine.state_from_observation(observation, seed=0)
        except InvalidObservationError as err:
            field = f"observations[{i}].{game}.{err.field}"
            raise Rejected(invalid_argument(field, err.wording)) from None
        seat = observer if seat is None else seat
        players = players or state.num_players
        first = first or (game, players)
        if (game, state.num_players) != first:
            reason = "is of {game} at {count} players, not {first_game} at {first_count}"
            refused = worded(
                reason, game=game, count=state.num_players, first_game=first[0], first_count=players
            )
            raise Rejected(invalid_argument(f"observations[{i}]", refused))
        if observer != seat or state.current_player != observer:
            refused = (
                worded("is {player}'s, not {first_player}'s", player=observer, first_player=seat)
                if observer != seat
                else worded("{player} is not the player to act", player=observer)
            )
            raise Rejected(invalid_argument(f"observations[{i}].{game}.observer", refused))
        action = action_of(state, move, f"moves[{i}]")
        decisions.append(Decision(observation, state.action_to_string(action)))
    return decisions, players


def _config(
    request: advisor_pb2.ReviewRequest, limits: ServerLimits, game: str, players: int
) -> ReviewConfig:
    """The review's configuration: its bot (a level resolved for the game, the game's default
    when none is named) and budgets (see `server.levels`: a level's own, or the parts a spec
    sets itself, for every search, the first and the deeper; the review's default iterations
    where neither the spec nor the request sets a stopping budget); Rejected naming the
    field."""
    spec = request.bot or limits.bot_for(game, players)
    try:
        bot = resolve(spec, game, players)
    except ValueError as err:
        raise Rejected(invalid_argument("bot", wording_of(err))) from None
    defaults = ReviewConfig()
    (iterations, seconds, threads), (deep_iterations, deep_seconds, deep_threads) = (
        bot_budget(
            limits, spec, game, players, field, budget, None, default, named=bool(request.bot)
        )
        for field, budget, default in (
            ("budget", request.budget, defaults.iterations),
            ("deep_budget", request.deep_budget, defaults.deep_iterations),
        )
    )
    mistakes = request.mistakes if request.HasField("mistakes") else defaults.mistakes
    if not 0 <= mistakes <= MAX_MISTAKES:
        raise Rejected(
            invalid_argument("mistakes", "must be within [0, {most}]", most=MAX_MISTAKES)
        )
    config = ReviewConfig(
        bot=bot,
        iterations=iterations,
        seconds=seconds,
        deep_iterations=deep_iterations,
        deep_seconds=deep_seconds,
        mistakes=mistakes,
        threads=max(threads, deep_threads),
        seed=request.seed,
    )
    try:
        for deep in (False, True):
            search = config.search_config(1, deep)
    except (ValueError, TypeError) as err:
        reason = wording_of(err)
        if config.bot.partition(":")[0] not in SEARCH_BOTS:
            reason = around("a review needs a search bot: {reason}", reason)
        raise Rejected(invalid_argument("bot", reason)) from None
    try:
        check_tree(limits, search.max_nodes)
    except BudgetError as err:
        raise Rejected(err.status("bot", "{part} {reason}", part=err.field)) from None
    return config


def _check_game(config: ReviewConfig, decision: Decision) -> None:
    """INVALID_ARGUMENT naming `bot` when the review's searches ask of the game what it has
    not (a model of the players' choices, for `infer`, at its player count)."""
    state = engine.state_from_observation(decision.observation, seed=0)
    try:
        for deep in (False, True):
            check_config(state, config.search_config(1, deep))
    except ValueError as err:
        raise Rejected(invalid_argument("bot", wording_of(err))) from None


def _check_total(config: ReviewConfig, decisions: int, limits: ServerLimits) -> None:
    """RESOURCE_EXHAUSTED when the review's searches together ask for more than the limit:
    the first looks and every search of the checks (see `search.review.planned_work`); the
    field is `budget` when the first looks alone are over it, else `deep_budget`."""
    iterations, seconds = planned_work(config, decisions)
    counts = {"count": decisions, "checked": min(config.mistakes, decisions)}
    if iterations > limits.max_review_iterations:
        refused = worded(
            "{count} decisions ({checked} checked) at these budgets take {total} iterations; "
            "the server's limit for a review is {limit} iterations",
            total=f"{iterations:,}",
            limit=f"{limits.max_review_iterations:,}",
            **counts,
        )
        field = _over(config, decisions, "iterations", limits.max_review_iterations)
        raise Rejected(resource_exhausted(field, refused))
    if seconds > limits.max_review_seconds:
        refused = worded(
            "{count} decisions ({checked} checked) at these budgets take {total} s; "
            "the server's limit for a review is {limit} s",
            total=f"{seconds:g}",
            limit=f"{limits.max_review_seconds:g}",
            **counts,
        )
        raise Rejected(
            resource_exhausted(
                _over(config, decisions, "seconds", limits.max_review_seconds), refused
            )
        )


def _over(config: ReviewConfig, decisions: int, part: str, limit: float) -> str:
    """The field of a review's budget part over the limit: `budget.<part>` when the first
    looks alone are over it, else `deep_budget.<part>`."""
    field = "budget" if decisions * getattr(config, part) > limit else "deep_budget"
    return f"{field}.{part}"


async def run_review(
    decisions: list[Decision],
    config: ReviewConfig,
    slots: SearchSlots,
    time_left: float | None = None,
) -> AsyncIterator[advisor_pb2.ReviewResponse]:
    """The review's progress as it goes, then the review, in the slot the caller has taken
    (given back when the review's thread ends). Closing the iterator stops the review; so
    does the end of `time_left` seconds, and what was done is then the review."""
    reviewer = start_in_slot(slots, lambda: Reviewer(decisions, config))
    loop = asyncio.get_running_loop()
    news: asyncio.Queue[Progress] = asyncio.Queue()

    def report(progress: Progress) -> None:
        loop.call_soon_threadsafe(news.put_nowait, progress)

    worker = asyncio.ensure_future(slots.run(reviewer.run, report))
    worker.add_done_callback(lambda _: slots.ended(reviewer))
    timer = loop.call_later(time_left, reviewer.cancel) if time_left is not None else None
    done, total = 0, reviewer.total
    waiting: asyncio.Future[Progress] | None = None
    try:
        while not worker.done() or not news.empty():
            waiting = asyncio.ensure_future(news.get())
            await asyncio.wait({waiting, worker}, return_when=asyncio.FIRST_COMPLETED)
            if not waiting.done():
                waiting.cancel()
                continue
            progress = waiting.result()
            done, total = progress.done, progress.total
            message = advisor_pb2.ReviewResponse(done=progress.done, total=progress.total)
            if progress.point is not None:
                message.point.CopyFrom(_point(progress.point))
            yield message
        review = worker.result()
        yield advisor_pb2.ReviewResponse(
            done=done,
            total=total,
            review=_review(review),
        )
    finally:
        if waiting is not None:
            waiting.cancel()
        if timer is not None:
            timer.cancel()
        if not worker.done():
            reviewer.cancel()
            await asyncio.shield(worker)


def _move(text: str) -> common_pb2.Move:
    return common_pb2.Move(text=text)


def _point(point: Point) -> advisor_pb2.ReviewPoint:
    return advisor_pb2.ReviewPoint(
        number=point.number,
        move=_move(point.move),
        win_chance=point.win_chance,
        best=_move(point.best),
        loss=point.loss,
        checked=point.checked,
        noise=point.noise,
    )


def _mistake(mistake: Mistake) -> advisor_pb2.ReviewMistake:
    observation_class = engine.game(mistake.observation["game"]).observation_class
    return advisor_pb2.ReviewMistake(
        number=mistake.number,
        move=_move(mistake.move),
        best=_move(mistake.best),
        loss=mistake.loss,
        win_chance=mistake.win_chance,
        observation=observation_to_proto(observation_class.from_json(mistake.observation)),
        alternatives=[
            common_pb2.MoveStatistics(move=_move(a.move), visits=a.visits, win_chance=a.win_chance)
            for a in mistake.alternatives
        ],
        noise=mistake.noise,
        estimates=[
            advisor_pb2.ReviewEstimate(
                move=_move(e.move), win_chance=e.win_chance, noise=e.noise, samples=e.samples
            )
            for e in mistake.estimates
        ],
        default_plays=mistake.default_plays,
        deeper_search_prefers=mistake.deeper_search_prefers,
    )


def _review(review: Review) -> advisor_pb2.GameReview:
    return advisor_pb2.GameReview(
        seat=review.seat,
        points=[_point(p) for p in review.points],
        mistakes=[_mistake(m) for m in review.mistakes],
        complete=review.complete,
    )


__all__ = ["MAX_DECISIONS", "MAX_MISTAKES", "read_request", "run_review"]
