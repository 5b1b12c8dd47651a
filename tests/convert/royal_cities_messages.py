"""Royal Cities observations for the converter's tests: every player's view at every step of
seeded random games, and valid messages to break."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import engine
from convert import observation_to_proto
from engine.royal_cities import Observation, RulesConfig
from regent.v1 import advisor_pb2, royal_cities_pb2

PLAYER_COUNTS = (1, 2, 3, 4)
Colour = royal_cities_pb2.RoyalCitiesColour
Phase = royal_cities_pb2.RoyalCitiesPhase


def observations(
    num_players: int, games: int, rules: RulesConfig | None = None, first_seed: int = 0
) -> Iterator[Observation]:
    """Every player's observation at every step, the end included, of seeded random games."""
    for seed in range(first_seed, first_seed + games):
        state = engine.new_game("royal_cities", num_players=num_players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while True:
            for player in range(num_players):
                yield state.observation(player)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def sample(num_players: int, games: int, every: int) -> Iterator[Observation]:
    """Every `every`-th observation of `observations`."""
    for i, obs in enumerate(observations(num_players, games)):
        if i % every == 0:
            yield obs


@functools.cache
def _base_bytes(num_players: int) -> bytes:
    """A valid observation at a `turn` in which the observer knows an opponent's card."""
    for obs in observations(num_players, 50):
        known = any(v.hand for q, v in enumerate(obs.players) if q != obs.observer)
        if obs.decision.phase == "turn" and obs.discard and (known or num_players == 1):
            return observation_to_proto(obs).SerializeToString()
    raise AssertionError("no suitable observation")  # pragma: no cover


def base_message(num_players: int = 2) -> advisor_pb2.Observation:
    """A fresh copy of a valid message, to break."""
    return advisor_pb2.Observation.FromString(_base_bytes(num_players))


def card(colour: int, value: int) -> royal_cities_pb2.RoyalCitiesCard:
    return royal_cities_pb2.RoyalCitiesCard(colour=colour, value=value)


GOOD = card(Colour.ROYAL_CITIES_COLOUR_YELLOW, 2)
