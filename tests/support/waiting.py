"""Waiting for what a server reports, instead of sleeping a guess: a test polls the state it
needs (a slot taken, streams open) with a generous cap, so that a loaded host (load 10 on 2
cores) only makes it slower, never wrong."""

from __future__ import annotations

import time
from collections.abc import Callable

#: The longest a test waits for what it polls by default, in seconds.
CAP = 60.0


def wait_until(condition: Callable[[], bool], what: str, cap: float = CAP) -> None:
    """Return once `condition()` holds; AssertionError naming `what` after `cap` seconds."""
    give_up = time.monotonic() + cap
    while not condition():
        assert time.monotonic() < give_up, f"waited {cap:g} s for {what}"
        time.sleep(0.01)
