"""What one player knows of a Leduc poker hand: its own card, the public card once it is
turned up, and the public betting."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.jsonview import Reader, lists
from engine.leduc_poker.rules import RulesConfig


@dataclass(frozen=True)
class Observation:
    """Exactly what `observer` knows: its card, the public card from round two on, the bets
    so far, and the other card once a showdown has shown it."""

    observer: int
    num_players: int
    rules: RulesConfig
    card: str
    #: The public card, turned up after round one; None before.
    public: str | None
    #: The actions played so far, in order, both rounds, e.g. ("check", "check", "bet").
    history: tuple[str, ...]
    #: The other player's card, shown at a showdown; None until then and after a fold.
    shown: str | None
    game: str = "leduc_poker"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: what JSON text of it parses back to (lists, not tuples)."""
        return lists(asdict(self))

    @classmethod
    def from_json(cls, data: Any) -> Observation:
        """Parse a dict as produced by `to_json`; InvalidObservationError names the bad field."""
        obj = Reader(data, "observation")
        game = obj.game("leduc_poker")
        return cls(
            observer=obj.int("observer"),
            num_players=obj.int("num_players", 2),
            rules=RulesConfig.from_json(obj.get("rules", {})),
            card=obj.str("card"),
            public=obj.opt_str("public"),
            history=obj.names("history", "an action name", ()),
            shown=obj.opt_str("shown"),
            game=game,
        )
