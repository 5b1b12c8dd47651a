"""Whole games followed through the hint page in headless Chromium, on a laptop and a phone
screen: seeded games of heuristic bots whose every move is entered from one seat as a person
at the table would (another player's move as seen, one button; what the table showed, one tap
per answer; the observer's own moves from its legal moves). After every move the page's
position (what Export writes) equals the engine's true observation for that seat, and Undo
(tried on the first move of each kind) restores the one before. The taps are counted and
printed (docs/hint-page.md, "Following a game", states them).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

import engine
from convert import observation_from_proto, observation_to_proto
from regent.v1 import advisor_pb2
from server.apply_observed import HIDDEN_TEXT as SECRET_CHOICE
from server.apply_observed import apply_observed_move
from server.status import Rejected
from tests.follow_table import follow_game
from tests.support.web import ANSWERED, GatewayThread

VIEWPORTS = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
STORE = "regent.hint.v1"
# Each game once, the two screens shared out between them (a whole game in Chromium takes
# about a minute; the service-level tests follow every seat).
GAMES = [
    ("royal_cities", 2, 1, 0, "phone"),
    ("royal_cities", 1, 3, 0, "laptop"),
    ("citadels", 4, 3, 1, "phone"),
]
#: Every seat of these seeded games on both screens: `REGENT_FOLLOW_ALL=1 pytest
#: tests/web/test_follow.py` follows them all (over half an hour; docs/hint-page.md's taps
#: table is their figures, each game's line added to artifacts/web/follow-taps.jsonl).
ALL_GAMES = [
    (game, players, seed, seat, viewport)
    for game, players, seed in (
        ("royal_cities", 2, 1),
        ("royal_cities", 3, 2),
        ("royal_cities", 1, 3),
        ("citadels", 4, 3),
        ("citadels", 7, 4),
    )
    for seat in range(players)
    for viewport in VIEWPORTS
]
if os.environ.get("REGENT_FOLLOW_ALL"):
    GAMES = ALL_GAMES

pytestmark = pytest.mark.slow


def _in_process(request: advisor_pb2.ApplyObservedMoveRequest):
    """The answers the table gives, found with the service's own function (the page then
    enters them): None for an answer it refuses."""
    try:
        return apply_observed_move(
            request.observation, request.player, request.move, request.revealed
        )
    except Rejected:
        if request.revealed:
            return None
        raise


def _difference(entered: advisor_pb2.Observation, truth: Any) -> str:
    """The fields where the page's position and the truth differ."""
    mine = observation_from_proto(entered).to_json()
    true = truth.to_json()
    return "; ".join(f"{k}: {mine[k]} != {true[k]}" for k in true if mine.get(k) != true[k])


class Table:
    """The page of one player following a game: it enters each move and checks the result."""

    def __init__(self, page: Any, game: str, seat: int) -> None:
        self.page = page
        self.game = game
        self.seat = seat
        self.taps: Counter[str] = Counter()
        self.opponent_moves = 0
        self.revealing = 0
        self.steps = 0
        self.own_moves = 0
        #: The kinds of move (whose, its verb, how many answers) undone and entered again.
        self.undone: set[tuple[bool, str, int]] = set()
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on(
            "console",
            lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None,
        )

    def position(self) -> advisor_pb2.Observation:
        stored = self.page.evaluate(f"localStorage.getItem('{STORE}')")
        return json_format.ParseDict(json.loads(stored)["observation"], advisor_pb2.Observation())

    def settled(self, steps: int) -> None:
        """Wait until the log holds `steps` steps and the page has drawn the moves of that
        position (the engine's answer for the latest position drawn)."""
        self.page.wait_for_function(
            f"steps => document.querySelectorAll('#log li').length === steps && {ANSWERED}",
            arg=steps,
        )

    def log_length(self) -> int:
        return self.page.eval_on_selector_all("#log li", "nodes => nodes.length")

    def enter(self, request: advisor_pb2.ApplyObservedMoveRequest, count: bool) -> None:
        """Tap the move and every answer, as the table showed them."""
        page = self.page
        self.settled(self.log_length())
        theirs = request.player != self.seat
        taps = 1
        if theirs and request.move.text == SECRET_CHOICE and request.revealed:
            # The last chooser's secret choice: the page asks what the table shows at once.
            page.wait_for_selector("#reveal:not(.hidden)", timeout=30_000)
            taps = 0
        elif theirs:
            page.click(f'#follow-moves [data-observed="{request.move.text}"]', timeout=30_000)
        else:
            page.wait_for_selector(
                f'#other-moves option[value="{request.move.text}"]', state="attached"
            )
            page.select_option("#other-moves", request.move.text)
            assert page.input_value("#other-moves") == request.move.text
            page.click("#played-other")
        for i, answer in enumerate(request.revealed):
            asked = "#reveal:not(.hidden)" if i == 0 else f"#reveal >> text=(card {i + 1})"
            page.wait_for_selector(asked, timeout=30_000)  # this slot, not the one before
            taps += self._answer(answer)
        self.own_moves += count and not theirs
        if count and theirs:
            self.opponent_moves += 1
            self.revealing += bool(request.revealed)
            self.taps["opponent"] += taps
            self.taps["opponent-revealing" if request.revealed else "opponent-plain"] += taps

    def _answer(self, answer: str) -> int:
        """Tap one answer; the taps it took."""
        page = self.page
        # The slot's buttons, drawn: under load the reveal can show before its options do.
        page.wait_for_selector(
            f'#reveal [data-option="{answer}"], #reveal [data-reveal="{answer}"], #builds-done',
            state="attached",
            timeout=30_000,
        )
        option = page.query_selector(f'#reveal [data-option="{answer}"]')
        if option is not None:
            option.click()
            return 1
        if page.query_selector("#builds-done") is not None:
            taps = 1
            for part in [] if answer == "none" else answer.split(", "):
                card, city = part.split()
                page.click(f'#reveal [data-reveal="{card}"]')
                taps += 1
                if card.startswith("white"):
                    page.click(f'#build-city [data-city="{city}"]')
                    taps += 1
            page.click("#builds-done")
            return taps
        page.click(f'#reveal [data-reveal="{answer}"]', timeout=30_000)
        return 1

    def follow(self, players: int, seed: int) -> None:
        def check(view, truth, request) -> None:
            before = self.position()
            self.enter(request, count=True)
            self.steps += 1
            self.settled(self.steps)
            entered = self.position()
            assert entered == observation_to_proto(truth), _difference(entered, truth)
            # Undo restores the step's stored position whatever the move: it is tried on the
            # first move of each kind (whose, its verb, how many answers), not on every one.
            kind = (
                request.player == self.seat,
                request.move.text.split()[0],
                len(request.revealed),
            )
            if kind in self.undone:
                return
            self.undone.add(kind)
            self.page.click("#undo")
            self.settled(self.steps - 1)
            assert self.position() == before, f"undo of {request.move.text}"
            self.enter(request, count=False)
            self.settled(self.steps)

        follow_game(self.game, players, seed, self.seat, _in_process, check)


