"""Difficulty levels: the bot spec `level:N` (N = 1 to 10) names an opponent of a chosen
strength. Levels 1 to 9 have iteration budgets, so a level is as strong on any machine; level
10 is the game's default bot at one second a move, the strongest the service offers by default.
The table below is shared; a game whose ladder places a level elsewhere gives that level its own
spec (the `LEVELS` of its `search/<game>.py`, see `search.games`). The ladders that calibrate
them are in docs/strength.md ("Difficulty levels")."""

from __future__ import annotations

from dataclasses import dataclass

from engine.registry import GameSpec
from search.games import default_bot, own_levels
from search.spec import with_options

#: The time a move of the top level may take; it has no iteration cap.
TOP_SECONDS = 1.0


@dataclass(frozen=True)
class Level:
    number: int
    #: The bot spec the level plays unless the game has its own; "" for the top level (see
    #: `level_spec`).
    spec: str
    description: str


LEVELS = (
    Level(1, "mo-ismcts:iterations=10,temperature=1", "a beginner: almost any move it looks at"),
    Level(2, "mo-ismcts:iterations=30,temperature=0.7", "a novice: a glance, then a loose pick"),
    Level(3, "mo-ismcts:iterations=30,temperature=0.35", "a casual player: a glance, a fair pick"),
    Level(4, "heuristic", "a regular player: sound rules of thumb"),
    Level(5, "mo-ismcts:iterations=50", "a keen player: a first look ahead"),
    Level(6, "mo-ismcts:iterations=100", "a club player: a short search"),
    Level(7, "mo-ismcts:iterations=250", "a strong club player"),
    Level(8, "mo-ismcts:iterations=500", "an expert"),
    Level(9, "mo-ismcts:iterations=1000", "a master"),
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


def level_spec(number: int, game: GameSpec, players: int) -> str:
    """The bot spec of level `number` in `game` with `players` players: the game's own spec for
    the level, else the shared table's; the top level is the game's default bot for the player
    count with no iteration cap and `TOP_SECONDS` a move."""
    spec = own_levels(game.name).get(number) or LEVELS[number - 1].spec
    if spec:
        return spec
    return with_options(default_bot(game.name, players), "iterations=0", f"seconds={TOP_SECONDS:g}")


__all__ = ["LEVELS", "TOP_SECONDS", "Level", "level_number", "level_spec"]
