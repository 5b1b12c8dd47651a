"""The `regent` command: one module per subcommand (or pair of them), each adding its parser
through the `regent.commands` entry points (pyproject.toml), so that a front end names no
layer above it: `regent bench` is registered by `bench` itself.

- `main`: the top-level parser, built from the entry points, and the exit statuses.
- `shared`: what several subcommands share (argument types, the served games' names, reading
  an observation, the in-process service, the one-line failure).
- `printing`: a game in the terminal: the position, an event, the final scores.
- `serve` (`serve`, `web`), `hint`, `follow`, `play`, `watch`, `games`, `review`,
  `tournament` (`tournament`, `match`): the subcommands.
"""
