"""A tournament survives its bots: a bot that errs, times out or loses its server loses that
game (recorded with the reason and the message) and the tournament goes on, counting those
games apart; `retry` plays such a game again from its seed, `stop` stops there. The bots that
fail are real: one in process that raises, and a gRPC bot server that fails on its third
call (tests/tournament/faulty_bot.py), in real worker processes."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

import engine
from clients.tournament.backends import LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.play import play_game
from clients.tournament.report import table, to_json
from clients.tournament.runner import RECORD_NAME, BotFailed, run_tournament
from search.bots import Bot, make_bot
from search.ismcts import CancelToken
from tests.tournament.faulty_bot import FaultyBot, serving


class RaisesOnItsThirdMove:
    """A bot that plays as the heuristic, but raises on its third move (or answers `wrong`,
    an action that is not legal, when given one)."""

    def __init__(self, inner: Bot, wrong: int | None) -> None:
        self.inner, self.wrong, self.moves = inner, wrong, 0
        self.spec = "faulty"

    def choose(self, state: engine.State, seed: int, cancel: CancelToken | None = None) -> int:
        self.moves += 1
        if self.moves == 3:
            if self.wrong is not None:
                return self.wrong
            raise RuntimeError("lost its way on move 3")
        return self.inner.choose(state, seed, cancel)


def records(out: Path) -> list[dict]:
    """The record's games, in index order."""
    lines = (out / RECORD_NAME).read_text().splitlines()[1:]
    return sorted((json.loads(line) for line in lines), key=lambda game: game["index"])


@pytest.mark.parametrize("wrong", [None, 10_000])
def test_a_bot_that_fails_on_its_third_move_loses_the_game_there(wrong: int | None) -> None:
    def make(spec: str, game: str, players: int) -> Bot:
        bot = make_bot("heuristic", game, players)
        return RaisesOnItsThirdMove(bot, wrong) if spec == "faulty" else bot

    result = play_game("royal_cities", ["heuristic", "faulty", "heuristic"], 4, None, 3, make)
    assert result.failure is not None and result.failure.seat == 1
    assert result.failure.reason == "error"
    expected = "RuntimeError: lost its way" if wrong is None else "IllegalMoveError: the bot chose"
    assert result.failure.message.startswith(expected)
    assert result.scores is None and result.returns == (0.5, 0.0, 0.5)
    # The moves up to the failure are the game the bots were playing.
    state = engine.new_game("royal_cities", 3, seed=4)
    for move in result.moves:
        state.apply_action(state.string_to_action(move))
    assert state.current_player == 1 and not state.is_terminal()


def test_a_remote_bot_that_errs_on_its_third_move_loses_that_game_only(tmp_path: Path) -> None:
    bot = FaultyBot(fail=frozenset({3}))
    with serving(bot) as address:
        bots = (("far", f"grpc://{address}"), ("heuristic", "heuristic"))
        config = TournamentConfig("royal_cities", 2, bots, games=4, seed=3)
        result = run_tournament(config, tmp_path, backend=LocalBackend(2))
    games = records(tmp_path)
    failed = [g for g in games if "failure" in g]
    assert [g["index"] for g in games] == [0, 1, 2, 3] and len(failed) == 1
    (game,) = failed
    seat = game["seats"].index("far")
    assert game["failure"] == {"seat": seat, "bot": "far", "reason": "error",
                               "message": "RegentError: INTERNAL: a bug on call 3"}  # fmt: skip
    assert game["scores"] is None and game["returns"][seat] == 0.0
    assert all(g["scores"] is not None for g in games if g is not game)
    far = next(b for b in result.bots if b.name == "far")
    assert result.games == 4 and far.failures == {"error": 1}
    assert to_json(result)["bots"][0]["failures_by_reason"] == {"error": 1}
    assert "Games lost by a bot's failure, each a loss above: far 1 (1 error)" in table(result)


def test_retry_plays_the_failed_game_again_from_its_seed(tmp_path: Path) -> None:
    """The game is played again after a pause: the record is that of a bot that never failed."""
    outcomes = {}
    for name, fail in (("failing", frozenset({3})), ("sound", frozenset())):
        with serving(FaultyBot(fail)) as address:
            bots = (("far", f"grpc://{address}"), ("heuristic", "heuristic"))
            config = TournamentConfig("royal_cities", 2, bots, games=2, seed=3)
            out = tmp_path / name
            run_tournament(config, out, backend=LocalBackend(1), on_bot_error="retry")
        outcomes[name] = [{k: v for k, v in g.items() if k != "specs"} for g in records(out)]
    assert outcomes["failing"] == outcomes["sound"]
    assert not any("failure" in g for g in outcomes["failing"])


def test_stop_keeps_the_failed_game_for_resume(tmp_path: Path) -> None:
    with serving(FaultyBot(fail=frozenset({3}))) as address:
        bots = (("far", f"grpc://{address}"), ("heuristic", "heuristic"))
        config = TournamentConfig("royal_cities", 2, bots, games=4, seed=3)
        with pytest.raises(BotFailed, match=r"far \(seat \d\) error: RegentError: INTERNAL"):
            run_tournament(config, tmp_path, backend=LocalBackend(1), on_bot_error="stop")
        stopped = records(tmp_path)
        assert len(stopped) < 4 and not any("failure" in g for g in stopped)
        run_tournament(config, tmp_path, resume=True, backend=LocalBackend(1))
    games = records(tmp_path)
    assert [g["index"] for g in games] == [0, 1, 2, 3]  # each once
    assert not any("failure" in g for g in games) and stopped == games[: len(stopped)]


def test_a_bot_that_times_out_or_whose_server_is_gone_loses(tmp_path: Path) -> None:
    """`timeout=S` in a remote bot's spec is its move's deadline (a generous one here: only
    the call that stalls may pass it on a loaded machine)."""
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        nowhere = f"127.0.0.1:{probe.getsockname()[1]}"
    with serving(FaultyBot(fail=frozenset({1}), stall=True)) as address:
        bots = (("slow", f"grpc://{address}?timeout=5"), ("gone", f"grpc://{nowhere}"),
                ("heuristic", "heuristic"))  # fmt: skip
        config = TournamentConfig("royal_cities", 2, bots, games=4, seed=3, gauntlet="heuristic")
        result = run_tournament(config, tmp_path, backend=LocalBackend(1))
    failures = {b.name: b.failures for b in result.bots}
    assert failures == {"slow": {"timeout": 1}, "gone": {"disconnected": 2}, "heuristic": {}}
    timed_out = next(g for g in records(tmp_path) if g.get("failure", {}).get("bot") == "slow")
    assert timed_out["failure"]["message"] == "RegentError: DEADLINE_EXCEEDED"
    gone = next(b for b in result.bots if b.name == "gone")
    assert gone.wins == 0 and gone.games == 2
    assert "gone 2 (2 disconnected)" in table(result) and "slow 1 (1 timeout)" in table(result)


def test_the_tables_keep_long_names(tmp_path: Path) -> None:
    bots = (("a-heuristic-with-a-long-name", "heuristic"), ("random", "random"))
    config = TournamentConfig("royal_cities", 2, bots, games=2, seed=1)
    text = table(run_tournament(config, tmp_path, backend=LocalBackend(1)))
    matrix = text.split("Win matrix")[1].splitlines()
    assert "a-heuristic-with-a-long-name" in matrix[1]  # the column's head, whole
    assert any(row.startswith("a-heuristic-with-a-long-name  ") for row in matrix[2:4])
