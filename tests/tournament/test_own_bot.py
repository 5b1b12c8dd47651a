"""Bots of one's own in a tournament (`python:MODULE:NAME`): the spec, its errors, what the bot
is handed (a world of the player's information, never the true state), and a real
`regent tournament` run with one."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from clients.tournament.config import ConfigError, TournamentConfig
from clients.tournament.own_bot import OwnBot, parse_own
from clients.tournament.play import play_game
from clients.tournament.remote import bot_for
from tests.commands import regent
from tests.tournament.own_bots import FirstLegal

SPEC = "python:tests.tournament.own_bots:FirstLegal"


def test_the_spec_names_a_module_and_a_factory() -> None:
    assert parse_own(SPEC) == ("tests.tournament.own_bots", "FirstLegal")
    for bad in ("python:", "python:FirstLegal", "python:tests..own_bots:X", "python:a.b:1x"):
        with pytest.raises(ValueError, match="python:MODULE:NAME"):
            parse_own(bad)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("python:tests.tournament.no_such_module:Bot", "cannot import tests.tournament.no_such"),
        ("python:tests.tournament.own_bots:Missing", "has no callable Missing"),
        ("python:tests.tournament.own_bots:NOT_CALLABLE", "has no callable NOT_CALLABLE"),
    ],
)
def test_a_bot_that_cannot_be_found_is_a_config_error_naming_it(spec: str, says: str) -> None:
    with pytest.raises(ConfigError, match=f"bot mine: .*{says}"):
        TournamentConfig("citadels", 2, (("mine", spec), ("r", "random")), games=2, seed=1)


def test_a_bot_made_wrong_loses_its_game() -> None:
    for name in ("not_a_bot", "raises"):
        specs = [f"python:tests.tournament.own_bots:{name}", "random"]
        result = play_game("citadels", specs, 7, None, 2, bot_for)
        assert result.failure is not None and result.failure.seat == 0
        assert result.returns == (0.0, 1.0)


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("royal_cities", 2)])
def test_it_is_handed_a_world_of_the_players_information(game: str, players: int) -> None:
    truth = engine.new_game(game, players, seed=5)
    bots = [OwnBot(SPEC, game, players) for _ in range(players)]
    hidden_differs = 0
    for step in range(60):
        if truth.is_terminal():
            break
        player = truth.current_player
        action = bots[player].choose(truth, seed=step)
        own = bots[player].bot
        assert isinstance(own, FirstLegal)
        world = own.handed[-1]
        assert world.observation(player) == truth.observation(player)
        assert world.legal_actions() == truth.legal_actions()
        hidden_differs += any(
            world.observation(other) != truth.observation(other)
            for other in range(players)
            if other != player
        )
        truth.apply_action(action)
    assert hidden_differs > 0


def test_it_plays_whole_games_as_any_bot_does() -> None:
    result = play_game("citadels", [SPEC, "random", SPEC], 7, None, 3, bot_for)
    assert result.failure is None and result.returns is not None


def test_a_tournament_plays_one(tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    done = regent(
        "tournament", "--game", "citadels", "--players", "2", "--games", "2", "--seed", "3",
        "--workers", "1", "--bot", f"mine={SPEC}", "--bot", "r=random", "--out", out,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "mine" in done.stdout
