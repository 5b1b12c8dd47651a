"""Citadels (classic edition, 8 characters), 2 to 7 players."""

from engine.citadels.observation import Decision, Draft, Observation, PlayerView
from engine.citadels.rules import RulesConfig
from engine.citadels.state import TERMINAL, CitadelsState, state_from_observation

__all__ = [
    "TERMINAL",
    "CitadelsState",
    "Decision",
    "Draft",
    "Observation",
    "PlayerView",
    "RulesConfig",
    "state_from_observation",
]
