"""The hint page's HTTP/JSON gateway on a real socket, in front of a real server: every route,
the page's files, malformed and impossible input (HTTP 400 naming the field), unknown routes,
a busy or unreachable service, and a stopped Analyze freeing its search."""

from __future__ import annotations

import json
from http.client import HTTPConnection, HTTPResponse
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from google.protobuf import json_format

from convert import observation_to_proto
from search.games import default_bot
from tests.royal_cities.positions import position
from tests.support.random_games import terminal_position
from tests.support.server import RunningServer
from tests.support.web import GatewayThread, http
from tests.timing import SLACK

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "examples/royal-cities-2p.json").read_text()
)
BUDGET = {"iterations": 300, "threads": 1}


def _fields(answer) -> list[str]:
    return [f["field"] for f in answer.json["error"]["fields"]]


def _stream(web: GatewayThread, body: dict) -> HTTPResponse:
    """POST /api/analyze and return the open response, to read line by line."""
    parts = urlsplit(web.url)
    connection = HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request(
        "POST", "/api/analyze", json.dumps(body), {"Content-Type": "application/json"}
    )
    return connection.getresponse()


# -- the page's files ---------------------------------------------------------------------


def test_the_page_and_its_modules_are_served(web: GatewayThread) -> None:
    page = http(web.url + "/")
    assert page.status == 200 and b'type="module"' in page.raw
    for path in ("js/app.js", "js/api.js", "js/ui.js", "js/games/index.js",
                 "js/games/royal_cities.js", "js/games/citadels.js", "css/app.css"):  # fmt: skip
        answer = http(f"{web.url}/static/{path}")
        assert answer.status == 200, path
    assert "javascript" in http(web.url + "/static/js/app.js").headers["Content-Type"]
    assert http(web.url + "/static/js/nothing.js").status == 404


# -- each route ---------------------------------------------------------------------------


def test_games(web: GatewayThread) -> None:
    answer = http(web.url + "/api/games")
    assert answer.status == 200
    citadels, game = answer.json["games"]  # by name
    assert game["name"] == "royal_cities" and game["player_counts"] == [1, 2, 3, 4]
    assert citadels["name"] == "citadels" and citadels["player_counts"] == [2, 3, 4, 5, 6, 7]
    assert citadels["rules_options"][0]["name"] == "eight_districts"
    assert citadels["default_bots"]["4"] == default_bot("citadels", 4)


def test_legal_moves(web: GatewayThread) -> None:
    answer = http(web.url + "/api/legal-moves", {"observation": EXAMPLE})
    assert answer.status == 200
    assert answer.json["player"] == 1
    assert {"id": 56, "text": "add"} in answer.json["moves"]


def test_recommend(web: GatewayThread) -> None:
    answer = http(web.url + "/api/recommend", {"observation": EXAMPLE, "budget": BUDGET})
    assert answer.status == 200
    report = answer.json["report"]
    assert report["move"]["text"] in [m["move"]["text"] for m in report["moves"]]
    assert int(report["iterations"]) == 300
    assert all(0 <= m.get("win_chance", 0) <= 1 for m in report["moves"])


def test_analyze_streams_json_lines(web: GatewayThread) -> None:
    body = {"observation": EXAMPLE, "budget": {"iterations": 2000, "threads": 1}, "interval_ms": 20}
    response = _stream(web, body)
    assert response.status == 200
    assert response.getheader("Content-Type") == "application/x-ndjson"
    lines = [json.loads(line) for line in response.read().splitlines()]
    assert lines[-1]["final"] is True
    assert not any(line.get("final") for line in lines[:-1])
    assert int(lines[-1]["report"]["iterations"]) == 2000


def test_apply_move_asks_then_applies(web: GatewayThread) -> None:
    body = {"observation": EXAMPLE, "move": {"text": "add"}}
    first = http(web.url + "/api/apply-move", body)
    assert first.status == 200
    assert first.json["reveals"] == [
        {"place": "royal_cities.market",
         "description": "the card turned up from the draw pile for the Market"}
    ]  # fmt: skip
    assert "observation" not in first.json and "complete" not in first.json
    done = http(web.url + "/api/apply-move", {**body, "revealed": ["blue-6"]})
    assert done.status == 200 and done.json["complete"] is True
    market = done.json["observation"]["royal_cities"]["market"]
    assert {"colour": "ROYAL_CITIES_COLOUR_BLUE", "value": 6} in market


