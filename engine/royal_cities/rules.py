"""Rules options for Royal Cities: each switch of RULES-NOTES, plus the solo expert taxes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from engine.errors import InvalidObservationError


def _option(default: bool, doc: str) -> bool:
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True)
class RulesConfig:
    """Options a table may play differently. Defaults are the rulebook's reading."""

    crown_through_white: bool = _option(
        False, "count the top crown of the highest purple card even under a white card"
    )
    hero_on_every_revolt: bool = _option(
        True, "a Revolt turns the Hero face up whether or not the revolter had purchased"
    )
    white_with_existing_partner: bool = _option(
        False, "a white card may be built with a coloured card already in that City"
    )
    catch_up_upper_inclusive: bool = _option(
        False, "catch-up bonus spaces b counted as own < b <= leader (not own <= b < leader)"
    )
    expert_royal_taxes: bool = _option(False, "solo: the expert Royal Taxes (1, 2, then 3 Cities)")
    regent_scores_revolts: bool = _option(
        True, "solo: a Revolt before purchasing gives the Regent its VP, as any other Noble"
    )

    @classmethod
    def options(cls) -> list[tuple[str, bool, str]]:
        """(name, default, description) of every option."""
        return [(f.name, f.default, f.metadata["doc"]) for f in fields(cls)]

    def to_json(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, field: str = "rules") -> RulesConfig:
        if not isinstance(data, dict):
            raise InvalidObservationError(field, "must be an object of booleans")
        names = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in names:
                raise InvalidObservationError(f"{field}.{key}", "is not a rules option")
            if not isinstance(value, bool):
                raise InvalidObservationError(f"{field}.{key}", "must be true or false")
        return cls(**data)
