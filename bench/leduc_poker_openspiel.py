"""Leduc poker in OpenSpiel's terms for `bench.openspiel_check`: its game there, and the
position of ours at one of its states (card c is rank c // 2 of J, Q, K; Fold folds, Call
checks or calls, Raise bets or raises). Our deal holds the public card from the start, which
no one sees before the second round: before OpenSpiel deals it, any card left stands in."""

from __future__ import annotations

from engine.interface import State
from engine.leduc_poker import Observation, RulesConfig, state_from_observation
from engine.leduc_poker.cards import CARDS

#: The game's name in OpenSpiel.
NAME = "leduc_poker"
#: Each OpenSpiel action's texts in ours, the first that is legal.
TEXTS = (("fold",), ("check", "call"), ("bet", "raise"))


def deal(history: list[tuple[int, int]]) -> State:
    """Our deal of the cards OpenSpiel's `history` of (player, action) deals (chance as player
    -1), before any bet: `bench.openspiel_check` replays the bets."""
    cards = [action for player, action in history if player < 0]
    if len(cards) < 3:
        cards.append(next(c for c in range(2 * len(CARDS)) if c not in cards))
    mine, other, public = (CARDS[card // 2] for card in cards)
    view = Observation(0, 2, RulesConfig(), mine, None, (), None)
    state = state_from_observation(view, draws=(other, public))
    return state
