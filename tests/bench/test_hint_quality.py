"""bench/hint_quality.py: each shown move valued, its error and its value's own noise; the
others reply by the playout policy or by a bot named."""

from __future__ import annotations

from bench.hint_quality import main, measure


def test_each_position_has_an_error_and_a_noise_per_shown_move() -> None:
    found = measure("royal_cities", 2, 2, 200, 100, 2, 3, seed=1)
    assert len(found) == 2
    for position in found:
        assert len(position.errors) == len(position.noise) >= 1
        assert position.regret >= 0.0 and all(n >= 0.0 for n in position.noise)


def test_the_others_can_reply_by_a_search(capsys) -> None:
    args = ["--game", "citadels", "--players", "4", "--positions", "1", "--iterations", "200",
            "--deep", "100", "--samples", "2", "--replies", "mo-ismcts:iterations=50"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "the others replying by mo-ismcts:iterations=50" in out
    assert "the values' own standard error" in out
