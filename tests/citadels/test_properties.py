"""Properties over many seeded random games for 2-7 players: conservation of the
68 districts, clone independence, illegal actions, and at every step for every
player the observation and resample round trips. The long runs are `slow`."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter

import pytest

import engine
from engine import IllegalMoveError
from engine.citadels import Observation, state_from_observation
from engine.citadels.core import Action
from tests.citadels.positions import play, position

PLAYERS = range(2, 8)


def random_game(n, seed):
    """Yield (state, action) along one random game, before each action."""
    state = engine.new_game("citadels", n, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        yield state, action
        state.apply_action(action)


def check_views(state, step):
    """Every player's observation survives resampling and rebuilding, in JSON too."""
    for p in range(state.num_players):
        view = state.observation(p)
        world = state.resample(p, step * 7 + p)
        world.check()
        assert world.observation(p) == view
        assert world.legal_actions(), "a resampled world has no move"
        if state.current_player == p:
            assert world.legal_actions() == state.legal_actions()
        text = json.loads(json.dumps(view.to_json()))
        again = state_from_observation(Observation.from_json(text), seed=step)
        assert again.observation(p) == view


def conservation_and_illegal(state, action, rng):
    state.check()
    assert sum(state.card_locations().values()) == 68
    listed = state.legal_actions()
    assert listed == sorted(set(listed))
    legal = set(listed)
    illegal = rng.choice([a for a in range(Action.NUM_ACTIONS) if a not in legal])
    before = pickle.dumps(state)
    with pytest.raises(IllegalMoveError):
        state.apply_action(illegal)
    assert pickle.dumps(state) == before


@pytest.mark.parametrize("n", PLAYERS)
def test_round_trips_at_every_step(n):
    for seed in range(2):
        for step, (state, _) in enumerate(random_game(n, seed)):
            check_views(state, step)


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_round_trips_at_every_step_many_games(n):
    for seed in range(2, 25):
        for step, (state, _) in enumerate(random_game(n, seed)):
            check_views(state, step)


@pytest.mark.parametrize("n", PLAYERS)
def test_conservation_and_illegal_actions(n):
    rng = random.Random(n)
    for seed in range(20):
        for state, action in random_game(n, seed):
            conservation_and_illegal(state, action, rng)


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_conservation_after_every_action_over_a_thousand_games(n):
    for seed in range(1000):
        state = engine.new_game("citadels", n, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            state.check()
        assert sum(state.card_locations().values()) == 68
        assert sum(state.returns()) == pytest.approx(1.0)


def test_clone_and_resample_are_independent():
    state = engine.new_game("citadels", 5, seed=4)
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    world = state.resample(1, 3)
    before = state.observation(0)
    copy.playout(1)
    world.playout(2)
    assert state.observation(0) == before
    assert not state.is_terminal()


def test_a_game_replays_identically_from_its_seed():
    def moves(seed):
        return [a for _, a in random_game(6, seed)]

    assert moves(12) == moves(12)
    assert moves(12) != moves(13)


def test_resample_deals_the_characters_uniformly():
    # The first picker of a 4-player round, before anyone is revealed: its four
    # passed characters go to three players and one face-down card, 24 ways.
    state = position(called="assassin", phase="main")
    counts = Counter(
        tuple(sorted(state.resample(0, seed).holders().items())) for seed in range(12_000)
    )
    assert len(counts) == 24
    assert max(counts.values()) < 1.25 * min(counts.values())


def test_resample_respects_revealed_characters_with_seven_players():
    state = engine.new_game("citadels", 7, seed=8)
    rng = random.Random(5)
    while state.phase in ("pick", "discard"):
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(4):  # a few characters' turns
        while state.phase != "main":
            state.apply_action(rng.choice(state.legal_actions()))
        play(state, "end turn")
    observer = state.observation(0).crown
    view = state.observation(observer)
    deals = Counter()
    for seed in range(3000):
        world = state.resample(observer, seed)
        holders = world.holders()
        for name, player in view.revealed:
            assert holders[name] == player
        for name in view.players[observer].characters:
            assert holders[name] == observer
        for name in view.draft.face_up:
            assert holders[name] is None
        deals[tuple(sorted(holders.items()))] += 1
    assert len(deals) > 1
    assert max(deals.values()) < 1.4 * min(deals.values()) or len(deals) > 200
