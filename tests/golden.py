"""Golden playthroughs for every game: whole seeded games, pinned step by step.

A file records one game dealt by `new_game(game, n, seed=seed)` with the default rules
and played by a seeded random policy: one `random.Random(seed)` whose
`.choice(state.legal_actions())` picks every action. For every step it stores

* `player`, `phase`: who decides, and what;
* `legal`: the text of every legal action, in id order;
* `action`: the text of the action the policy chose;
* `observations`: the observation JSON of *every* player before the action;

and at the end the final observations of every player, the scores and the returns.

Replaying compares everything and reports the first difference (step, player, JSON path);
the policy, run afresh, must still choose the recorded actions, so a change in the set or
order of legal actions shows too. Any intended change to the rules, the deal or the
observation format changes the files: regenerate them with `REGENT_UPDATE_GOLDEN=1` and
review the diff (one line per step).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import engine
from engine.jsonview import first_difference

UPDATE = os.environ.get("REGENT_UPDATE_GOLDEN", "") not in ("", "0")
MAX_BYTES = 3 * 1024 * 1024


def plain(obs: Any) -> Any:
    """An observation as JSON text reads back (lists, not tuples)."""
    return json.loads(json.dumps(obs.to_json()))


def record(game: str, num_players: int, seed: int) -> dict[str, Any]:
    """Play the golden game with default rules and record it (format: see the docstring)."""
    rules = engine.game(game).rules_class()
    state = engine.new_game(game, num_players=num_players, seed=seed, rules=rules)
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
        "game": game,
        "num_players": num_players,
        "seed": seed,
        "rules": rules.to_json(),
        "policy": f"random.Random({seed}).choice(state.legal_actions()) at every step",
        "steps": steps,
        "final": final_record(state),
    }


def final_record(state: engine.State) -> dict[str, Any]:
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


#: One step of a JSON path as `engine.jsonview.first_difference` writes it: `.key` or `[i]`.
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_ABSENT = object()


def _at(value: Any, path: str) -> Any:
    """The value at `path` (its first name, the root's, left out), or _ABSENT."""
    for key, index in _STEP.findall(path):
        if key:
            if not isinstance(value, dict) or key not in value:
                return _ABSENT
            value = value[key]
        else:
            value = value[int(index)]
    return value


def difference(want: Any, got: Any, root: str) -> str | None:
    """The first difference between the file's JSON value `want` and the engine's `got`
    (named `root`): its path, by the engine's own `first_difference`, with both values."""
    path = first_difference(got, want, root)
    if path is None:
        return None
    in_file, in_engine = _at(want, path[len(root) :]), _at(got, path[len(root) :])
    if in_file is _ABSENT or in_engine is _ABSENT:
        return f"{path}: only in {'the file' if in_engine is _ABSENT else 'the engine'}"
    return f"{path}: file has {json.dumps(in_file)}, engine gives {json.dumps(in_engine)}"


HINT = " (if this change is intended, rerun with REGENT_UPDATE_GOLDEN=1 and review the diff)"


def replay_and_compare(golden: dict[str, Any]) -> None:
    """Replay the recorded actions; every recorded field must match the engine's."""
    game, n, seed = golden["game"], golden["num_players"], golden["seed"]
    rules = engine.game(game).rules_class.from_json(golden["rules"])
    state = engine.new_game(game, num_players=n, seed=seed, rules=rules)
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
        diff = difference(recorded, got, "step")
        assert diff is None, f"{where}: {diff}{HINT}"
        action = state.string_to_action(recorded["action"])
        assert action in legal, f"{where}: {recorded['action']!r} is not legal{HINT}"
        chosen = state.action_to_string(policy.choice(legal))
        assert chosen == recorded["action"], f"{where}: the policy now picks {chosen!r}{HINT}"
        state.apply_action(action)
    assert state.is_terminal(), f"{n} players, seed {seed}: the game goes on{HINT}"
    diff = difference(golden["final"], final_record(state), "final")
    assert diff is None, f"{n} players, seed {seed}: {diff}{HINT}"


def check_golden_file(path: Path, game: str, num_players: int, seed: int) -> dict[str, Any]:
    """(Re)write the file if asked, check it is canonical, complete and small, and return it."""
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(dump(record(game, num_players, seed)))
    assert path.exists(), f"{path} is missing: create it with REGENT_UPDATE_GOLDEN=1"
    text = path.read_text()
    assert len(text.encode()) < MAX_BYTES
    golden = json.loads(text)
    assert dump(golden) == text
    assert (golden["game"], golden["num_players"], golden["seed"]) == (game, num_players, seed)
    assert golden["policy"] == f"random.Random({seed}).choice(state.legal_actions()) at every step"
    assert golden["steps"], "an empty game"
    for step in golden["steps"]:
        assert [obs["observer"] for obs in step["observations"]] == list(range(num_players))
        assert step["action"] in step["legal"]
    return golden
