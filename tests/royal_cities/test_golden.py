"""Golden playthroughs of Royal Cities (solo, 2 and 3 players): see `tests/golden.py`.

The seeds were chosen (from 0-299) for games that visit many phases and effects.
Regenerate with `REGENT_UPDATE_GOLDEN=1 PYTHONPATH=. python3 -m pytest
tests/royal_cities/test_golden.py` and review the diff of `tests/royal_cities/golden/`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden import check_golden_file, replay_and_compare

GOLDEN_DIR = Path(__file__).parent / "golden"

#: (file name, players, seed): the solo game reaches Royal Taxes, a white card for the
#: Regent and the Market trim; the others Knights, Astrologers, Revolts and `add hero`.
GAMES = (
    ("playthrough_solo.json", 1, 184),
    ("playthrough_2p.json", 2, 183),
    ("playthrough_3p.json", 3, 237),
)


@pytest.mark.parametrize(("name", "num_players", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_playthrough(name: str, num_players: int, seed: int) -> None:
    """The file is canonical, complete and small, and the seeded game replays exactly as
    recorded (with REGENT_UPDATE_GOLDEN=1 the file is rewritten from the engine first)."""
    replay_and_compare(check_golden_file(GOLDEN_DIR / name, "royal_cities", num_players, seed))


def test_golden_games_cover_the_rules() -> None:
    """The recorded games are worth pinning: between them they visit every kind of decision
    the engine has except the ones random play almost never reaches."""
    phases = set()
    effects = set()
    for name, _, _ in GAMES:
        for step in json.loads((GOLDEN_DIR / name).read_text())["steps"]:
            phases.add(step["phase"])
            decision = step["observations"][0]["decision"]
            if decision["effect"] is not None:
                effects.add(decision["effect"])
    assert {"pass", "first_build", "turn", "effect", "purchase", "construct"} <= phases
    assert {"hero_keep", "knight_destination", "solo_own", "solo_add", "tax"} <= phases
    assert effects == set(range(7)) - {2}  # the Jester draws at once: no decision


def test_a_changed_record_is_caught_and_located() -> None:
    """The comparison has teeth: one card changed in one observation, one action's text, or
    the final scores, and the replay fails naming the step, the player and the JSON path."""
    golden = json.loads((GOLDEN_DIR / GAMES[1][0]).read_text())
    step = golden["steps"][40]
    step["observations"][1]["pile_size"] += 1
    with pytest.raises(AssertionError, match=r"step 40: step\.observations\[1\]\.pile_size"):
        replay_and_compare(golden)

    golden = json.loads((GOLDEN_DIR / GAMES[1][0]).read_text())
    golden["steps"][7]["legal"].reverse()
    with pytest.raises(AssertionError, match=r"step 7: step\.legal\[0\]"):
        replay_and_compare(golden)

    golden = json.loads((GOLDEN_DIR / GAMES[1][0]).read_text())
    golden["final"]["scores"][0] += 1
    with pytest.raises(AssertionError, match=r"final\.scores\[0\]"):
        replay_and_compare(golden)
