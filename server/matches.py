"""MatchService: games hosted by the server. Human seats play with a secret
token; bot seats play by themselves. Every seat sees only its own view."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc

import engine
from engine.errors import IllegalMoveError, InvalidObservationError
from engine.interface import State
from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import Bot, make_bot, search_config
from server.convert import GAME_FIELDS, observation_to_proto, rules_of_request
from server.limits import BudgetError, ServerLimits, effective_budget
from server.searching import SearchSlots
from server.status import (
    failed_precondition,
    invalid_argument,
    not_found,
    permission_denied,
    resource_exhausted,
    unauthenticated,
)

#: The Game enum number -> the engine's name, for every game the server hosts.
_GAME_NAMES = {GAME_FIELDS[name].number: name for name in engine.GAMES}
SECRET_TEXT = "(secret choice made)"
_HIDDEN = -1
_UNSEEN = -2


@dataclass
class Event:
    """One move (or a resignation) and the state after it."""

    sequence: int
    seat: int | None
    action: int | None
    #: How each seat sees the move: the action, _HIDDEN, _UNSEEN, or a label action
    #: (Citadels: "(a card under the deck)") that shows what happened but not the card.
    seen_as: list[int]
    after: State
    resigned_seat: int | None = None


@dataclass
class Match:
    id: str
    game: str
    seats: list[str]  # "human:NAME" or "bot:SPEC"
    bots: dict[int, Bot]
    tokens: dict[str, int]
    state: State
    seed: int
    events: list[Event] = field(default_factory=list)
    resigned: list[int] = field(default_factory=list)
    forced_returns: list[float] | None = None
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task | None = None

    @property
    def finished(self) -> bool:
        return self.forced_returns is not None or self.state.is_terminal()

    def returns(self) -> list[float]:
        return self.forced_returns if self.forced_returns is not None else self.state.returns()

    def view(self, seat: int) -> matches_pb2.GetViewResponse:
        state = self.state
        response = matches_pb2.GetViewResponse(
            seat=seat,
            status=_status(self),
            observation=observation_to_proto(state.observation(seat)),
            resigned=self.resigned,
        )
        if self.finished:
            response.scores.extend(state.scores())
            response.returns.extend(self.returns())
        elif state.current_player == seat:
            response.legal_moves.extend(
                common_pb2.Move(id=a, text=state.action_to_string(a)) for a in state.legal_actions()
            )
        return response


def _status(match: Match) -> int:
    return matches_pb2.MATCH_STATUS_FINISHED if match.finished else matches_pb2.MATCH_STATUS_PLAYING


class Refused(Exception):
    def __init__(self, status: grpc.Status) -> None:
        super().__init__(status.details)
        self.status = status


class Matches(matches_pb2_grpc.MatchServiceServicer):
    def __init__(self, limits: ServerLimits, slots: SearchSlots) -> None:
        self.limits = limits
        self.slots = slots
        self.matches: dict[str, Match] = {}

    async def close(self) -> None:
        """Stop every hosted bot (at shutdown)."""
        tasks = [m.bot_task for m in self.matches.values() if m.bot_task and not m.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- helpers ---------------------------------------------------------------

    def _seat(self, match_id: str, token: str) -> tuple[Match, int]:
        if not token:
            raise Refused(unauthenticated("a seat token is required"))
        match = self.matches.get(match_id)
        if match is None:
            raise Refused(not_found(f"no match {match_id!r}"))
        seat = match.tokens.get(token)
        if seat is None:
            raise Refused(permission_denied("this token holds no seat in this match"))
        return match, seat

    async def _record(self, match: Match, seat: int | None, action: int) -> None:
        """Apply a legal action and publish it."""
        state = match.state
        seen = [state.observed_action(action, s) for s in range(state.num_players)]
        state.apply_action(action)
        match.events.append(Event(len(match.events), seat, action, seen, state.clone()))
        async with match.changed:
            match.changed.notify_all()

    def _start_bots(self, match: Match) -> None:
        if match.bot_task is None or match.bot_task.done():
            match.bot_task = asyncio.get_running_loop().create_task(self._play_bots(match))

    async def _play_bots(self, match: Match) -> None:
        """Bot seats move by themselves, each from its own view, one search slot each."""
        while not match.finished and match.state.current_player in match.bots:
            seat = match.state.current_player
            snapshot = match.state.clone()
            seed = (match.seed * 1_000_003 + len(match.events)) & 0xFFFFFFFF
            await self.slots.acquire()
            try:
                action = await asyncio.to_thread(match.bots[seat].choose, snapshot, seed)
            finally:
                await self.slots.release()
            async with match.lock:
                if match.finished or match.state.current_player != seat:
                    return
                await self._record(match, seat, action)

    # -- the RPCs ----------------------------------------------------------------

    async def CreateMatch(self, request, context):
        try:
            match = self._create(request)
        except Refused as refused:
            await context.abort_with_status(refused.status)
        self.matches[match.id] = match
        self._start_bots(match)
        tokens = sorted(match.tokens.items(), key=lambda item: item[1])
        return matches_pb2.CreateMatchResponse(
            match_id=match.id,
            tokens=[matches_pb2.SeatToken(seat=seat, token=token) for token, seat in tokens],
        )

    def _create(self, request) -> Match:
        if len(self.matches) >= self.limits.max_matches:
            raise Refused(resource_exhausted("matches", "the server hosts its limit of matches"))
        game = _GAME_NAMES.get(request.game)
        if game is None:
            raise Refused(
                invalid_argument(
                    "game", "must be " + " or ".join(map(common_pb2.Game.Name, sorted(_GAME_NAMES)))
                )
            )
        counts = engine.GAMES[game][2]
        if len(request.seats) not in counts:
            raise Refused(invalid_argument("seats", f"{game} seats {counts[0]}-{counts[-1]}"))
        seats, bots, tokens = [], {}, {}
        for i, seat in enumerate(request.seats):
            kind = seat.WhichOneof("player")
            if kind is None:
                raise Refused(invalid_argument(f"seats[{i}]", "set human_name or bot"))
            if kind == "bot":
                bots[i] = self._bot(seat.bot, f"seats[{i}].bot")
                seats.append(f"bot:{seat.bot}")
            else:
                seats.append(f"human:{seat.human_name}")
                tokens[secrets.token_urlsafe(24)] = i
        try:
            rules = rules_of_request(game, request)
        except InvalidObservationError as err:
            raise Refused(invalid_argument(err.field, err.reason)) from None
        state = engine.new_game(game, len(seats), seed=request.seed, rules=rules)
        return Match(
            id=secrets.token_hex(8),
            game=game,
            seats=seats,
            bots=bots,
            tokens=tokens,
            state=state,
            seed=request.seed,
        )

    def _bot(self, spec: str, field: str) -> Bot:
        """A hosted bot, its search within the server's limits."""
        try:
            bot = make_bot(spec)
            config = search_config(spec)
        except (ValueError, TypeError) as err:
            raise Refused(invalid_argument(field, str(err))) from None
        if config is not None:
            try:
                effective_budget(
                    self.limits, config.iterations, config.seconds, config.threads, None
                )
            except BudgetError as err:
                make = invalid_argument if err.negative else resource_exhausted
                reason = f"{err.field.removeprefix('budget.')} {err.reason}"
                raise Refused(make(field, reason)) from None
        return bot

    async def GetView(self, request, context):
        try:
            match, seat = self._seat(request.match_id, request.token)
        except Refused as refused:
            await context.abort_with_status(refused.status)
        return match.view(seat)

    async def Play(self, request, context):
        try:
            match, seat = self._seat(request.match_id, request.token)
            async with match.lock:
                action = self._action(match, seat, request.move)
                await self._record(match, seat, action)
        except Refused as refused:
            await context.abort_with_status(refused.status)
        self._start_bots(match)
        return matches_pb2.PlayResponse(view=match.view(seat))

    def _action(self, match: Match, seat: int, move: common_pb2.Move) -> int:
        """The legal action a Play request names; Refused otherwise (nothing changes)."""
        state = match.state
        if match.finished:
            raise Refused(failed_precondition("the match is over"))
        if state.current_player != seat:
            raise Refused(failed_precondition(f"it is seat {state.current_player}'s turn"))
        if not move.text and not move.HasField("id"):
            raise Refused(invalid_argument("move", "give the move's id or its text"))
        action = move.id if move.HasField("id") else None
        if move.text:
            try:
                by_text = state.string_to_action(move.text)
            except IllegalMoveError as err:
                raise Refused(invalid_argument("move.text", str(err))) from None
            if action is not None and action != by_text:
                raise Refused(invalid_argument("move", "id and text name different moves"))
            action = by_text
        if action not in state.legal_actions():
            field_name = "move.text" if move.text else "move.id"
            raise Refused(
                invalid_argument(field_name, f"not a legal move now (decision: {state.phase})")
            )
        return action

    async def Watch(self, request, context):
        try:
            match, seat = self._seat(request.match_id, request.token)
        except Refused as refused:
            await context.abort_with_status(refused.status)
        sent = 0
        while True:
            async with match.changed:
                await match.changed.wait_for(_news(match, sent))
            while sent < len(match.events):
                event = match.events[sent]
                sent += 1
                if event.action is not None and event.seen_as[seat] == _UNSEEN:
                    continue
                yield matches_pb2.WatchResponse(event=_event(match, event, seat))
            if match.finished and sent == len(match.events):
                return

    async def ListMatches(self, request, context):
        return matches_pb2.ListMatchesResponse(
            matches=[
                matches_pb2.MatchSummary(
                    match_id=m.id,
                    game=GAME_FIELDS[m.game].number,
                    num_players=len(m.seats),
                    status=_status(m),
                    current_seat=None if m.finished else m.state.current_player,
                    seats=m.seats,
                    moves_played=sum(1 for e in m.events if e.action is not None),
                )
                for m in self.matches.values()
            ]
        )

    async def Resign(self, request, context):
        """The seat gives up and the match ends: it loses; the best of the others
        by score (then cards built) share the victory."""
        try:
            match, seat = self._seat(request.match_id, request.token)
            async with match.lock:
                if match.finished:
                    raise Refused(failed_precondition("the match is over"))
                match.resigned.append(seat)
                match.forced_returns = _returns_after_resignation(match.state, match.resigned)
                after = match.state.clone()
                match.events.append(Event(len(match.events), seat, None, [], after, seat))
            async with match.changed:
                match.changed.notify_all()
        except Refused as refused:
            await context.abort_with_status(refused.status)
        return matches_pb2.ResignResponse(view=match.view(seat))


