"""Rules options for Citadels (classic): the longer game, and powers before the resource step."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import Options, option


@dataclass(frozen=True)
class RulesConfig(Options):
    """Options a table may play differently. Defaults are the rulebook's reading."""

    eight_districts: bool = option(
        False, "4-7 players: a city is complete at 8 districts, as in the original edition"
    )
    powers_before_resources: bool = option(
        False,
        "character powers and unique districts' actions may also be used before the resource"
        " step (not building, not income), as many tables play",
    )
