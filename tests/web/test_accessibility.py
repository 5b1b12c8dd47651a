"""The hint page for every hand and eye, in headless Chromium on a laptop and a phone screen
(issue 60, "Accessible" and the layout of finding 5):

- every visible control is a tap target of at least 44x44 CSS px on the phone (an input in a
  label: the label, which a tap on toggles it), in each state of the page: the setup of each
  game, a hint shown, the follow prompts (another player's moves, what the table showed), the
  review; a selected chip differs by more than a border (a fill and a check mark);
- axe-core (tests/web/package.json, installed here with `npm ci`; skipped without node and
  npm) reports no serious or critical violation in those states on either screen;
- on a laptop every control is reached by Tab, with a visible focus ring, a chip and a deck
  card are worked by Space and Enter, and the import dialog keeps the focus inside it;
- on a laptop the Hint panel never covers the Review; on a phone the current question and the
  Hint button stay in reach (a bar at the bottom of the screen), the log keeps its height;
- the win-chance bars share one track width, their fills ordered as their numbers; the cards
  a question offers keep their places, the used-up ones shown disabled;
- toggling a face-up character in Citadels takes it out of "Shown at your pick 1".

Screenshots: tests/artifacts/web/a11y-<viewport>-<state>.png.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.web import ANSWERED, GatewayThread
from tests.web.test_page import VIEWPORTS

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
TAP = 44

#: The controls a person taps; an input inside a label is tapped through its label.
TARGETS = """() => {
  const found = [];
  const controls = 'button, select, input, textarea, summary, a[href],'
    + ' [tabindex]:not([tabindex="-1"])';
  for (const node of document.querySelectorAll(controls)) {
    const target = node.matches('input') && node.closest('label') ? node.closest('label') : node;
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height || !node.checkVisibility({visibilityProperty: true})) continue;
    const name = node.id || node.dataset.card || node.dataset.observed || node.dataset.reveal
      || node.textContent.trim().slice(0, 30) || node.outerHTML.slice(0, 60);
    found.push({name, tag: node.tagName, width: box.width, height: box.height});
  }
  return found;
}"""


@pytest.fixture(scope="module")
def axe() -> str:
    """axe-core's script, installed from tests/web/package-lock.json when it is missing."""
    npm = shutil.which("npm")
    if not AXE.exists():
        if shutil.which("node") is None or npm is None:
            pytest.skip("Node.js (`node` and `npm`) is not installed: no axe-core to run")
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    return AXE.read_text()


class Tab:
    """One tab on the hint page with the checks of each state."""

    def __init__(self, page: Any, shots: Path, name: str, axe: str) -> None:
        self.page = page
        self.shots = shots
        self.name = name
        self.axe = axe
        self.errors: list[str] = []
        #: What the states checked so far found: too small a target, a serious violation.
        self.problems: list[tuple[str, Any]] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on(
            "console",
            lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None,
        )

    def dialogs(self, state: str | None = None) -> None:
        """Answer the first screen (set up by hand) and a question before leaving a game in
        progress (leave it), checked as a state of their own when `state` is given."""
        for dialog, answer in (
            ("#start-dialog", "#start-cancel"),
            ("#confirm-dialog", "#confirm-ok"),
        ):
            if self.page.locator(f"{dialog}[open]").count():
                if state:
                    self.check(f"{state}-{dialog[1:]}")
                self.page.click(answer)

    def settled(self) -> None:
        self.page.wait_for_function(
            f"() => !['…', ''].includes(document.getElementById('legal').textContent) && {ANSWERED}"
        )

    def shot(self, state: str) -> None:
        self.page.screenshot(path=str(self.shots / f"a11y-{self.name}-{state}.png"), full_page=True)

    def small_targets(self) -> list[dict[str, Any]]:
        return [
            t
            for t in self.page.evaluate(TARGETS)
            if t["width"] < TAP - 0.01 or t["height"] < TAP - 0.01
        ]

    def violations(self) -> list[str]:
        """axe-core's serious and critical violations of the page as it is now. The script is
        evaluated through the DevTools protocol, which the page's CSP does not govern (an
        injected <script> tag it would refuse)."""
        if not self.page.evaluate("() => typeof window.axe !== 'undefined'"):
            self.page.evaluate(self.axe)
        found = self.page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter(v => ['serious', 'critical'].includes(v.impact))"
            ".map(v => `${v.id} (${v.impact}): ${v.help}: `"
            " + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', '))"
        )
        return list(found)

    def check(self, state: str) -> None:
        """The state's screenshot; its tap targets (on a phone) and axe-core's verdict, kept
        in `problems` (every state is checked before the test says what it found)."""
        self.shot(state)
        if self.name == "phone":
            self.problems += [(state, target) for target in self.small_targets()]
        self.problems += [(state, violation) for violation in self.violations()]


