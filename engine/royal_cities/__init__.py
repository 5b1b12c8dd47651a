"""Royal Cities (Cités Royales), 1-4 players and the solo mode against the Regent."""

from collections.abc import Sequence
from typing import Any

from engine.errors import InvalidObservationError
from engine.registry import GameSpec, register
from engine.royal_cities.cards import NUM_KINDS, card_table, copies
from engine.royal_cities.legend import legend_grade
from engine.royal_cities.observation import Decision, Observation, PlayerView, RegentView
from engine.royal_cities.rules import RulesConfig
from engine.royal_cities.state import TERMINAL, RoyalCitiesState, play_random_games
from engine.royal_cities.state import state_from_observation as _build_state

__all__ = [
    "SPEC",
    "TERMINAL",
    "Decision",
    "Observation",
    "PlayerView",
    "RegentView",
    "RoyalCitiesState",
    "RulesConfig",
    "state_from_observation",
]

#: Cards in the box.
_NUM_CARDS = sum(copies(kind) for kind in range(NUM_KINDS))


def state_from_observation(obs: Any, seed: int = 0, draws: Sequence[str] = ()) -> RoyalCitiesState:
    """The game continued from one player's observation (see `state.state_from_observation`),
    each hand's size checked on its own first: the builder only adds the hidden cards of the
    hands up with the pile and the reserve, and would blame a bad size on `pile_size`."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if isinstance(obs, Observation):
        for q, view in enumerate(obs.players):
            if not 0 <= view.hand_size <= _NUM_CARDS:
                raise InvalidObservationError(
                    f"players[{q}].hand_size", "must be from 0 to {most}", most=_NUM_CARDS
                )
    return _build_state(obs, seed, draws)


SPEC = register(
    GameSpec(
        name="royal_cities",
        title="Royal Cities",
        player_counts=(1, 2, 3, 4),
        state_class=RoyalCitiesState,
        rules_class=RulesConfig,
        observation_class=Observation,
        from_observation=state_from_observation,
        random_games=play_random_games,
        cards=card_table(),
        score_unit="VP",
        solo_grade=legend_grade,
        primary=True,
    )
)
