"""The gateway with Citadels observations: every route, a malformed and an impossible
position (HTTP 400 naming the field), and ApplyMove asking for the districts drawn."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from google.protobuf import json_format

import engine
from convert import observation_to_proto
from tests.support.web import GatewayThread, http

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "examples/citadels-4p.json").read_text()
)
BUDGET = {"iterations": 300, "threads": 1}


def _fields(answer) -> list[str]:
    return [f["field"] for f in answer.json["error"]["fields"]]


def _resource_turn() -> tuple[engine.State, dict]:
    """A 3-player game at a turn's start, as the player to act sees it (protobuf JSON)."""
    state = engine.new_game("citadels", 3, seed=11)
    rng = random.Random(11)
    while state.phase != "resource":
        state.apply_action(rng.choice(state.legal_actions()))
    message = observation_to_proto(state.observation(state.current_player))
    return state, json_format.MessageToDict(message, preserving_proto_field_name=True)


def test_legal_moves_recommend_and_analyze(web: GatewayThread) -> None:
    legal = http(web.url + "/api/legal-moves", {"observation": EXAMPLE})
    assert legal.status == 200
    assert legal.json["player"] == EXAMPLE["citadels"]["observer"]
    texts = [m["text"] for m in legal.json["moves"]]
    assert "end turn" in texts
    answer = http(web.url + "/api/recommend", {"observation": EXAMPLE, "budget": BUDGET})
    assert answer.status == 200
    assert answer.json["report"]["move"]["text"] in texts
    answer = http(
        web.url + "/api/analyze",
        {"observation": EXAMPLE, "budget": BUDGET, "interval_ms": 20},
    )
    lines = [json.loads(line) for line in answer.raw.splitlines()]
    assert lines[-1]["final"] is True and int(lines[-1]["report"]["iterations"]) == 300


def test_apply_move_asks_for_the_districts_drawn(web: GatewayThread) -> None:
    state, observation = _resource_turn()
    body = {"observation": observation, "move": {"text": "cards"}}
    first = http(web.url + "/api/apply-move", body)
    assert first.status == 200, first.json
    assert [slot["place"] for slot in first.json["reveals"]] == ["citadels.decision.drawn"] * 2
    assert "drew" in first.json["reveals"][0]["description"]
    assert "observation" not in first.json
    # The table's two cards: kinds the observer holds none of, so some copy is hidden.
    placed = observation["citadels"]["players"][state.current_player].get("hand", [])
    names = [n for n in ("tavern", "watchtower", "castle", "church")
             if f"CITADELS_DISTRICT_{n.upper()}" not in placed][:2]  # fmt: skip
    done = http(web.url + "/api/apply-move", {**body, "revealed": names})
    assert done.status == 200, done.json
    assert done.json.get("complete") is True, (names, done.json)
    after = done.json["observation"]["citadels"]
    assert sorted(after["decision"]["drawn"]) == sorted(
        f"CITADELS_DISTRICT_{n.upper()}" for n in names
    )
    assert after["decision"]["phase"] == "CITADELS_PHASE_KEEP"


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (b'{"observation": {"citadels": {"players": [{"hand": ["CITADELS_DISTRICT_GOLD"]}]}}}',
         "observation.citadels.players[0].hand", "CITADELS_DISTRICT_MANOR"),
        (b'{"observation": {"citadels": {"players": [{}, {"hand": [99]}]}}}',
         "observation.citadels.players[1].hand[0]", "no district has number 99"),
        (b'{"observation": {"citadels": {"draft": {"picks": [0]}}}}',
         "observation.citadels.draft.picks[0]", "no character has number 0"),
        (b'{"observation": {"citadels": {"decision": {"phase": "CITADELS_PHASE_NAP"}}}}',
         "observation.citadels.decision.phase", "must be one of"),
    ],
)  # fmt: skip
def test_malformed_citadels_bodies_name_the_field(web: GatewayThread, raw, field, words) -> None:
    answer = http(web.url + "/api/legal-moves", raw=raw, method="POST")
    assert answer.status == 400
    assert answer.json["error"]["code"] == "INVALID_ARGUMENT"
    assert _fields(answer) == [field]
    assert words in answer.json["error"]["fields"][0]["description"]


@pytest.mark.parametrize("route", ["/api/legal-moves", "/api/recommend", "/api/apply-move"])
def test_an_impossible_citadels_position_is_400(web: GatewayThread, route: str) -> None:
    observation = json.loads(json.dumps(EXAMPLE))
    city = observation["citadels"]["players"][1]["city"]
    city.append(city[0])  # a second copy of a district in one city
    observation["citadels"]["players"][1]["builtRounds"].append(1)
    extra = {
        "/api/recommend": {"budget": BUDGET},
        "/api/apply-move": {"move": {"text": "end turn"}},
    }
    answer = http(web.url + route, {"observation": observation, **extra.get(route, {})})
    assert answer.status == 400
    assert _fields(answer) == [f"observation.citadels.players[1].city[{len(city) - 1}]"]
    assert "at most" in answer.json["error"]["message"]