@pytest.fixture(params=list(VIEWPORTS))
def tab(request, browser, web: GatewayThread, artifacts: Path, axe: str) -> Iterator[Tab]:
    context = browser.new_context(viewport=VIEWPORTS[request.param], has_touch=True)
    page = context.new_page()
    page.goto(web.url + "/")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#setup .deck-card")
    wrapped = Tab(page, artifacts, request.param, axe)
    page.wait_for_timeout(300)  # the first screen opens once the games are listed
    wrapped.dialogs("first")
    yield wrapped
    context.close()
    assert not wrapped.errors, wrapped.errors


def _game(tab: Tab, game: str, players: int) -> None:
    """A new position of `game` (leaving the one in progress)."""
    page = tab.page
    drawn = "() => document.getElementById('legal').dataset.rendered"
    for select, value in (("#game", game), ("#players", str(players))):
        if page.input_value(select) == value:
            continue
        before = page.evaluate(drawn)
        page.select_option(select, value)
        # A new position drawn, or first the question whether to leave the one in progress.
        page.wait_for_function(
            f"before => ({drawn})() !== before || document.querySelector('#confirm-dialog[open]')",
            arg=before,
        )
        tab.dialogs()
        page.wait_for_function(f"before => ({drawn})() !== before", arg=before)
    tab.settled()


@pytest.mark.slow
def test_every_state_has_large_targets_and_no_serious_violation(tab: Tab) -> None:
    page = tab.page
    _game(tab, "royal_cities", 2)
    page.click("#rules summary")
    tab.check("royal-cities-setup")
    _game(tab, "royal_cities", 1)
    tab.check("royal-cities-solo-setup")
    _game(tab, "citadels", 3)
    tab.check("citadels-3p-setup")
    _game(tab, "citadels", 4)
    page.select_option("#phase", "MAIN")
    tab.check("citadels-4p-turn-setup")
    page.select_option("#phase", "PICK")
    tab.settled()

    page.fill("#budget", "0")
    page.click("#hint")
    page.wait_for_function(
        "() => document.getElementById('search-status').textContent.startsWith('Done')"
    )
    tab.check("hint")
    assert page.get_attribute("#progress", "aria-valuenow") == "100"
    _bars_share_one_track(page)
    page.click('#moves [data-played="pick king"]')
    page.wait_for_selector("#follow:not(.hidden)")
    tab.settled()
    tab.check("follow")
    if tab.name == "phone":
        _the_question_in_reach(page)

    page.click(".review-settings summary")
    for field, value in {
        "review-iterations": "40",
        "review-deep": "80",
        "review-mistakes": "1",
    }.items():
        page.fill(f"#{field}", value)
    page.click("#review-start")
    page.wait_for_function(
        "() => document.getElementById('review-status').textContent.startsWith('Done')",
        timeout=120_000,
    )
    tab.check("review")
    if tab.name == "laptop":
        _hint_never_covers_the_review(page)

    _game(tab, "royal_cities", 2)
    page.select_option("#other-moves", "add")
    page.click("#played-other")
    page.wait_for_selector("#reveal:not(.hidden)")
    tab.check("reveal")
    recorded = json.loads(page.evaluate("localStorage.getItem('regent.review.v1')"))
    assert len(recorded["moves"]) == 1
    assert not tab.problems, "\n".join(map(str, tab.problems))


