"""Action ids and their text: `play hand yellow-2`, `buy pink-0`, `build white-3 red`.

The text of an action id is fixed (it does not depend on the state), so a move
written down reads the same in any log. The state decides whether it is legal.
"""

from __future__ import annotations

from engine.errors import WordedError
from engine.royal_cities.cards import CITY_COLOURS, kind_name, parse_colour, parse_kind
from engine.royal_cities.core import REGENT_OWNER
from engine.royal_cities.core import Action as A

_SIMPLE: dict[int, str] = {
    A.A_PURCHASE: "purchase",
    A.A_ADD: "add",
    A.A_ADD_HERO: "add hero",
    A.A_STOP: "stop",
}
_BY_KIND = (  # (first id, words before the card)
    (A.A_PLAY_HAND, "play hand"),
    (A.A_BUY, "buy"),
    (A.A_MARKET_DISCARD, "discard market"),
    (A.A_MARKET_TAKE, "take market"),
    (A.A_PASS, "pass"),
    (A.A_KEEP, "keep"),
)
_BY_CITY = (  # (first id, words before the colour)
    (A.A_PLAY_CITY, "play city"),
    (A.A_OWN_CITY, "city"),
    (A.A_TAX, "tax"),
)


def owner_name(owner: int) -> str:
    """`p0`..`p3` for players, `regent` for the Regent's Cities."""
    return "regent" if owner == REGENT_OWNER else f"p{owner}"


def action_to_string(action: int) -> str:
    """The readable, stable text of an action id."""
    if action in _SIMPLE:
        return _SIMPLE[action]
    for first, words in _BY_KIND:
        if first <= action < first + 49:
            return f"{words} {kind_name(action - first)}"
    for first, words in _BY_CITY:
        if first <= action < first + 6:
            return f"{words} {CITY_COLOURS[action - first]}"
    if A.A_TARGET <= action < A.A_TARGET + 30:
        owner, colour = divmod(action - A.A_TARGET, 6)
        return f"target {owner_name(owner)} {CITY_COLOURS[colour]}"
    for first, words in ((A.A_BUILD, "build"), (A.A_REGENT, "regent")):
        if first <= action < first + 49 * 6:
            kind, colour = divmod(action - first, 6)
            return f"{words} {kind_name(kind)} {CITY_COLOURS[colour]}"
    raise WordedError("no action has id {action}", action=action)


def string_to_action(text: str) -> int:
    """The action id of a text written by `action_to_string` (case and spaces are forgiven)."""
    words = text.strip().lower().split()
    joined = " ".join(words)
    for action, name in _SIMPLE.items():
        if joined == name:
            return action
    for first, prefix in _BY_KIND:
        if joined.startswith(prefix + " ") and len(words) == len(prefix.split()) + 1:
            return first + _kind_in(text, words[-1])
    for first, prefix in _BY_CITY:
        if joined.startswith(prefix + " ") and len(words) == len(prefix.split()) + 1:
            return first + _colour_in(text, words[-1])
    if words[:1] == ["target"] and len(words) == 3:
        owner = _owner_in(text, words[1])
        return A.A_TARGET + owner * 6 + _colour_in(text, words[2])
    if words[:1] in (["build"], ["regent"]) and len(words) == 3:
        first = A.A_BUILD if words[0] == "build" else A.A_REGENT
        return first + _kind_in(text, words[1]) * 6 + _colour_in(text, words[2])
    raise WordedError("cannot read action '{text}'", text=text)


def _kind_in(text: str, word: str) -> int:
    """The card kind `word` names, in the action text `text`."""
    try:
        return parse_kind(word)
    except ValueError:
        raise WordedError(
            "cannot read action '{text}': unknown card '{word}' (expected colour-value, e.g."
            " yellow-2)",
            text=text,
            word=word,
        ) from None


def _colour_in(text: str, word: str) -> int:
    """The City colour `word` names, in the action text `text`."""
    try:
        return parse_colour(word)
    except ValueError:
        raise WordedError(
            "cannot read action '{text}': unknown City colour '{word}'", text=text, word=word
        ) from None


def _owner_in(text: str, word: str) -> int:
    """The City owner `word` names (`p0`..`p3`, `regent`), in the action text `text`."""
    if word == "regent":
        return REGENT_OWNER
    if len(word) == 2 and word[0] == "p" and word[1] in "0123":
        return int(word[1])
    raise WordedError(
        "cannot read action '{text}': unknown City owner '{word}' (p0-p3 or regent)",
        text=text,
        word=word,
    )
