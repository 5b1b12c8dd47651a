"""Types of `engine.weights` (Cython): a heuristic's table of named weights, a row per
player count."""

from collections.abc import Iterable, Mapping

from typing_extensions import disjoint_base

@disjoint_base
class WeightTable:
    """The weights of one heuristic, from `(name, hand-set value)` pairs, in that order: a
    row of them per player count, each hand-set until set."""

    def __init__(self, table: Iterable[tuple[str, float]]) -> None: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def hand_set(self) -> dict[str, float]: ...
    def get(self, players: int) -> dict[str, float]: ...
    def set(self, values: Mapping[str, float], players: int | None = None) -> None: ...
    def reset(self) -> None: ...
