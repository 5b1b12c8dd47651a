"""Card names. A kind is colour * 7 + value; the two copies of a coloured value are one kind."""

from __future__ import annotations

from engine.errors import WordedError
from engine.registry import Card

COLOURS = ("purple", "yellow", "pink", "red", "blue", "green", "white")
CITY_COLOURS = COLOURS[:6]
EFFECTS = ("Emptiness", "Villager", "Jester", "Assassin", "Merchant", "Knight", "Astrologer")
NUM_KINDS = 49
WHITE = 6


def kind_name(kind: int) -> str:
    """`yellow-2` for kind 9."""
    return f"{COLOURS[kind // 7]}-{kind % 7}"


def parse_kind(name: str) -> int:
    """The kind of `yellow-2`; ValueError for anything else."""
    colour, sep, value = name.strip().lower().partition("-")
    if not sep or colour not in COLOURS or value not in tuple("0123456"):
        raise WordedError("unknown card '{text}' (expected colour-value, e.g. yellow-2)", text=name)
    return COLOURS.index(colour) * 7 + int(value)


def parse_colour(name: str) -> int:
    """The City index of `red`; ValueError for anything else."""
    colour = name.strip().lower()
    if colour not in CITY_COLOURS:
        raise WordedError("unknown City colour '{text}'", text=name)
    return CITY_COLOURS.index(colour)


def copies(kind: int) -> int:
    """How many cards of this kind the deck holds."""
    return 1 if kind // 7 == WHITE or kind % 7 == 0 else 2


def card_table() -> tuple[Card, ...]:
    """Every kind, in kind order, with its copies, colour, value and effect (coloured cards)."""
    table = []
    for kind in range(NUM_KINDS):
        colour, value = COLOURS[kind // 7], kind % 7
        attributes: dict[str, str | int] = {"colour": colour, "value": value}
        if colour != "white":
            attributes["effect"] = EFFECTS[value]
        table.append(Card(kind_name(kind), copies(kind), attributes))
    return tuple(table)
