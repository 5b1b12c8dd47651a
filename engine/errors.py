"""The engine's exceptions: specific, and safe to show to the player who caused them."""


class IllegalMoveError(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


class InvalidObservationError(ValueError):
    """A malformed or inconsistent observation. `field` names where it is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
