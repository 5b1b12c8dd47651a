"""The hint page end to end in headless Chromium, on a laptop and on a phone screen: the
rulebook's scoring example set up by tapping, a hint with its alternatives, "I played it"
with the card the table turned up, a reload, a stopped search, an impossible position.

Screenshots of every step: tests/artifacts/web/<viewport>-<step>.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from clients.web.guard import WebOptions
from regent.v1 import advisor_pb2
from tests.example_files import EXAMPLES, parsed, rendering
from tests.royal_cities.test_rulebook_examples import ELOISE, WILL
from tests.support.server import RunningServer
from tests.support.web import ANSWERED, GatewayThread, http, set_up_by_hand

VIEWPORTS = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
#: Eloise's turn at the start of the Season after the scoring example: her hand and the Market.
HAND = ["yellow-2", "pink-5", "white-4"]
MARKET = ["purple-6", "yellow-5", "red-3", "blue-5"]
#: An example of each game, to import: Citadels first, as a tab opens on Royal Cities.
IMPORTED = [p for p in EXAMPLES if p.stem in ("citadels-4p", "royal-cities-2p")]


class Page:
    """One browser tab on the hint page, with the taps a player makes."""

    def __init__(self, page: Any, shots: Path, name: str) -> None:
        self.page = page
        self.shots = shots
        self.name = name
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        """The page's CSP refuses inline scripts and styles: Chromium says so on the console."""
        if "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def ready(self) -> None:
        """Wait for the setup editor: the page draws it once the service listed the games."""
        self.page.wait_for_selector("#setup .deck-card")

    def shot(self, step: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{self.name}-{step}.png"), full_page=True)

    def zone(self, zone: str) -> None:
        self.page.click(f'[data-zone="{zone}"]')

    def tap(self, card: str, city: str | None = None) -> None:
        self.page.click(f'.deck-card[data-card="{card}"]')
        if card.startswith("white") and city:
            self.page.click(f'#white-city [data-city="{city}"]')

    def cities(self, player: int, spec: dict[str, list[str]]) -> None:
        self.zone(f"cities:{player}")
        for city, cards in spec.items():
            for card in cards:
                self.tap(card, city)

    def legal(self) -> str:
        """The engine's verdict on the position drawn last (the page marks which position
        its answer is for: a slow answer to an earlier one is not taken for it)."""
        self.page.wait_for_function(
            f"() => !['…', ''].includes(document.getElementById('legal').textContent) && {ANSWERED}"
        )
        return self.page.inner_text("#legal")

    def status_starts(self, text: str) -> None:
        """Wait for the search status line to start with `text`."""
        self.page.wait_for_function(
            "text => document.getElementById('search-status').textContent.startsWith(text)",
            arg=text,
        )

    def placed(self, zone: str) -> list[str]:
        return self.page.eval_on_selector_all(
            f'[data-zone-box="{zone}"] .placed', "nodes => nodes.map(n => n.dataset.card)"
        )


def _royal_cities(page: Any) -> None:
    """A new two-player Royal Cities position, chosen on the first screen (a first visit)."""
    set_up_by_hand(page, "royal_cities", 2)
    page.wait_for_selector('[data-zone="cities:1"]')


@pytest.fixture(params=list(VIEWPORTS))
def tab(request, browser, web: GatewayThread, artifacts: Path):
    """A fresh tab on a new two-player Royal Cities position."""
    context = browser.new_context(viewport=VIEWPORTS[request.param], has_touch=True)
    page = context.new_page()
    page.goto(web.url + "/")
    page.evaluate("localStorage.clear()")
    page.reload()
    _royal_cities(page)
    wrapped = Page(page, artifacts, request.param)
    yield wrapped
    context.close()
    assert not wrapped.errors, wrapped.errors


def _set_up_scoring_example(tab: Page) -> None:
    """Eloise (P1, the observer) and Will (P2) with the Cities of the rulebook's scoring
    example, tapped card by card; Eloise's hand and the Market for her turn."""
    tab.cities(0, ELOISE)
    tab.cities(1, WILL)
    tab.zone("hand")
    for card in HAND:
        tab.tap(card)
    tab.zone("market")
    for card in MARKET:
        tab.tap(card)


@pytest.mark.slow
def test_hint_and_i_played_it(tab: Page, service: RunningServer) -> None:
    page = tab.page
    tab.shot("1-empty")
    _set_up_scoring_example(tab)
    assert tab.placed("cities:1") == ["purple-3", "yellow-3", "red-2", "white-3", "red-5",
                                      "blue-3", "blue-4", "green-0", "green-6"]  # fmt: skip
    assert tab.placed("hand") == HAND
    # A coloured card already placed twice is gone from the deck.
    assert page.is_disabled('.deck-card[data-card="purple-3"]') is False
    assert page.is_disabled('.deck-card[data-card="green-0"]')
    legal = tab.legal()
    assert "Add a card to the Market" in legal and "Buy from the Market" in legal
    assert page.is_hidden("#problem")
    tab.shot("2-scoring-example")

    page.fill("#budget", "0")  # fast
    page.click("#hint")
    page.wait_for_selector("#recommendation")
    tab.status_starts("Done")
    moves = page.eval_on_selector_all("#moves li", "rows => rows.map(r => r.dataset.move)")
    assert len(moves) > 3 and "add" in moves
    recommended = page.inner_text("#recommendation")
    assert recommended
    assert "win" in page.inner_text("#moves") and "sims" in page.inner_text("#moves")
    # The service's hint shows five moves' win chances (show=5); the rest are listed without.
    valued = page.eval_on_selector_all("#moves li", "rows => rows.map(r => r.dataset.estimated)")
    assert valued[:5] == ["true"] * min(5, len(valued)) and set(valued[5:]) <= {"false"}
    tab.shot("3-hint")

    page.click('#moves [data-played="add"]')
    page.wait_for_selector("#reveal:not(.hidden)")
    assert "Market" in page.inner_text("#reveal")
    # Cards already on the table cannot be the one turned up: shown in their place, disabled.
    assert page.is_disabled('#reveal [data-reveal="green-0"]')
    tab.shot("4-which-card")
    page.click('#reveal [data-reveal="green-6"]')
    page.wait_for_selector("#reveal.hidden", state="attached")
    assert tab.placed("market") == [*MARKET, "green-6"]
    assert "P2 is to act" in page.inner_text("#notice")
    assert "P2 is to act" in tab.legal()
    tab.shot("5-played")

    page.reload()
    tab.ready()
    assert tab.placed("market") == [*MARKET, "green-6"], "the position survives a reload"
    assert tab.placed("cities:0") == [c for cards in ELOISE.values() for c in cards]
    # Back to Eloise: Will added the blue-6 (a Revolt is not reached in row 2).
    tab.zone("market")
    tab.tap("blue-6")
    page.select_option("#to-act", "0")
    assert "Add a card to the Market" in tab.legal()
    tab.shot("6-next-turn")

    page.fill("#budget", "2")  # deep: long enough to stop
    page.click("#hint")
    page.wait_for_selector("#stop:not(.hidden)")
    page.wait_for_selector("#recommendation")
    page.click("#stop")
    tab.status_starts("Stopped")
    assert service.wait_idle(timeout=3) < 3, "stopping frees the search"
    tab.shot("7-stopped")


def test_an_impossible_position_says_what_and_where(tab: Page) -> None:
    page = tab.page
    tab.cities(1, {"red": ["red-5", "red-2"]})  # a City goes upwards from the bottom
    page.wait_for_selector("#problem:not(.hidden)")
    problem = page.inner_text("#problem")
    assert "cannot happen" in problem
    assert "P2's Red City, card 2 from the bottom" in problem
    assert "upwards" in problem
    assert page.is_disabled("#hint")
    tab.shot("8-impossible")
    page.click('[data-zone-box="cities:1"] .placed[data-card="red-2"]')  # take it back
    page.wait_for_selector("#problem.hidden", state="attached")
    assert page.is_enabled("#hint")


def test_the_access_token_from_the_address(browser, service: RunningServer, artifacts) -> None:
    """A gateway that asks for a token: the page opened with the printed address moves the
    token out of the address bar into the tab, and every call carries it, after a reload
    too; a tab without it says to open the printed address."""
    gateway = GatewayThread(service.address, WebOptions(token="browser-test-token"))
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True)
    try:
        tab = Page(context.new_page(), artifacts, "phone-token")
        tab.page.goto(gateway.gateway.access.url)
        tab.legal()  # the engine answered
        assert tab.page.is_hidden("#problem"), tab.page.inner_text("#problem")
        assert tab.page.url == gateway.url + "/", "the token left the address bar"
        tab.page.reload()
        _royal_cities(tab.page)
        tab.cities(1, {"red": ["red-5", "red-2"]})  # a call that the service must answer
        tab.page.wait_for_selector("#problem:not(.hidden)")
        assert "upwards" in tab.page.inner_text("#problem")
        tab.shot("token-kept")
        stranger = Page(context.new_page(), artifacts, "phone-no-token")
        stranger.page.goto(gateway.url + "/")
        stranger.page.wait_for_selector("#problem:not(.hidden)")
        assert "access token" in stranger.page.inner_text("#problem")
        stranger.shot("token-missing")
        assert not tab.errors + stranger.errors
    finally:
        context.close()
        gateway.stop()


