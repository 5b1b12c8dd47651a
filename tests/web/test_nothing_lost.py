"""The hint page's way in and its games kept, in headless Chromium on a laptop and a phone
screen: the first screen (a first visit) starts a game at the deal, whose cards the player
taps in from the table until the page's position is the engine's own; every reset of a game
in progress (New game, another game or player count, Import, Open game, the review's Replay)
asks first with the page's own dialog, by keyboard too, and can be put back; a step taken
back can be put back; a game survives a reload and is saved to a file and opened from it.

Screenshots: tests/artifacts/web/<viewport>-lost-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2
from tests.support.web import ANSWERED, GatewayThread, set_up_by_hand
from tests.web.test_page import VIEWPORTS
from tests.web.test_review import BUDGET, settings
from tests.web.test_review import record as record  # the tournament fixture
from tests.web.test_review import reviewed as reviewed

STORE = "regent.hint.v1"
#: The seed of the deals entered: not the page's own (0, its cards taken off), and one whose
#: Royal Cities Market setup discarded cards.
SEED = 7


class Tab:
    """One browser tab on the page, its errors and the taps of the tests."""

    def __init__(self, page: Any, shots: Path, name: str) -> None:
        self.page = page
        self.shots = shots
        self.name = name
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on(
            "console",
            lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None,
        )

    def shot(self, step: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{self.name}-lost-{step}.png"), full_page=True)

    def stored(self) -> dict[str, Any]:
        return json.loads(self.page.evaluate(f"localStorage.getItem('{STORE}')"))

    def position(self) -> advisor_pb2.Observation:
        return json_format.ParseDict(self.stored()["observation"], advisor_pb2.Observation())

    def review(self) -> dict[str, Any]:
        """The game under review, as the page keeps it."""
        return json.loads(self.page.evaluate("localStorage.getItem('regent.review.v1')"))

    def steps(self) -> int:
        return self.page.eval_on_selector_all("#log li", "nodes => nodes.length")

    def settled(self, steps: int) -> None:
        """The log holds `steps` steps and the legal moves shown are the latest position's."""
        self.page.wait_for_function(
            f"n => document.querySelectorAll('#log li').length === n && {ANSWERED}", arg=steps
        )

    def start(self, game: str, players: int, seat: int) -> None:
        """The first screen's choices, then Start at the deal."""
        page = self.page
        page.wait_for_selector("#start-dialog[open]")
        page.check(f"#start-game-{game}")
        page.select_option("#start-players", str(players))
        page.select_option("#start-seat", str(seat))
        page.click("#start-deal")
        page.wait_for_selector("#deal-guide:not(.hidden)")

    def enter_citadels_deal(self, truth: Any) -> None:
        """Tap the districts of the seat's hand, the face-up characters and those it was
        handed (the engine's deal `truth`, in the page's JSON) as the deal's lines ask."""
        page = self.page
        view = truth["citadels"]
        page.click('[data-zone="hand"]')
        for district in view["players"][view.get("observer", 0)]["hand"]:
            name = district.removeprefix("CITADELS_DISTRICT_").lower().replace("_", "-")
            page.click(f'.deck-card[data-card="{name}"]')
        for character in view["draft"].get("face_up", []):
            page.click(f'[data-face-up="{_character(character)}"]')
        for character in view["draft"]["shown"][0]["characters"]:
            page.click(f'[data-shown="0-{_character(character)}"]')

    def enter(self, count: int) -> None:
        """`count` more steps: another player's first move as seen, or your first legal move."""
        page = self.page
        for _ in range(count):
            steps = self.steps()
            self.settled(steps)
            if page.is_visible("#follow"):
                page.click("#follow-moves [data-observed] >> nth=0")
            else:
                page.select_option("#other-moves", index=0)
                page.click("#played-other")
            self.settled(steps + 1)

    def game_in_progress(self) -> None:
        """Citadels, 4 players, from P1: the deal entered, then the four first picks."""
        self.start("citadels", 4, 0)
        self.enter_citadels_deal(_deal("citadels", 4, 0))
        self.enter(4)

    def confirm(self, yes: bool) -> None:
        """Answer the page's confirmation: Leave it, or Keep this game."""
        self.page.wait_for_selector("#confirm-dialog[open]")
        self.page.click("#confirm-ok" if yes else "#confirm-cancel")
        self.page.wait_for_selector("#confirm-dialog:not([open])", state="attached")

    def chosen(self, select: str, value: str) -> None:
        """Wait for the <select> `select` to show `value` (the page sets it back once the
        dialog's close event has run)."""
        self.page.wait_for_function(
            "([id, value]) => document.getElementById(id).value === value", arg=[select, value]
        )

    def review_count(self, start: str) -> None:
        """Wait for the Review panel's count to read `start`... (it is written once the
        confirmation's answer has reached the page's code, after the dialog closes)."""
        self.page.wait_for_function(
            "(start) => document.getElementById('review-count').textContent.startsWith(start)",
            arg=start,
        )

    def put_back(self, steps: int) -> None:
        self.page.click("#put-back")
        self.settled(steps)


