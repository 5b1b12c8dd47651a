"""Leduc poker (six cards, two players, two betting rounds and a public card): a game small
enough to enumerate whose players must bluff and read bluffs, for testing the search. It is
not served: no layer above the engine but the search has a module for it."""

from engine.leduc_poker.cards import card_table
from engine.leduc_poker.observation import Observation
from engine.leduc_poker.rules import RulesConfig
from engine.leduc_poker.state import (
    TERMINAL,
    LeducPokerState,
    play_random_games,
    state_from_observation,
)
from engine.registry import GameSpec, register

__all__ = [
    "SPEC",
    "TERMINAL",
    "LeducPokerState",
    "Observation",
    "RulesConfig",
    "state_from_observation",
]

SPEC = register(
    GameSpec(
        name="leduc_poker",
        title="Leduc poker",
        player_counts=(2,),
        state_class=LeducPokerState,
        rules_class=RulesConfig,
        observation_class=Observation,
        from_observation=state_from_observation,
        random_games=play_random_games,
        cards=card_table(),
        score_unit="chips",
        testing=True,
    )
)
