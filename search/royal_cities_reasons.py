"""Royal Cities' reasons for a hint (see `search.explain`): the colour majorities the move
secures at the end of this Season, counted over the worlds the search deals played on by its
playout policy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.interface import State
from engine.royal_cities.cards import CITY_COLOURS
from engine.royal_cities.observation import Observation
from engine.royal_cities.state import RoyalCitiesState
from search.explain import Belief, Played, Reason

#: Beyond "expects": each colour whose majority the asker holds at the Season's scoring in at
#: least `SECURED` of the worlds.
KINDS = ("secures",)
SECURED = 0.5


def checkpoint(before: State, now: State) -> bool:
    """The first position after this Season's scoring (its Cities are those it scored)."""
    return cast("RoyalCitiesState", now).season != cast("RoyalCitiesState", before).season


def influence(obs: Observation) -> list[list[int]]:
    """Per player (and the Regent, last, in solo), the influence of each City: the sum of its
    cards' values."""
    cities = [view.cities for view in obs.players]
    if obs.regent is not None:
        cities.append(obs.regent.cities)
    return [[sum(int(card.rpartition("-")[2]) for card in city) for city in own] for own in cities]


def reasons(state: State, played: Sequence[Played]) -> list[Reason]:
    """ "secures": the colours whose majority (the highest influence, at least 1, ties
    shared) the asker holds at the Season's scoring, with the share of the worlds."""
    asker = state.current_player
    held = [0] * len(CITY_COLOURS)
    for p in played:
        table = influence(cast("Observation", p.checkpoint.observation(asker)))
        for colour in range(len(CITY_COLOURS)):
            mine = table[asker][colour]
            if mine >= 1 and all(mine >= row[colour] for row in table):
                held[colour] += 1
    shares = [(n / len(played), colour) for colour, n in enumerate(held)]
    return [
        Reason("secures", asker, CITY_COLOURS[colour], share)
        for share, colour in sorted(shares, key=lambda sc: (-sc[0], sc[1]))
        if share >= SECURED
    ]


def beliefs(state: State, worlds: Sequence[State]) -> list[Belief]:
    """Royal Cities hides only cards in hands and the pile: no roles to place."""
    return []
