"""The Royal Cities heuristic's weights: the defaults play as the hand-set constants did,
and `set_weights` changes play for the whole process, all or nothing."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator

import pytest

import engine
from engine.royal_cities import heuristic
from search.ismcts import heuristic_action

# The digest of heuristic games played before the weights became a table (constants in code).
HAND_SET_DIGEST = "6e0f39e65e454d76"


def digest(deals: int = 50) -> str:
    """A digest of every action of heuristic self-play games, 1 to 4 players, seeded deals."""
    h = hashlib.sha256()
    for players in range(1, 5):
        for d in range(deals):
            state = engine.new_game("royal_cities", players, seed=1000 + d)
            k = 0
            while not state.is_terminal():
                action = heuristic_action(state, d * 7919 + k)
                k += 1
                h.update(action.to_bytes(2, "little"))
                state.apply_action(action)
    return h.hexdigest()[:16]


@pytest.fixture(autouse=True)
def hand_set() -> Iterator[None]:
    """Every test starts and ends with the hand-set weights."""
    heuristic.reset_weights()
    yield
    heuristic.reset_weights()


def test_the_defaults_play_exactly_as_the_hand_set_constants() -> None:
    assert heuristic.weights() == dict(heuristic.WEIGHTS)
    assert digest() == HAND_SET_DIGEST


def test_other_weights_change_play_and_reset_puts_the_defaults_back() -> None:
    heuristic.set_weights({"purchase_rich": -2.0, "use_new": 0.0})
    assert heuristic.weights()["use_new"] == 0.0
    changed = digest(10)
    heuristic.reset_weights()
    assert digest(10) != changed
    assert digest() == HAND_SET_DIGEST


@pytest.mark.parametrize(
    ("values", "reason"),
    [({"use_new": 1.0, "bogus": 1.0}, "no heuristic weight 'bogus'"),
     ({"rich_use": 10.0, "target_break": math.nan}, "'target_break' must be finite"),
     ({"strike": math.inf}, "'strike' must be finite")],
)  # fmt: skip
def test_bad_weights_are_refused_and_nothing_changes(values: dict, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        heuristic.set_weights(values)
    assert heuristic.weights() == dict(heuristic.WEIGHTS)


def test_every_weight_has_a_unique_name() -> None:
    names = [name for name, _ in heuristic.WEIGHTS]
    assert len(names) == len(set(names)) == len(heuristic.weights())
