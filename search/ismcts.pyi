"""Types of `search.ismcts` (Cython): the search loop over any game's C interface.

`SearchRun` reads every option of its `SearchConfig`; `playout_depth` > 0 stops each
playout that many actions past the tree and scores it by the game's `State.evaluate`.
"""

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

from typing_extensions import disjoint_base

from engine.interface import State
from search.search import SearchConfig

class Mode(IntEnum):
    MODE_MO = 0
    MODE_SO = 1
    MODE_PIMC = 2

class Selection(IntEnum):
    SEL_UCB = 0
    SEL_SMOOTH = 1
    SEL_REGRET = 2

@disjoint_base
class CancelToken:
    """Raise it from any thread: running searches stop within milliseconds."""

    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

@disjoint_base
class SearchRun:
    def __init__(
        self,
        state: State,
        config: SearchConfig,
        cancel: CancelToken | None = None,
        previous: SearchRun | None = None,
        played: int = -1,
        observer: int = -1,
    ) -> None: ...
    @property
    def cancel_token(self) -> CancelToken: ...
    @property
    def elapsed(self) -> float: ...
    @property
    def iterations(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    def stop_within(self, seconds: float) -> None: ...
    def advance(self, seconds: float = 0.0) -> bool: ...
    def value(self) -> float: ...
    def stats(self) -> dict[str, Any]: ...

def mean_reward(entry: Sequence[float]) -> float: ...
def win_chance(entry: Sequence[float]) -> float: ...
def heuristic_action(state: State, seed: int, playout: bool = False) -> int: ...
def playout_results(
    state: State, playouts: int, epsilon: float, seed: int
) -> tuple[list[float], list[float]]: ...
def check_config(state: State, config: SearchConfig) -> None: ...
def sample_worlds(state: State, config: SearchConfig, count: int) -> list[State]: ...
