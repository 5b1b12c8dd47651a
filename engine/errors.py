"""The engine's exceptions: specific, and safe to show to the player who caused them.

Every refusal carries its `wording`: an English template with {name} parameters and their
values, so that a front end can word it in its own language (the hint page's catalogues
hold a translation of every template, keyed by the template, as gettext keys by msgid).
A parameter named `player` or ending in `_player` is a 0-based seat, which the English
text and the page both show as P1..Pn, the numbering a person at the table uses. One named
`reason` is itself a template, filled from the same parameters: a refusal that adds to
another's ("level:3's seconds: {reason}") keeps both worded.

Python pickles an exception as its class and `args` (what it passed to `Exception`), and
unpickling calls the class with them: an exception whose constructor takes other arguments
than its message must pickle those (`__reduce__`), or it cannot cross a process boundary
(a tournament worker's error sent back to the tournament). Every exception of the project
follows this rule; tests/test_exceptions_pickle.py checks each one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: The domain of the google.rpc.ErrorInfo that carries a refusal's wording over gRPC.
WORDING_DOMAIN = "regent"


def is_player_param(name: str) -> bool:
    """Whether a template parameter names a seat (0-based), shown as P1..Pn."""
    return name == "player" or name.endswith("_player")


#: The parameter that holds an inner template, worded from the same parameters.
REASON_PARAM = "reason"


@dataclass(frozen=True)
class Wording:
    """A text for a person, as a template and its parameters (each kept as a string)."""

    template: str
    params: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self._fill(self.template, inner=True)

    def _fill(self, template: str, *, inner: bool) -> str:
        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in self.params:
                return match.group(0)
            value = self.params[name]
            if name == REASON_PARAM:  # the inner template; within it, left as it is
                return self._fill(value, inner=False) if inner else match.group(0)
            return f"P{int(value) + 1}" if is_player_param(name) and value.isdigit() else value

        return _PLACEHOLDER.sub(fill, template)


def worded(template: str | Wording, **params: object) -> Wording:
    """`template` with its parameters (their str()), or an existing wording as it is."""
    if isinstance(template, Wording):
        return template
    return Wording(template, {name: str(value) for name, value in params.items()})


def around(template: str, inner: Wording, **params: object) -> Wording:
    """`template`, whose `{reason}` is the `inner` wording (its parameters kept beside)."""
    own = {name: str(value) for name, value in params.items()}
    return Wording(template, {**inner.params, REASON_PARAM: inner.template, **own})


def wording_of(error: BaseException) -> Wording:
    """What an exception says, as a wording: its own when it has one, else its text."""
    found = getattr(error, "wording", None)
    return found if isinstance(found, Wording) else Wording(str(error))


def _rebuild(cls: type[Any], args: tuple[Any, ...], wording: Wording, state: dict[str, Any]) -> Any:
    """An unpickled worded exception (see the module's docstring)."""
    error = cls(*args, wording)
    error.__dict__.update(state)
    return error


class WordedError(ValueError):
    """A refused value whose text is a `Wording`: `WordedError(template, **params)`."""

    def __init__(self, template: str | Wording, **params: object) -> None:
        self.wording = worded(template, **params)
        super().__init__(str(self.wording))

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its wording when unpickled (see the module's docstring)."""
        return _rebuild, (type(self), (), self.wording, self.__dict__)


class IllegalMoveError(WordedError):
    """An action that is not legal in the current state (or names no action); the state is
    unchanged."""


class FieldError(WordedError):
    """A value refused for what one named input holds: `field` names it (a dotted path,
    `decision.drawn` or `decisions[3]`), `reason` says why; each layer's refusals of its own
    inputs are subclasses, so that a caller can answer any of them alike."""

    def __init__(self, field: str, reason: str | Wording, **params: object) -> None:
        self.field = field
        self.wording = worded(reason, **params)
        self.reason = str(self.wording)
        ValueError.__init__(self, f"{field}: {self.reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its field and wording when unpickled (see the module's docstring)."""
        return _rebuild, (type(self), (self.field,), self.wording, self.__dict__)


class InvalidObservationError(FieldError):
    """A malformed or inconsistent observation. `field` names where it is wrong."""
