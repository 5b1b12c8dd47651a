"""Leduc poker's default bot (see `search.games`): it shares the levels' table."""

#: Searches for chips won (the largest pot is 13 chips), not for winning the pot whatever its size.
DEFAULT_BOTS = {2: "mo-ismcts:margin_weight=1.0,margin_scale=13.0"}
