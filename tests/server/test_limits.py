"""A call's deadline bounds its search: too little time is refused, the rest is capped."""

from __future__ import annotations

import pytest

from server.limits import MIN_SEARCH_SECONDS, ServerLimits, effective_budget, too_late


@pytest.mark.parametrize(
    ("remaining", "refused"),
    [
        (None, False),
        (-1.0, True),
        (0.0, True),
        (0.0009, True),
        (MIN_SEARCH_SECONDS, False),
        (5.0, False),
    ],
)
def test_too_late(remaining: float | None, refused: bool) -> None:
    assert too_late(remaining) is refused


def test_a_deadline_caps_the_seconds_but_never_below_the_shortest_search() -> None:
    limits = ServerLimits()
    _, seconds, _ = effective_budget(limits, 0, 10.0, 1, 1.0)
    assert seconds == pytest.approx(1.0 - limits.deadline_margin)
    _, seconds, _ = effective_budget(limits, 0, 10.0, 1, 0.01)
    assert seconds == MIN_SEARCH_SECONDS
    _, seconds, _ = effective_budget(limits, 0, 0.5, 1, None)
    assert seconds == 0.5
