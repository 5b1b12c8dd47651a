"""Typed reading of observation JSON, with errors that name the offending field."""

from __future__ import annotations

import builtins
from typing import Any

from engine.errors import InvalidObservationError


def lists(value: Any) -> Any:
    """Tuples to lists, all the way down (what JSON text parses back to)."""
    if isinstance(value, dict):
        return {k: lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [lists(v) for v in value]
    return value


class Reader:
    """Typed access to one JSON object, with errors that name the field."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise InvalidObservationError(path, "must be an object")
        self.data = data
        self.path = path

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path != "observation" else key

    def get(self, key: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise InvalidObservationError(self.field(key), "is missing")
            return default
        return self.data[key]

    def int(self, key: str, default: Any = ...) -> int:
        value = self.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidObservationError(self.field(key), "must be an integer")
        return value

    def opt_int(self, key: builtins.str) -> builtins.int | None:
        value = self.get(key, None)
        return None if value is None else self.int(key)

    def bool(self, key: str, default: Any = ...) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise InvalidObservationError(self.field(key), "must be true or false")
        return value

    def str(self, key: builtins.str, default: Any = ...) -> builtins.str:
        value = self.get(key, default)
        if not isinstance(value, str):
            raise InvalidObservationError(self.field(key), "must be a string")
        return value

    def opt_str(self, key: builtins.str) -> builtins.str | None:
        value = self.get(key, None)
        return None if value is None else self.str(key)

    def list(self, key: builtins.str, default: Any = ...) -> list[Any]:
        value = self.get(key, default)
        if not isinstance(value, (list, tuple)):
            raise InvalidObservationError(self.field(key), "must be a list")
        return list(value)

    def game(self, name: builtins.str) -> builtins.str:
        """The observation's `game`, which must be `name` (the default when absent)."""
        game = self.str("game", default=name)
        if game != name:
            raise InvalidObservationError("game", f"expected '{name}', got '{{game}}'", game=game)
        return game

    def cards(self, key: builtins.str, default: Any = ...) -> tuple[builtins.str, ...]:
        return self.names(key, "a card name", default)

    def names(
        self, key: builtins.str, what: builtins.str, default: Any = ...
    ) -> tuple[builtins.str, ...]:
        """A list of strings, each `what` (a card's or an action's name)."""
        items = self.list(key, default)
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise InvalidObservationError(f"{self.field(key)}[{i}]", f"must be {what}")
        return tuple(items)

    def ints(self, key: builtins.str, default: Any = ...) -> tuple[builtins.int, ...]:
        items = self.list(key, default)
        for i, item in enumerate(items):
            if isinstance(item, bool) or not isinstance(item, int):
                raise InvalidObservationError(f"{self.field(key)}[{i}]", "must be an integer")
        return tuple(items)


def first_difference(got: Any, want: Any, path: str = "") -> str | None:
    """The JSON path (`players[1].hand[0]`) of the first place where two JSON values
    differ, or None when they are equal; `path` names `got` itself. A key that only one of
    two objects has is a difference at that key (the engine's own observations always have
    the same keys; the golden games' replay relies on it to see a field added or dropped)."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in [*got, *(k for k in want if k not in got)]:
            where = f"{path}.{key}" if path else key
            if key not in got or key not in want:
                return where
            found = first_difference(got[key], want[key], where)
            if found is not None:
                return found
        return None
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if got == want else path
