"""Citadels' default bots and difficulty levels (see `search.games`)."""

#: The search that reads the draft: the defaults' options, and the top levels' at a budget.
_READS_DRAFT = "mo-ismcts:rank_weight=0.5,infer=256"

#: At 4 and 6 players the draft read by the pick model, the place in the reward and the
#: playouts fitted to a search's moves (docs/lab/inference.md, "On `main`: `infer`" and "Six
#: players: the draft read"); at 6 the others searched for their game result alone; at 5 and 7
#: the 6-player recipe, model and fit; at 3 and 2 the 4-player ones. Each won its SPRT against
#: v0.1.0: docs/strength.md, "The default bots", a section per player count.
DEFAULT_BOTS = dict.fromkeys((2, 3, 4), _READS_DRAFT) | dict.fromkeys(
    (5, 6, 7), f"{_READS_DRAFT},shape_others=0"
)

#: Its heuristic beats a 50-iteration search, and small searches gain fast with their budget;
#: levels 7-9 read the draft as level 10 (the default) does, so the top steps stay within the
#: band: the 2-player ladder in docs/strength.md places these.
LEVELS = {
    3: "mo-ismcts:iterations=30,temperature=0.25",
    4: "mo-ismcts:iterations=30",
    5: "heuristic",
    6: "mo-ismcts:iterations=200",
    7: f"{_READS_DRAFT},iterations=600",
    8: f"{_READS_DRAFT},iterations=3000",
    9: f"{_READS_DRAFT},iterations=18000",
}
