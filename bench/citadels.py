"""Citadels' benchmark settings and example files (see `bench.games`)."""

from typing import Any

from bench.games import Example
from engine.citadels import CitadelsState
from engine.interface import State

#: Fewer cards in hand make dull advice.
_MIN_HAND = 2

PLAYERS = {"engine": (4, 7), "search": (4, 7)}


def is_mid_game(state: State) -> bool:
    """The search benchmark's mid-game position: round 3's resources."""
    return isinstance(state, CitadelsState) and state.round == 3 and state.phase == "resource"


def _example_turn(obs: Any, state: State) -> bool:
    """A turn of round 3 after the resources, with a district to build or a power to use."""
    hand = obs.players[obs.observer].hand
    return (
        obs.round == 3
        and obs.decision.phase == "main"
        and len(hand) >= _MIN_HAND
        and len(state.legal_actions()) > 2
    )


EXAMPLES = (
    Example("citadels-4p.json", 4, 4, _example_turn),
    Example("citadels-7p.json", 7, 7, _example_turn),
)