def _bars_share_one_track(page: Any) -> None:
    """Every alternative's bar has the same track; the fills are ordered as the numbers. Only
    the moves whose win chance is an estimate (the hint's show=5) have a bar."""
    unvalued = page.eval_on_selector_all(
        "#moves li[data-estimated='false']", "rows => rows.map(r => !!r.querySelector('.bar'))"
    )
    assert not any(unvalued), "a move whose win chance is no estimate has a bar"
    rows = page.eval_on_selector_all(
        "#moves li[data-estimated='true']",
        "rows => rows.map(r => [r.querySelector('.bar').getBoundingClientRect().width,"
        " r.querySelector('.bar > span').getBoundingClientRect().width,"
        " parseFloat(r.querySelector('.bar').getAttribute('aria-label').match(/[0-9.]+/)[0])])",
    )
    assert len(rows) >= 2
    tracks = {round(track, 1) for track, _, _ in rows}
    assert len(tracks) == 1, rows
    for track, fill, percent in rows:
        assert abs(fill - track * percent / 100) <= 0.01 * track + 1, rows
    values = page.eval_on_selector_all(
        "#moves .bar",
        "bars => bars.map(b => [b.getAttribute('role'), b.getAttribute('aria-valuemin'),"
        " b.getAttribute('aria-valuemax'), Number(b.getAttribute('aria-valuenow'))])",
    )
    assert [v[:3] for v in values] == [["meter", "0", "100"]] * len(rows)
    assert [v[3] for v in values] == [round(percent) for *_, percent in rows]
    by_number = sorted(rows, key=lambda r: r[2])
    assert [fill for _, fill, _ in by_number] == sorted(fill for _, fill, _ in rows)


def _the_question_in_reach(page: Any) -> None:
    """On a phone, scrolled anywhere, the bar at the bottom of the screen holds the current
    question and the Hint button; its Show button goes to the question."""
    height = page.viewport_size["height"]
    for y in (0, 2000, 100_000):
        page.evaluate("y => window.scrollTo(0, y)", y)
        box = page.locator("#dock").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5
        assert page.inner_text("#dock-text") == page.inner_text("#follow-title")
        assert page.is_visible("#dock-hint")
        # The moves to answer with are in the bar too.
        assert _dock_answers(page) == page.eval_on_selector_all(
            "#follow-moves button", "bs => bs.map(b => b.textContent)"
        )
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(HERE.parent / "artifacts" / "web" / "a11y-phone-dock.png"))
    page.click("#dock-go")
    page.wait_for_function(
        "() => { const r = document.getElementById('follow').getBoundingClientRect();"
        " return r.top > -1 && r.top < innerHeight; }"  # subpixel
    )


def _dock_answers(page: Any) -> list[str]:
    """The words of the answer buttons in the bar at the bottom of a phone's screen."""
    return page.eval_on_selector_all(
        "#dock-answers:not(.hidden) button", "bs => bs.map(b => b.textContent)"
    )