def _news(match: Match, sent: int) -> Callable[[], bool]:
    """Whether a watcher that has `sent` events has something new to send."""
    return lambda: len(match.events) > sent or match.finished


def _returns_after_resignation(state: State, resigned: list[int]) -> list[float]:
    scores = state.scores()
    others = [p for p in range(state.num_players) if p not in resigned]
    if not others:
        return [0.0] * state.num_players
    built = [state.cards_built(p) for p in range(state.num_players)]
    best = max((scores[p], built[p]) for p in others)
    winners = [p for p in others if (scores[p], built[p]) == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(state.num_players)]


def _event(match: Match, event: Event, seat: int) -> matches_pb2.MatchEvent:
    message = matches_pb2.MatchEvent(
        sequence=event.sequence,
        observation=observation_to_proto(event.after.observation(seat)),
        status=matches_pb2.MATCH_STATUS_PLAYING,
    )
    if event.seat is not None:
        message.seat = event.seat
    if event.resigned_seat is not None:
        message.resigned_seat = event.resigned_seat
    if event.action is not None:
        seen = event.seen_as[seat]
        if seen == _HIDDEN:
            message.move.CopyFrom(common_pb2.Move(id=_HIDDEN, text=SECRET_TEXT))
        else:
            message.move.CopyFrom(common_pb2.Move(id=seen, text=event.after.action_to_string(seen)))
    last = event.sequence == len(match.events) - 1
    if last and match.finished:
        message.status = matches_pb2.MATCH_STATUS_FINISHED
        message.scores.extend(event.after.scores())
        message.returns.extend(match.returns())
    return message
