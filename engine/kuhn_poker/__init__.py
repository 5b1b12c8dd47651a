"""Kuhn poker (three cards, two players, one betting round): a game small enough to
enumerate, for testing the search. It is not served: no layer above the engine but the
search has a module for it."""

from engine.kuhn_poker.cards import card_table
from engine.kuhn_poker.observation import Observation
from engine.kuhn_poker.rules import RulesConfig
from engine.kuhn_poker.state import (
    TERMINAL,
    KuhnPokerState,
    play_random_games,
    state_from_observation,
)
from engine.registry import GameSpec, register

__all__ = [
    "SPEC",
    "TERMINAL",
    "KuhnPokerState",
    "Observation",
    "RulesConfig",
    "state_from_observation",
]

SPEC = register(
    GameSpec(
        name="kuhn_poker",
        title="Kuhn poker",
        player_counts=(2,),
        state_class=KuhnPokerState,
        rules_class=RulesConfig,
        observation_class=Observation,
        from_observation=state_from_observation,
        random_games=play_random_games,
        cards=card_table(),
        score_unit="chips",
        testing=True,
    )
)
