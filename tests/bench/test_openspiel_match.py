"""bench/openspiel_match.py: Regent against OpenSpiel's ISMCTS. The match itself needs OpenSpiel
(not a dependency), so its game is played only where it is installed."""

from __future__ import annotations

import pytest

from bench.openspiel_match import Played, outside_bot, play_one, summary


def test_the_outside_bot_takes_one_budget() -> None:
    bot = outside_bot("openspiel-ismcts:iterations=50", "royal_cities", 2)
    assert (bot.iterations, bot.seconds) == (50, 0.0)
    assert outside_bot("openspiel-ismcts:seconds=0.25", "citadels", 4).seconds == 0.25
    for spec in (
        "openspiel-ismcts",
        "openspiel-ismcts:iterations=50,seconds=1",
        "openspiel-ismcts:iterations=50,c=2",
    ):
        with pytest.raises(ValueError, match="iterations=N or seconds=S"):
            outside_bot(spec, "royal_cities", 2)


def test_the_summary_counts_our_seat_and_each_side_s_time() -> None:
    played = [
        Played(0, (1.0, 0.0), 2.0, 8, 4.0, 8, 800),
        Played(1, (0.5, 0.5), 2.0, 8, 4.0, 8, 800),
    ]
    text = summary(played, 2)
    assert text.startswith("ours won 1.5 of 2: 75.0% [")
    assert "seat 0: 1 of 1" in text and "seat 1: 0.5 of 1" in text
    assert "ours 0.250, OpenSpiel's 0.500 (100 simulations a move)" in text


def test_a_game_against_openspiel_s_ismcts() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    played = play_one(
        "royal_cities", 2, "mo-ismcts:iterations=30", "openspiel-ismcts:iterations=30", 1, 5
    )
    assert played.seat == 1 and sum(played.returns) == pytest.approx(1.0)
    assert played.theirs_simulations == 30 * played.theirs_searches > 0
