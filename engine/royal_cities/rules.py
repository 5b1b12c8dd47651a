"""Rules options for Royal Cities: each switch of RULES-NOTES, plus the solo expert taxes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.errors import InvalidObservationError


@dataclass(frozen=True)
class RulesConfig:
    """Options a table may play differently. Defaults are the rulebook's reading."""

    #: Count the top crown of the highest purple card even when a white card covers it.
    crown_through_white: bool = False
    #: A Revolt turns the revolter's Hero face up whether or not they had purchased
    #: (False: only in the not-yet-purchased case).
    hero_on_every_revolt: bool = True
    #: A white card may be built with a coloured card already in that City
    #: (False: its partner must be built into the same City in the same step).
    white_with_existing_partner: bool = False
    #: Catch-up bonus spaces b counted as own < b <= leader (False: own <= b < leader).
    catch_up_upper_inclusive: bool = False
    #: Solo: the expert Royal Taxes (1, 2, then 3 Cities taxed).
    expert_royal_taxes: bool = False
    #: Solo: a Revolt before purchasing gives the Regent its VP, as to any other Noble.
    regent_scores_revolts: bool = True

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
