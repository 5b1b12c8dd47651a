"""A request's `Move` (by id, by text, or both) as the legal action it names: ApplyMove and
the hosted matches' Play read moves the same way."""

from __future__ import annotations

from engine.errors import IllegalMoveError, wording_of
from engine.interface import State
from regent.v1 import common_pb2
from server.status import Rejected, invalid_argument


def action_of(state: State, move: common_pb2.Move, field: str = "move") -> int:
    """The legal action `move` names in `state`, by id or text (both: they must agree);
    Rejected with INVALID_ARGUMENT naming the field (`field`, the move's path) otherwise."""
    if not move.text and not move.HasField("id"):
        raise Rejected(invalid_argument(field, "give the move's id or its text"))
    action = move.id if move.HasField("id") else None
    if move.text:
        try:
            by_text = state.string_to_action(move.text)
        except IllegalMoveError as err:
            raise Rejected(invalid_argument(f"{field}.text", wording_of(err))) from None
        if action is not None and action != by_text:
            raise Rejected(invalid_argument(field, "id and text name different moves"))
        action = by_text
    if action not in state.legal_actions():
        where = f"{field}.text" if move.text else f"{field}.id"
        reason = "not a legal move now (decision: {decision})"
        raise Rejected(invalid_argument(where, reason, decision=state.phase))
    return action
