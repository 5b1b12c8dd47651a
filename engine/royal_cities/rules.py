"""Rules options for Royal Cities: each switch of RULES-NOTES, plus the solo expert taxes."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import Options, option


@dataclass(frozen=True)
class RulesConfig(Options):
    """Options a table may play differently. Defaults are the rulebook's reading."""

    crown_through_white: bool = option(
        False, "count the top crown of the highest purple card even under a white card"
    )
    hero_on_every_revolt: bool = option(
        True, "a Revolt turns the Hero face up whether or not the revolter had purchased"
    )
    white_with_existing_partner: bool = option(
        False, "a white card may be built with a coloured card already in that City"
    )
    catch_up_upper_inclusive: bool = option(
        False, "catch-up bonus spaces b counted as own < b <= leader (not own <= b < leader)"
    )
    expert_royal_taxes: bool = option(False, "solo: the expert Royal Taxes (1, 2, then 3 Cities)")
    regent_scores_revolts: bool = option(
        True, "solo: a Revolt before purchasing gives the Regent its VP, as any other Noble"
    )
