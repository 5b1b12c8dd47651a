"""Write the observation files of `regent hint` (examples/*.json): mid-game positions of
seeded games played by the heuristic bot, as the player to act sees them, in protobuf's JSON
mapping of `regent.v1.Observation`.

Run from the repository root: `PYTHONPATH=. python3 examples/make_examples.py`.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

import engine
from regent.v1 import advisor_pb2
from search.bots import make_bot
from server.convert import observation_from_proto, observation_to_proto

HERE = Path(__file__).resolve().parent
#: file name -> (players, seed of a game that has the turn `position` looks for).
EXAMPLES = {
    "royal-cities-2p.json": (2, 2),
    "royal-cities-4p.json": (4, 9),
    "royal-cities-solo.json": (1, 3),
}
SEASON = 2
#: Fewer cards in hand make dull advice.
MIN_HAND = 2


def position(num_players: int, seed: int) -> advisor_pb2.Observation:
    """The observation of the player to act at the first turn of SEASON where that player
    holds MIN_HAND cards or more."""
    state = engine.new_game("royal_cities", num_players, seed=seed)
    bot = make_bot("heuristic")
    move = 0
    while True:
        obs = state.observation(state.current_player)
        mine = obs.players[obs.observer].hand
        if obs.season == SEASON and obs.decision.phase == "turn" and len(mine) >= MIN_HAND:
            return observation_to_proto(obs)
        if state.is_terminal():
            raise ValueError(f"the game of seed {seed} has no such turn")
        state.apply_action(bot.choose(state, seed * 1000 + move))
        move += 1


def main() -> None:
    for name, (num_players, seed) in EXAMPLES.items():
        message = position(num_players, seed)
        text = json_format.MessageToJson(message, preserving_proto_field_name=True, indent=2)
        # The file must read back into the same position, one the engine accepts.
        parsed = json_format.Parse(text, advisor_pb2.Observation())
        state = engine.state_from_observation(observation_from_proto(parsed))
        if state.current_player != parsed.royal_cities.observer:
            raise ValueError(f"{name}: the observer is not the player to act")
        (HERE / name).write_text(text + "\n")


if __name__ == "__main__":
    main()
