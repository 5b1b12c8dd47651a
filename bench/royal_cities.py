"""Royal Cities' benchmark settings and example files (see `bench.games`)."""

from typing import Any

from bench.games import Example
from engine.interface import State
from engine.royal_cities import RoyalCitiesState

#: Fewer cards in hand make dull advice.
_MIN_HAND = 2

PLAYERS = {"engine": (1, 2, 3, 4), "search": (2, 4)}


def is_mid_game(state: State) -> bool:
    """The search benchmark's mid-game position: Season 2's first turn."""
    return isinstance(state, RoyalCitiesState) and state.season == 2 and state.phase == "turn"


def _example_turn(obs: Any, state: State) -> bool:
    """A turn of Season 2 with a hand to play from."""
    hand = obs.players[obs.observer].hand
    return obs.season == 2 and obs.decision.phase == "turn" and len(hand) >= _MIN_HAND


EXAMPLES = (
    Example("royal-cities-2p.json", 2, 2, _example_turn),
    Example("royal-cities-4p.json", 4, 9, _example_turn),
    Example("royal-cities-solo.json", 1, 3, _example_turn),
)
