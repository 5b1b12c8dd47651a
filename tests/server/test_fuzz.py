"""Mutated requests over every RPC of both games against a real `regent serve` process
(`regent bench fuzz`): no handler crashes, none hangs, and the server serves throughout."""

from __future__ import annotations

import pytest

from bench.fuzz import METHODS, REFUSALS, run


def _check(requests: int, seed: int) -> None:
    figures = run(requests, seed=seed, workers=4, as_json=False, quiet=True)
    assert figures.requests == requests
    assert figures.failures == []
    assert figures.health_failures == 0
    assert set(figures.by_method) == {method.rsplit("/", 1)[1] for method in METHODS}
    allowed = {code.name for code in REFUSALS} | {"OK", "DEADLINE_EXCEEDED"}
    assert set(figures.codes) <= allowed, figures.codes
    assert figures.codes.get("OK", 0) > requests // 50, "too few requests stayed valid"


def test_a_short_fuzz_run() -> None:
    _check(600, seed=3)


@pytest.mark.slow
def test_ten_thousand_mutated_requests() -> None:
    _check(10_000, seed=1)
