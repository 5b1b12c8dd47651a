"""Action ids and their text: `pick king`, `build manor`, `destroy p2 watchtower`.

The text of an action id is fixed (it does not depend on the state), so a move
written down reads the same in any log. The state decides whether it is legal.
"""

from __future__ import annotations

from engine.citadels.cards import CHARACTERS, DISTRICT_NAMES, MAX_PLAYERS
from engine.citadels.core import Action
from engine.errors import WordedError


def _texts() -> tuple[str, ...]:
    texts = [f"pick {c}" for c in CHARACTERS]
    texts += [f"discard {c}" for c in CHARACTERS]
    texts += ["gold", "cards"]
    texts += [f"keep {d}" for d in DISTRICT_NAMES]
    texts += [f"return {d}" for d in DISTRICT_NAMES]
    texts += [f"build {d}" for d in DISTRICT_NAMES]
    texts += ["income"]
    texts += [f"kill {c}" for c in CHARACTERS]
    texts += [f"rob {c}" for c in CHARACTERS]
    texts += [f"swap p{q}" for q in range(MAX_PLAYERS)]
    texts += [f"redraw {d}" for d in DISTRICT_NAMES]
    texts += ["redraw done"]
    texts += [f"destroy p{q} {d}" for q in range(MAX_PLAYERS) for d in DISTRICT_NAMES]
    texts += [f"laboratory {d}" for d in DISTRICT_NAMES]
    texts += ["smithy", "graveyard take", "graveyard decline", "end turn"]
    texts += ["(a card under the deck)", "(a card to the laboratory)"]
    assert len(texts) == Action.NUM_ACTIONS
    return tuple(texts)


TEXTS = _texts()
_IDS = {text: action for action, text in enumerate(TEXTS) if not text.startswith("(")}


def action_to_string(action: int) -> str:
    """The readable, stable text of an action id."""
    if isinstance(action, int) and 0 <= action < len(TEXTS):
        return TEXTS[action]
    raise WordedError("no action has id {id}", id=action)


def string_to_action(text: str) -> int:
    """The action id of a text written by `action_to_string` (case and spaces are forgiven)."""
    action = _IDS.get(" ".join(text.strip().lower().split()))
    if action is None:
        raise WordedError("cannot read action '{text}'", text=text)
    return action
