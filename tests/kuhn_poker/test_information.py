"""What each player knows: the observation hides the other card until a showdown,
resample deals only that card again, uniformly, and `state_from_observation` rebuilds
a hand from a view, naming the field of a bad one."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import engine
from engine import InvalidObservationError
from engine.kuhn_poker import KuhnPokerState, Observation, state_from_observation
from engine.kuhn_poker.cards import CARDS
from search.bots import HeuristicBot
from tests.kuhn_poker.exact import DEALS, child, deal, heuristic, infoset


def every_state() -> list[KuhnPokerState]:
    """Every state of the game, terminal ones included, over the six deals."""
    out, level = [], [deal(cards) for cards in DEALS]
    while level:
        out += level
        level = [child(s, a) for s in level if not s.is_terminal() for a in s.legal_actions()]
    return out


def test_the_observation_hides_the_other_card_until_a_showdown() -> None:
    """Before a showdown a player's view is the same whichever card the other holds,
    and its JSON does not name that card."""
    for state in every_state():
        for p in (0, 1):
            view = state.observation(p)
            other = state.hands()[1 - p]
            assert view.card == state.hands()[p]
            if view.shown is not None:
                assert state.is_terminal() and "fold" not in view.history and view.shown == other
                continue
            assert f'"{other}"' not in json.dumps(view.to_json())
            third = next(c for c in CARDS if c not in state.hands())
            cards = (view.card, third) if p == 0 else (third, view.card)
            assert deal(cards, view.history).observation(p) == view


def test_every_action_is_seen_by_both_players() -> None:
    for state in every_state():
        if not state.is_terminal():
            for a in state.legal_actions():
                assert state.observed_action(a, 0) == a == state.observed_action(a, 1)


def test_resample_keeps_the_view_and_deals_the_other_card_uniformly() -> None:
    """Thousands of resamples per state: the player's view never changes, and the other
    card is each of the two unseen cards about half the time (the shown one after a
    showdown)."""
    for state in every_state():
        for p in (0, 1):
            view = state.observation(p)
            counts: Counter[str] = Counter()
            for seed in range(2000):
                world = state.resample(p, seed)
                assert world.observation(p) == view
                world.check()
                counts[world.hands()[1 - p]] += 1
            if view.shown is not None:
                assert counts == {view.shown: 2000}
            else:
                assert set(counts) == set(CARDS) - {view.card}
                assert all(900 < n < 1100 for n in counts.values()), counts


def test_every_view_rebuilds_to_itself_in_json_too() -> None:
    for state in every_state():
        for p in (0, 1):
            view = state.observation(p)
            text = json.loads(json.dumps(view.to_json()))
            assert Observation.from_json(text) == view
            for seed in range(4):
                rebuilt = state_from_observation(text, seed=seed)
                assert rebuilt.observation(p) == view
                assert rebuilt.legal_actions() == state.legal_actions()
            assert engine.state_from_observation(text).observation(p) == view


def test_draws_names_the_other_card() -> None:
    view = Observation(1, 2, engine.kuhn_poker.RulesConfig(), "Q", ("bet",), None)
    assert state_from_observation(view, draws=("K",)).hands() == ("K", "Q")
    assert state_from_observation(view, draws=("j",)).hands() == ("J", "Q")
    dealt = Counter(state_from_observation(view, seed=s).hands()[0] for s in range(2000))
    assert set(dealt) == {"J", "K"} and all(900 < n < 1100 for n in dealt.values())


GOOD = {"observer": 0, "num_players": 2, "card": "Q", "history": ["check"], "shown": None}


@pytest.mark.parametrize(
    ("change", "draws", "field"),
    [
        ({"card": "A"}, (), "card"),
        ({"card": 3}, (), "card"),
        ({"observer": 2}, (), "observer"),
        ({"num_players": 3}, (), "num_players"),
        ({"history": ["check", "fold"]}, (), "history[1]"),
        ({"history": ["raise"]}, (), "history[0]"),
        ({"history": [1]}, (), "history[0]"),
        ({"history": ["check", "check", "check"]}, (), "history[2]"),
        ({"history": ["bet", "call", "check", "bet"]}, (), "history"),
        ({"shown": "K"}, (), "shown"),
        ({"history": ["bet", "call"]}, (), "shown"),
        ({"history": ["bet", "call"], "shown": "Q"}, (), "shown"),
        ({"history": ["bet", "call"], "shown": "K"}, ("J",), "draws[0]"),
        ({}, ("Q",), "draws[0]"),
        ({}, ("J", "K"), "draws"),
        ({"game": "citadels"}, (), "game"),
        ({"rules": {"fast": True}}, (), "rules.fast"),
    ],
)
def test_a_bad_view_names_its_field(change: dict, draws: tuple[str, ...], field: str) -> None:
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(GOOD | change, draws=draws)
    assert err.value.field == field


def test_the_heuristic_bets_and_calls_with_the_king_and_mixes_with_the_queen() -> None:
    """The C heuristic, played by the heuristic bot over many seeds, is the strategy
    written out in `exact.heuristic`."""
    bot, written = HeuristicBot(), heuristic()
    for state in every_state():
        if state.is_terminal():
            continue
        counts = Counter(state.action_to_string(bot.choose(state, seed)) for seed in range(400))
        for text, prob in written[infoset(state)].items():
            assert abs(counts[text] / 400 - prob) < 0.1, (infoset(state), counts)
