"""The benchmarks run and print their figures for both games (speed is shown, not tested)."""

from __future__ import annotations

import json

from clients.cli import main


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
    assert all(r["iterations"] > 0 for r in rows)
