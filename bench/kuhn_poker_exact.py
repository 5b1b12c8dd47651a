"""Kuhn poker's deals for `bench.exploitability`: the six orders of two of the three cards,
equally likely."""

from __future__ import annotations

from engine.interface import State
from engine.kuhn_poker import Observation, RulesConfig, state_from_observation
from engine.kuhn_poker.cards import CARDS

#: The largest pot a hand wins, in chips: a called bet.
CHIPS = 2.0


def deals() -> list[tuple[float, State]]:
    """Every start of a hand with its probability."""
    starts: list[tuple[float, State]] = []
    for mine in CARDS:
        for other in CARDS:
            if other != mine:
                view = Observation(0, 2, RulesConfig(), mine, (), None)
                starts.append((1 / 6, state_from_observation(view, draws=(other,))))
    return starts
