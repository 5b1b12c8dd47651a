"""Leduc poker's deals for `bench.exploitability`: every player 0's card, player 1's card
and public card by rank (the suits never matter), with its probability from a deck of two of
each."""

from __future__ import annotations

from fractions import Fraction

from engine.interface import State
from engine.leduc_poker import Observation, RulesConfig, state_from_observation
from engine.leduc_poker.cards import CARDS, COPIES

#: The largest pot a hand wins, in chips: the ante, two raises of 2 and two of 4.
CHIPS = 13.0


def deals() -> list[tuple[float, State]]:
    """Every start of a hand with its probability."""
    deck = COPIES * len(CARDS)
    starts: list[tuple[float, State]] = []
    for mine in CARDS:
        for other in CARDS:
            for public in CARDS:
                probability = (
                    Fraction(COPIES, deck)
                    * Fraction(COPIES - (other == mine), deck - 1)
                    * Fraction(COPIES - (public == mine) - (public == other), deck - 2)
                )
                if probability:
                    view = Observation(0, 2, RulesConfig(), mine, None, (), None)
                    state = state_from_observation(view, draws=(other, public))
                    starts.append((float(probability), state))
    return starts
