"""Rules options for Leduc poker: none (the game is fixed), in the shape every game shares."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import Options


@dataclass(frozen=True)
class RulesConfig(Options):
    """Leduc poker is played one way only."""
