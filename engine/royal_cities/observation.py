"""What one player knows of a Royal Cities game: a plain value that converts to and from JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.errors import InvalidObservationError
from engine.jsonview import Reader, lists
from engine.royal_cities.rules import RulesConfig

PHASES = (
    "pass", "first_build", "solo_own", "solo_regent", "turn", "effect", "knight_destination",
    "purchase", "hero_keep", "solo_add", "regent_white", "construct", "tax", "solo_trim", "end",
)  # fmt: skip
RESUMES = ("setup", "catch_up")


@dataclass(frozen=True)
class PlayerView:
    """One player as the observer sees them."""

    vp: int
    hero_up: bool
    purchased: bool
    committed: bool
    age_rank: int
    hand_size: int
    #: The cards of this hand the observer knows (the whole hand for the observer itself).
    hand: tuple[str, ...]
    #: For an opponent: the cards of the observer's hand this opponent has seen.
    seen_of_mine: tuple[str, ...]
    #: Six Cities in colour order, bottom card first.
    cities: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RegentView:
    """The Regent in solo mode."""

    vp: int
    cities: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Decision:
    """The pending decision and the context it needs."""

    phase: str
    player: int | None
    turn_played: bool = False
    effect: int | None = None
    from_revolt: bool = False
    knight_from: str | None = None
    power: int = 0
    min_card: str | None = None
    taken: int = 0
    #: Drawn cards not yet placed that the observer sees, and how many it does not.
    drawn: tuple[str, ...] = ()
    drawn_hidden: int = 0
    #: Cards chosen to build, as (card, City), when the observer may see them.
    selection: tuple[tuple[str, str], ...] = ()
    #: The observer's own secret setup choices so far.
    passes: tuple[str, ...] = ()
    first_build: str | None = None
    #: Solo Royal Taxes in progress.
    tax_left: int = 0
    taxed: tuple[str, ...] = ()
    season_vp: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    season_influence: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    #: Solo: cards still to draw into the Regent's Cities, and what comes after.
    regent_draws: int = 0
    resume: str = "setup"


@dataclass(frozen=True)
class Observation:
    """Exactly what `observer` knows: the public board, its hand, what it has seen."""

    observer: int
    num_players: int
    rules: RulesConfig
    season: int
    num_seasons: int
    starter: int
    last_purchaser: int
    players: tuple[PlayerView, ...]
    regent: RegentView | None
    market: tuple[str, ...]
    discard: tuple[str, ...]
    pile_size: int
    reserve_size: int
    decision: Decision
    game: str = "royal_cities"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: what JSON text of it parses back to (lists, not tuples)."""
        return lists(asdict(self))

    @classmethod
    def from_json(cls, data: Any) -> Observation:
        """Parse a dict as produced by `to_json`; InvalidObservationError names the bad field."""
        obj = Reader(data, "observation")
        game = obj.game("royal_cities")
        players = tuple(_player(p, i) for i, p in enumerate(obj.list("players")))
        regent_raw = obj.get("regent", None)
        regent = None
        if regent_raw is not None:
            r = Reader(regent_raw, "regent")
            regent = RegentView(vp=r.int("vp"), cities=_cities(r, "cities"))
        return cls(
            observer=obj.int("observer"),
            num_players=obj.int("num_players"),
            rules=RulesConfig.from_json(obj.get("rules", {})),
            season=obj.int("season"),
            num_seasons=obj.int("num_seasons"),
            starter=obj.int("starter"),
            last_purchaser=obj.int("last_purchaser"),
            players=players,
            regent=regent,
            market=obj.cards("market"),
            discard=obj.cards("discard"),
            pile_size=obj.int("pile_size"),
            reserve_size=obj.int("reserve_size"),
            decision=_decision(Reader(obj.get("decision"), "decision")),
            game=game,
        )


def _cities(r: Reader, key: str) -> tuple[tuple[str, ...], ...]:
    rows = r.list(key)
    if len(rows) != 6:
        raise InvalidObservationError(r.field(key), "must hold six Cities")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, (list, tuple)) or not all(isinstance(c, str) for c in row):
            raise InvalidObservationError(f"{r.field(key)}[{i}]", "must be a list of card names")
        out.append(tuple(row))
    return tuple(out)


def _player(data: Any, index: int) -> PlayerView:
    r = Reader(data, f"players[{index}]")
    return PlayerView(
        vp=r.int("vp"),
        hero_up=r.bool("hero_up"),
        purchased=r.bool("purchased"),
        committed=r.bool("committed", False),
        age_rank=r.int("age_rank"),
        hand_size=r.int("hand_size"),
        hand=r.cards("hand"),
        seen_of_mine=r.cards("seen_of_mine", ()),
        cities=_cities(r, "cities"),
    )


def _decision(r: Reader) -> Decision:
    phase = r.str("phase")
    if phase not in PHASES:
        raise InvalidObservationError(r.field("phase"), "unknown phase '{text}'", text=phase)
    resume = r.str("resume", "setup")
    if resume not in RESUMES:
        raise InvalidObservationError(r.field("resume"), "unknown value '{text}'", text=resume)
    selection = []
    for i, pair in enumerate(r.list("selection", ())):
        if not (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and all(isinstance(x, str) for x in pair)
        ):
            raise InvalidObservationError(f"decision.selection[{i}]", "must be [card, city]")
        selection.append((pair[0], pair[1]))
    return Decision(
        phase=phase,
        player=r.opt_int("player"),
        turn_played=r.bool("turn_played", False),
        effect=r.opt_int("effect"),
        from_revolt=r.bool("from_revolt", False),
        knight_from=r.opt_str("knight_from"),
        power=r.int("power", 0),
        min_card=r.opt_str("min_card"),
        taken=r.int("taken", 0),
        drawn=r.cards("drawn", ()),
        drawn_hidden=r.int("drawn_hidden", 0),
        selection=tuple(selection),
        passes=r.cards("passes", ()),
        first_build=r.opt_str("first_build"),
        tax_left=r.int("tax_left", 0),
        taxed=r.cards("taxed", ()),
        season_vp=r.ints("season_vp", (0,) * 6),
        season_influence=r.ints("season_influence", (0,) * 6),
        regent_draws=r.int("regent_draws", 0),
        resume=resume,
    )
