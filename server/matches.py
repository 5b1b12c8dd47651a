"""MatchService: games hosted by the server. Human seats play with a secret token; bot seats
play by themselves. Every seat sees only its own view. Matches live in a database
(server/store.py): every accepted move is committed before it is answered, so a restart,
a crash or another replica on the same database loses nothing."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError

import engine
from convert import game_name, game_number, observation_to_proto, rules_of_request, served_games
from engine.errors import InvalidObservationError
from engine.interface import HIDDEN, UNSEEN, State
from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import Bot, make_bot, search_config
from server.botpool import BotPool
from server.limits import BudgetError, ServerLimits, check_tree, effective_budget
from server.moves import action_of
from server.quotas import check_matches, current_caller
from server.status import (
    Rejected,
    failed_precondition,
    invalid_argument,
    not_found,
    permission_denied,
    resource_exhausted,
    unauthenticated,
    unavailable,
)
from server.store import (
    EXPIRE,
    EXPIRED,
    FINISHED,
    MOVE,
    RESIGN,
    RESIGNED,
    LoggedMove,
    MatchRecord,
    Progress,
    Store,
    StoreError,
    page_after,
    page_token,
)

log = logging.getLogger("regent.server")
T = TypeVar("T")

SECRET_TEXT = "(secret choice made)"
PLAYING = matches_pb2.MATCH_STATUS_PLAYING
MAX_NAME = 64
#: ListMatches: matches per page when the request sets none, and at most.
DEFAULT_PAGE, MAX_PAGE = 50, 200
MAX_LIST_TOKENS = 100
#: How often a Watch looks in the database for moves made by another replica (seconds).
WATCH_POLL = 0.5


def token_hash(token: str) -> str:
    """What the database keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Event:
    """One move (or a resignation, or the expiry) and the state after it."""

    sequence: int
    seat: int | None
    action: int | None
    #: How each seat sees the move: the action, HIDDEN, UNSEEN, or a label action (such
    #: as "(a card under the deck)") that shows what happened but not the card.
    seen_as: list[int]
    after: State
    resigned_seat: int | None = None
    expired: bool = False


@dataclass
class Match:
    id: str
    game: str
    seats: list[str]  # "human:NAME" or "bot:SPEC"
    bots: dict[int, Bot]
    #: sha256 of each human seat's token -> the seat.
    token_hashes: dict[str, int]
    initial: State
    seed: int
    public: bool = False
    events: list[Event] = field(default_factory=list)
    resigned: list[int] = field(default_factory=list)
    forced_returns: list[float] | None = None
    expired: bool = False
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task | None = None

    @property
    def state(self) -> State:
        """The true state now (never to be changed in place)."""
        return self.events[-1].after if self.events else self.initial

    @property
    def finished(self) -> bool:
        return self.forced_returns is not None or self.expired or self.state.is_terminal()

    @property
    def status(self) -> matches_pb2.MatchStatus:
        if self.expired:
            return matches_pb2.MATCH_STATUS_EXPIRED
        return matches_pb2.MATCH_STATUS_FINISHED if self.finished else PLAYING

    @property
    def bot_turn(self) -> bool:
        return not self.finished and self.state.current_player in self.bots

    def returns(self) -> list[float]:
        return self.forced_returns if self.forced_returns is not None else self.state.returns()

    def view(self, seat: int, moves: int | None = None) -> matches_pb2.GetViewResponse:
        """The seat's view now, or after the first `moves` events."""
        latest = moves is None or moves == len(self.events)
        n = len(self.events) if moves is None else moves
        state = self.events[n - 1].after if n else self.initial
        status = self.status if latest else PLAYING
        response = matches_pb2.GetViewResponse(
            seat=seat,
            status=status,
            observation=observation_to_proto(state.observation(seat)),
            resigned=self.resigned if latest else [],
            moves_played=n,
        )
        if status == matches_pb2.MATCH_STATUS_FINISHED:
            response.scores.extend(state.scores())
            response.returns.extend(self.returns())
        elif status == PLAYING and state.current_player == seat:
            response.legal_moves.extend(
                common_pb2.Move(id=a, text=state.action_to_string(a)) for a in state.legal_actions()
            )
        return response

    def progress(self, event: Event) -> Progress:
        """What the match's row says once `event` is played."""
        if event.expired:
            return Progress(EXPIRED, None, False)
        if event.resigned_seat is not None:
            return Progress(RESIGNED, None, False)
        if event.after.is_terminal():
            return Progress(FINISHED, None, False)
        seat = event.after.current_player
        return Progress(None, seat, seat in self.bots)

    def next_event(self, move: LoggedMove) -> Event:
        """The event a logged move makes (the match is unchanged)."""
        state = self.state
        if move.kind == RESIGN:
            return Event(move.number, move.seat, None, [], state, resigned_seat=move.seat)
        if move.kind == EXPIRE:
            return Event(move.number, None, None, [], state, expired=True)
        assert move.action is not None, "a logged move has its action"
        seen = [state.observed_action(move.action, s) for s in range(state.num_players)]
        after = state.clone()
        after.apply_action(move.action)
        return Event(move.number, move.seat, move.action, seen, after)

    def push(self, event: Event) -> None:
        self.events.append(event)
        if event.resigned_seat is not None:
            self.resigned.append(event.resigned_seat)
            self.forced_returns = _returns_after_resignation(self.state, self.resigned)
        self.expired = self.expired or event.expired


