"""The engine's exceptions: specific, and safe to show to the player who caused them.

Python pickles an exception as its class and `args` (what it passed to `Exception`), and
unpickling calls the class with them: an exception whose constructor takes other arguments
than its message must pickle those (`__reduce__`), or it cannot cross a process boundary
(a tournament worker's error sent back to the tournament). Every exception of the project
follows this rule; tests/test_exceptions_pickle.py checks each one."""

from __future__ import annotations

from typing import Any


class IllegalMoveError(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


class FieldError(ValueError):
    """A value refused for what one named input holds: `field` names it (a dotted path,
    `decision.drawn` or `decisions[3]`), `reason` says why; each layer's refusals of its own
    inputs are subclasses, so that a caller can answer any of them alike."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled (see the module's docstring)."""
        return type(self), (self.field, self.reason), self.__dict__


class InvalidObservationError(FieldError):
    """A malformed or inconsistent observation. `field` names where it is wrong."""
