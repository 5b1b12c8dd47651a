"""The Legend table of the solo mode: how the rulebook grades a final margin against the
Regent (the player's VP minus the Regent's)."""

from __future__ import annotations

#: (lowest margin, grade), best first.
LEGEND = (
    (31, "Your Cities will shine forever"),
    (21, "Wonders: talked about in 200 years"),
    (11, "No greater prestige across the provinces"),
    (1, "Neighbouring Cities envy you"),
    (0, "Talked about in the taverns (tie)"),
    (-9, "A few lines in a history book"),
    (-10_000, "You could do better"),
)


def legend_grade(margin: int) -> str:
    """The Legend-table grade of a final solo margin (player VP minus Regent VP)."""
    return next(grade for low, grade in LEGEND if margin >= low)
