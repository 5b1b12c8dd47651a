"""`state_from_observation(..., draws=...)`: a table's real draws come off the pile in order."""

from __future__ import annotations

import pytest

import engine
from tests.royal_cities.positions import position

MARKET = ["purple-3", "yellow-4", "red-1", "blue-2"]


def _observation():
    return position(market=MARKET, hands={0: ["white-2", "pink-6"]}).observation(0)


def test_draws_come_off_the_top_in_order() -> None:
    obs = _observation()
    for seed in range(5):
        state = engine.state_from_observation(obs, seed, draws=("green-6", "pink-1"))
        state.apply_action(state.string_to_action("add"))
        assert "green-6" in state.observation(0).market
        state.apply_action(state.string_to_action("add"))
        assert "pink-1" in state.observation(0).market


def test_without_draws_the_deal_is_unchanged() -> None:
    obs = _observation()
    plain = engine.state_from_observation(obs, 4)
    again = engine.state_from_observation(obs, 4, draws=())
    for state in (plain, again):
        state.apply_action(state.string_to_action("add"))
    assert plain.observation(0) == again.observation(0)


@pytest.mark.parametrize(
    ("draws", "field"),
    [
        (("white-2",), "draws[0]"),  # in the observer's hand: it knows that card
        (("green-6", "purple-3", "purple-3"), "draws[2]"),  # one purple-3 is in the Market
        (("nonsense",), "draws[0]"),
    ],
)
def test_a_card_the_observer_knows_cannot_be_drawn(draws: tuple[str, ...], field: str) -> None:
    with pytest.raises(engine.InvalidObservationError) as info:
        engine.state_from_observation(_observation(), 0, draws=draws)
    assert info.value.field == field


def test_no_more_draws_than_the_pile_holds() -> None:
    obs = _observation()
    with pytest.raises(engine.InvalidObservationError) as info:
        engine.state_from_observation(obs, 0, draws=("green-6",) * (obs.pile_size + 1))
    assert info.value.field == "draws"
