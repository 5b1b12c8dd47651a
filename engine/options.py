"""The shape every game's rules options share: a frozen dataclass of documented switches."""

from __future__ import annotations

from dataclasses import asdict, field, fields
from typing import Any, TypeVar

from engine.errors import InvalidObservationError

T = TypeVar("T", bound="Options")


def option(default: bool, doc: str) -> bool:
    """A rules switch with its one-line description."""
    return field(default=default, metadata={"doc": doc})


class Options:
    """Mixed into each game's frozen `RulesConfig` dataclass."""

    @classmethod
    def options(cls) -> list[tuple[str, bool, str]]:
        """(name, default, description) of every option."""
        return [(f.name, f.default, f.metadata["doc"]) for f in fields(cls)]  # type: ignore[arg-type]

    def to_json(self) -> dict[str, bool]:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_json(cls: type[T], data: Any, field: str = "rules") -> T:
        if not isinstance(data, dict):
            raise InvalidObservationError(field, "must be an object of booleans")
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        for key, value in data.items():
            if key not in names:
                raise InvalidObservationError(f"{field}.{key}", "is not a rules option")
            if not isinstance(value, bool):
                raise InvalidObservationError(f"{field}.{key}", "must be true or false")
        return cls(**data)
