"""MatchService: games hosted by the server. Human seats play with a secret token; bot seats
play by themselves. Every seat sees only its own view. Matches live in a database
(server/store.py): every accepted move is committed before it is answered, so a restart,
a crash or another replica on the same database loses nothing.

This module is the service's calls; the match itself is server/match.py, what a seat is
sent of it server/match_protos.py, and keeping, publishing and driving matches
server/hosting.py."""

from __future__ import annotations

import secrets
import time

import engine
from convert import game_name, game_number, rules_of_request, served_games
from engine.errors import InvalidObservationError, wording_of
from engine.interface import UNSEEN
from regent.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import Bot, make_bot, search_config
from server.hosting import Hosting, another_came_first
from server.limits import BudgetError, check_tree, effective_budget
from server.match import PLAYING, Match, rebuild, token_hash
from server.match_protos import event_message, seat_view
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
    EXPIRED,
    MOVE,
    RESIGN,
    RESIGNED,
    LoggedMove,
    MatchRecord,
    Progress,
    page_after,
    page_token,
)

#: A human seat's name: printable characters only (no NUL, newline or terminal escape, which
#: would reach every client that prints seat names), at most this many.
MAX_NAME = 64
#: A bot seat's spec, shown to every ListMatches caller: the longest level's is ~50.
MAX_BOT_SPEC = 200
#: ListMatches: matches per page when the request sets none, and at most.
DEFAULT_PAGE, MAX_PAGE = 50, 200
MAX_LIST_TOKENS = 100

_SHUTTING_DOWN = "the server is shutting down; watch again"
_FELL_BEHIND = "this stream fell too far behind the match; watch again"

__all__ = ["Match", "Matches", "rebuild"]


