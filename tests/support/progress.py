"""What the games' progress suites (tests/<game>/test_progress.py) share: the example files'
observations to break, random play to a game's end under its invariants, and the field a
refused observation names."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from convert import observation_from_proto
from engine import InvalidObservationError
from tests.example_files import parsed

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"


@functools.cache
def _example_text(name: str) -> str:
    return json.dumps(observation_from_proto(parsed(EXAMPLES_DIR / name)).to_json())


def example(name: str) -> dict[str, Any]:
    """An example file's observation, as the engine's JSON dict (a fresh copy each call)."""
    loaded: dict[str, Any] = json.loads(_example_text(name))
    return loaded


def play_to_end(state: engine.State, bound: int, seed: int, where: str) -> int:
    """Random moves (seeded) to the end, checking the invariants after each; the number of
    actions. AssertionError naming `where` past `bound` actions or without a legal move."""
    rng = random.Random(seed)
    for steps in range(bound + 1):
        if state.is_terminal():
            return steps
        legal = state.legal_actions()
        assert legal, f"{where}: no legal move in phase {state.phase}"
        state.apply_action(rng.choice(legal))
        state.check()
    raise AssertionError(f"{where}: still running after the bound of {bound} actions")


def refused_field(data: Any) -> str:
    """The field the engine names in refusing the observation `data`."""
    with pytest.raises(InvalidObservationError) as info:
        engine.state_from_observation(data, seed=1)
    return info.value.field