# -- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (b"{not json", "body", "is not JSON"),
        (b"[1, 2]", "body", "JSON object"),
        (b"\xff\xfe", "body", "is not JSON"),
        (b'{"observation": {"royal_cities": {"players": [{"vp": "many"}]}}}',
         "observation.royal_cities.players[0].vp", "an integer"),
        (b'{"observation": {"royal_cities": {"players": 3}}}',
         "observation.royal_cities.players", "a list"),
        (b'{"observation": {"royal_cities": {"market": [{"colour": "GOLD"}]}}}',
         "observation.royal_cities.market[0].colour", "ROYAL_CITIES_COLOUR_PURPLE"),
        (b'{"observation": {"royal_cities": {"decision": {"phase": "NOPE"}}}}',
         "observation.royal_cities.decision.phase", "must be one of"),
        (b'{"observation": {"royal_cities": {"players": [{}, {"hand": [{"valu": 2}]}]}}}',
         "observation.royal_cities.players[1].hand[0].valu", "no field"),
        (b'{"observation": {}}', "observation.game", "no game"),
        (b'{"colour": 1}', "colour", "no field"),
    ],
)  # fmt: skip
def test_malformed_bodies_name_the_field(web: GatewayThread, raw: bytes, field, words) -> None:
    answer = http(web.url + "/api/legal-moves", raw=raw, method="POST")
    assert answer.status == 400
    error = answer.json["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert _fields(answer) == [field]
    assert words in error["fields"][0]["description"]
    assert words in error["message"] or field in error["message"]


@pytest.mark.parametrize("route", ["/api/legal-moves", "/api/recommend", "/api/apply-move"])
def test_an_impossible_position_is_400_with_its_field(web: GatewayThread, route: str) -> None:
    state = position(cities={1: {"red": ["red-2"]}})
    observation = json_format.MessageToDict(
        observation_to_proto(state.observation(0)), preserving_proto_field_name=True
    )
    cities = observation["royal_cities"]["players"][1]["cities"]
    cities[3]["cards"].insert(0, {"colour": "ROYAL_CITIES_COLOUR_RED", "value": 5})
    extra = {"/api/recommend": {"budget": BUDGET}, "/api/apply-move": {"move": {"text": "add"}}}
    answer = http(web.url + route, {"observation": observation, **extra.get(route, {})})
    assert answer.status == 400
    assert _fields(answer) == ["observation.royal_cities.players[1].cities[3][1]"]
    assert "upwards" in answer.json["error"]["message"]


def test_analyze_refuses_before_streaming(web: GatewayThread) -> None:
    response = _stream(web, {"observation": {}, "budget": BUDGET})
    assert response.status == 400
    assert json.loads(response.read())["error"]["fields"][0]["field"] == "observation.game"


def test_a_refusal_carries_its_wording(web: GatewayThread) -> None:
    """The template and params the page words in its language (js/refusal.js), in the field
    it blames; beside the English text, which they fill the same way."""
    answer = http(web.url + "/api/legal-moves", {"observation": {}})
    (field,) = answer.json["error"]["fields"]
    assert field["template"] == "no game is set: set one of {games}"
    assert field["params"]["games"] in field["description"]
    answer = http(web.url + "/api/apply-move", {"observation": EXAMPLE, "move": {"text": "fly"}})
    (field,) = answer.json["error"]["fields"]
    assert field["field"] == "move.text" and "fly" in field["params"].values()


def test_a_bad_budget_and_a_bad_move(web: GatewayThread) -> None:
    answer = http(web.url + "/api/recommend", {"observation": EXAMPLE, "budget": {"seconds": -1}})
    assert answer.status == 400 and _fields(answer) == ["budget.seconds"]
    answer = http(web.url + "/api/apply-move", {"observation": EXAMPLE, "move": {"text": "fly"}})
    assert answer.status == 400 and _fields(answer) == ["move.text"]
    answer = http(
        web.url + "/api/apply-move",
        {"observation": EXAMPLE, "move": {"text": "add"}, "revealed": ["white-3", "x"]},
    )  # the white-3 lies in the Market: the table cannot turn it up
    assert answer.status == 400 and _fields(answer) == ["revealed[0]"]


def test_a_finished_game_is_409(web: GatewayThread) -> None:
    observation = json_format.MessageToDict(terminal_position(), preserving_proto_field_name=True)
    answer = http(web.url + "/api/recommend", {"observation": observation, "budget": BUDGET})
    assert answer.status == 409
    assert answer.json["error"]["code"] == "FAILED_PRECONDITION"


def test_unknown_routes_and_methods(web: GatewayThread) -> None:
    answer = http(web.url + "/api/nothing", {})
    assert answer.status == 404 and answer.json["error"]["code"] == "NOT_FOUND"
    answer = http(web.url + "/api/recommend")
    assert answer.status == 405 and answer.json["error"]["code"] == "METHOD_NOT_ALLOWED"
    assert http(web.url + "/nothing").status == 404


def test_an_oversized_body_is_413(web: GatewayThread) -> None:
    answer = http(web.url + "/api/legal-moves", raw=b" " * (300 * 1024), method="POST")
    assert answer.status == 413 and answer.json["error"]["code"] == "BODY_TOO_LARGE"


# -- the service behind -------------------------------------------------------------------


def test_an_unreachable_service_is_503() -> None:
    gateway = GatewayThread("127.0.0.1:9")  # the discard port: nothing listens
    try:
        answer = http(gateway.url + "/api/games")
        assert answer.status == 503
        assert answer.json["error"]["code"] == "UNAVAILABLE"
        assert "cannot be reached" in answer.json["error"]["message"]
        answer = http(gateway.url + "/api/legal-moves", {"observation": EXAMPLE})
        assert answer.status == 503
    finally:
        gateway.stop()


@pytest.mark.timing
def test_a_busy_service_is_429_and_a_closed_stream_frees_its_search(
    web: GatewayThread, service: RunningServer
) -> None:
    """The test server runs two searches at once: two open Analyze streams fill it; a third
    search is refused; closing the streams (a browser's abort) frees both."""
    service.wait_idle()
    long = {"observation": EXAMPLE, "budget": {"seconds": 30, "threads": 1}, "interval_ms": 50}
    streams = [_stream(web, long) for _ in range(2)]
    for stream in streams:
        assert stream.status == 200
        assert json.loads(stream.readline())["report"]
    assert service.server.slots.running == 2
    answer = http(web.url + "/api/recommend", {"observation": EXAMPLE, "budget": BUDGET})
    assert answer.status == 429
    assert answer.json["error"]["code"] == "RESOURCE_EXHAUSTED"
    for stream in streams:
        stream.close()
    service.wait_idle(SLACK)  # freed at the close, not at the end of their 30 s
