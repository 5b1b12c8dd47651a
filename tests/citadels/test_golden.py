"""Golden playthroughs of Citadels (3 and 5 players): see `tests/golden.py`.

Regenerate with `REGENT_UPDATE_GOLDEN=1 PYTHONPATH=. python3 -m pytest
tests/citadels/test_golden.py` and review the diff of `tests/citadels/golden/`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden import check_golden_file, replay_and_compare

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES = (("playthrough_3p.json", 3, 4), ("playthrough_5p.json", 5, 2))


@pytest.mark.parametrize(("name", "num_players", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_playthrough(name: str, num_players: int, seed: int) -> None:
    replay_and_compare(check_golden_file(GOLDEN_DIR / name, "citadels", num_players, seed))


def test_golden_games_cover_the_decisions() -> None:
    phases = set()
    for name, _, _ in GAMES:
        for step in json.loads((GOLDEN_DIR / name).read_text())["steps"]:
            phases.add(step["phase"])
    assert {"pick", "resource", "keep", "main"} <= phases
