"""The gateway's /api/deal: a new game at the deal as one seat sees it (the engine's own
observation, so nothing hidden from the seat), and INVALID_ARGUMENT naming the field for a
request it cannot deal."""

from __future__ import annotations

from google.protobuf import json_format

import engine
from clients.web.gateway import STREAMING, UNARY
from convert import observation_to_proto
from regent.v1 import advisor_pb2
from tests.support.web import GatewayThread, http


def test_the_deal_route_checks_its_input(web: GatewayThread) -> None:
    answer = http(web.url + "/api/deal", {"game": "citadels", "num_players": 4, "seat": 2})
    assert answer.status == 200
    view = answer.json["observation"]["citadels"]
    assert view["observer"] == 2 and len(view["players"][2]["hand"]) == 4
    assert all("hand" not in p for q, p in enumerate(view["players"]) if q != 2), "hidden"
    for body, field in (
        ({"game": "chess", "num_players": 2, "seat": 0}, "game"),
        ({"game": "citadels", "num_players": 9, "seat": 0}, "num_players"),
        ({"game": "citadels", "num_players": 4, "seat": 4}, "seat"),
        ({"game": "citadels", "num_players": 4, "seat": "x"}, "seat"),
        ({"game": "citadels", "num_players": 4, "seat": 0, "seed": -1}, "seed"),
    ):
        answer = http(web.url + "/api/deal", body)
        assert answer.status == 400, body
        assert answer.json["error"]["code"] == "INVALID_ARGUMENT"
        assert answer.json["error"]["fields"][0]["field"] == field
    assert "/api/deal" not in STREAMING and "/api/deal" not in UNARY  # no call of the service


def test_the_deal_is_the_engines_from_its_seed(web: GatewayThread) -> None:
    """The seed as a number or as protobuf JSON's decimal text: the engine's deal from it."""
    truth = observation_to_proto(engine.new_game("royal_cities", 2, 5).observation(1))
    for seed in (5, "5"):
        body = {"game": "royal_cities", "num_players": 2, "seat": 1, "seed": seed}
        answer = http(web.url + "/api/deal", body)
        assert answer.status == 200
        dealt = json_format.ParseDict(answer.json["observation"], advisor_pb2.Observation())
        assert dealt == truth
