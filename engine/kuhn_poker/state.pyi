"""Types of `engine.kuhn_poker.state` (Cython)."""

from collections.abc import Sequence
from typing import Any

from typing_extensions import disjoint_base

from engine.cstate import CState
from engine.interface import State
from engine.kuhn_poker.observation import Observation
from engine.kuhn_poker.rules import RulesConfig

TERMINAL: int

# State is a virtual base at runtime (`engine.registry.register` calls `State.register`).
@disjoint_base
class KuhnPokerState(CState, State):
    def __init__(
        self, num_players: int = 2, seed: int = 0, rules: RulesConfig | None = None
    ) -> None: ...
    @property
    def phase(self) -> str: ...
    @property
    def max_game_length(self) -> int: ...
    def cards_built(self, player: int) -> int: ...
    def hands(self) -> tuple[str, str]: ...
    def scores(self) -> list[int]: ...
    def action_to_string(self, action: int) -> str: ...
    def check(self) -> None: ...
    def observation(self, player: int) -> Observation: ...

def state_from_observation(
    obs: Any, seed: int = 0, draws: Sequence[str] = ()
) -> KuhnPokerState: ...
def play_random_games(
    num_players: int, games: int, seed: int, rules: RulesConfig | None = None
) -> int: ...
