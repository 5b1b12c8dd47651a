"""Names of the Citadels districts, colours and characters, as written in moves and JSON."""

from __future__ import annotations

from engine.errors import WordedError
from engine.registry import Card

MIN_PLAYERS, MAX_PLAYERS = 2, 7
COLOURS = ("noble", "religious", "trade", "military", "unique")
CHARACTERS = (
    "assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord",
)  # fmt: skip
#: (name, colour, cost, copies) per district kind, in kind order (RULES-NOTES).
DISTRICTS = (
    ("manor", 0, 3, 5), ("castle", 0, 4, 4), ("palace", 0, 5, 3),
    ("temple", 1, 1, 3), ("church", 1, 2, 3), ("monastery", 1, 3, 3), ("cathedral", 1, 5, 2),
    ("tavern", 2, 1, 5), ("market", 2, 2, 4), ("trading-post", 2, 2, 3), ("docks", 2, 3, 3),
    ("harbor", 2, 4, 3), ("town-hall", 2, 5, 2),
    ("watchtower", 3, 1, 3), ("prison", 3, 2, 3), ("barracks", 3, 3, 3), ("fortress", 3, 5, 2),
    ("haunted-quarter", 4, 2, 1), ("keep", 4, 3, 2), ("observatory", 4, 4, 1),
    ("laboratory", 4, 5, 1), ("smithy", 4, 5, 1), ("graveyard", 4, 5, 1),
    ("imperial-treasury", 4, 5, 1), ("map-room", 4, 5, 1), ("library", 4, 6, 1),
    ("great-wall", 4, 6, 1), ("school-of-magic", 4, 6, 1), ("university", 4, 6, 1),
    ("dragon-gate", 4, 6, 1),
)  # fmt: skip
DISTRICT_NAMES = tuple(d[0] for d in DISTRICTS)
NUM_KINDS = len(DISTRICTS)


def parse_district(name: str) -> int:
    """The kind of `trading-post`; ValueError (worded) for anything else."""
    key = name.strip().lower().replace(" ", "-") if isinstance(name, str) else None
    if key not in DISTRICT_NAMES:
        raise WordedError("unknown district '{name}'", name=name)
    return DISTRICT_NAMES.index(key)


def parse_character(name: str) -> int:
    """The index (0 = assassin .. 7 = warlord) of a character name; ValueError (worded) for
    anything else."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in CHARACTERS:
        raise WordedError(
            "unknown character '{name}' (one of {characters})",
            name=name,
            characters=", ".join(CHARACTERS),
        )
    return CHARACTERS.index(key)


def card_table() -> tuple[Card, ...]:
    """Every district kind, in kind order, with its copies, colour and cost."""
    return tuple(
        Card(name, copies, {"colour": COLOURS[colour], "cost": cost})
        for name, colour, cost, copies in DISTRICTS
    )
