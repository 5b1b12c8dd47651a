"""The rows the inference benches print: how well a search's worlds guess what the player to
move cannot see, one row per number of deals weighed (`infer`, 0 dealing uniformly)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.interface import State

#: The share of the hidden information that `worlds` worlds dealt with `infer` get right.
HitRate = Callable[[list[State], int, int], float]


def print_rates(
    positions: list[State], infers: Sequence[int], worlds: int, hit_rate: HitRate, what: str
) -> None:
    """A line for the positions, then one per `infer`: its rate, named by `what`, and time."""
    print(f"{len(positions)} positions, {worlds} worlds each")
    for infer in infers:
        start = time.perf_counter()
        rate = hit_rate(positions, infer, worlds)
        print(f"infer={infer}: {rate:.1%} of {what} ({time.perf_counter() - start:.1f} s)")
