"""The shape every game's rules options share: a frozen dataclass of documented switches."""

from __future__ import annotations

from dataclasses import Field, asdict, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from engine.errors import InvalidObservationError

T = TypeVar("T", bound="Options")


def option(default: bool, doc: str) -> bool:
    """A rules switch with its one-line description."""
    return field(default=default, metadata={"doc": doc})


class Options:
    """Mixed into each game's frozen `RulesConfig` dataclass."""

    if TYPE_CHECKING:
        # What each game's subclass, a dataclass of bool options, provides: the fields
        # that make it a dataclass to `fields` and `asdict`, and its constructor.
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

        def __init__(self, **options: bool) -> None: ...

    @classmethod
    def options(cls) -> list[tuple[str, bool, str]]:
        """(name, default, description) of every option."""
        # Every option has a bool default (see `option`).
        return [(f.name, cast(bool, f.default), f.metadata["doc"]) for f in fields(cls)]

    def to_json(self) -> dict[str, bool]:
        data: dict[str, bool] = asdict(self)
        return data

    @classmethod
    def from_json(cls: type[T], data: Any, field: str = "rules") -> T:
        if not isinstance(data, dict):
            raise InvalidObservationError(field, "must be an object of booleans")
        names = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in names:
                raise InvalidObservationError(f"{field}.{key}", "is not a rules option")
            if not isinstance(value, bool):
                raise InvalidObservationError(f"{field}.{key}", "must be true or false")
        return cls(**data)
