"""Golden playthroughs: whole seeded games, pinned step by step, that change only on purpose.

Each file in `tests/royal_cities/golden/` records one game (solo, 2 and 3 players, the
rulebook's default rules) dealt by `new_game("royal_cities", n, seed=seed)` and played by a
seeded random policy: one `random.Random(seed)` whose `.choice(state.legal_actions())` picks
every action. For every step the file stores

* `player`, `phase`: who decides, and what;
* `legal`: the text of every legal action, in id order;
* `action`: the text of the action the policy chose;
* `observations`: the observation JSON of *every* player before the action (all players at
  every step: the files stay well under 3 MB);

and at the end the final observations of every player, the scores and the returns.

The test replays the recorded actions and compares everything, reporting the first
difference (step, player, JSON path). It also checks that the policy, run afresh, still
chooses the recorded actions, so a change in the set or order of legal actions shows too.

Any intended change to the rules, the deal or the observation format changes these files.
Regenerate them with

    REGENT_UPDATE_GOLDEN=1 PYTHONPATH=. python3 -m pytest tests/royal_cities/test_golden.py

then review the diff of `tests/royal_cities/golden/` (one line per step) and commit it with
the change that caused it.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.royal_cities import RoyalCitiesState, RulesConfig

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REGENT_UPDATE_GOLDEN", "") not in ("", "0")
MAX_BYTES = 3 * 1024 * 1024

#: (file name, players, seed). The seeds were chosen (from 0-299) for games that visit many
#: phases and effects: the solo game reaches Royal Taxes, a white card for the Regent and the
#: Market trim; the others Knights, Astrologers, Revolts and `add hero`.
GAMES = (
    ("playthrough_solo.json", 1, 184),
    ("playthrough_2p.json", 2, 183),
    ("playthrough_3p.json", 3, 237),
)


def plain(obs: Any) -> Any:
    """An observation as JSON text reads back (lists, not tuples)."""
    return json.loads(json.dumps(obs.to_json()))


def record(num_players: int, seed: int) -> dict[str, Any]:
    """Play the golden game and record it (see the module docstring for the format)."""
    rules = RulesConfig()
    state = engine.new_game("royal_cities", num_players=num_players, seed=seed, rules=rules)
    policy = random.Random(seed)
    steps = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = policy.choice(legal)
        steps.append(
            {
                "step": len(steps),
                "player": state.current_player,
                "phase": state.phase,
                "legal": [state.action_to_string(a) for a in legal],
                "action": state.action_to_string(action),
                "observations": [plain(state.observation(p)) for p in range(num_players)],
            }
        )
        state.apply_action(action)
    return {
        "game": "royal_cities",
        "num_players": num_players,
        "seed": seed,
        "rules": rules.to_json(),
        "policy": f"random.Random({seed}).choice(state.legal_actions()) at every step",
        "steps": steps,
        "final": final_record(state),
    }


def final_record(state: RoyalCitiesState) -> dict[str, Any]:
    return {
        "observations": [plain(state.observation(p)) for p in range(state.num_players)],
        "scores": state.scores(),
        "returns": state.returns(),
    }


def dump(data: dict[str, Any]) -> str:
    """Stable, reviewable text: the header indented, then one line per step."""
    head = {k: v for k, v in data.items() if k not in ("steps", "final")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('  "steps": [')
    for i, step in enumerate(data["steps"]):
        comma = "," if i + 1 < len(data["steps"]) else ""
        lines.append("    " + json.dumps(step, sort_keys=True, separators=(",", ":")) + comma)
    lines.append("  ],")
    lines.append('  "final": ' + json.dumps(data["final"], sort_keys=True, separators=(",", ":")))
    lines.append("}")
    return "\n".join(lines) + "\n"


def first_difference(want: Any, got: Any, path: str = "") -> str | None:
    """The JSON path of the first difference between two JSON values, with both values."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            if key not in got or key not in want:
                return f"{path}.{key}: only in {'the file' if key in want else 'the engine'}"
            found = first_difference(want[key], got[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if want != got:
        return f"{path}: file has {json.dumps(want)}, engine gives {json.dumps(got)}"
    return None


HINT = " (if this change is intended, rerun with REGENT_UPDATE_GOLDEN=1 and review the diff)"


def replay_and_compare(golden: dict[str, Any]) -> None:
    """Replay the recorded actions; every recorded field must match the engine's."""
    n, seed = golden["num_players"], golden["seed"]
    rules = RulesConfig.from_json(golden["rules"])
    state = engine.new_game("royal_cities", num_players=n, seed=seed, rules=rules)
    policy = random.Random(seed)
    for recorded in golden["steps"]:
        where = f"{n} players, seed {seed}, step {recorded['step']}"
        assert not state.is_terminal(), f"{where}: the game ended early{HINT}"
        legal = state.legal_actions()
        got = {
            "step": recorded["step"],
            "player": state.current_player,
            "phase": state.phase,
            "legal": [state.action_to_string(a) for a in legal],
            "action": recorded["action"],
            "observations": [plain(state.observation(p)) for p in range(n)],
        }
        diff = first_difference(recorded, got, "step")
        assert diff is None, f"{where}: {diff}{HINT}"
        action = state.string_to_action(recorded["action"])
        assert action in legal, f"{where}: {recorded['action']!r} is not legal{HINT}"
        chosen = state.action_to_string(policy.choice(legal))
        assert chosen == recorded["action"], f"{where}: the policy now picks {chosen!r}{HINT}"
        state.apply_action(action)
    assert state.is_terminal(), f"{n} players, seed {seed}: the game goes on{HINT}"
    diff = first_difference(golden["final"], final_record(state), "final")
    assert diff is None, f"{n} players, seed {seed}: {diff}{HINT}"


@pytest.mark.parametrize(("name", "num_players", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_playthrough(name: str, num_players: int, seed: int) -> None:
    """The seeded game replays exactly as recorded: every action's text, every legal
    action list, every player's observation at every step, the final scores and returns.
    With REGENT_UPDATE_GOLDEN=1 the file is rewritten from the engine first."""
    path = GOLDEN_DIR / name
    if UPDATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(dump(record(num_players, seed)))
    assert path.exists(), f"{path} is missing: create it with REGENT_UPDATE_GOLDEN=1"
    golden = json.loads(path.read_text())
    assert (golden["num_players"], golden["seed"]) == (num_players, seed)
    assert golden["policy"] == f"random.Random({seed}).choice(state.legal_actions()) at every step"
    replay_and_compare(golden)


@pytest.mark.parametrize(("name", "num_players", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_file_is_canonical_and_small(name: str, num_players: int, seed: int) -> None:
    """The file is exactly what the writer produces from its own content (so diffs stay one
    line per step), holds every player's observation at every step, and stays under 3 MB."""
    path = GOLDEN_DIR / name
    text = path.read_text()
    assert len(text.encode()) < MAX_BYTES
    golden = json.loads(text)
    assert dump(golden) == text
    assert golden["steps"], "an empty game"
    for step in golden["steps"]:
        assert len(step["observations"]) == num_players
        assert [obs["observer"] for obs in step["observations"]] == list(range(num_players))
        assert step["action"] in step["legal"]


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
