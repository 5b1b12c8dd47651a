"""The hint page in French and English, in headless Chromium: a browser whose language is
French gets the page in French, one in English in English; every text the page shows (its
text nodes and aria-labels) comes from the catalogues (js/i18n.js keeps every text its `t`
returned when localStorage's "regent.i18n.audit" is set: a visible text that is neither
part of one of them nor made of them and signs fails the test), on the first screen, in the
setup of each game, its hint with the reasons (the line, the sentences, Citadels' table of
who probably holds which character) and over a few steps of each, on a laptop and a phone,
with axe-core's verdict (no serious or critical violation) in each language; the FR/EN
switch changes the language without losing the game in progress, and the choice is kept.

Screenshots: tests/artifacts/web/i18n-<language>-<viewport>-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.web import ANSWERED, GatewayThread, set_up_by_hand
from tests.web.test_accessibility import Tab as Checked
from tests.web.test_accessibility import axe as axe  # the fixture: axe-core's script
from tests.web.test_page import VIEWPORTS

LOCALES = {"fr": "fr-FR", "en": "en-US"}
#: What is no word: numbers, signs, the language switch's FR and EN.
UNTRANSLATED = r"^[\s\d.,:;()%×+−–—✓…·#/±?'\"\-]*$|^(FR|EN)$"
#: Every visible text node and aria-label that no text `t` returned contains.
STRAYS = """(neutral) => {
  const shown = window.regentI18n.shown();
  const words = new RegExp(neutral);
  const skip = 'script, style, code, .engine-text, [data-lang]';
  const found = new Set();
  // The longest first: a text shown is the catalogue's texts put together, and signs.
  const longest = shown.filter((s) => s.trim().length > 1).sort((a, b) => b.length - a.length);
  const check = (text, node) => {
    text = text.trim();
    if (!text || words.test(text) || node.closest(skip)) return;
    if (shown.some((s) => s.includes(text))) return;
    let rest = text;
    for (const s of longest) if (rest.includes(s)) rest = rest.split(s).join(' ');
    if (!words.test(rest.trim())) found.add(text);
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    const select = parent && parent.closest('select');
    if (!parent || !(select || parent).checkVisibility({visibilityProperty: true})) continue;
    check(n.textContent, parent);
  }
  for (const node of document.body.querySelectorAll('[aria-label]')) {
    if (!node.checkVisibility({visibilityProperty: true})) continue;
    check(node.getAttribute('aria-label'), node);
  }
  return [...found];
}"""
STORE = "regent.hint.v1"
#: The step entered, or a new question of what the table showed (not the one answered), or
#: a refusal.
ANSWERED_OR_ASKED = """n => {
  const reveal = document.getElementById('reveal');
  const asked = !reveal.classList.contains('hidden') && reveal.firstElementChild
    && !reveal.firstElementChild.dataset.asked;
  return document.querySelectorAll('#log li').length > n || asked
    || !document.getElementById('problem').classList.contains('hidden');
}"""


class Tab:
    """A tab on the page in one language, with the audit of its texts."""

    def __init__(self, page: Any, shots: Path, language: str) -> None:
        self.page = page
        self.shots = shots
        self.language = language
        self.screen = "laptop"
        self.errors: list[str] = []
        #: The texts shown that no catalogue gave, by the state they were seen in.
        self.strays: dict[str, list[str]] = {}
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or message.text.startswith("no "):
            self.errors.append(message.text)  # a CSP refusal, or a key with no text

    def audit(self, state: str) -> None:
        name = f"i18n-{self.language}-{self.screen}-{state}.png"
        self.page.screenshot(path=str(self.shots / name))
        found = self.page.evaluate(STRAYS, UNTRANSLATED)
        if found:
            self.strays[state] = found

    def settled(self) -> None:
        self.page.wait_for_function(
            f"() => !['…', ''].includes(document.getElementById('legal').textContent) && {ANSWERED}"
        )

    def hint(self, state: str, reasons: str) -> None:
        """A fast hint, audited once its final report drew its moves and its reasons (`reasons`
        a selector of the part this game's reasons must show)."""
        page = self.page
        page.fill("#budget", "0")
        page.click("#hint")
        page.wait_for_selector("#moves li")
        page.wait_for_selector("#stop", state="hidden")
        page.wait_for_selector(reasons)
        assert page.locator("#line").count()
        self.audit(state)

    def steps(self) -> int:
        return self.page.eval_on_selector_all("#log li", "nodes => nodes.length")

    def enter(self, count: int, state: str) -> None:
        """`count` more steps, as the table shows them: another player's first move, or your
        own first legal move; a card or an answer the move showed, the first one offered.
        Each step's page is audited."""
        page = self.page
        for _ in range(count):
            steps = self.steps()
            self.settled()
            if page.is_visible("#follow"):
                page.click("#follow-moves [data-observed] >> nth=0")
            else:
                page.select_option("#other-moves", index=0)
                page.click("#played-other")
            for _ in range(12):  # what the table showed, one answer at a time
                page.wait_for_function(ANSWERED_OR_ASKED, arg=steps)
                if not page.is_visible("#reveal") or self.steps() > steps:
                    break
                self.audit(f"{state}-{steps}-reveal")
                page.evaluate(
                    "document.getElementById('reveal').firstElementChild.dataset.asked = '1'"
                )
                done = page.locator("#reveal #builds-done")  # the cards built: none
                offered = "#reveal [data-reveal]:not([disabled]), #reveal [data-option]"
                (done if done.count() else page.locator(offered).first).click()
            page.wait_for_function(
                "n => document.querySelectorAll('#log li').length > n", arg=steps
            )
            self.settled()
            self.audit(f"{state}-{steps + 1}")


@pytest.fixture(params=[(lang, screen) for lang in LOCALES for screen in VIEWPORTS], ids="-".join)
def tab(request, browser, web: GatewayThread, artifacts: Path) -> Iterator[Tab]:
    """A first visit by a browser in French or in English, on a laptop or a phone (whose
    bottom bar repeats the question's words and answers), the audit on."""
    language, screen = request.param
    context = browser.new_context(
        viewport=VIEWPORTS[screen], locale=LOCALES[language], has_touch=True
    )
    page = context.new_page()
    page.add_init_script("localStorage.setItem('regent.i18n.audit', '1')")
    page.goto(web.url + "/")
    page.evaluate("localStorage.clear()")
    page.reload()
    wrapped = Tab(page, artifacts, language)
    wrapped.screen = screen
    yield wrapped
    context.close()
    assert not wrapped.errors, wrapped.errors


@pytest.mark.slow
def test_every_text_shown_is_from_the_catalogue(tab: Tab, axe: str) -> None:
    """Each state's texts, and (axe-core, as tests/web/test_accessibility.py runs it) no
    serious or critical violation in the language's setups and hint."""
    page = tab.page
    checked = Checked(page, tab.shots, tab.screen, axe)
    violations: list[tuple[str, str]] = []
    page.wait_for_selector("#start-dialog[open]")
    page.wait_for_function("() => document.getElementById('start-games').children.length")
    assert page.evaluate("document.documentElement.lang") == tab.language
    heading = {"fr": "Une nouvelle partie", "en": "A new game"}[tab.language]
    assert page.inner_text("#start-title") == heading
    tab.audit("first-screen")
    # The audit sees a text that is no catalogue's (a stray added for the check, then gone).
    page.evaluate(
        "() => document.getElementById('start-title').append("
        "Object.assign(document.createElement('span'), {id: 'stray', textContent: ' Hello'}))"
    )
    assert page.evaluate(STRAYS, UNTRANSLATED) == ["Hello"]
    page.evaluate("document.getElementById('stray').remove()")

    set_up_by_hand(page, "citadels", 4)
    tab.settled()
    page.click("#rules summary")
    tab.audit("citadels-setup")
    violations += [("citadels-setup", v) for v in checked.violations()]
    tab.hint("citadels-hint", "#beliefs")
    violations += [("citadels-hint", v) for v in checked.violations()]
    tab.enter(5, "citadels")

    page.click("#new-game")
    page.click("#confirm-ok")
    set_up_by_hand(page, "royal_cities", 2)
    tab.settled()
    page.click("#rules summary")
    tab.audit("royal-cities-setup")
    tab.hint("royal-cities-hint", "#reason-list li")
    violations += [("royal-cities-hint", v) for v in checked.violations()]
    tab.enter(4, "royal-cities")
    assert not tab.strays, json.dumps(tab.strays, indent=1, ensure_ascii=False)
    assert not violations, violations


def test_the_switch_changes_the_language_and_keeps_the_game(tab: Tab) -> None:
    """From the browser's language to the other one and back: the game in progress, its log
    and the review's decisions as they were, every text in the language chosen, the choice
    kept over a reload."""
    page = tab.page
    other = "en" if tab.language == "fr" else "fr"
    set_up_by_hand(page, "royal_cities", 2)
    tab.enter(3, "before-switch")
    before = (page.evaluate(f"localStorage.getItem('{STORE}')"), tab.steps())
    review = page.inner_text("#review-count")
    page.click(f"#lang-{other}")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=other)
    tab.settled()
    assert page.get_attribute(f"#lang-{other}", "aria-pressed") == "true"
    assert page.inner_text("#hint-panel h2") == {"fr": "Conseil", "en": "Hint"}[other]
    assert (page.evaluate(f"localStorage.getItem('{STORE}')"), tab.steps()) == before
    assert page.inner_text("#review-count") != review
    tab.language = other
    tab.audit("switched")
    page.reload()
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=other)
    tab.settled()
    assert tab.steps() == before[1]
    tab.audit("reloaded")
    assert not tab.strays, json.dumps(tab.strays, indent=1, ensure_ascii=False)
