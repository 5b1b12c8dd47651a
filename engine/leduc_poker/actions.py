"""Action ids and their text: `check`, `bet`, `fold`, `call`, `raise`. An id is the move
plus NUM_MOVES times the board (0 in round one, 1 + the public card's rank in round two),
so the text of an id is its move's and the id of a text depends on the round."""

from __future__ import annotations

from engine.leduc_poker.core import Action

TEXTS = ("check", "bet", "fold", "call", "raise")
assert len(TEXTS) == Action.NUM_MOVES
_MOVES = {text: move for move, text in enumerate(TEXTS)}


def action_to_string(action: int) -> str:
    """The text of an action id."""
    if isinstance(action, int) and 0 <= action < Action.NUM_ACTIONS:
        return TEXTS[action % Action.NUM_MOVES]
    raise ValueError(f"no action has id {action}")


def string_to_action(text: str, board: int) -> int:
    """The action id of a text written by `action_to_string` (case and spaces are forgiven)
    on the board `board`."""
    move = _MOVES.get(text.strip().lower()) if isinstance(text, str) else None
    if move is None:
        raise ValueError(f"cannot read action {text!r} (one of {', '.join(TEXTS)})")
    return move + Action.NUM_MOVES * board