def _character(value: str) -> str:
    return value.removeprefix("CITADELS_CHARACTER_").lower()


def _deal(game: str, players: int, seat: int) -> dict[str, Any]:
    """The engine's deal from SEED as the seat sees it, in the page's JSON."""
    observation = engine.new_game(game, players, SEED).observation(seat)
    return json_format.MessageToDict(
        observation_to_proto(observation), preserving_proto_field_name=True
    )


@pytest.fixture(params=list(VIEWPORTS))
def tab(request, browser, web: GatewayThread, artifacts: Path):
    """A first visit: a tab with nothing kept in the browser."""
    context = browser.new_context(viewport=VIEWPORTS[request.param], has_touch=True)
    page = context.new_page()
    page.goto(web.url + "/")
    page.evaluate("localStorage.clear()")
    page.reload()
    wrapped = Tab(page, artifacts, request.param)
    yield wrapped
    context.close()
    assert not wrapped.errors, wrapped.errors


# -- the way in -----------------------------------------------------------------------------


def test_the_first_screen_starts_royal_cities_at_the_setup_pass(tab: Tab) -> None:
    """Royal Cities, 2 players, seat P2: the deal's lines ask for the hand, the Market and
    the discard pile (no refusal while they are being entered); tapped in, the position is
    the engine's observation of that deal, and P1 is to pass."""
    page = tab.page
    page.wait_for_selector("#start-dialog[open]")
    for step in ("game", "players", "seat", "deal"):
        assert page.inner_text(f"#start-help-{step}"), step  # one line of help per step
    tab.shot("1-first-screen")
    tab.start("royal_cities", 2, 1)
    guide = page.eval_on_selector_all("#deal-guide li", "items => items.map(i => i.dataset.deal)")
    assert guide == ["hand", "market", "discard"]
    assert "0 of 3" in page.inner_text('#deal-guide [data-deal="hand"]')
    tab.settled(0)
    assert page.is_hidden("#problem")
    assert "deal" in page.inner_text("#legal")
    tab.shot("2-deal-to-enter")
    truth = _deal("royal_cities", 2, 1)
    view = truth["royal_cities"]
    for zone, cards in (("hand", view["players"][1]["hand"]), ("market", view["market"]),
                        ("discard", view.get("discard", []))):  # fmt: skip
        page.click(f'[data-zone="{zone}"]')
        for card in cards:
            colour = card["colour"].removeprefix("ROYAL_CITIES_COLOUR_").lower()
            page.click(f'.deck-card[data-card="{colour}-{card.get("value", 0)}"]')
    page.wait_for_selector('#deal-guide [data-deal="done"]')
    tab.settled(0)
    assert tab.position() == json_format.ParseDict(truth, advisor_pb2.Observation())
    assert page.is_hidden("#problem"), page.inner_text("#problem")
    assert "P1" in page.inner_text("#follow-title")
    tab.shot("3-deal-entered")


