"""`regent bench matches` runs: a tiny ramp of hosted matches against a real `regent serve`
(a benchmark, not a test of its figures: only that it measures something and nothing fails)."""

from __future__ import annotations

import pytest

from bench.matches import run


def test_the_matches_benchmark_runs_at_a_tiny_n(capsys: pytest.CaptureFixture[str]) -> None:
    [step] = run(steps=[3], seconds=2.0, think=0.1, as_json=True)
    assert step.matches == 3 and step.errors == {}
    assert step.plays > 0 and step.moves_per_second > 0
    assert step.play_p50_ms > 0 and step.server_rss_mb > 0
    assert '"play_p99_ms"' in capsys.readouterr().out
