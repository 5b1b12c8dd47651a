"""The game interface every engine implements (OpenSpiel's State API is the model)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

#: What `State.observed_action` answers for a move the observer does not see: another
#: player's completed secret choice (HIDDEN), or an unseen step inside one (UNSEEN). The C
#: cores use the same numbers (`engine/game_api.pxd`).
HIDDEN = -1
UNSEEN = -2


class State(ABC):
    """One game in progress. Actions are integer ids; players are numbered from 0."""

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to decide, or -1 once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted ascending."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play an action; IllegalMoveError, and no change, when it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def observed_action(self, action: int, observer: int) -> int:
        """How `observer` sees `action` played now: the action, HIDDEN for another
        player's completed secret choice, UNSEEN for an unseen step inside one."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per player: 1 for a win, a shared victory split equally, 0 for a loss."""

    @abstractmethod
    def evaluate(self) -> list[float]:
        """Per player, the estimated share of the win from the whole state as it
        stands, in [0, 1]; the returns once the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Points per player (and per automated opponent, where the game has one)."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> int: ...

    @abstractmethod
    def observation(self, player: int) -> Any:
        """Exactly what `player` knows: a typed value with `to_json()`."""

    @abstractmethod
    def resample(self, player: int, seed: int) -> State:
        """A copy where everything `player` does not know is drawn again at random."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The pending decision's name (each game lists its own), e.g. `turn`."""

    @property
    @abstractmethod
    def rules(self) -> Any:
        """The game's rules options (its `RulesConfig`)."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """The most actions any game of this kind can take from its start (OpenSpiel's
        name): a game never runs longer, from the deal or from any accepted observation."""

    @abstractmethod
    def cards_built(self, player: int) -> int:
        """How much the player has built (the tie-break after scores, and after a
        resignation)."""

    @abstractmethod
    def check(self) -> None:
        """AssertionError when the core's invariants are broken (for tests)."""

    @abstractmethod
    def playout(self, seed: int) -> int:
        """Play uniformly random moves to the end, in C; the number of actions."""
