"""Types of `engine.weights` (Cython): a heuristic's table of named weights, hand-set for the
heuristic player and per player count for the playouts."""

from collections.abc import Iterable, Mapping
from typing import Any

from typing_extensions import disjoint_base

from engine.resources import Source

def read_fit(path: Source) -> tuple[str, dict[str, Any], list[Any] | None]: ...

@disjoint_base
class WeightTable:
    """The weights of one heuristic, from `(name, hand-set value)` pairs, in that order: the
    hand-set ones, which the heuristic player plays by, and the playouts' at each player
    count, which are the defaults until set: hand-set, or a fit's from the `fits` folder."""

    def __init__(self, table: Iterable[tuple[str, float]], fits: Source | None = None) -> None: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def hand_set(self) -> dict[str, float]: ...
    def defaults(self, players: int) -> dict[str, float]: ...
    def get(self, players: int) -> dict[str, float]: ...
    def set(self, values: Mapping[str, float], players: int | None = None) -> None: ...
    def reset(self) -> None: ...
