"""Each heuristic's weights: the defaults play exactly as the hand-set constants did, and
`set_weights` changes play for the whole process, all or nothing."""

from __future__ import annotations

import hashlib
import importlib
import math
from collections.abc import Iterator
from types import ModuleType

import pytest

import engine
from search.ismcts import heuristic_action

# The digests of heuristic games played before the weights became tables (constants in
# code), and two weights each whose change alters play.
GAMES = {
    "citadels": ("587e985d93457142", {"base_king": 0.0, "income": 3.0}),
    "royal_cities": ("6e0f39e65e454d76", {"purchase_rich": -2.0, "use_new": 0.0}),
}


def digest(game: str, deals: int = 50) -> str:
    """A digest of every action of heuristic self-play games at every player count."""
    h = hashlib.sha256()
    for players in engine.game(game).player_counts:
        for d in range(deals):
            state = engine.new_game(game, players, seed=1000 + d)
            k = 0
            while not state.is_terminal():
                action = heuristic_action(state, d * 7919 + k)
                k += 1
                h.update(action.to_bytes(2, "little"))
                state.apply_action(action)
    return h.hexdigest()[:16]


@pytest.fixture(params=sorted(GAMES))
def heuristic(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """The game's heuristic module, with the hand-set weights before and after the test."""
    module = importlib.import_module(f"engine.{request.param}.heuristic")
    module.reset_weights()
    yield module
    module.reset_weights()


def game_of(module: ModuleType) -> str:
    return module.__name__.split(".")[1]


def test_the_defaults_play_exactly_as_the_hand_set_constants(heuristic: ModuleType) -> None:
    assert heuristic.weights() == dict(heuristic.WEIGHTS)
    assert digest(game_of(heuristic)) == GAMES[game_of(heuristic)][0]


def test_other_weights_change_play_and_reset_puts_them_back(heuristic: ModuleType) -> None:
    game = game_of(heuristic)
    changes = GAMES[game][1]
    heuristic.set_weights(changes)
    assert {name: heuristic.weights()[name] for name in changes} == changes
    changed = digest(game, 10)
    heuristic.reset_weights()
    assert digest(game, 10) != changed
    assert heuristic.weights() == dict(heuristic.WEIGHTS)


def test_bad_weights_are_refused_and_nothing_changes(heuristic: ModuleType) -> None:
    first, second = list(GAMES[game_of(heuristic)][1])
    for values, reason in [({first: 1.0, "bogus": 1.0}, "no heuristic weight 'bogus'"),
                           ({first: 1.0, second: math.nan}, f"'{second}' must be finite"),
                           ({first: math.inf}, f"'{first}' must be finite")]:  # fmt: skip
        with pytest.raises(ValueError, match=reason):
            heuristic.set_weights(values)
        assert heuristic.weights() == dict(heuristic.WEIGHTS)
