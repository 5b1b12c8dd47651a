"""What a seat receives of a hosted match, as protos: its view (GetView, Play, Resign) and
the events its watchers are sent. Only the seat's own observation ever goes in."""

from __future__ import annotations

from convert import observation_to_proto
from engine.interface import HIDDEN
from regent.v1 import common_pb2, matches_pb2
from server.match import PLAYING, Event, Match

SECRET_TEXT = "(secret choice made)"


def seat_view(match: Match, seat: int, moves: int | None = None) -> matches_pb2.GetViewResponse:
    """The seat's view now, or after the first `moves` events."""
    latest = moves is None or moves == len(match.events)
    n = len(match.events) if moves is None else moves
    state = match.state_after(n)
    status = match.status if latest else PLAYING
    response = matches_pb2.GetViewResponse(
        seat=seat,
        status=status,
        observation=observation_to_proto(state.observation(seat)),
        resigned=match.resigned if latest else [],
        moves_played=n,
    )
    if status == matches_pb2.MATCH_STATUS_FINISHED:
        response.scores.extend(state.scores())
        response.returns.extend(match.returns())
    elif status == PLAYING and state.current_player == seat:
        response.legal_moves.extend(
            common_pb2.Move(id=a, text=state.action_to_string(a)) for a in state.legal_actions()
        )
    return response


def event_message(match: Match, event: Event, seat: int) -> matches_pb2.MatchEvent:
    """The event as `seat` sees it, made once and kept for every watcher of the seat (an
    event's message never changes: a match ends with its last event)."""
    message = event.messages.get(seat)
    if message is None:
        message = event.messages[seat] = _message(match, event, seat)
    return message


def _message(match: Match, event: Event, seat: int) -> matches_pb2.MatchEvent:
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