# -- Citadels -----------------------------------------------------------------------------


def _citadels(tab: Page, players: int) -> None:
    tab.page.select_option("#game", "citadels")
    tab.page.select_option("#players", str(players))


def test_citadels_draft_hint_and_i_played_it(tab: Page) -> None:
    """A new Citadels position is the first pick of round 1: the engine's moves, a hint,
    and the pick played (the others' picks stay theirs)."""
    page = tab.page
    _citadels(tab, 4)
    legal = tab.legal()
    assert "Pick the King" in legal and "Pick the Assassin" not in legal  # face up
    tab.shot("citadels-1-draft")
    page.fill("#budget", "0")
    page.click("#hint")
    page.wait_for_selector("#recommendation")
    tab.status_starts("Done")
    assert page.inner_text("#recommendation").startswith("Pick the ")
    page.click('#moves [data-played="pick king"]')
    page.wait_for_selector("#notice:not(.hidden)")
    assert "P2 is to act" in page.inner_text("#notice")
    assert page.get_attribute('[data-pick="king"]', "aria-pressed") == "true"
    tab.shot("citadels-2-picked")


def test_citadels_turn_set_up_by_tapping(tab: Page) -> None:
    """After the draft: your pick revealed, districts in hand and cities, gold; the engine
    offers the builds; drawing asks for the two districts the table dealt."""
    page = tab.page
    _citadels(tab, 4)
    page.select_option("#phase", "MAIN")
    page.click('[data-pick="king"]')
    page.select_option("#revealed-king", "0")
    page.select_option("#called", "CITADELS_CHARACTER_KING")
    tab.zone("hand")
    for name in ("manor", "castle", "temple"):
        tab.page.click(f'.deck-card[data-card="{name}"]')
    tab.zone("city:0")
    tab.page.click('.deck-card[data-card="palace"]')
    tab.page.click('.deck-card[data-card="dragon-gate"]')
    tab.zone("city:2")
    tab.page.click('.deck-card[data-card="market"]')
    page.click('[data-step="gold-0+"]')
    page.click('[data-step="gold-0+"]')
    legal = tab.legal()
    assert "Build Castle (4 gold)" in legal and "Collect income" in legal
    assert page.is_hidden("#problem")
    assert tab.placed("hand") == ["manor", "castle", "temple"]
    assert tab.placed("city:2") == ["market"]
    tab.shot("citadels-3-turn")

    page.select_option("#phase", "RESOURCE")
    page.select_option("#called", "CITADELS_CHARACTER_KING")
    assert "Draw districts" in tab.legal()
    page.select_option("#other-moves", "cards")
    page.click("#played-other")
    page.wait_for_selector("#reveal:not(.hidden)")
    assert "drew" in page.inner_text("#reveal")
    assert page.is_disabled('#reveal [data-reveal="dragon-gate"]')  # in a city
    tab.shot("citadels-4-which-districts")
    page.click('#reveal [data-reveal="tavern"]')
    page.wait_for_selector("#reveal >> text=(card 2)")  # the second question, not the first
    page.wait_for_selector('#reveal [data-reveal="prison"]')
    page.click('#reveal [data-reveal="prison"]')
    page.wait_for_selector("#reveal.hidden", state="attached")
    assert tab.placed("drawn") == ["tavern", "prison"]
    assert "Keep Tavern" in tab.legal()
    tab.shot("citadels-5-drawn")


