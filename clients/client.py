"""A small synchronous client of the Regent service: one method per call, proto messages in
and out, and a `RegentError` (code, message, blamed fields, wording) instead of a raw
`grpc.RpcError`.

    with RegentClient("127.0.0.1:50051") as client:
        advice = client.recommend(state.observation(0), iterations=2000)
        print(advice.move.text)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engine.errors import WORDING_DOMAIN, Wording
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc

#: An engine observation of any game (its `game` names it); engine observations are
#: converted to messages by the game's converter module (`convert`).
EngineObservation = Any

__all__ = ["FieldViolation", "RegentClient", "RegentError", "Stream", "seat_spec"]

T = TypeVar("T")
Q = TypeVar("Q")
R = TypeVar("R")
_Unary = grpc.UnaryUnaryMultiCallable
_Streaming = grpc.UnaryStreamMultiCallable


class _AdvisorStub(Protocol):
    """The calls of the generated `AdvisorServiceStub` that the client makes (the generated
    gRPC module has no types)."""

    Recommend: _Unary[advisor_pb2.RecommendRequest, advisor_pb2.RecommendResponse]
    Analyze: _Streaming[advisor_pb2.AnalyzeRequest, advisor_pb2.AnalyzeResponse]
    LegalMoves: _Unary[advisor_pb2.LegalMovesRequest, advisor_pb2.LegalMovesResponse]
    ListGames: _Unary[advisor_pb2.ListGamesRequest, advisor_pb2.ListGamesResponse]
    Review: _Streaming[advisor_pb2.ReviewRequest, advisor_pb2.ReviewResponse]
    ApplyObservedMove: _Unary[
        advisor_pb2.ApplyObservedMoveRequest, advisor_pb2.ApplyObservedMoveResponse
    ]


class _MatchStub(Protocol):
    """The calls of the generated `MatchServiceStub` that the client makes."""

    CreateMatch: _Unary[matches_pb2.CreateMatchRequest, matches_pb2.CreateMatchResponse]
    GetView: _Unary[matches_pb2.GetViewRequest, matches_pb2.GetViewResponse]
    Play: _Unary[matches_pb2.PlayRequest, matches_pb2.PlayResponse]
    Watch: _Streaming[matches_pb2.WatchRequest, matches_pb2.WatchResponse]
    ListMatches: _Unary[matches_pb2.ListMatchesRequest, matches_pb2.ListMatchesResponse]
    Resign: _Unary[matches_pb2.ResignRequest, matches_pb2.ResignResponse]


@dataclass(frozen=True)
class FieldViolation:
    """One field a request got wrong, as the server's google.rpc.BadRequest names it."""

    field: str
    description: str


class RegentError(Exception):
    """A failed call: its gRPC status code, the server's message, the fields it blamed, and
    the refusal's `wording` (its English template and parameters, for a front end to word
    in its own language; None when the server sent none, as for gRPC's own errors).
    It reads `CODE: message`, the code once: a message that only restates the code (gRPC's
    own "Deadline Exceeded") or is empty is left out."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        field_violations: Sequence[FieldViolation] = (),
        wording: Wording | None = None,
    ) -> None:
        restated = message.strip().replace(" ", "_").upper() in ("", code.name)
        super().__init__(code.name if restated else f"{code.name}: {message}")
        self.code = code
        self.message = message
        self.field_violations = tuple(field_violations)
        self.wording = wording

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled, so that it crosses a process boundary
        whole (a tournament worker's error sent to its parent; see engine.errors)."""
        args = (self.code, self.message, self.field_violations, self.wording)
        return type(self), args, self.__dict__

    @classmethod
    def from_rpc(cls, error: grpc.RpcError) -> RegentError:
        """Read the status of a failed call, with its BadRequest details when it has some."""
        if not isinstance(error, grpc.Call):  # the sync API's errors all are; be safe
            return cls(grpc.StatusCode.UNKNOWN, str(error))
        try:
            status = rpc_status.from_call(error)
        except ValueError:  # trailers that contradict the status line: keep the status line
            status = None
        violations: list[FieldViolation] = []
        wording: Wording | None = None
        for detail in status.details if status is not None else ():
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad_request = error_details_pb2.BadRequest()
                detail.Unpack(bad_request)
                violations.extend(
                    FieldViolation(v.field, v.description) for v in bad_request.field_violations
                )
            elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                if info.domain == WORDING_DOMAIN and "template" in info.metadata:
                    params = {k: v for k, v in info.metadata.items() if k != "template"}
                    wording = Wording(info.metadata["template"], params)
        return cls(error.code(), error.details() or "", violations, wording)


