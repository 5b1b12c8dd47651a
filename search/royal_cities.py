"""Royal Cities' default bots and difficulty levels (see `search.games`)."""

#: The 2- to 4-player defaults' options: the top levels play them at a budget.
_TUNED = "mo-ismcts:epsilon=0.1,bias=3,c=0.5"

#: Solo: the margin over the Regent is the grade, so the reward counts it; tuned at equal time
#: (docs/lab/tuning.md, "Royal Cities, solo: the tuned default"). 2 players: fewer random moves
#: in the fitted playouts won the SPRT against v0.1.0, the heuristic's move first (`bias`)
#: its SPRT against that, and a narrower `c` beside the bias its SPRT against that
#: (docs/strength.md, "Royal Cities, 2 players"). 4 players: the three together won their SPRT
#: against the plain search (docs/strength.md, "Royal Cities, 4 players"), and at 3 players
#: theirs (docs/strength.md, "Royal Cities, 3 players").
DEFAULT_BOTS = {
    1: "mo-ismcts:margin_weight=1.0,margin_scale=40,epsilon=0",
    2: _TUNED,
    3: _TUNED,
    4: _TUNED,
}

#: With its 2-player playouts fitted, a search gains more from each doubling of its budget;
#: levels 7-9 play the 2-player default's options, as level 10 does, so each step up to level
#: 10 stays within the band: the 2-player ladder in docs/strength.md places these.
LEVELS = {
    3: "mo-ismcts:iterations=40,temperature=0.3",
    5: "mo-ismcts:iterations=90",
    6: "mo-ismcts:iterations=170",
    7: f"{_TUNED},iterations=300",
    8: f"{_TUNED},iterations=1500",
    9: f"{_TUNED},iterations=6000",
}
