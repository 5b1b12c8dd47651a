"""Rules options for Kuhn poker: none (the game is fixed), in the shape every game shares."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import Options


@dataclass(frozen=True)
class RulesConfig(Options):
    """Kuhn poker is played one way only."""
