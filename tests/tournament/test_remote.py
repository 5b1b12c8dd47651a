"""A bot behind the service: `grpc://host:port` plays through AdvisorService.Recommend of a
real server, from the observation of the player to act."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from clients.client import RegentClient, RegentError
from clients.tournament.backends import LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.remote import RemoteBot, RemoteSpec, parse_address
from clients.tournament.runner import RECORD_NAME, run_tournament
from server.limits import ServerLimits
from tests.support.server import RunningServer, serving
from tests.support.waiting import wait_until


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with serving() as running:
        yield running


def test_remote_addresses() -> None:
    assert parse_address("grpc://127.0.0.1:5005") == RemoteSpec("127.0.0.1:5005")
    assert parse_address("grpc://h:1?bot=pimc&iterations=20") == RemoteSpec("h:1", "pimc", 20)
    assert parse_address("grpc://h:1?bot=mo-ismcts&seconds=0.25&threads=1") == RemoteSpec(
        "h:1", "mo-ismcts", seconds=0.25, threads=1
    )
    for bad in ("grpc://host", "http://h:1", "grpc://h:1/x", "grpc://h:1?depth=3",
                "grpc://h:1?iterations=many", "grpc://h:1?seconds=-1",
                "grpc://h:1?seconds=nan"):  # fmt: skip
        with pytest.raises(ValueError, match="remote bot"):
            parse_address(bad)


def test_a_remote_bot_plays_a_tournament(
    server: RunningServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    remote = f"grpc://{server.address}?bot=mo-ismcts&iterations=30"
    bots = (("far", remote), ("heuristic", "heuristic"))
    config = TournamentConfig("royal_cities", 2, bots, games=2, seed=3)
    with caplog.at_level(logging.INFO, logger="regent.server"):
        result = run_tournament(config, tmp_path, backend=LocalBackend(1))
    calls = [r.getMessage() for r in caplog.records if "Recommend" in r.getMessage()]
    games = [json.loads(line) for line in (tmp_path / RECORD_NAME).read_text().splitlines()[1:]]
    assert result.games == 2 and {g["specs"][g["seats"].index("far")] for g in games} == {remote}
    assert all(" OK " in call for call in calls)
    assert len(calls) == sum(decisions(g, g["seats"].index("far")) for g in games)
    assert not server.loop_errors


def refusals(caplog: pytest.LogCaptureFixture) -> int:
    """The Recommend calls the server's log says it refused as busy."""
    return sum(
        "Recommend RESOURCE_EXHAUSTED" in record.getMessage() for record in list(caplog.records)
    )


def decisions(game: dict, seat: int) -> int:
    """How many of a recorded game's moves `seat` chose from two or more (replayed from the
    deal): a move with no choice is played without asking the bot."""
    state = engine.new_game(game["game"], len(game["seats"]), game["seed"])
    count = 0
    for move in game["moves"]:
        count += state.current_player == seat and len(state.legal_actions()) > 1
        state.apply_action(state.string_to_action(move))
    assert state.is_terminal() and list(state.scores()) == game["scores"]
    return count


def test_a_busy_server_is_asked_again_and_other_refusals_are_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With its one search slot taken (by an analysis that runs until it is closed), the
    server refuses (RESOURCE_EXHAUSTED on `budget`); the remote bot waits and asks again, and
    gets its move once the slot is free. A budget past the limits fails at once."""
    state = engine.new_game("royal_cities", 2, 1)
    with (
        serving(ServerLimits(max_searches=1)) as busy,
        caplog.at_level(logging.INFO, "regent.server"),
    ):
        holder = RegentClient(busy.address)
        analysis = holder.analyze(state.observation(0), seconds=30, timeout=60)
        wait_until(lambda: busy.server.slots.running > 0, "the analysis to take the slot")
        bot = RemoteBot(f"grpc://{busy.address}?bot=mo-ismcts&iterations=20")
        chosen: list[int] = []
        asking = threading.Thread(target=lambda: chosen.append(bot.choose(state, seed=1)))
        asking.start()
        wait_until(lambda: refusals(caplog) > 0, "the bot to be refused")
        analysis.close()  # the slot frees, and the bot's next ask is answered
        asking.join(60)
        assert not asking.is_alive() and len(chosen) == 1 and chosen[0] in state.legal_actions()
        holder.close()
        too_long = RemoteBot(f"grpc://{busy.address}?bot=mo-ismcts&seconds=100000")
        with pytest.raises(RegentError) as refused:
            too_long.choose(state, seed=1)
        assert refused.value.field_violations[0].field == "budget.seconds"