def test_the_first_screen_starts_citadels_at_the_first_pick(tab: Tab) -> None:
    """Citadels, 4 players, from P1 (the crown): hand, face-up characters and those shown
    tapped in, the position is the engine's and the first pick is yours; the first screen
    shows once, then New game brings it back."""
    page = tab.page
    tab.start("citadels", 4, 0)
    assert page.eval_on_selector_all(
        "#deal-guide li", "items => items.map(i => i.dataset.deal)"
    ) == ["hand", "face_up", "shown"]
    truth = _deal("citadels", 4, 0)
    tab.enter_citadels_deal(truth)
    page.wait_for_selector('#deal-guide [data-deal="done"]')
    tab.settled(0)
    assert tab.position() == json_format.ParseDict(truth, advisor_pb2.Observation())
    assert "Pick the " in page.inner_text("#legal")
    assert page.is_enabled("#hint")
    page.reload()
    # The restore is done once its notice shows; the log and the legal moves can read settled
    # before it on a busy machine, from the page as it was loaded.
    page.wait_for_function(
        "() => document.getElementById('notice').textContent"
        ".startsWith('Restored from this browser: Citadels')"
    )
    tab.settled(0)
    assert page.is_hidden("#start-dialog"), "a first screen on the first visit only"
    page.click("#new-game")  # no step entered: nothing to ask
    page.wait_for_selector("#start-dialog[open]")
    page.click("#start-cancel")
    assert tab.position() == json_format.ParseDict(truth, advisor_pb2.Observation())


# -- nothing lost ---------------------------------------------------------------------------


