"""The hint's reasons on the page, in headless Chromium on a laptop and a phone: a hint in an
imported Royal Cities and Citadels position shows the best move's line with who plays each
step, a sentence per reason, and (Citadels) the table of who probably holds which character,
its rows only characters the player cannot place (the service gives no others; the page adds
none), with axe-core's verdict on it.

Screenshots of the advice: tests/artifacts/web/<viewport>-reasons-<example>.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.example_files import EXAMPLES, rendering
from tests.web.test_accessibility import Tab as Checked
from tests.web.test_accessibility import axe as axe  # the fixture: axe-core's script
from tests.web.test_page import Page
from tests.web.test_page import tab as tab  # the fixture: a fresh tab on each viewport

EXAMPLE = {p.stem: p for p in EXAMPLES}
#: The citadels-4p example's observer (P3) picked the Thief; the Bishop and the Architect
#: are face up: the characters it can place.
PLACED = {"thief", "bishop", "architect"}
TEXTS = "nodes => nodes.map(n => n.textContent)"
CHARACTERS = {"assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"}


def _hint(tab: Page, example: str, axe: str) -> Any:
    """The example imported and a fast hint asked; its reasons drawn, axe-core clean."""
    page = tab.page
    page.click("#import")
    page.fill("#import-text", rendering(EXAMPLE[example], "as-written"))
    page.click("#import-ok")
    tab.legal()
    page.fill("#budget", "0")
    page.click("#hint")
    page.wait_for_selector("#reasons")
    page.wait_for_selector("#stop", state="hidden")
    shot = tab.shots / f"{tab.name}-reasons-{example}.png"
    page.locator("#advice").screenshot(path=str(shot))
    assert not Checked(page, tab.shots, tab.name, axe).violations()
    return page


def _sentences(page: Any) -> list[str]:
    return page.eval_on_selector_all("#reason-list li", TEXTS)


@pytest.mark.slow
def test_royal_cities_hint_with_its_reasons(tab: Page, axe: str) -> None:
    page = _hint(tab, "royal-cities-2p", axe)
    line = page.inner_text("#line")
    assert line.startswith("Likely line: you: "), line
    assert page.inner_text("#recommendation") in line
    sentences = _sentences(page)
    assert sentences[0].startswith("You expect ") and sentences[0].endswith(" VP at the end")
    assert all(s.startswith("You keep the majority in ") for s in sentences[1:]), sentences
    assert page.locator("#beliefs").count() == 0  # no hidden roles


@pytest.mark.slow
def test_citadels_hint_with_its_reasons_and_beliefs(tab: Page, axe: str) -> None:
    page = _hint(tab, "citadels-4p", axe)
    line = page.inner_text("#line")
    assert line.startswith("Likely line: you: "), line
    sentences = _sentences(page)
    assert sentences[0].startswith("You expect ") and sentences[0].endswith(" points at the end")
    assert all(s.startswith("You fear the ") for s in sentences[1:]), sentences
    assert page.inner_text("#beliefs caption") == "Who probably holds which character"
    columns = page.eval_on_selector_all("#beliefs thead th", TEXTS)
    assert columns == ["Character", "P1", "P2", "P4", "nobody"]
    rows = page.eval_on_selector_all(
        "#beliefs tbody tr",
        "rows => rows.map(r => [r.dataset.item, [...r.cells].slice(1).map(c => c.textContent)])",
    )
    # Every character the player cannot place, and none it can (its own pick, the face up).
    assert {item for item, _ in rows} == CHARACTERS - PLACED
    names = page.eval_on_selector_all("#beliefs tbody th", TEXTS)
    assert not {"Thief", "Bishop", "Architect"} & set(names), names
    for item, cells in rows:
        shares = [int(c.rstrip("%")) for c in cells]
        assert len(shares) == 4 and abs(sum(shares) - 100) <= 2, (item, cells)