def test_an_impossible_citadels_position_says_what_and_where(tab: Page) -> None:
    page = tab.page
    _citadels(tab, 5)
    tab.zone("city:1")
    tab.page.click('.deck-card[data-card="manor"]')
    tab.page.click('.deck-card[data-card="manor"]')
    page.wait_for_selector("#problem:not(.hidden)")
    problem = page.inner_text("#problem")
    assert "cannot happen" in problem and "P2's city, district 2" in problem
    assert "at most" in problem
    assert page.is_disabled("#hint")
    tab.shot("citadels-6-impossible")
    page.click('[data-zone-box="city:1"] .placed[data-card="manor"]')
    page.wait_for_selector("#problem.hidden", state="attached")


# -- every game ---------------------------------------------------------------------------


def test_a_new_deck_holds_the_card_tables_copies(tab: Page, web: GatewayThread) -> None:
    """The deck the page draws is the service's card table: at a new position of each game,
    one tile per kind, in kind order, with all its copies left."""
    games = http(web.url + "/api/games").json["games"]
    assert {g["name"] for g in games} >= {"royal_cities", "citadels"}
    for info in games:
        tab.page.select_option("#game", info["name"])
        first = info["cards"][0]["name"]
        tab.page.wait_for_selector(f'.deck-card:first-child[data-card="{first}"]')
        tiles = tab.page.eval_on_selector_all(
            ".deck-card", "ts => ts.map(t => [t.dataset.card, t.querySelector('.left').innerText])"
        )
        assert tiles == [[card["name"], f"×{card['copies']}"] for card in info["cards"]]
        assert tab.page.inner_text("#game option:checked") == info["title"]
        tab.legal()  # a new position the engine takes
        assert tab.page.is_hidden("#problem"), tab.page.inner_text("#problem")
        tab.shot(f"new-{info['name']}")


@pytest.mark.parametrize("form", ["as-written", "proto-names"])
def test_import_reads_either_form_of_an_example(tab: Page, form: str) -> None:
    """Import takes an observation file as any protobuf library writes it: the examples as
    written (lowerCamelCase) and with the .proto's field names give the same position."""
    page = tab.page
    for path in IMPORTED:  # each switches the game, which shows that the import is done
        expected = parsed(path)
        page.click("#import")
        page.fill("#import-text", rendering(path, form))
        page.click("#import-ok")
        game = expected.WhichOneof("game")
        page.wait_for_function("id => document.getElementById('game').value === id", arg=game)
        assert page.inner_text("#notice") == "Imported."
        tab.legal()  # a position the engine takes
        assert page.is_hidden("#problem"), page.inner_text("#problem")
        saved = page.evaluate("JSON.parse(localStorage.getItem('regent.hint.v1')).observation")
        assert json_format.ParseDict(saved, advisor_pb2.Observation()) == expected
        tab.shot(f"import-{path.stem}-{form}")
