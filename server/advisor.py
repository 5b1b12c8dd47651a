"""AdvisorService: stateless advice from one player's observation."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import grpc

import engine
from convert import game_number, observation_from_proto, observer_of, served_games
from convert.reports import bot_report, report
from engine.errors import InvalidObservationError, wording_of
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from search.bots import (
    BOT_KINDS,
    Bot,
    hint_config,
    is_level,
    make_bot,
    resolve,
    search_config,
)
from search.explain import explain
from search.levels import LEVELS
from search.search import SearchConfig, SearchResult
from server.apply import apply_move
from server.apply_observed import apply_observed_move, observed_moves
from server.conversions import Conversions
from server.levels import bot_budget
from server.limits import (
    BudgetError,
    ServerLimits,
    check_tree,
    stop_time,
    too_late,
)
from server.review_call import read_request as read_review
from server.review_call import run_review
from server.searching import SearchSlots, run_in_slices, run_to_end
from server.status import (
    Rejected,
    deadline_exceeded,
    failed_precondition,
    invalid_argument,
    resource_exhausted,
    shutting_down,
)


def read_observation(observation: advisor_pb2.Observation, seed: int) -> tuple[Any, engine.State]:
    """The engine's observation a message holds, read once, and the game it describes from
    the observer's point of view. Field paths start at the request:
    `observation.<game>.players[1].hand[0]` (list indices count the cards in the order sent,
    except where the engine itself finds the fault, after it has sorted them by kind)."""
    try:
        obs = observation_from_proto(observation)
    except InvalidObservationError as err:
        raise Rejected(invalid_argument(f"observation.{err.field}", err.wording)) from None
    try:
        return obs, engine.state_from_observation(obs, seed=seed)
    except InvalidObservationError as err:
        game = observation.WhichOneof("game")
        raise Rejected(invalid_argument(f"observation.{game}.{err.field}", err.wording)) from None


T = TypeVar("T")
#: Threads reading the positions to search or review, off the event loop and apart from the
#: searches' slots (the slower conversions run in processes: server/conversions.py).
WORK_THREADS = 2


class Advisor(advisor_pb2_grpc.AdvisorServiceServicer):
    def __init__(self, limits: ServerLimits, slots: SearchSlots) -> None:
        self.limits = limits
        self.slots = slots
        self.work = ThreadPoolExecutor(WORK_THREADS, thread_name_prefix="regent-advice")
        self.conversions = Conversions(limits.conversion_processes)

    async def _off_loop(self, call: Callable[..., T], *args: object) -> T:
        """A call's CPU work, on the advisor's work threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.work, functools.partial(call, *args))

    async def _prepared(
        self, request, context: grpc.aio.ServicerContext
    ) -> tuple[engine.State, SearchConfig | Bot, float | None]:
        """`_config` on the work threads: reading the position is the call's CPU work."""
        remaining = context.time_remaining()
        deadline = None if remaining is None else time.monotonic() + remaining
        return await self._off_loop(self._config, request, deadline)

    def _config(
        self, request, deadline: float | None
    ) -> tuple[engine.State, SearchConfig | Bot, float | None]:
        """The state to search, the configuration, checked (or the bot of a level that does
        not search, whose move is the answer), and the monotonic time by which the search
        must stop to answer by the call's `deadline` (monotonic); raises Rejected."""
        if not request.HasField("observation"):
            raise Rejected(invalid_argument("observation", "is required"))
        _, state = read_observation(request.observation, request.seed)
        if state.is_terminal():
            raise Rejected(failed_precondition("the game is over: there is no move to advise"))
        game, observer = observer_of(request.observation)
        if state.current_player != observer:
            raise Rejected(
                invalid_argument(
                    f"observation.{game}.observer",
                    "the observer is {observer_player}, but {player} is to act: advice is for"
                    " the player to act",
                    observer_player=observer,
                    player=state.current_player,
                )
            )
        remaining = None if deadline is None else deadline - time.monotonic()
        stop_by = stop_time(remaining, self.limits.deadline_margin)
        if too_late(remaining):
            raise Rejected(deadline_exceeded("the call's deadline leaves no time to search"))
        spec = request.bot or self.limits.bot_for(game, state.num_players)
        iterations, seconds, threads = bot_budget(
            self.limits, spec, game, state.num_players, "budget", request.budget, remaining,
            named=bool(request.bot),
        )  # fmt: skip
        if is_level(spec) and search_config(spec, game, state.num_players) is None:
            return state, make_bot(spec, game, state.num_players), stop_by
        try:  # a hint shows its top moves' win chances: they get their share of the budget
            config = hint_config(
                spec, game, state.num_players,
                iterations=iterations, seconds=seconds, threads=threads, seed=request.seed,
            )  # fmt: skip
        except (ValueError, TypeError) as err:
            raise Rejected(invalid_argument("bot", wording_of(err))) from None
        try:
            check_tree(self.limits, config.max_nodes)
        except BudgetError as err:
            raise Rejected(err.status("bot", "{part} {reason}", part=err.field)) from None
        return state, config, stop_by

    async def Recommend(self, request, context):
        if self.slots.full:  # before the work of reading the position
            raise Rejected(_busy(self.limits, self.slots))
        state, config, stop_by = await self._prepared(request, context)
        if not isinstance(config, SearchConfig):
            played = await self._off_loop(bot_report, state, config, request.seed)
            return advisor_pb2.RecommendResponse(report=played)
        if not self.slots.try_acquire():
            raise Rejected(_busy(self.limits, self.slots))
        result = await run_to_end(state, config, self.slots, stop_by)
        return advisor_pb2.RecommendResponse(report=await self._off_loop(_explained, state, result))

    async def Analyze(self, request, context) -> AsyncIterator[advisor_pb2.AnalyzeResponse]:
        if self.slots.full:
            raise Rejected(_busy(self.limits, self.slots))
        state, config, stop_by = await self._prepared(request, context)
        if request.interval_ms < 0:
            raise Rejected(invalid_argument("interval_ms", "cannot be negative"))
        interval_ms = max(request.interval_ms or self.limits.default_interval_ms,
                          self.limits.min_interval_ms)  # fmt: skip
        if not isinstance(config, SearchConfig):
            played = await self._off_loop(bot_report, state, config, request.seed)
            yield advisor_pb2.AnalyzeResponse(report=played, final=True)
            return
        if not self.slots.try_acquire():
            raise Rejected(_busy(self.limits, self.slots))
        reports = run_in_slices(state, config, interval_ms / 1000, self.slots, stop_by)
        async for result, finished in reports:
            made = await self._off_loop(_explained, state, result) if finished else report(result)
            yield advisor_pb2.AnalyzeResponse(report=made, final=finished)

    async def _in_worker(
        self, context: grpc.aio.ServicerContext, call: Callable[..., T], *args: object
    ) -> T:
        """A call's slow position work, in the conversion processes, by the call's deadline."""
        remaining = context.time_remaining()
        deadline = None if remaining is None else time.monotonic() + remaining
        return await self.conversions.run(deadline, call, *args)

    async def LegalMoves(self, request, context):
        return await self._in_worker(context, _legal_moves, request)

    async def ApplyMove(self, request, context):
        if not request.HasField("observation"):
            raise Rejected(invalid_argument("observation", "is required"))
        return await self._in_worker(
            context, apply_move, request.observation, request.move, list(request.revealed)
        )

    async def Review(self, request, context) -> AsyncIterator[advisor_pb2.ReviewResponse]:
        """One seat's game reviewed in one search slot (see server/review_call.py); at most
        half the slots review at once, each for at most `max_review_seconds`, so that
        reviews never take every slot from advice."""
        if self.slots.full or self.slots.reviews >= self.slots.review_limit:
            raise Rejected(_busy(self.limits, self.slots, review=True))
        decisions, config = await self._off_loop(read_review, request, self.limits)
        if not self.slots.try_acquire_review():
            raise Rejected(_busy(self.limits, self.slots, review=True))
        try:
            remaining = context.time_remaining()
            margin = self.limits.review_deadline_margin
            time_left = self.limits.max_review_seconds
            if remaining is not None:
                time_left = min(time_left, max(0.0, remaining - margin))
            async for message in run_review(decisions, config, self.slots, time_left):
                yield message
        finally:
            self.slots.review_ended()

    async def ApplyObservedMove(self, request, context):
        if not request.HasField("observation"):
            raise Rejected(invalid_argument("observation", "is required"))
        return await self._in_worker(
            context,
            apply_observed_move,
            request.observation,
            request.player,
            request.move,
            list(request.revealed),
        )

    async def ListGames(self, request, context):
        """Every game the engine plays, with its player counts, rules options and card
        table (what a front end needs to draw the game without a copy of its facts)."""
        return advisor_pb2.ListGamesResponse(
            games=[
                advisor_pb2.GameInfo(
                    game=game_number(spec.name),
                    name=spec.name,
                    title=spec.title,
                    score_unit=spec.score_unit,
                    player_counts=list(spec.player_counts),
                    rules_options=[
                        advisor_pb2.RulesOption(name=option, default_value=default, description=doc)
                        for option, default, doc in spec.rules_class.options()
                    ],
                    cards=[
                        advisor_pb2.CardKind(
                            name=card.name,
                            copies=card.copies,
                            attributes={key: str(value) for key, value in card.attributes.items()},
                        )
                        for card in spec.cards
                    ],
                    levels=[
                        advisor_pb2.DifficultyLevel(
                            level=level.number,
                            bots={
                                n: resolve(f"level:{level.number}", spec.name, n)
                                for n in spec.player_counts
                            },
                            description=level.description,
                        )
                        for level in LEVELS
                    ],
                    default_bots={n: self.limits.bot_for(spec.name, n) for n in spec.player_counts},
                )
                for spec in served_games()
            ],
            bot_kinds=list(BOT_KINDS),
            default_bot=self.limits.default_bot,
        )


