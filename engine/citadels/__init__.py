"""Citadels (classic edition, 8 characters), 2 to 7 players."""

from collections.abc import Sequence
from typing import Any

from engine.citadels.cards import card_table
from engine.citadels.observation import Decision, Draft, Observation, PlayerView
from engine.citadels.rules import RulesConfig
from engine.citadels.state import TERMINAL, CitadelsState, play_random_games
from engine.citadels.state import state_from_observation as _build_state
from engine.errors import InvalidObservationError
from engine.registry import GameSpec, register

__all__ = [
    "SPEC",
    "TERMINAL",
    "CitadelsState",
    "Decision",
    "Draft",
    "Observation",
    "PlayerView",
    "RulesConfig",
    "state_from_observation",
]

#: The most districts drawn at once (the Observatory's three; the core's DRAWN_MAX).
_MOST_DRAWN = 3


def state_from_observation(obs: Any, seed: int = 0, draws: Sequence[str] = ()) -> CitadelsState:
    """The game continued from one player's observation (see `state.state_from_observation`),
    the drawn cards the observer does not see counted on their own first: the builder only
    adds them up with the hands and the deck, and would blame a bad count on `deck_size`."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if isinstance(obs, Observation):
        d = obs.decision
        if not 0 <= d.drawn_hidden <= _MOST_DRAWN - len(d.drawn):
            raise InvalidObservationError(
                "decision.drawn_hidden",
                "must be from 0 to {most}, less the {count} drawn cards listed",
                most=_MOST_DRAWN,
                count=len(d.drawn),
            )
    return _build_state(obs, seed, draws)


SPEC = register(
    GameSpec(
        name="citadels",
        title="Citadels",
        player_counts=(2, 3, 4, 5, 6, 7),
        state_class=CitadelsState,
        rules_class=RulesConfig,
        observation_class=Observation,
        from_observation=state_from_observation,
        random_games=play_random_games,
        cards=card_table(),
        score_unit="points",
    )
)
