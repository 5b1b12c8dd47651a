"""Write the observation files of `regent hint` (examples/*.json): mid-game positions of
seeded games (Royal Cities and Citadels) played by the heuristic bot, as the player to act sees
them, in protobuf's JSON mapping of `regent.v1.Observation`.

Run from the repository root: `PYTHONPATH=. python3 examples/make_examples.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from google.protobuf import json_format

import engine
from regent.v1 import advisor_pb2
from search.bots import make_bot
from server.convert import observation_from_proto, observation_to_proto, observer_of

HERE = Path(__file__).resolve().parent
#: Fewer cards in hand make dull advice.
MIN_HAND = 2


def _royal_cities_turn(obs: Any, state: engine.State) -> bool:
    """A turn of Season 2 with a hand to play from."""
    hand = obs.players[obs.observer].hand
    return obs.season == 2 and obs.decision.phase == "turn" and len(hand) >= MIN_HAND


def _citadels_turn(obs: Any, state: engine.State) -> bool:
    """A turn of round 3 after the resources, with a district to build or a power to use."""
    hand = obs.players[obs.observer].hand
    return (
        obs.round == 3
        and obs.decision.phase == "main"
        and len(hand) >= MIN_HAND
        and len(state.legal_actions()) > 2
    )


#: file name -> (game, players, seed of a game that has the turn `accept` looks for, accept).
EXAMPLES: dict[str, tuple[str, int, int, Callable[[Any, engine.State], bool]]] = {
    "royal-cities-2p.json": ("royal_cities", 2, 2, _royal_cities_turn),
    "royal-cities-4p.json": ("royal_cities", 4, 9, _royal_cities_turn),
    "royal-cities-solo.json": ("royal_cities", 1, 3, _royal_cities_turn),
    "citadels-4p.json": ("citadels", 4, 4, _citadels_turn),
    "citadels-7p.json": ("citadels", 7, 7, _citadels_turn),
}


def position(
    game: str, num_players: int, seed: int, accept: Callable[[Any, engine.State], bool]
) -> advisor_pb2.Observation:
    """The observation of the player to act at the first decision `accept` takes."""
    state = engine.new_game(game, num_players, seed=seed)
    bot = make_bot("heuristic")
    move = 0
    while True:
        obs = state.observation(state.current_player)
        if accept(obs, state):
            return observation_to_proto(obs)
        if state.is_terminal():
            raise ValueError(f"the {game} game of seed {seed} has no such turn")
        state.apply_action(bot.choose(state, seed * 1000 + move))
        move += 1


def main() -> None:
    for name, (game, num_players, seed, accept) in EXAMPLES.items():
        message = position(game, num_players, seed, accept)
        text = json_format.MessageToJson(message, preserving_proto_field_name=True, indent=2)
        # The file must read back into the same position, one the engine accepts.
        parsed = json_format.Parse(text, advisor_pb2.Observation())
        state = engine.state_from_observation(observation_from_proto(parsed))
        if state.current_player != observer_of(parsed)[1]:
            raise ValueError(f"{name}: the observer is not the player to act")
        (HERE / name).write_text(text + "\n")


if __name__ == "__main__":
    main()