def _explained(state: engine.State, result: SearchResult) -> common_pb2.SearchReport:
    """A search's final report, with its reasons (search/explain.py: a few milliseconds)."""
    return report(result, explain(state, result))


def _legal_moves(request: advisor_pb2.LegalMovesRequest) -> advisor_pb2.LegalMovesResponse:
    """LegalMoves' answer (the moves another player may be making take dealing worlds);
    raises Rejected."""
    if not request.HasField("observation"):
        raise Rejected(invalid_argument("observation", "is required"))
    obs, state = read_observation(request.observation, 0)
    response = advisor_pb2.LegalMovesResponse()
    if not state.is_terminal():
        response.player = state.current_player
    if state.current_player == obs.observer:
        response.moves.extend(
            common_pb2.Move(id=a, text=state.action_to_string(a)) for a in state.legal_actions()
        )
    elif not state.is_terminal():
        response.observed_moves.extend(observed_moves(obs))
    return response


def _busy(limits: ServerLimits, slots: SearchSlots, review: bool = False) -> grpc.Status:
    """Why no slot was given: the server is draining, or its slots (or reviews') are taken."""
    if slots.stopped:
        return shutting_down()
    if review:
        return resource_exhausted(
            "budget",
            "reviews may take half the server's {slots} search slots, all taken now; retry later",
            slots=limits.max_searches,
        )
    return resource_exhausted(
        "budget",
        "the server is running its limit of {slots} searches; retry later",
        slots=limits.max_searches,
    )


__all__ = ["Advisor", "Rejected", "read_observation"]
