"""`regent bench` and `regent match` cover both games (speed is shown by bench, not tested)."""

from __future__ import annotations

import json

from clients.cli.main import main
from search.games import default_bot


def test_bench_engine_and_search_cover_citadels(capsys):
    assert main(["bench", "engine", "--game", "citadels", "--players", "4", "7",
                 "--seconds", "0.05", "--json"]) == 0  # fmt: skip
    rows = json.loads(capsys.readouterr().out)
    assert {(r["game"], r["players"], r["path"]) for r in rows} == {
        ("citadels", 4, "c-core"), ("citadels", 4, "python-api"),
        ("citadels", 7, "c-core"), ("citadels", 7, "python-api"),
    }  # fmt: skip
    assert all(r["actions"] > 0 for r in rows)
    assert main(["bench", "search", "--game", "citadels", "--players", "4",
                 "--seconds", "0.05", "--json"]) == 0  # fmt: skip
    rows = json.loads(capsys.readouterr().out)
    assert {(r["position"], r["threads"]) for r in rows} == {
        ("opening", 1),
        ("opening", 2),
        ("mid-game", 1),
        ("mid-game", 2),
    }
    assert all(r["iterations"] > 0 and r["over_budget"] >= 0 for r in rows)
    # What is measured is the game's default bot at that player count, as hosted matches play.
    assert {r["bot"] for r in rows} == {default_bot("citadels", 4)}


def test_match_refuses_a_player_count_the_game_does_not_have(capsys):
    assert main(["match", "--game", "citadels", "--players", "1", "--bot", "random"]) == 2
    assert "citadels is for 2 to 7 players, not 1" in capsys.readouterr().err


def test_match_refuses_a_bot_spec_that_is_not_one_before_playing(capsys):
    assert main(["match", "--game", "citadels", "--bot", "mo-ismcts:bogus=1"]) == 2
    assert "bot --bot: bad bot option 'bogus=1'" in capsys.readouterr().err
    assert (
        main(["match", "--game", "citadels", "--bot", "random", "--field", "python:no.mod:X"]) == 2
    )
    assert "bot --field: 'python:no.mod:X': cannot import no.mod" in capsys.readouterr().err


def test_match_reports_citadels_margins_in_points(capsys):
    assert main(["match", "--game", "citadels", "--players", "3", "--bot", "heuristic",
                 "--field", "random", "--games", "3", "--workers", "1"]) == 0  # fmt: skip
    assert capsys.readouterr().out.rstrip().endswith("points")
