"""Action ids and their text: `check`, `bet`, `fold`, `call`."""

from __future__ import annotations

from engine.kuhn_poker.core import Action

TEXTS = ("check", "bet", "fold", "call")
assert len(TEXTS) == Action.NUM_ACTIONS
_IDS = {text: action for action, text in enumerate(TEXTS)}


def action_to_string(action: int) -> str:
    """The text of an action id."""
    if isinstance(action, int) and 0 <= action < len(TEXTS):
        return TEXTS[action]
    raise ValueError(f"no action has id {action}")


def string_to_action(text: str) -> int:
    """The action id of a text written by `action_to_string` (case and spaces are forgiven)."""
    action = _IDS.get(text.strip().lower()) if isinstance(text, str) else None
    if action is None:
        raise ValueError(f"cannot read action {text!r} (one of {', '.join(TEXTS)})")
    return action
