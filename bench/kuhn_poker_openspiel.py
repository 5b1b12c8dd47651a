"""Kuhn poker in OpenSpiel's terms for `bench.openspiel_check`: its game there, and the
position of ours at one of its states (cards 0, 1, 2 are J, Q, K; Pass checks or folds, Bet
bets or calls)."""

from __future__ import annotations

from engine.interface import State
from engine.kuhn_poker import Observation, RulesConfig, state_from_observation
from engine.kuhn_poker.cards import CARDS

#: The game's name in OpenSpiel.
NAME = "kuhn_poker"
#: Each OpenSpiel action's texts in ours, the first that is legal.
TEXTS = (("check", "fold"), ("bet", "call"))


def deal(history: list[tuple[int, int]]) -> State:
    """Our deal of the cards OpenSpiel's `history` of (player, action) deals (chance as player
    -1), before any bet: `bench.openspiel_check` replays the bets."""
    cards = [action for player, action in history if player < 0]
    view = Observation(0, 2, RulesConfig(), CARDS[cards[0]], (), None)
    state = state_from_observation(view, draws=(CARDS[cards[1]],))
    return state
