"""`regent bench health` runs: its three phases against a real `regent serve`, briefly (a
benchmark, not a test of its figures: only that it measures something and its loads ran)."""

from __future__ import annotations

import pytest

from bench.health import run


@pytest.mark.slow
def test_the_health_benchmark_runs_briefly(capsys: pytest.CaptureFixture[str]) -> None:
    phases = run(seconds=1.0, clients=1, max_searches=1, as_json=True)
    assert [p.checks > 0 for p in phases] == [True, True, True]
    assert phases[0].calls == 0 and phases[1].calls > 0 and phases[2].calls > 0
    assert '"p99_ms"' in capsys.readouterr().out
