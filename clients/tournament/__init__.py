"""`regent tournament`: bots play scheduled, seeded games (round robin, gauntlet or SPRT) in
worker processes or on Ray; every game is recorded as it ends, and the results come with
intervals and ratings. `runner.run_tournament` is the entry point; `command` is the CLI."""

#: What a bot's failure or a worker's death costs (see `runner`); the first is the default.
ON_BOT_ERROR = ("lose", "retry", "stop")