def test_a_phone_answers_the_question_from_the_bar(tab: Tab) -> None:
    """On a phone, with the page scrolled to its top: the card the table turned up and then
    another player's move are answered from the bar at the bottom of the screen."""
    if tab.name != "phone":
        pytest.skip("the bar is the phone's")
    page = tab.page
    _game(tab, "royal_cities", 2)
    page.select_option("#other-moves", "add")
    page.click("#played-other")
    page.wait_for_selector("#reveal:not(.hidden)")
    page.evaluate("window.scrollTo(0, 0)")
    offered = page.eval_on_selector_all(
        "#reveal button", "bs => bs.map(b => [b.textContent, b.disabled])"
    )
    assert _dock_answers(page) == [words for words, _ in offered]
    tab.check("dock-reveal")
    card = page.locator("#dock-answers button:not([disabled])").first
    assert card.is_visible() and card.bounding_box()["y"] > page.viewport_size["height"] / 2
    card.click()
    page.wait_for_selector("#follow:not(.hidden)")
    tab.settled()
    assert page.eval_on_selector_all("#log li", "li => li.length") == 1
    page.evaluate("window.scrollTo(0, 0)")
    moves = page.eval_on_selector_all(
        "#follow-moves button", "bs => bs.map(b => [b.textContent, b.dataset.observed])"
    )
    assert _dock_answers(page) == [words for words, _ in moves]
    page.locator("#dock-answers button").first.click()
    # The move entered, or first the card it turned up, answered from the bar too.
    page.wait_for_function(
        "() => document.querySelectorAll('#log li').length === 2"
        " || !document.getElementById('reveal').classList.contains('hidden')"
    )
    if page.is_visible("#reveal"):
        page.locator("#dock-answers button:not([disabled])").first.click()
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 2")
    assert not tab.problems, "\n".join(map(str, tab.problems))


def _hint_never_covers_the_review(page: Any) -> None:
    """On a laptop, at every scroll position, the Hint panel and the Review do not overlap."""
    total = page.evaluate("document.documentElement.scrollHeight")
    page.locator("#review-chart").scroll_into_view_if_needed()
    for y in [page.evaluate("scrollY"), *range(0, total, 250), total]:
        page.evaluate("y => window.scrollTo(0, y)", y)
        hint, review, chart = (
            page.locator(f"#{name}").bounding_box()
            for name in ("hint-panel", "review-panel", "review-chart")
        )
        assert hint and review and chart
        for other in (review, chart):
            apart = (
                hint["x"] + hint["width"] <= other["x"]
                or other["x"] + other["width"] <= hint["x"]
                or hint["y"] + hint["height"] <= other["y"]
                or other["y"] + other["height"] <= hint["y"]
            )
            assert apart, (y, hint, other)


def test_the_cards_a_question_offers_keep_their_places(tab: Tab) -> None:
    """The card to name: every kind in its place in the grid; once a kind is used up it is
    still there, disabled, and no other card moved."""
    page = tab.page
    _game(tab, "royal_cities", 2)

    def offered() -> dict[str, list[Any]]:
        page.select_option("#other-moves", "add")
        page.click("#played-other")
        page.wait_for_selector("#reveal:not(.hidden)")
        cards = page.eval_on_selector_all(
            "#reveal [data-reveal]",
            "bs => bs.map(b => { const r = b.getBoundingClientRect();"
            " return [b.dataset.reveal, Math.round(r.x), Math.round(r.y), b.disabled]; })",
        )
        page.click("#reveal-cancel")
        return {name: rest for name, *rest in cards}

    before = offered()
    kinds = page.eval_on_selector_all(".deck-card", "ts => ts.map(t => t.dataset.card)")
    assert list(before) == kinds and not any(disabled for *_, disabled in before.values())
    page.click('[data-zone="market"]')
    while page.is_enabled('.deck-card[data-card="purple-3"]'):
        page.click('.deck-card[data-card="purple-3"]')
    tab.settled()
    after = offered()
    tab.shot("used-up-card")
    assert after["purple-3"][2], "a used-up kind is shown disabled"
    assert {k: v[:2] for k, v in after.items()} == {k: v[:2] for k, v in before.items()}


