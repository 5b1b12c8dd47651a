"""Each heuristic's weights: the defaults play exactly as the hand-set constants did, and
`set_weights` changes play for the whole process, all or nothing."""

from __future__ import annotations

import hashlib
import importlib
import json
import math
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import engine
from engine.heuristics import heuristic_module, load_weights, weighted_games
from engine.weights import WeightTable
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


def test_only_games_whose_heuristic_has_weights_are_fitted() -> None:
    assert sorted(weighted_games()) == sorted(GAMES)
    with pytest.raises(ValueError, match="has no weights to fit"):
        heuristic_module("kuhn_poker")


def test_a_weight_table_refuses_names_given_twice() -> None:
    with pytest.raises(ValueError, match="unique"):
        WeightTable([("a", 1.0), ("a", 2.0)])
    table = WeightTable([("a", 1.0), ("b", 2.0)])
    table.set({"b": 5.0})
    assert table.get() == {"a": 1.0, "b": 5.0} and table.names == ("a", "b")
    table.reset()
    assert table.get() == {"a": 1.0, "b": 2.0}


@pytest.mark.parametrize(
    ("text", "reason"),
    [("not json", "not a fit of heuristic weights"),
     ('{"weights": {}}', "not a fit of heuristic weights"),
     ('{"game": "citadels", "weights": [1]}', "'weights' an object"),
     ('{"game": "kuhn_poker", "weights": {}}', "has no weights to fit"),
     ('{"game": "citadels", "weights": {"income": 2, "bogus": 1}}', "no heuristic weight 'bogus'"),
     ('{"game": "citadels", "weights": {"income": "x"}}', "must be a number"),
     ('{"game": "citadels", "weights": {"income": true}}', "must be a number")],
)  # fmt: skip
def test_a_bad_weights_file_is_refused_and_nothing_changes(
    heuristic: ModuleType, tmp_path: Path, text: str, reason: str
) -> None:
    path = tmp_path / "fit.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=reason) as err:
        load_weights(path)
    assert str(path) in str(err.value)
    assert heuristic.weights() == dict(heuristic.WEIGHTS)


def test_a_weights_file_is_put_in_force(heuristic: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "fit.json"
    changes = GAMES[game_of(heuristic)][1]
    path.write_text(json.dumps({"game": game_of(heuristic), "weights": changes}))
    assert load_weights(path) == game_of(heuristic)
    assert heuristic.weights() == {**dict(heuristic.WEIGHTS), **changes}
