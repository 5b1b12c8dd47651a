"""Royal Cities (Cités Royales), 1-4 players and the solo mode against the Regent."""

from engine.royal_cities.observation import Decision, Observation, PlayerView, RegentView
from engine.royal_cities.rules import RulesConfig
from engine.royal_cities.state import TERMINAL, RoyalCitiesState, state_from_observation

__all__ = [
    "TERMINAL",
    "Decision",
    "Observation",
    "PlayerView",
    "RegentView",
    "RoyalCitiesState",
    "RulesConfig",
    "state_from_observation",
]
