"""The table drawn on the hint page (issue 60, "The table, drawn"), in headless Chromium: the
first moves of seeded games followed through the page as a person at the table enters them
(tests/web/test_follow.py's Table), and after every move the picture itself, as drawn, shows
what the engine's observation for that seat holds: each seat's VP or gold, hand size (your
cards face up; of another's, the cards you know it holds face up and the rest face down),
Cities or city, the Market row and the discard pile, the Season or the round, the crown and
the characters known to be each player's, the draft's face-up characters. The picture fits a
phone's width, its seats side by side on a laptop; a tap on a place of it makes it the place
tapped cards go.

Screenshots: tests/artifacts/web/table-<game>-<viewport>.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from convert import observation_to_proto
from tests.follow_table import follow_game
from tests.support.web import GatewayThread
from tests.web.test_follow import _in_process, open_at_deal

#: (game, players, seed, seat, viewport, moves followed): long enough for Royal Cities' setup
#: pass, first builds and turns, and Citadels' draft and first turns.
GAMES = [
    ("royal_cities", 2, 1, 0, "phone", 24),
    ("royal_cities", 1, 3, 0, "laptop", 12),
    ("citadels", 4, 3, 1, "laptop", 30),
]

#: Royal Cities' Cities in the proto's order (the deck's colours but white).
CITIES = ("purple", "yellow", "pink", "red", "blue", "green")
#: What the picture shows, read off the page: every seat's panel and the middle of the table.
PICTURE = """() => {
  const cards = (root) => root
    ? [...root.querySelectorAll('.placed')].map(n => n.dataset.card) : null;
  const text = (root, selector) => {
    const n = root.querySelector(selector);
    return n ? n.textContent : null;
  };
  const seats = [...document.querySelectorAll('#setup .seat')].map(s => ({
    seat: s.dataset.seat,
    score: text(s, 'output[id^="vp-"], output[id^="gold-"]'),
    hand: text(s, 'output[id^="hand-"], output[id^="hand_size-"]'),
    face_down: s.querySelectorAll('.backs .back').length,
    known: [...s.querySelectorAll('.other-hand .known')].map(n => n.dataset.card).sort(),
    face_up: cards(s.querySelector('[data-zone-box="hand"]')),
    cities: [...s.querySelectorAll('.city')].map(c => [c.dataset.city, cards(c)]),
    city: cards(s.querySelector('[data-zone-box^="city:"]')),
    crown: s.querySelector('[data-crown][aria-pressed="true"]') !== null,
    characters: [...s.querySelectorAll('.characters-held [data-character]')]
      .map(c => c.dataset.character),
  }));
  const middle = document.querySelector('#setup .table-middle');
  return {
    seats,
    market: cards(middle.querySelector('[data-zone-box="market"]')),
    discard: cards(middle.querySelector('[data-zone-box="discard"]')),
    season: text(middle, '#season'),
    round: text(middle, '#round'),
    face_up: [...middle.querySelectorAll('.draft [data-character]')].map(c => c.dataset.character),
  };
}"""


def _name(value: str, prefix: str) -> str:
    """An enum value of the proto JSON as the page names it ("ROYAL_CITIES_COLOUR_RED" -> "red")."""
    return value.removeprefix(prefix).lower().replace("_", "-")


def _card(card: dict[str, Any]) -> str:
    return f"{_name(card['colour'], 'ROYAL_CITIES_COLOUR_')}-{card.get('value', 0)}"


def _district(value: str) -> str:
    return _name(value, "CITADELS_DISTRICT_")


def _character(value: str) -> str:
    return _name(value, "CITADELS_CHARACTER_")


def _royal_cities(view: dict[str, Any], me: int) -> dict[str, Any]:
    """What the picture must show of a Royal Cities observation (proto JSON)."""

    def cities(owner: dict[str, Any]) -> list[list[Any]]:
        return [
            [colour, [_card(c) for c in city.get("cards", [])]]
            for colour, city in zip(CITIES, owner["cities"], strict=True)
        ]

    seats = []
    for q, player in enumerate(view["players"]):
        size = player.get("hand_size", 0)
        seats.append({
            "seat": str(q), "score": str(player.get("vp", 0)), "hand": str(size),
            "face_down": 0 if q == me else min(size - len(player.get("hand", [])), 12),
            "known": [] if q == me else sorted(_card(c) for c in player.get("hand", [])),
            "face_up": sorted(_card(c) for c in player.get("hand", [])) if q == me else None,
            "cities": cities(player), "city": None, "crown": False, "characters": [],
        })  # fmt: skip
    if "regent" in view:
        regent = view["regent"]
        seats.append({
            "seat": "regent", "score": str(regent.get("vp", 0)), "hand": None, "face_down": 0,
            "known": [],
            "face_up": None, "cities": cities(regent), "city": None, "crown": False,
            "characters": [],
        })  # fmt: skip
    return {
        "seats": seats,
        "market": sorted(_card(c) for c in view.get("market", [])),
        "discard": sorted(_card(c) for c in view.get("discard", [])),
        "season": str(view.get("season", 0)),
        "round": None,
        "face_up": [],
    }


def _citadels(view: dict[str, Any], me: int) -> dict[str, Any]:
    """What the picture must show of a Citadels observation (proto JSON): another player's
    characters only once the observation holds them (revealed), yours as your picks."""
    order = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    draft = view.get("draft", {})
    seats = []
    for q, player in enumerate(view["players"]):
        size = player.get("hand_size", 0)
        held = draft.get("picks", []) if q == me else player.get("characters", [])
        seats.append({
            "seat": str(q), "score": str(player.get("gold", 0)), "hand": str(size),
            "face_down": 0 if q == me else min(size - len(player.get("hand", [])), 12),
            "known": [] if q == me else sorted(_district(d) for d in player.get("hand", [])),
            "face_up": sorted(_district(d) for d in player.get("hand", [])) if q == me else None,
            "cities": [], "city": [_district(d) for d in player.get("city", [])],
            "crown": view.get("crown", 0) == q,
            "characters": sorted(map(_character, held), key=order.index),
        })  # fmt: skip
    return {
        "seats": seats,
        "market": None,
        "discard": None,
        "season": None,
        "round": str(view.get("round", 1)),
        "face_up": [_character(c) for c in draft.get("face_up", [])],
    }


def _drawn(page: Any) -> dict[str, Any]:
    """The picture as drawn, the hands and piles sorted (a table's piles have no order the
    observation keeps), the Cities in the order built."""
    seen = page.evaluate(PICTURE)
    for seat in seen["seats"]:
        if seat["face_up"] is not None:
            seat["face_up"] = sorted(seat["face_up"])
    for pile in ("market", "discard"):
        if seen[pile] is not None:
            seen[pile] = sorted(seen[pile])
    return seen


EXPECTED = {"royal_cities": _royal_cities, "citadels": _citadels}


@pytest.mark.parametrize(("game", "players", "seed", "seat", "viewport", "moves"), GAMES)
def test_the_table_drawn_is_the_engines_observation(
    browser, web: GatewayThread, artifacts: Path, game, players, seed, seat, viewport, moves
) -> None:
    context, page, table = open_at_deal(browser, web, game, players, seed, seat, viewport)

    def check(view: Any, truth: Any, request: Any) -> None:
        table.enter(request, count=True)
        table.steps += 1
        table.settled(table.steps)
        true = json_format.MessageToDict(
            observation_to_proto(truth), preserving_proto_field_name=True
        )[game]
        expected = EXPECTED[game](true, seat)
        drawn = _drawn(page)
        assert drawn == expected, f"after {request.move.text} (step {table.steps})"

    follow_game(game, players, seed, seat, _in_process, check, steps=moves)
    assert table.steps >= moves // 2
    page.screenshot(path=str(artifacts / f"table-{game}-{viewport}.png"), full_page=True)
    # Nothing runs past a phone's edge; on a laptop the seats sit side by side.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    tops = page.eval_on_selector_all(
        "#setup .seat", "ss => ss.map(s => Math.round(s.getBoundingClientRect().top))"
    )
    assert (tops[0] == tops[1]) == (viewport == "laptop"), tops

    # A tap on a place of the picture, off its cards, makes it where tapped cards go.
    place = "market" if game == "royal_cities" else f"city:{(seat + 1) % players}"
    before = page.inner_text("#target")
    page.click(f'[data-zone-box="{place}"]', position={"x": 4, "y": 4})
    page.wait_for_selector(f'[data-zone="{place}"][aria-pressed="true"]')
    assert page.inner_text("#target") != before
    assert page.eval_on_selector_all('[data-zone][aria-pressed="true"]', "ps => ps.length") == 1
    assert page.eval_on_selector_all("#log li", "li => li.length") == table.steps, "no edit"
    context.close()
    assert not table.errors, table.errors


@pytest.mark.parametrize(("game", "players"), [("royal_cities", 2), ("citadels", 4)])
def test_on_a_wide_laptop_the_cards_stay_beside_the_table(
    browser, web: GatewayThread, artifacts: Path, game: str, players: int
) -> None:
    """At 1400 px and more the cards to tap sit between the table and the Hint panel, in
    view (most of them) while half the screen or more shows the table; on a narrower laptop
    they follow the table."""
    context, page, _ = open_at_deal(browser, web, game, players, 3, 0, "laptop")

    def box(selector: str) -> dict[str, float]:
        found = page.locator(selector).bounding_box()
        assert found, selector
        return found

    table, picker = box("#setup .table"), box("#setup > .picker")
    assert picker["y"] >= table["y"] + table["height"]  # 1280 px: below the table
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(100)
    end = page.evaluate(
        "document.querySelector('#setup .table').getBoundingClientRect().bottom + scrollY"
    )
    for y in range(0, int(end), 200):
        page.evaluate("y => window.scrollTo(0, y)", y)
        table, picker, hint = box("#setup .table"), box("#setup > .picker"), box("#hint-panel")
        assert (
            table["x"] + table["width"] <= picker["x"] <= picker["x"] + picker["width"] <= hint["x"]
        )
        height = page.viewport_size["height"]
        if table["y"] + table["height"] > height / 2:  # half the screen or more shows the table
            seen = min(picker["y"] + picker["height"], height) - max(picker["y"], 0)
            assert seen >= 0.8 * picker["height"], (y, table, picker)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"table-{game}-wide.png"), full_page=True)
    tops = page.eval_on_selector_all(
        "#setup .seat", "ss => ss.map(s => Math.round(s.getBoundingClientRect().top))"
    )
    assert tops[0] == tops[1], tops
    context.close()
