"""Properties over generated hands: a resampled world gives the player the same view,
and every hand rebuilt from a view gives that view back (the search's
`resample_from_infostate` contract)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.kuhn_poker import KuhnPokerState, state_from_observation

SEEDS = st.integers(min_value=0, max_value=(1 << 64) - 1)


@st.composite
def hands(draw: st.DrawFn) -> KuhnPokerState:
    """A dealt hand after some legal actions (possibly to the end)."""
    state = engine.new_game("kuhn_poker", 2, seed=draw(SEEDS))
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        if state.is_terminal():
            break
        state.apply_action(draw(st.sampled_from(state.legal_actions())))
    return state


@settings(max_examples=300, deadline=None)
@given(hands(), st.integers(min_value=0, max_value=1), SEEDS)
def test_a_resampled_world_gives_the_same_view(
    state: KuhnPokerState, player: int, seed: int
) -> None:
    world = state.resample(player, seed)
    world.check()
    assert world.observation(player) == state.observation(player)
    assert world.legal_actions() == state.legal_actions()
    assert world.hands()[player] == state.hands()[player]


@settings(max_examples=300, deadline=None)
@given(hands(), st.integers(min_value=0, max_value=1), SEEDS)
def test_a_rebuilt_hand_gives_its_view_back(state: KuhnPokerState, player: int, seed: int) -> None:
    view = state.observation(player)
    rebuilt = state_from_observation(json.loads(json.dumps(view.to_json())), seed=seed)
    rebuilt.check()
    assert rebuilt.observation(player) == view
    assert rebuilt.current_player == state.current_player
