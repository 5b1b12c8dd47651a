"""Regent's rules engines behind one interface: `new_game(name, num_players, seed, rules)`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.citadels import CitadelsState
from engine.citadels import RulesConfig as CitadelsRules
from engine.citadels import state_from_observation as _citadels_from_observation
from engine.errors import IllegalMoveError, InvalidObservationError
from engine.interface import State
from engine.royal_cities import RoyalCitiesState
from engine.royal_cities import RulesConfig as RoyalCitiesRules
from engine.royal_cities import state_from_observation as _royal_cities_from_observation

__all__ = [
    "GAMES",
    "IllegalMoveError",
    "InvalidObservationError",
    "State",
    "new_game",
    "state_from_observation",
]

#: name -> (state class, rules class, allowed player counts)
GAMES: dict[str, tuple[type, type, tuple[int, ...]]] = {
    "royal_cities": (RoyalCitiesState, RoyalCitiesRules, (1, 2, 3, 4)),
    "citadels": (CitadelsState, CitadelsRules, (2, 3, 4, 5, 6, 7)),
}
State.register(RoyalCitiesState)
State.register(CitadelsState)


def new_game(name: str, num_players: int, seed: int = 0, rules: Any = None) -> State:
    """A new game of `name` ("royal_cities" or "citadels") dealt from `seed`."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")
    state_cls, rules_cls, counts = GAMES[name]
    if num_players not in counts:
        raise ValueError(f"{name} is for {counts[0]} to {counts[-1]} players, not {num_players}")
    return state_cls(num_players, seed, rules if rules is not None else rules_cls())


def state_from_observation(obs: Any, seed: int = 0, draws: Sequence[str] = ()) -> State:
    """Continue a game from one player's observation (see each game's own function);
    `draws` names the next cards off the draw pile, top first."""
    game = obs.get("game") if isinstance(obs, dict) else getattr(obs, "game", None)
    if game == "royal_cities":
        return _royal_cities_from_observation(obs, seed, draws)
    if game == "citadels":
        return _citadels_from_observation(obs, seed, draws)
    raise InvalidObservationError("game", f"unknown game {game!r}")
