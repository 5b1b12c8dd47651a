"""Write the observation files of `regent hint` (examples/*.json): mid-game positions of
seeded games (each game's `EXAMPLES`, in `bench/<game>.py`) played by the heuristic bot, as the
player to act sees them, in the canonical form of protobuf's JSON mapping of `regent.v1.Observation`
(`MessageToJson`'s output: lowerCamelCase field names, enums by name), the form every JSON
parser of protobuf must read (readers accept the .proto field names too).

Run from the repository root: `PYTHONPATH=. python3 examples/make_examples.py`.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

import engine
from bench.games import Example, examples
from convert import observation_from_proto, observation_to_proto, observer_of, served_games
from regent.v1 import advisor_pb2
from search.bots import make_bot

HERE = Path(__file__).resolve().parent


def position(game: str, example: Example) -> advisor_pb2.Observation:
    """The observation of the player to act at the first decision `example.accept` takes."""
    state = engine.new_game(game, example.players, seed=example.seed)
    bot = make_bot("heuristic")
    move = 0
    while True:
        obs = state.observation(state.current_player)
        if example.accept(obs, state):
            return observation_to_proto(obs)
        if state.is_terminal():
            raise ValueError(f"the {game} game of seed {example.seed} has no such turn")
        state.apply_action(bot.choose(state, example.seed * 1000 + move))
        move += 1


def main() -> None:
    for spec in served_games():
        for example in examples(spec.name):
            message = position(spec.name, example)
            text = json_format.MessageToJson(message, indent=2)
            # The file must read back into the same position, one the engine accepts.
            parsed = json_format.Parse(text, advisor_pb2.Observation())
            state = engine.state_from_observation(observation_from_proto(parsed))
            if state.current_player != observer_of(parsed)[1]:
                raise ValueError(f"{example.file}: the observer is not the player to act")
            (HERE / example.file).write_text(text + "\n")


if __name__ == "__main__":
    main()