class Matches(Hosting, matches_pb2_grpc.MatchServiceServicer):
    """The service; `await start()` opens the database, `await close()` stops every bot."""

    async def _seat(self, match_id: str, token: str) -> tuple[Match, int]:
        if not token:
            raise Rejected(unauthenticated("a seat token is required"))
        match = await self.load(match_id) if len(match_id) <= 32 else None
        if match is None:
            raise Rejected(not_found("no match '{match}'", match=match_id))
        seat = match.token_hashes.get(token_hash(token))
        if seat is None:
            raise Rejected(permission_denied("this token holds no seat in this match"))
        return match, seat

    async def CreateMatch(self, request, context):
        caller = current_caller()
        counts = await self._db(self.opened.live_counts, caller.identity)
        check_matches(self.limits, caller, counts)
        match, tokens = await self.off_loop(self._create, request)
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
                    "game", "must be {games}", games=" or ".join(map(common_pb2.Game.Name, served))
                )
            )
        counts = engine.game(game).player_counts
        if len(request.seats) not in counts:
            raise Rejected(
                invalid_argument(
                    "seats", "{game} seats {low}-{high}", game=game, low=counts[0], high=counts[-1]
                )
            )
        seats, bots, tokens = [], {}, []
        for i, seat in enumerate(request.seats):
            kind = seat.WhichOneof("player")
            if kind is None:
                raise Rejected(invalid_argument(f"seats[{i}]", "set human_name or bot"))
            if kind == "bot":
                if len(seat.bot) > MAX_BOT_SPEC:
                    reason = "at most {count} characters"
                    raise Rejected(invalid_argument(f"seats[{i}].bot", reason, count=MAX_BOT_SPEC))
                bots[i] = self._bot(seat.bot, f"seats[{i}].bot", game, len(request.seats))
                seats.append(f"bot:{seat.bot}")
            elif len(seat.human_name) > MAX_NAME:
                raise Rejected(
                    invalid_argument(
                        f"seats[{i}].human_name", "at most {count} characters", count=MAX_NAME
                    )
                )
            elif not seat.human_name.isprintable():
                reason = "printable characters only (no control characters such as newline)"
                raise Rejected(invalid_argument(f"seats[{i}].human_name", reason))
            else:
                seats.append(f"human:{seat.human_name}")
                # Hex: a token never starts with '-', which a command line reads as an option.
                tokens.append((i, secrets.token_hex(24)))
        try:
            rules = rules_of_request(game, request)
        except InvalidObservationError as err:
            raise Rejected(invalid_argument(err.field, err.wording)) from None
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
            raise Rejected(invalid_argument(field, wording_of(err))) from None
        if config is not None:
            try:
                effective_budget(
                    self.limits, config.iterations, config.seconds, config.threads, None
                )
                check_tree(self.limits, config.max_nodes)
            except BudgetError as err:
                part = err.field.removeprefix("budget.")
                raise Rejected(err.status(field, "{part} {reason}", part=part)) from None
        return bot

    async def GetView(self, request, context):
        match, seat = await self._seat(request.match_id, request.token)
        at = request.at_move if request.HasField("at_move") else None
        if at is not None and at > len(match.events):
            reason = "the match has {count} moves, not {at}"
            raise Rejected(invalid_argument("at_move", reason, count=len(match.events), at=at))
        return seat_view(match, seat, at)

    async def Play(self, request, context):
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
                        "expected_move {expected} is ahead: the match is at move {number}",
                        expected=expected,
                        number=number,
                    )
                )
            if match.finished:
                raise Rejected(failed_precondition("the match is over"))
            if match.state.current_player != seat:
                turn = match.state.current_player
                raise Rejected(failed_precondition("it is {player}'s turn", player=turn))
            action = action_of(match.state, request.move)
            if await self._commit(match, LoggedMove(number, MOVE, seat, action)):
                answer = seat_view(match, seat)
            elif request.HasField("expected_move") and len(match.events) > number:
                # Another replica took the number: this call's duplicate, or another move.
                answer = self._retried(match, seat, number, request.move)
            else:
                raise another_came_first(match)
        self._wake(match)
        return matches_pb2.PlayResponse(view=answer)

    def _retried(
        self, match: Match, seat: int, number: int, move: common_pb2.Move
    ) -> matches_pb2.GetViewResponse:
        """The answer to a Play already applied at `number`: the seat's view just after it;
        FAILED_PRECONDITION if that move was another."""
        made = match.events[number]
        try:
            same = made.seat == seat and made.action == action_of(match.state_after(number), move)
        except Rejected:
            same = False
        if not same:
            raise Rejected(
                failed_precondition(
                    "move {number} was another: the match is at move {at}",
                    number=number,
                    at=len(match.events),
                )
            )
        return seat_view(match, seat, number + 1)

    async def Watch(self, request, context):
        match, seat = await self._seat(request.match_id, request.token)
        watcher = self.watchers.join(match)
        try:
            while True:
                while watcher.sent < len(match.events):
                    event = match.events[watcher.sent]
                    watcher.sent += 1
                    if event.action is not None and event.seen_as[seat] == UNSEEN:
                        continue
                    yield matches_pb2.WatchResponse(event=event_message(match, event, seat))
                if match.finished:
                    return
                if self._draining or self._closing:
                    raise Rejected(unavailable(_SHUTTING_DOWN))
                if watcher.dropped:
                    raise Rejected(resource_exhausted("match_id", _FELL_BEHIND))
                await watcher.wait()
        finally:
            self.watchers.leave(watcher)

    async def ListMatches(self, request, context) -> matches_pb2.ListMatchesResponse:
        if len(request.tokens) > MAX_LIST_TOKENS:
            raise Rejected(
                invalid_argument("tokens", "at most {count} tokens", count=MAX_LIST_TOKENS)
            )
        try:
            after = page_after(request.page_token) if request.page_token else None
        except ValueError as err:
            raise Rejected(invalid_argument("page_token", wording_of(err))) from None
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
        match, seat = await self._seat(request.match_id, request.token)
        async with match.lock:
            await self._catch_up_locked(match)
            if match.finished:
                raise Rejected(failed_precondition("the match is over"))
            if not await self._commit(match, LoggedMove(len(match.events), RESIGN, seat)):
                raise another_came_first(match)
            answer = seat_view(match, seat)
        return matches_pb2.ResignResponse(view=answer)
