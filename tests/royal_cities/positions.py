"""Known positions for rule tests, built through `state_from_observation`.

`position(...)` writes the observer's observation from a few keyword arguments:
every card it does not place goes to the discard pile unless `pile` is given,
in which case exactly the `pile` cards, `pile[0]` on top (plus a random Reserve
when `reserve_size` > 0, taken from `rest`) are the hidden cards, so draws are exact.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from engine.royal_cities import (
    Decision,
    Observation,
    PlayerView,
    RegentView,
    RoyalCitiesState,
    RulesConfig,
    state_from_observation,
)
from engine.royal_cities.cards import CITY_COLOURS, copies, kind_name

ALL_CARDS: Counter[str] = Counter({kind_name(k): copies(k) for k in range(49)})


def cities_of(spec: dict[str, list[str]] | None) -> tuple[tuple[str, ...], ...]:
    """{"red": ["red-2", "white-3"]} -> six City tuples."""
    spec = spec or {}
    return tuple(tuple(spec.get(colour, ())) for colour in CITY_COLOURS)


def position(
    num_players: int = 2,
    *,
    observer: int = 0,
    phase: str = "turn",
    player: int | None = 0,
    hands: dict[int, list[str]] | None = None,
    hidden_hands: dict[int, int] | None = None,
    cities: dict[int, dict[str, list[str]]] | None = None,
    regent_cities: dict[str, list[str]] | None = None,
    market: list[str] | None = None,
    discard: list[str] | None = None,
    pile: list[str] | None = None,
    reserve_size: int = 4,
    vp: list[int] | None = None,
    regent_vp: int = 0,
    purchased: tuple[int, ...] = (),
    hero_up: tuple[int, ...] = (),
    season: int = 1,
    starter: int = 0,
    last_purchaser: int = 0,
    rules: RulesConfig | None = None,
    seed: int = 0,
    **decision: Any,
) -> RoyalCitiesState:
    """A state at a chosen position, seen from `observer` (whose hand is `hands[observer]`)."""
    hands = hands or {}
    hidden_hands = hidden_hands or {}
    cities = cities or {}
    market = market or []
    placed: Counter[str] = Counter(market) + Counter(discard or [])
    for q in range(num_players):
        placed += Counter(hands.get(q, []))
        for row in cities.get(q, {}).values():
            placed += Counter(row)
    for row in (regent_cities or {}).values():
        placed += Counter(row)
    placed += Counter(decision.get("drawn", ()))
    rest = ALL_CARDS - placed
    assert not (placed - ALL_CARDS), f"cards placed twice: {placed - ALL_CARDS}"
    hidden = sum(hidden_hands.values()) + decision.get("drawn_hidden", 0) + reserve_size
    if pile is None:
        pile_size = sum(rest.values()) - hidden
        discard_cards = list(discard or [])
    else:
        pile_size = len(pile)
        rest -= Counter(pile)
        # Hidden hand cards and the Reserve come from what is left, the rest is discarded.
        leftovers = sorted(rest.elements())
        discard_cards = list(discard or []) + leftovers[hidden:]
    players = []
    for q in range(num_players):
        hand = tuple(sorted(hands.get(q, []), key=_order))
        players.append(
            PlayerView(
                vp=(vp or [0] * num_players)[q],
                hero_up=q in hero_up,
                purchased=q in purchased,
                committed=False,
                age_rank=q,
                hand_size=len(hand) + hidden_hands.get(q, 0),
                hand=hand,
                seen_of_mine=(),
                cities=cities_of(cities.get(q)),
            )
        )
    obs = Observation(
        observer=observer,
        num_players=num_players,
        rules=rules or RulesConfig(),
        season=season,
        num_seasons=3 if num_players == 4 else 4,
        starter=starter,
        last_purchaser=last_purchaser,
        players=tuple(players),
        regent=RegentView(regent_vp, cities_of(regent_cities)) if num_players == 1 else None,
        market=tuple(sorted(market, key=_order)),
        discard=tuple(sorted(discard_cards, key=_order)),
        pile_size=pile_size,
        reserve_size=reserve_size,
        decision=Decision(phase=phase, player=player, **decision),
    )
    return state_from_observation(obs, seed=seed, draws=pile or ())


def with_decision(obs: Observation, **changes: Any) -> Observation:
    return replace(obs, decision=replace(obs.decision, **changes))


def _order(name: str) -> int:
    from engine.royal_cities.cards import parse_kind

    return parse_kind(name)


def play(state: RoyalCitiesState, *moves: str) -> RoyalCitiesState:
    """Apply moves written as text, checking each is legal."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
        state.check()
    return state


def legal_texts(state: RoyalCitiesState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def seed_for_draws(cards: list[str]) -> int:
    """A `position` seed whose pile (given as `cards`, reserve_size=0) draws in that order
    (the hidden cards are dealt by `random.Random(seed)`, the top of the pile drawn first)."""
    for seed in range(100_000):
        order = sorted(cards, key=_order)
        random.Random(seed).shuffle(order)
        if order == cards:
            return seed
    raise AssertionError("no seed found")
