"""The page's review in headless Chromium, on a laptop and a phone screen: a finished game of
a short tournament, written by `regent review --save-game` and imported, reviewed through
the gateway's /api/review; the chart and the mistakes list render, and the numbers are the
command line's for the same seeds and budgets (the chart's points the table's). A review can
be stopped (its search slot is freed). Screenshots: tests/artifacts/web/<viewport>-review-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clients.web.gateway import STREAMING
from tests.clients.test_review_command import record as record  # the tournament fixture
from tests.clients.test_review_command import regent
from tests.support.server import RunningServer
from tests.support.web import GatewayThread, http, set_up_by_hand
from tests.web.test_page import VIEWPORTS

BUDGET = {"review-iterations": "120", "review-deep": "400", "review-mistakes": "2",
          "review-seed": "5"}  # fmt: skip
FLAGS = ("--iterations", "120", "--deep-iterations", "400", "--mistakes", "2", "--seed", "5")


@pytest.fixture(scope="module")
def reviewed(record: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Game 0, seat 1 of the record (the random bot's, which the review flags): the game file
    the page imports, and the CLI's output."""
    out = tmp_path_factory.mktemp("review")
    game = out / "game.json"
    result = regent("review", str(record), "--index", "0", "--seat", "1", *FLAGS,
                    "--chart", str(out / "chart.png"), "--save-game", str(game),
                    timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return game, result.stdout


def cli_rows(output: str) -> list[tuple[int, str, float, float, float | None]]:
    """(number, move, win %, loss in points, noise in points or None unchecked) of the CLI's
    table."""
    rows = []
    for line in output.split("\n\n")[1].splitlines()[1:]:
        words = line.split()
        flagged = words[-1] == "*"
        words = words[:-1] if flagged else words
        noise = None if words[-1] == "-" else float(words[-1])
        rows.append((int(words[0]), " ".join(words[1:-3]), float(words[-3][:-1]),
                     float(words[-2]), noise))  # fmt: skip
    return rows


def cli_mistakes(output: str) -> list[tuple[int, float]]:
    """(decision, points lost) of the CLI's worst moments."""
    found = []
    for line in output.splitlines():
        if line.startswith("Decision "):
            number = int(line.split()[1].rstrip(":"))
            lost = float(line.rsplit(": ", 1)[1].split()[0])
            found.append((number, lost))
    return found


class Tab:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on(
            "console",
            lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None,
        )


@pytest.fixture(params=list(VIEWPORTS))
def tab(request, browser, web: GatewayThread, artifacts: Path):
    context = browser.new_context(viewport=VIEWPORTS[request.param], has_touch=True)
    page = context.new_page()
    page.goto(web.url + "/")
    page.evaluate("localStorage.clear()")
    page.reload()
    set_up_by_hand(page)  # a first visit: past the first screen
    page.wait_for_selector("#setup .deck-card")
    wrapped = Tab(page)
    wrapped.name = request.param
    wrapped.shots = artifacts
    yield wrapped
    context.close()
    assert not wrapped.errors, wrapped.errors


def settings(page: Any, values: dict[str, str]) -> None:
    page.click(".review-settings summary")
    for field, value in values.items():
        page.fill(f"#{field}", value)


def test_the_page_reviews_a_finished_game_as_the_cli_does(
    tab: Tab, reviewed: tuple[Path, str]
) -> None:
    game, output = reviewed
    page = tab.page
    page.set_input_files("#review-file", str(game))
    moves = len(json.loads(game.read_text())["moves"])
    page.wait_for_function(
        "n => document.getElementById('review-count').textContent.startsWith(n + ' ')",
        arg=moves,
    )
    settings(page, BUDGET)
    page.click("#review-start")
    page.wait_for_function(
        "() => document.getElementById('review-status').textContent.startsWith('Done')",
        timeout=120_000,
    )
    page.screenshot(path=str(tab.shots / f"{tab.name}-review-done.png"), full_page=True)

    rows = cli_rows(output)
    assert page.locator("#review-svg circle.dot").count() == len(rows)
    assert page.locator("#review-svg polyline.line").count() == 1
    shown = page.eval_on_selector_all(
        "#review-table tbody tr",
        "rows => rows.map(r => [Number(r.dataset.number), r.dataset.move,"
        " Number(r.dataset.win), Number(r.dataset.loss), Number(r.dataset.noise),"
        " r.dataset.checked === '1'])",
    )
    assert [(n, m) for n, m, *_ in shown] == [(n, m) for n, m, *_ in rows]
    for (_, _, win, loss, noise, checked), (_, _, cli_win, cli_loss, cli_noise) in zip(
        shown, rows, strict=True
    ):
        assert abs(100 * win - cli_win) <= 0.051 and abs(100 * loss - cli_loss) <= 0.051
        assert checked == (cli_noise is not None)
        assert cli_noise is None or abs(100 * noise - cli_noise) <= 0.051
    plotted = page.eval_on_selector_all(
        "#review-svg circle.dot",
        "dots => dots.map(d => [Number(d.dataset.number), Number(d.dataset.win)])",
    )
    assert plotted == [[n, win] for n, _, win, *_ in shown]

    mistakes = cli_mistakes(output)
    listed = page.eval_on_selector_all(
        "#review-mistakes > li",
        "items => items.map(i => [Number(i.dataset.number), Number(i.dataset.loss)])",
    )
    assert [n for n, _ in listed] == [n for n, _ in mistakes]
    for (_, loss), (_, cli_loss) in zip(listed, mistakes, strict=True):
        assert abs(100 * loss - cli_loss) <= 0.051
    assert page.locator("#review-svg circle.mistake").count() == len(mistakes) > 0
    first = page.locator("#review-mistakes > li").first
    assert first.locator("table.estimates tbody tr").count() >= 2
    assert first.locator("table.alternatives tbody tr").count() >= 2
    first.locator("[data-replay]").click()
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('that decision')"
    )
    page.wait_for_function(
        "() => !['…', ''].includes(document.getElementById('legal').textContent)"
    )
    assert page.is_hidden("#problem")
    page.screenshot(path=str(tab.shots / f"{tab.name}-review-replay.png"), full_page=True)