def rebuild(record: MatchRecord) -> Match:
    """A stored match, replayed from its deal; StoreError if its log does not replay."""
    rules = engine.game(record.game).rules_class.from_json(record.rules)
    match = Match(
        id=record.id,
        game=record.game,
        seats=record.seats,
        bots={
            i: make_bot(s[4:], record.game, len(record.seats))
            for i, s in enumerate(record.seats)
            if s.startswith("bot:")
        },
        token_hashes=record.token_hashes,
        initial=engine.new_game(record.game, len(record.seats), seed=record.seed, rules=rules),
        seed=record.seed,
        public=record.public,
    )
    for move in record.log:
        if match.finished or (move.kind == MOVE and move.action not in match.state.legal_actions()):
            raise StoreError(f"match {record.id}: logged move {move.number} does not replay")
        match.push(match.next_event(move))
    return match


_SHUTTING_DOWN = "the server is shutting down; watch again"


class Matches(matches_pb2_grpc.MatchServiceServicer):
    """The service; `await start()` opens the database, `await close()` stops every bot."""

    def __init__(self, limits: ServerLimits, db: str) -> None:
        self.limits = limits
        self.db = db
        self.store: Store | None = None
        #: Unfinished matches this process has loaded; finished ones leave.
        self.live: dict[str, Match] = {}
        self.pool = BotPool(limits.max_bot_searches)
        #: This replica, in the bot leases of the database.
        self.owner = secrets.token_hex(8)
        self._supervisor: asyncio.Task | None = None
        self._closing = False
        self._draining = False

    @property
    def opened(self) -> Store:
        """The match database, once `start` has opened it."""
        if self.store is None:
            raise RuntimeError("the match database is not open: await start() first")
        return self.store

    async def start(self) -> None:
        self.store = await asyncio.to_thread(Store, self.db)
        log.info("hosted matches kept in %s (replica %s)", self.store.url, self.owner)
        self._supervisor = asyncio.get_running_loop().create_task(self._supervise())

    def drain(self) -> None:
        """At the start of a shutdown: every Watch stream ends within WATCH_POLL seconds
        with UNAVAILABLE (watch again after the restart, or on another replica)."""
        self._draining = True

    async def close(self) -> None:
        """Stop every hosted bot at once (at shutdown) and give up their leases."""
        self._closing = True
        self.pool.stop()
        tasks = [m.bot_task for m in self.live.values() if m.bot_task and not m.bot_task.done()]
        if self._supervisor is not None:
            tasks.append(self._supervisor)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.store is not None:
            await asyncio.to_thread(self.store.release_leases, self.owner)
            self.store.close()

    async def load(self, match_id: str) -> Match | None:
        """The match, up to date with the database: from memory, or rebuilt from its log."""
        match = self.live.get(match_id)
        if match is not None:
            await self._catch_up(match)
            return match
        record = await self._db(self.opened.load, match_id)
        if record is None:
            return None
        match = await asyncio.to_thread(rebuild, record)
        if match.finished:
            return match
        match = self.live.setdefault(match_id, match)
        await self._catch_up(match)
        return match

    # -- helpers ---------------------------------------------------------------

    async def _db(self, call: Callable[..., T], *args: object) -> T:
        """A database call, in a worker thread."""
        try:
            return await asyncio.to_thread(call, *args)
        except SQLAlchemyError as err:
            log.warning("the match database failed: %s", type(err).__name__)
            raise Rejected(unavailable("the match database is unavailable; try again")) from None

    async def _seat(self, match_id: str, token: str) -> tuple[Match, int]:
        if not token:
            raise Rejected(unauthenticated("a seat token is required"))
        match = await self.load(match_id) if len(match_id) <= 32 else None
        if match is None:
            raise Rejected(not_found(f"no match {match_id!r}"))
        seat = match.token_hashes.get(token_hash(token))
        if seat is None:
            raise Rejected(permission_denied("this token holds no seat in this match"))
        return match, seat

    async def _catch_up(self, match: Match) -> None:
        async with match.lock:
            await self._catch_up_locked(match)

    async def _catch_up_locked(self, match: Match) -> None:
        """Apply the moves another replica made (a no-op in a lone server)."""
        if match.finished:
            return
        logged = await self._db(self.opened.log_since, match.id, len(match.events))
        for move in logged:
            match.push(match.next_event(move))
        if logged:
            await self._published(match)

    async def _commit(self, match: Match, move: LoggedMove) -> None:
        """Store a move at the next number, then apply it (the match's lock is held);
        FAILED_PRECONDITION when another replica took that number first."""
        event = match.next_event(move)
        if not await self._db(self.opened.append, match.id, move, match.progress(event)):
            await self._catch_up_locked(match)
            raise Rejected(
                failed_precondition(
                    f"another move came first: the match is at move {len(match.events)}"
                )
            )
        match.push(event)
        await self._published(match)

    async def _published(self, match: Match) -> None:
        """Wake the match's watchers; a finished match leaves memory."""
        async with match.changed:
            match.changed.notify_all()
        if match.finished:
            self.live.pop(match.id, None)

    # -- hosted bots -------------------------------------------------------------

    def _wake(self, match: Match) -> None:
        """Drive the match's bots if one is to move and nothing drives them here yet."""
        if self._closing or not match.bot_turn:
            return
        if match.bot_task is None or match.bot_task.done():
            match.bot_task = asyncio.get_running_loop().create_task(self._drive(match))

    async def _drive(self, match: Match) -> None:
        """Bot seats move, each from its own view, while this replica holds the match's lease."""
        try:
            while await self._bot_move(match):
                pass
            await self._db(self.opened.release_lease, match.id, self.owner)
        except Rejected:
            pass  # the database failed: the supervisor tries again later

    async def _bot_move(self, match: Match) -> bool:
        """One bot move; False when it is no bot's turn or another replica drives."""
        async with match.lock:
            await self._catch_up_locked(match)
            if self._closing or not match.bot_turn:
                return False
            lease = self.limits.bot_lease_seconds
            if not await self._db(self.opened.take_lease, match.id, self.owner, lease):
                return False
            seat, number, snapshot = match.state.current_player, len(match.events), match.state
        seed = (match.seed * 1_000_003 + number) & 0xFFFFFFFF
        action = await self.pool.choose(match.bots[seat], snapshot.clone(), seed)
        if self._closing:
            return False  # a search cut short by the shutdown: searched again after it
        async with match.lock:
            if len(match.events) == number:
                with contextlib.suppress(Rejected):  # made elsewhere first: look again
                    await self._commit(match, LoggedMove(number, MOVE, seat, action))
        return True

    async def _supervise(self) -> None:
        """Renew this replica's leases, expire idle matches, and drive the bots of live
        matches nobody drives (after a restart, or when a replica died)."""
        interval = self.limits.bot_lease_seconds / 5
        while True:
            try:
                await self._db(self.opened.renew_leases, self.owner, self.limits.bot_lease_seconds)
                await self._expire_idle()
                for match_id in await self._db(self.opened.undriven, self.owner):
                    match = await self.load(match_id)
                    if match is not None:
                        self._wake(match)
            except (Rejected, StoreError) as err:
                log.warning("hosted matches: %s", err)
            await asyncio.sleep(interval)

    async def _expire_idle(self) -> None:
        """Cancel the live matches with no move for `match_ttl` seconds."""
        before = time.time() - self.limits.match_ttl
        for match_id, number in await self._db(self.opened.idle, before):
            expiry = LoggedMove(number, EXPIRE)
            if await self._db(self.opened.append, match_id, expiry, Progress(EXPIRED, None, False)):
                match = self.live.get(match_id)
                if match is not None:
                    await self._catch_up(match)

    # -- the RPCs ----------------------------------------------------------------

    async def CreateMatch(self, request, context):
        try:
            caller = current_caller()
            counts = await self._db(self.opened.live_counts, caller.identity)
            check_matches(self.limits, caller, counts)
            match, tokens = self._create(request)
            record = MatchRecord(
                id=match.id,
                game=match.game,
                seats=match.seats,
                rules=match.initial.rules.to_json(),
                seed=match.seed,
                public=match.public,
                created_at=time.time(),
                token_hashes=match.token_hashes,
                creator=caller.identity,
            )
            start = Progress(None, match.state.current_player, match.bot_turn)
            await self._db(self.opened.create, record, start)
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)
        self.live[match.id] = match
        self._wake(match)
        return matches_pb2.CreateMatchResponse(
            match_id=match.id,
            tokens=[matches_pb2.SeatToken(seat=seat, token=token) for seat, token in tokens],
        )

    def _create(self, request) -> tuple[Match, list[tuple[int, str]]]:
        """A new match (not stored yet) and its (seat, token) pairs."""
        game = game_name(request.game)
        if game is None:
            served = sorted(game_number(spec.name) for spec in served_games())
            raise Rejected(
                invalid_argument(
                    "game", "must be " + " or ".join(map(common_pb2.Game.Name, served))
                )
            )
        counts = engine.game(game).player_counts
        if len(request.seats) not in counts:
            raise Rejected(invalid_argument("seats", f"{game} seats {counts[0]}-{counts[-1]}"))
        seats, bots, tokens = [], {}, []
        for i, seat in enumerate(request.seats):
            kind = seat.WhichOneof("player")
            if kind is None:
                raise Rejected(invalid_argument(f"seats[{i}]", "set human_name or bot"))
            if kind == "bot":
                bots[i] = self._bot(seat.bot, f"seats[{i}].bot", game, len(request.seats))
                seats.append(f"bot:{seat.bot}")
            elif len(seat.human_name) > MAX_NAME:
                raise Rejected(
                    invalid_argument(f"seats[{i}].human_name", f"at most {MAX_NAME} characters")
                )
            else:
                seats.append(f"human:{seat.human_name}")
                # Hex: a token never starts with '-', which a command line reads as an option.
                tokens.append((i, secrets.token_hex(24)))
        try:
            rules = rules_of_request(game, request)
        except InvalidObservationError as err:
            raise Rejected(invalid_argument(err.field, err.reason)) from None
        match = Match(
            id=secrets.token_hex(8),
            game=game,
            seats=seats,
            bots=bots,
            token_hashes={token_hash(token): seat for seat, token in tokens},
            initial=engine.new_game(game, len(seats), seed=request.seed, rules=rules),
            seed=request.seed,
            public=request.public,
        )
        return match, tokens

    def _bot(self, spec: str, field: str, game: str, players: int) -> Bot:
        """A hosted bot (a level's of `game` with `players` players), its search within the
        server's limits."""
        try:
            bot = make_bot(spec, game, players)
            config = search_config(spec, game, players)
        except (ValueError, TypeError) as err:
            raise Rejected(invalid_argument(field, str(err))) from None
        if config is not None:
            try:
                effective_budget(
                    self.limits, config.iterations, config.seconds, config.threads, None
                )
                check_tree(self.limits, config.max_nodes)
            except BudgetError as err:
                make = invalid_argument if err.negative else resource_exhausted
                reason = f"{err.field.removeprefix('budget.')} {err.reason}"
                raise Rejected(make(field, reason)) from None
        return bot

    async def GetView(self, request, context):
        try:
            match, seat = await self._seat(request.match_id, request.token)
            at = request.at_move if request.HasField("at_move") else None
            if at is not None and at > len(match.events):
                reason = f"the match has {len(match.events)} moves, not {at}"
                raise Rejected(invalid_argument("at_move", reason))
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)
        return match.view(seat, at)

    async def Play(self, request, context):
        try:
            match, seat = await self._seat(request.match_id, request.token)
            async with match.lock:
                await self._catch_up_locked(match)
                number = len(match.events)
                expected = request.expected_move if request.HasField("expected_move") else number
                if expected < number:
                    return matches_pb2.PlayResponse(
                        view=self._retried(match, seat, expected, request.move)
                    )
                if expected > number:
                    raise Rejected(
                        failed_precondition(
                            f"expected_move {expected} is ahead: the match is at move {number}"
                        )
                    )
                if match.finished:
                    raise Rejected(failed_precondition("the match is over"))
                if match.state.current_player != seat:
                    turn = match.state.current_player
                    raise Rejected(failed_precondition(f"it is seat {turn}'s turn"))
                action = action_of(match.state, request.move)
                await self._commit(match, LoggedMove(number, MOVE, seat, action))
                answer = match.view(seat)
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)
        self._wake(match)
        return matches_pb2.PlayResponse(view=answer)

    def _retried(
        self, match: Match, seat: int, number: int, move: common_pb2.Move
    ) -> matches_pb2.GetViewResponse:
        """The answer to a Play already applied at `number`: the seat's view just after it;
        FAILED_PRECONDITION if that move was another."""
        made = match.events[number]
        before = match.events[number - 1].after if number else match.initial
        try:
            same = made.seat == seat and made.action == action_of(before, move)
        except Rejected:
            same = False
        if not same:
            raise Rejected(
                failed_precondition(
                    f"move {number} was another: the match is at move {len(match.events)}"
                )
            )
        return match.view(seat, number + 1)

    async def Watch(self, request, context):
        try:
            match, seat = await self._seat(request.match_id, request.token)
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)
        sent = 0
        while True:
            if self._draining:
                await context.abort_with_status(unavailable(_SHUTTING_DOWN))
            if not await _news(match, sent):
                with contextlib.suppress(Rejected):  # the database is away: look again later
                    await self._catch_up(match)
                continue
            while sent < len(match.events):
                event = match.events[sent]
                sent += 1
                if event.action is not None and event.seen_as[seat] == UNSEEN:
                    continue
                yield matches_pb2.WatchResponse(event=_event(match, event, seat))
            if match.finished and sent == len(match.events):
                return

    async def ListMatches(self, request, context):
        try:
            response = await self._list(request)
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)
        return response

    async def _list(self, request) -> matches_pb2.ListMatchesResponse:
        if len(request.tokens) > MAX_LIST_TOKENS:
            raise Rejected(invalid_argument("tokens", f"at most {MAX_LIST_TOKENS} tokens"))
        try:
            after = page_after(request.page_token) if request.page_token else None
        except ValueError as err:
            raise Rejected(invalid_argument("page_token", str(err))) from None
        size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
        hashes = [token_hash(t) for t in request.tokens if t]
        found, more = await self._db(self.opened.visible, hashes, size, after)
        response = matches_pb2.ListMatchesResponse(
            next_page_token=page_token(found[-1]) if more else ""
        )
        for m in found:
            status = {None: PLAYING, EXPIRED: matches_pb2.MATCH_STATUS_EXPIRED}.get(
                m.outcome, matches_pb2.MATCH_STATUS_FINISHED
            )
            response.matches.append(
                matches_pb2.MatchSummary(
                    match_id=m.id,
                    game=game_number(m.game),
                    num_players=len(m.seats),
                    status=status,
                    current_seat=m.current_seat,
                    seats=m.seats,
                    moves_played=m.num_moves - (m.outcome in (RESIGNED, EXPIRED)),
                    public=m.public,
                )
            )
        return response

    async def Resign(self, request, context):
        """The seat gives up and the match ends: it loses; the best of the others
        by score (then cards built) share the victory."""
        try:
            match, seat = await self._seat(request.match_id, request.token)
            async with match.lock:
                await self._catch_up_locked(match)
                if match.finished:
                    raise Rejected(failed_precondition("the match is over"))
                await self._commit(match, LoggedMove(len(match.events), RESIGN, seat))
                answer = match.view(seat)
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)
        return matches_pb2.ResignResponse(view=answer)


async def _news(match: Match, sent: int) -> bool:
    """Wait (at most WATCH_POLL seconds) until a watcher that has `sent` events has
    something new to send; whether it has."""

    def ready() -> bool:
        return len(match.events) > sent or match.finished

    async with match.changed:
        try:
            await asyncio.wait_for(match.changed.wait_for(ready), WATCH_POLL)
        except TimeoutError:
            return ready()
    return True


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
        status=PLAYING,
    )
    if event.seat is not None:
        message.seat = event.seat
    if event.resigned_seat is not None:
        message.resigned_seat = event.resigned_seat
    if event.action is not None:
        seen = event.seen_as[seat]
        if seen == HIDDEN:
            message.move.CopyFrom(common_pb2.Move(id=HIDDEN, text=SECRET_TEXT))
        else:
            message.move.CopyFrom(common_pb2.Move(id=seen, text=event.after.action_to_string(seen)))
    last = event.sequence == len(match.events) - 1
    if last and match.finished:
        message.status = match.status
        if not match.expired:
            message.scores.extend(event.after.scores())
            message.returns.extend(match.returns())
    return message
