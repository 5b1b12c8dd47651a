"""Kuhn poker's default bot (see `search.games`): it shares the levels' table."""

#: Searches for chips won, not for winning the pot whatever its size.
DEFAULT_BOTS = {2: "mo-ismcts:margin_weight=1.0,margin_scale=2.0"}
