"""The gateway's route to ApplyObservedMove: the moves another player may be making, a move
applied once the table's card is given, refusals with the field, and the same guard as every
other route (a cross-origin POST never reaches the service)."""

from __future__ import annotations

from google.protobuf import json_format

from convert import observation_to_proto
from tests.royal_cities.positions import position
from tests.support.web import GatewayThread, http

MARKET = ["purple-3", "yellow-4", "red-1", "blue-2"]
ROUTE = "/api/apply-observed-move"


def _p1_turn() -> dict:
    state = position(market=MARKET, player=1, hands={0: ["pink-2"]}, hidden_hands={1: 3})
    return json_format.MessageToDict(
        observation_to_proto(state.observation(0)), preserving_proto_field_name=True
    )


def test_observed_moves_then_a_move_with_the_card_shown(web: GatewayThread) -> None:
    observation = _p1_turn()
    legal = http(web.url + "/api/legal-moves", {"observation": observation})
    texts = [m["text"] for m in legal.json["observed_moves"]]
    assert "add" in texts and "play hand ?" in texts and "moves" not in legal.json
    body = {"observation": observation, "player": 1, "move": {"text": "add"}}
    first = http(web.url + ROUTE, body)
    assert first.status == 200 and "observation" not in first.json
    assert first.json["reveals"][0]["place"] == "royal_cities.market"
    done = http(web.url + ROUTE, {**body, "revealed": ["green-6"]})
    assert done.status == 200 and done.json["complete"] is True
    market = done.json["observation"]["royal_cities"]["market"]
    assert {"colour": "ROYAL_CITIES_COLOUR_GREEN", "value": 6} in market


def test_refusals_name_the_field(web: GatewayThread) -> None:
    body = {"observation": _p1_turn(), "player": 0, "move": {"text": "add"}}
    answer = http(web.url + ROUTE, body)
    assert answer.status == 400
    assert [f["field"] for f in answer.json["error"]["fields"]] == ["player"]
    answer = http(web.url + ROUTE, {**body, "player": 1, "revealed": ["gold-9"]})
    assert [f["field"] for f in answer.json["error"]["fields"]] == ["revealed[0]"]


def test_a_cross_origin_post_is_refused(web: GatewayThread) -> None:
    body = {"observation": _p1_turn(), "player": 1, "move": {"text": "add"}}
    answer = http(web.url + ROUTE, body, headers={"Origin": "http://evil.example"})
    assert answer.status == 403