def test_a_review_can_be_stopped(
    tab: Tab, reviewed: tuple[Path, str], service: RunningServer
) -> None:
    page = tab.page
    page.set_input_files("#review-file", str(reviewed[0]))
    page.wait_for_function("() => !document.getElementById('review-start').disabled")
    settings(page, {"review-iterations": "60000"})
    page.click("#review-start")
    page.wait_for_selector("#review-stop:not(.hidden)")
    page.wait_for_selector("#review-svg circle.dot")
    page.click("#review-stop")
    page.wait_for_function(
        "() => document.getElementById('review-status').textContent.startsWith('Stopped')"
    )
    assert service.wait_idle() < 3.0
    assert page.is_hidden("#review-stop")


def test_forget_this_game_asks_first(tab: Tab, reviewed: tuple[Path, str]) -> None:
    """Forget this game discards the decisions only once the player said so."""
    page = tab.page
    page.set_input_files("#review-file", str(reviewed[0]))
    page.wait_for_function("() => !document.getElementById('review-start').disabled")
    count = page.inner_text("#review-count")
    page.click("#review-forget")
    page.wait_for_selector("#confirm-dialog[open]")
    assert "Forget this game?" in page.inner_text("#confirm-text")
    page.click("#confirm-cancel")
    page.wait_for_selector("#confirm-dialog:not([open])", state="attached")
    assert page.inner_text("#review-count") == count
    page.click("#review-forget")
    page.click("#confirm-ok")
    page.wait_for_function(
        "() => document.getElementById('review-count').textContent.startsWith('No moves')"
    )
    assert page.is_disabled("#review-start")


def test_the_review_route_checks_its_input(web: GatewayThread) -> None:
    assert "/api/review" in STREAMING
    answer = http(web.url + "/api/review", {"observations": [], "moves": []})
    assert answer.status == 400
    assert answer.json["error"]["fields"][0]["field"] == "observations"
    answer = http(web.url + "/api/review", {"observations": "x"})
    assert answer.status == 400
    assert answer.json["error"]["fields"][0]["field"] == "observations"