@pytest.mark.slow
def test_every_reset_asks_first_and_can_be_put_back(tab: Tab) -> None:
    page = tab.page
    tab.game_in_progress()
    before = tab.position()
    tab.shot("4-in-progress")

    # New game: the page's own dialog, answered by keyboard: Escape keeps the game ...
    page.click("#new-game")
    page.wait_for_selector("#confirm-dialog[open]")
    assert "4 steps" in page.inner_text("#confirm-text")
    assert page.evaluate("document.activeElement.id") == "confirm-cancel"
    tab.shot("5-asked")
    page.keyboard.press("Escape")
    page.wait_for_selector("#confirm-dialog:not([open])", state="attached")
    assert page.is_hidden("#start-dialog") and tab.steps() == 4
    # ... Tab then Enter leaves it: the first screen, a position set up by hand, Put back.
    page.click("#new-game")
    page.wait_for_selector("#confirm-dialog[open]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "confirm-ok"
    page.keyboard.press("Enter")
    set_up_by_hand(page, "royal_cities", 2)
    tab.settled(0)
    assert "set aside" in page.inner_text("#notice")
    tab.put_back(4)
    assert tab.position() == before

    # Another game, another player count: kept when the player says so, else put back.
    page.select_option("#game", "royal_cities")
    tab.confirm(False)
    tab.chosen("game", "citadels")  # the choice goes back to the game kept
    assert tab.steps() == 4
    page.select_option("#players", "5")
    tab.confirm(False)
    tab.chosen("players", "4")
    assert tab.steps() == 4
    page.select_option("#players", "5")
    tab.confirm(True)
    tab.settled(0)
    tab.put_back(4)
    assert tab.position() == before

    # Import over the game: asked after the file is read.
    page.click("#import")
    page.fill("#import-text", json.dumps(_deal("royal_cities", 2, 0)))
    page.click("#import-ok")
    tab.confirm(False)
    assert tab.steps() == 4 and tab.position() == before
    assert not page.is_visible("#problem")


@pytest.mark.slow
def test_steps_taken_back_and_hand_edits_can_be_put_back(tab: Tab) -> None:
    page = tab.page
    tab.game_in_progress()
    before = tab.position()
    decisions = tab.page.evaluate("JSON.parse(localStorage.getItem('regent.review.v1'))")
    page.click("#undo")
    tab.settled(3)
    page.click("#undo")
    tab.settled(2)
    tab.put_back(4)  # both steps
    assert tab.position() == before
    page.click('#log [data-back="0"]')  # back to the deal: your pick taken back too
    tab.settled(0)
    tab.put_back(4)
    assert tab.position() == before
    assert page.evaluate("JSON.parse(localStorage.getItem('regent.review.v1'))") == decisions
    # A hand edit starts a new log; the old one can be put back.
    page.click('[data-zone="hand"]')  # choosing a place is no edit
    assert tab.steps() == 4
    page.click('.deck-card[data-card="temple"]')
    tab.settled(0)
    assert "Edited by hand" in page.inner_text("#notice")
    tab.shot("6-edited")
    tab.put_back(4)
    assert tab.position() == before


@pytest.mark.slow
def test_a_game_survives_a_reload_and_a_file(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.game_in_progress()
    before = tab.position()
    log = page.inner_text("#log")
    page.reload()
    tab.settled(4)
    assert tab.position() == before and page.inner_text("#log") == log
    notice = page.inner_text("#notice")
    assert notice == "Restored from this browser: Citadels, 4 players, you are P1, 4 steps entered."

    with page.expect_download() as download:
        page.click("#save-game")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "regent.game.v1" and data["game"] == "citadels"
    assert json_format.ParseDict(data["position"], advisor_pb2.Observation()) == before
    assert len(data["log"]) == 4
    # The Review's own format: your decision (the first pick) as regent review --save-game
    # writes it, which the Review panel imports.
    assert len(data["observations"]) == len(data["moves"]) == 1
    assert data["moves"][0]["text"].startswith("pick ")

    page.click("#new-game")
    tab.confirm(True)
    set_up_by_hand(page, "royal_cities", 2)
    tab.settled(0)
    page.click("#review-forget")  # the review's decisions: asked first, then forgotten
    tab.confirm(True)
    tab.review_count("No moves recorded")
    page.set_input_files("#open-game-file", str(saved))  # nothing entered: not asked
    tab.settled(4)
    assert tab.position() == before and page.inner_text("#log") == log
    # The Review panel holds the opened game's decisions.
    tab.review_count("1 of your moves recorded")
    assert tab.review()["moves"] == data["moves"]
    assert page.inner_text("#notice").startswith("Opened game.json: Citadels, 4 players")
    tab.shot("7-opened")
    page.set_input_files("#open-game-file", str(saved))  # over a game in progress: asked
    tab.confirm(False)
    assert tab.steps() == 4

    page.set_input_files("#review-file", str(saved))
    page.wait_for_function(
        "() => document.getElementById('review-count').textContent.startsWith('1 ')"
    )
    review_only = tmp_path / "review.json"
    review_only.write_text(json.dumps({k: data[k] for k in ("observations", "moves")}))
    page.set_input_files("#open-game-file", str(review_only))
    page.wait_for_selector("#problem:not(.hidden)")
    assert "Review panel" in page.inner_text("#problem")
    assert tab.steps() == 4


@pytest.mark.slow
def test_replay_from_the_review_asks_first(tab: Tab, reviewed: tuple[Path, str]) -> None:
    """A game in progress, a finished game imported and reviewed: its Replay this position
    asks before it leaves the game, and the game can be put back."""
    page = tab.page
    tab.game_in_progress()
    before = tab.position()
    page.set_input_files("#review-file", str(reviewed[0]))
    settings(page, BUDGET)
    page.click("#review-start")
    page.wait_for_function(
        "() => document.getElementById('review-status').textContent.startsWith('Done')",
        timeout=120_000,
    )
    replay = page.locator("#review-mistakes > li [data-replay]").first
    replay.click()
    tab.confirm(False)
    assert tab.steps() == 4 and tab.position() == before
    replay.click()
    tab.confirm(True)
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('that decision')"
    )
    tab.settled(0)
    tab.shot("8-replayed")
    tab.put_back(4)
    assert tab.position() == before
