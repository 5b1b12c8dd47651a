"""Difficulty levels: the bot spec `level:N` (N = 1 to 10) names an opponent of a chosen
strength. Levels 1 to 9 have iteration budgets, so a level is as strong on any machine; level
10 is the game's default bot at one second a move, the strongest the service offers by default.
The ladder that calibrates them is in docs/strength.md ("Difficulty levels")."""

from __future__ import annotations

from dataclasses import dataclass

#: The time a move of the top level may take; it has no iteration cap.
TOP_SECONDS = 1.0


@dataclass(frozen=True)
class Level:
    number: int
    #: The bot spec the level plays; "" for the top level (see `level_spec`).
    spec: str
    description: str


LEVELS = (
    Level(1, "mo-ismcts:iterations=10,temperature=1", "a beginner: almost any move it looks at"),
    Level(2, "mo-ismcts:iterations=30,temperature=0.5", "a novice: a glance, then a loose pick"),
    Level(3, "mo-ismcts:iterations=30,temperature=0.35", "a casual player: a glance, a fair pick"),
    Level(4, "heuristic", "the game's hand-written rules of thumb"),
    Level(5, "mo-ismcts:iterations=50", "a glance ahead: a search of fifty games"),
    Level(6, "mo-ismcts:iterations=150", "a short search"),
    Level(7, "mo-ismcts:iterations=500", "a search of five hundred games"),
    Level(8, "mo-ismcts:iterations=3000", "a search of three thousand games"),
    Level(9, "mo-ismcts:iterations=10000", "a search of ten thousand games"),
    Level(10, "", "the game's strongest default bot, one second a move"),
)


def level_number(text: str) -> int:
    """The N of `level:N` from its text after the colon; ValueError naming what is wrong."""
    text = text.strip()
    low, high = LEVELS[0].number, LEVELS[-1].number
    if "," in text or "=" in text:
        raise ValueError(f"a level takes no options, only its number: level:{low} to level:{high}")
    try:
        number = int(text)
    except ValueError:
        raise ValueError(
            f"level must be a whole number from {low} to {high}, got {text!r}"
        ) from None
    if not low <= number <= high:
        raise ValueError(f"level must be within [{low}, {high}], got {number}")
    return number


def level_spec(number: int, default_bot: str) -> str:
    """The bot spec of level `number`; the top level is `default_bot` (the game's default for
    the player count) with no iteration cap and `TOP_SECONDS` a move."""
    level = LEVELS[number - 1]
    if level.spec:
        return level.spec
    budget = f"iterations=0,seconds={TOP_SECONDS:g}"
    return f"{default_bot}{',' if ':' in default_bot else ':'}{budget}"


__all__ = ["LEVELS", "TOP_SECONDS", "Level", "level_number", "level_spec"]