def open_at_deal(
    browser: Any, web: GatewayThread, game: str, players: int, seed: int, seat: int, viewport: str
) -> tuple[Any, Any, Table]:
    """A page on `viewport` opened at the deal of seeded game `seed`, seen from `seat` (the
    saved game a reload restores), its cards drawn: the browser context, the page, its Table."""
    context = browser.new_context(viewport=VIEWPORTS[viewport], has_touch=True)
    page = context.new_page()
    start = engine.new_game(game, players, seed).observation(seat)
    saved = {
        "game": game,
        "observation": json_format.MessageToDict(
            observation_to_proto(start), preserving_proto_field_name=True
        ),
        "budget": 0,
        "log": [],
    }
    page.goto(web.url + "/")
    page.evaluate(f"localStorage.setItem('{STORE}', {json.dumps(json.dumps(saved))})")
    page.reload()
    page.wait_for_selector("#setup .deck-card")
    return context, page, Table(page, game, seat)


@pytest.mark.parametrize(("game", "players", "seed", "seat", "viewport"), GAMES)
def test_a_whole_game_followed_through_the_page(
    browser, web: GatewayThread, artifacts: Path, viewport, game, players, seed, seat
) -> None:
    context, page, table = open_at_deal(browser, web, game, players, seed, seat, viewport)
    shot = str(artifacts / f"follow-{game}-{players}p-{viewport}.png")
    try:
        table.follow(players, seed)
    except Exception:
        page.screenshot(path=shot, full_page=True)
        print(page.inner_text("#reveal"), page.inner_text("#log")[-300:])
        raise
    # The observer's own moves are the decisions the review will search (undone and entered
    # again, each is kept once).
    recorded = page.evaluate("JSON.parse(localStorage.getItem('regent.review.v1'))")
    assert len(recorded["moves"]) == table.own_moves
    # Back to the third step, exactly as it was.
    page.click('#log [data-back="2"]')
    table.settled(2)
    page.screenshot(
        path=str(artifacts / f"follow-{game}-{players}p-{viewport}.png"), full_page=True
    )
    context.close()
    assert not table.errors, table.errors
    plain = table.opponent_moves - table.revealing
    figures = {
        "game": game, "players": players, "seed": seed, "seat": seat, "viewport": viewport,
        "moves": table.steps, "own_moves": table.own_moves,
        "others_moves": table.opponent_moves, "others_revealing": table.revealing,
        "others_taps": table.taps["opponent"],
    }  # fmt: skip
    with (artifacts / "follow-taps.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(figures) + "\n")
    print(
        f"{game} {players}p seed {seed} from P{seat + 1} ({viewport}): {table.steps} moves, "
        f"{table.opponent_moves} by others, {table.taps['opponent']} taps "
        f"({table.taps['opponent'] / max(1, table.opponent_moves):.2f} per move; "
        f"{table.taps['opponent-plain'] / max(1, plain):.2f} when nothing is revealed, "
        f"{table.taps['opponent-revealing'] / max(1, table.revealing):.2f} when something is; "
        f"{len(table.undone)} undone)"
    )
    assert len(table.undone) >= 3  # the observer's moves and others', plain and revealing
    assert table.taps["opponent-plain"] == plain  # one tap when nothing is revealed
    # A Season's builds take a tap per card built and one for Done, so a Royal Cities game
    # comes out a little above two taps per move on average (docs/hint-page.md has the figures).
    assert table.taps["opponent"] <= 2.5 * table.opponent_moves