def test_face_up_characters_update_what_you_were_shown(tab: Tab) -> None:
    """Citadels, 4 players, the first pick: the table's face-up characters tapped in take
    themselves out of "Shown at your pick 1", those tapped out go back in; a face-up character
    tapped into it is refused with the reason."""
    page = tab.page
    _game(tab, "citadels", 4)

    def shown() -> list[str]:
        return page.eval_on_selector_all(
            '[data-row="shown-0"] [aria-pressed="true"]', "cs => cs.map(c => c.textContent)"
        )

    for character in ("assassin", "thief", "magician", "bishop"):
        page.click(f'[data-face-up="{character}"]')
    tab.settled()
    assert [c.lstrip("✓ ") for c in shown()] == [
        "Assassin",
        "Thief",
        "King",
        "Merchant",
        "Architect",
    ]
    assert page.is_hidden("#problem"), page.inner_text("#problem")
    assert "Pick the Assassin" in page.inner_text("#legal")
    assert "Pick the Magician" not in page.inner_text("#legal")
    page.click('[data-shown="0-magician"]')
    page.wait_for_selector("#problem:not(.hidden)")
    problem = page.inner_text("#problem")
    assert "the Magician is face up, so it cannot be shown at your pick 1" in problem, problem
    tab.shot("face-up-refused")


#: Every control a person can use now (visible, enabled; of a group of radio buttons the
#: checked one, which Tab reaches), each marked with data-k for the walk below.
MARK_CONTROLS = """() => {
  const controls = 'button, select, input, textarea, summary, a[href]';
  let k = 0;
  const marked = [];
  for (const node of document.querySelectorAll(controls)) {
    if (node.disabled || node.closest('dialog:not([open])')) continue;
    if (node.matches('input[type="radio"]:not(:checked)')) continue;
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height || !node.checkVisibility({visibilityProperty: true})) continue;
    node.dataset.k = String(k++);
    marked.push(node.id || node.textContent.trim().slice(0, 30) || node.outerHTML.slice(0, 60));
  }
  return marked;
}"""

#: The focused control: its mark and whether it draws a focus ring.
FOCUSED = """() => {
  const node = document.activeElement;
  const style = getComputedStyle(node);
  const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  return [node.dataset.k ?? null, ring, node.closest('dialog') ? node.closest('dialog').id : null];
}"""


def test_the_keyboard_reaches_and_works_every_control(tab: Tab) -> None:
    """On a laptop: Tab reaches every control of a Citadels setup, each with a visible focus
    ring; Space toggles a character chip and Enter places a district, the focus staying on
    the control; the import dialog keeps the focus inside it until Escape."""
    if tab.name != "laptop":
        pytest.skip("the keyboard is the laptop's")
    page = tab.page
    _game(tab, "citadels", 4)
    controls = page.evaluate(MARK_CONTROLS)
    page.evaluate("document.activeElement.blur()")
    reached: set[str] = set()
    unringed: set[str] = set()
    for _ in range(len(controls) + 20):
        page.keyboard.press("Tab")
        k, ring, _ = page.evaluate(FOCUSED)
        if k is None:
            continue
        reached.add(k)
        if not ring:
            unringed.add(controls[int(k)])
    missed = [name for k, name in enumerate(controls) if str(k) not in reached]
    assert not missed, missed
    assert not unringed, sorted(unringed)
    page.evaluate("() => document.querySelectorAll('[data-k]').forEach(n => delete n.dataset.k)")

    chip = '[data-face-up="merchant"]'
    page.focus(chip)
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.querySelector('{chip}').ariaPressed === 'true'")
    assert page.evaluate(f"() => document.activeElement.matches('{chip}')")
    tab.settled()
    page.click('[data-zone="hand"]')
    page.focus('.deck-card[data-card="manor"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-zone-box="hand"] .placed[data-card="manor"]')
    assert page.evaluate("() => document.activeElement.dataset.card === 'manor'")
    tab.shot("keyboard")

    page.focus("#import")
    page.keyboard.press("Enter")
    page.wait_for_selector("#import-dialog[open]")
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUSED)[2] == "import-dialog", "the focus left the open dialog"
    page.keyboard.press("Escape")
    page.wait_for_selector("#import-dialog:not([open])", state="attached")
    assert page.evaluate("() => document.activeElement.id") == "import"