class Stream(Generic[T]):
    """The messages of a server-streaming call, as an iterator; `close()` (or leaving a
    `with` block) cancels the call, and the iteration then simply ends."""

    def __init__(self, call: Any, unwrap: Callable[[Any], T]) -> None:
        self._call = call
        self._unwrap = unwrap
        self._closed = False

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        try:
            return self._unwrap(next(self._call))
        except grpc.RpcError as err:
            if self._closed and err.code() == grpc.StatusCode.CANCELLED:
                raise StopIteration from None
            raise RegentError.from_rpc(err) from None

    def close(self) -> None:
        """Cancel the call (the server stops its work for it); harmless once it has ended."""
        self._closed = True
        self._call.cancel()

    def __enter__(self) -> Stream[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def seat_spec(spec: str) -> matches_pb2.SeatSpec:
    """`human:NAME` for a human seat; `bot:SPEC` or a bare bot spec such as
    `mo-ismcts:iterations=500` for a bot seat."""
    kind, _, rest = spec.partition(":")
    if kind == "human":
        return matches_pb2.SeatSpec(human_name=rest)
    if kind == "bot":
        return matches_pb2.SeatSpec(bot=rest)
    return matches_pb2.SeatSpec(bot=spec)


def _game(game: str | int) -> common_pb2.Game:
    """The Game enum number of a game named as the engine names it (dashes for underscores
    too), or the number itself."""
    # protoc's stubs type an enum's numbers as its class, and `Value` as a plain int.
    if isinstance(game, int):
        return cast(common_pb2.Game, game)
    try:
        return cast(
            common_pb2.Game, common_pb2.Game.Value("GAME_" + game.strip().upper().replace("-", "_"))
        )
    except ValueError:
        names = [n.removeprefix("GAME_").lower() for n in common_pb2.Game.keys()[1:]]
        raise ValueError(f"unknown game {game!r}; the games: {', '.join(names)}") from None


def _observation(observation: advisor_pb2.Observation | EngineObservation) -> Any:
    """The proto message of an observation, converting an engine one."""
    if isinstance(observation, advisor_pb2.Observation):
        return observation
    # Only engine observations need the engine, so only they import it.
    from convert import observation_to_proto

    return observation_to_proto(observation)


def _set_rules(
    request: matches_pb2.CreateMatchRequest, number: int, rules: Mapping[str, bool] | Message
) -> None:
    """Set the request's rules field of the game with enum number `number` (none for a game
    this library does not convert)."""
    # Only rules need the game's converter (and so the engine), so only they import it.
    from convert import converter, game_name

    name = game_name(number)
    found = converter(name) if name is not None else None
    if found is None:
        return
    message = found.RULES_MESSAGE
    rules_msg = rules if isinstance(rules, Message) else message(**rules)
    getattr(request, found.RULES_FIELD).CopyFrom(rules_msg)


def _budget(iterations: int, seconds: float, threads: int) -> common_pb2.SearchBudget:
    return common_pb2.SearchBudget(iterations=iterations, seconds=seconds, threads=threads)


class RegentClient:
    """The Advisor and Match services at `address` (host:port), over one insecure channel.

    Every method takes `timeout` (seconds, None for none) and raises RegentError when the
    call fails.
    """

    def __init__(self, address: str = "127.0.0.1:50051") -> None:
        self.address = address
        self.channel = grpc.insecure_channel(address)
        self._advisor: _AdvisorStub = advisor_pb2_grpc.AdvisorServiceStub(self.channel)
        self._matches: _MatchStub = matches_pb2_grpc.MatchServiceStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> RegentClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_ready(self, timeout: float | None = None) -> None:
        """Block until the channel connects; RegentError(UNAVAILABLE) after `timeout` s."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise RegentError(
                grpc.StatusCode.UNAVAILABLE, f"no server at {self.address} after {timeout} s"
            ) from None

    def _call(self, method: _Unary[Q, R], request: Q, timeout: float | None) -> R:
        try:
            return method(request, timeout=timeout)
        except grpc.RpcError as err:
            raise RegentError.from_rpc(err) from None

    # -- AdvisorService ------------------------------------------------------------

    def recommend(
        self,
        observation: advisor_pb2.Observation | EngineObservation,
        iterations: int = 0,
        seconds: float = 0,
        threads: int = 0,
        seed: int = 0,
        bot: str = "",
        timeout: float | None = None,
    ) -> common_pb2.SearchReport:
        """The move to play for the observer (who must be the player to act), with the
        statistics behind it. Zero budgets take the server's defaults."""
        request = advisor_pb2.RecommendRequest(
            observation=_observation(observation),
            budget=_budget(iterations, seconds, threads),
            seed=seed,
            bot=bot,
        )
        return self._call(self._advisor.Recommend, request, timeout).report

    def analyze(
        self,
        observation: advisor_pb2.Observation | EngineObservation,
        iterations: int = 0,
        seconds: float = 0,
        threads: int = 0,
        seed: int = 0,
        bot: str = "",
        interval_ms: int = 0,
        timeout: float | None = None,
    ) -> Stream[common_pb2.SearchReport]:
        """The search's report every `interval_ms` while it runs; the last one is final.
        Closing the stream stops the search."""
        request = advisor_pb2.AnalyzeRequest(
            observation=_observation(observation),
            budget=_budget(iterations, seconds, threads),
            seed=seed,
            bot=bot,
            interval_ms=interval_ms,
        )
        return Stream(self._advisor.Analyze(request, timeout=timeout), lambda r: r.report)

    def legal_moves(
        self,
        observation: advisor_pb2.Observation | EngineObservation,
        timeout: float | None = None,
    ) -> advisor_pb2.LegalMovesResponse:
        """The player to act (unset once the game is over) and their moves; for another
        player to act, the moves it may be making as the observer sees them (`observed_moves`)."""
        request = advisor_pb2.LegalMovesRequest(observation=_observation(observation))
        return self._call(self._advisor.LegalMoves, request, timeout)

    def apply_observed_move(
        self,
        observation: advisor_pb2.Observation | EngineObservation,
        player: int,
        move: str | int,
        revealed: Sequence[str] = (),
        timeout: float | None = None,
    ) -> advisor_pb2.ApplyObservedMoveResponse:
        """`player`'s move as the observer saw it at the table (a text or shape of
        `legal_moves(...).observed_moves`, or an id), with the answers to its reveal slots so
        far: the slots, and once every one is answered, the observation after the move."""
        chosen = common_pb2.Move(id=move) if isinstance(move, int) else common_pb2.Move(text=move)
        request = advisor_pb2.ApplyObservedMoveRequest(
            observation=_observation(observation), player=player, move=chosen,
            revealed=list(revealed),
        )  # fmt: skip
        return self._call(self._advisor.ApplyObservedMove, request, timeout)

    def list_games(self, timeout: float | None = None) -> advisor_pb2.ListGamesResponse:
        """The games, player counts, rules options and bot kinds on offer."""
        return self._call(self._advisor.ListGames, advisor_pb2.ListGamesRequest(), timeout)

    def review(
        self,
        observations: Sequence[advisor_pb2.Observation | EngineObservation],
        moves: Sequence[str],
        iterations: int = 0,
        deep_iterations: int = 0,
        seconds: float = 0,
        deep_seconds: float = 0,
        mistakes: int | None = None,
        seed: int = 0,
        bot: str = "",
        threads: int = 0,
        timeout: float | None = None,
    ) -> Stream[advisor_pb2.ReviewResponse]:
        """Review one seat's game from its observation before each of its moves and the
        moves (by text): progress messages, then one whose `review` is set. Closing the
        stream stops the review. Zero budgets take the server's defaults."""
        request = advisor_pb2.ReviewRequest(
            observations=[_observation(o) for o in observations],
            moves=[common_pb2.Move(text=m) for m in moves],
            budget=_budget(iterations, seconds, threads),
            deep_budget=_budget(deep_iterations, deep_seconds, threads),
            mistakes=mistakes,
            seed=seed,
            bot=bot,
        )
        return Stream(self._advisor.Review(request, timeout=timeout), lambda r: r)

    # -- MatchService --------------------------------------------------------------

    def create_match(
        self,
        game: str | int,
        seats: Sequence[str],
        seed: int = 0,
        rules: Mapping[str, bool] | Message | None = None,
        public: bool = False,
        timeout: float | None = None,
    ) -> matches_pb2.CreateMatchResponse:
        """A new match hosted by the server: `game` as the engine names it (or its Game enum
        number), `seats` as `human:NAME` or a bot spec (see `seat_spec`), `rules` as the game's
        rules message or option names -> values; a `public` match is listed to anyone. The
        response holds the match id and each human seat's secret token."""
        number = _game(game)
        request = matches_pb2.CreateMatchRequest(
            game=number, seats=[seat_spec(s) for s in seats], seed=seed, public=public
        )
        if rules is not None:
            _set_rules(request, number, rules)
        return self._call(self._matches.CreateMatch, request, timeout)

    def get_view(
        self,
        match_id: str,
        token: str,
        timeout: float | None = None,
        at_move: int | None = None,
    ) -> matches_pb2.GetViewResponse:
        """The seat's observation, and its legal moves when it is to act; with `at_move`, as
        they were after the match's first `at_move` moves."""
        request = matches_pb2.GetViewRequest(match_id=match_id, token=token, at_move=at_move)
        return self._call(self._matches.GetView, request, timeout)

    def play(
        self,
        match_id: str,
        token: str,
        move: str | int,
        expected_move: int | None = None,
        timeout: float | None = None,
        retries: int = 2,
    ) -> matches_pb2.GetViewResponse:
        """Play a move, named by its text (`play hand red-3`) or its id; the seat's new view.
        With `expected_move` (the view's `moves_played`) the call is safe to repeat: it is
        retried on UNAVAILABLE up to `retries` times, and a move the server already applied
        is not applied again."""
        chosen = common_pb2.Move(id=move) if isinstance(move, int) else common_pb2.Move(text=move)
        request = matches_pb2.PlayRequest(
            match_id=match_id, token=token, move=chosen, expected_move=expected_move
        )
        attempt = 0
        while True:
            try:
                return self._call(self._matches.Play, request, timeout).view
            except RegentError as err:
                retry = expected_move is not None and err.code == grpc.StatusCode.UNAVAILABLE
                if not retry or attempt >= retries:
                    raise
            time.sleep(0.2 * 2**attempt)
            attempt += 1

    def watch(
        self, match_id: str, token: str, timeout: float | None = None
    ) -> Stream[matches_pb2.MatchEvent]:
        """The events the seat may see, from the start of the match; ends with the match."""
        request = matches_pb2.WatchRequest(match_id=match_id, token=token)
        return Stream(self._matches.Watch(request, timeout=timeout), lambda r: r.event)

    def list_matches(
        self, tokens: Sequence[str] = (), timeout: float | None = None
    ) -> list[matches_pb2.MatchSummary]:
        """The matches of these seat tokens and the public ones, oldest first (every page)."""
        request = matches_pb2.ListMatchesRequest(tokens=tokens)
        found: list[matches_pb2.MatchSummary] = []
        while True:
            page = self._call(self._matches.ListMatches, request, timeout)
            found.extend(page.matches)
            if not page.next_page_token:
                return found
            request.page_token = page.next_page_token

    def resign(
        self, match_id: str, token: str, timeout: float | None = None
    ) -> matches_pb2.GetViewResponse:
        """Give up: the match ends and the seat loses. The seat's final view."""
        request = matches_pb2.ResignRequest(match_id=match_id, token=token)
        return self._call(self._matches.Resign, request, timeout).view
