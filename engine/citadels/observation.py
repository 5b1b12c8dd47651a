"""What one player knows of a Citadels game: a plain value that converts to and from JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.citadels.rules import RulesConfig
from engine.errors import InvalidObservationError, Wording, worded
from engine.jsonview import Reader, lists

PHASES = ("pick", "discard", "resource", "keep", "main", "redraw", "graveyard", "end")


@dataclass(frozen=True)
class PlayerView:
    """One player as the observer sees them."""

    gold: int
    hand_size: int
    #: The cards of this hand the observer knows (the whole hand for the observer itself).
    hand: tuple[str, ...]
    #: For an opponent: the cards of the observer's hand this opponent has seen.
    seen_of_mine: tuple[str, ...]
    #: Districts in the order built, and the round each was built in.
    city: tuple[str, ...]
    built_rounds: tuple[int, ...]
    #: Characters this player revealed this round (all of them, for the observer).
    characters: tuple[str, ...]


@dataclass(frozen=True)
class Draft:
    """The observer's part of this round's character draft."""

    #: Draft decisions made so far this round (picks and face-down discards).
    step: int
    face_up: tuple[str, ...]
    #: The characters the observer was shown at each of its picks, in order.
    shown: tuple[tuple[str, ...], ...]
    #: Its picks, and the characters it put face down, in draft order.
    picks: tuple[str, ...]
    discards: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    """The pending decision and the turn it belongs to."""

    phase: str
    player: int | None
    #: The character called (whose turn it is), once the draft is over.
    called: str | None = None
    builds_left: int = 0
    income_done: bool = False
    power_done: bool = False
    laboratory_done: bool = False
    smithy_done: bool = False
    #: Drawn cards to choose from that the observer sees, and how many it does not.
    drawn: tuple[str, ...] = ()
    drawn_hidden: int = 0
    #: Cards to keep of those drawn: 1, or 2 of 3 (then the move names the one put back).
    keep_left: int = 0
    #: Magician, to itself only: the next card put under the deck is not below this one.
    min_card: str | None = None
    #: Magician: cards put under the deck so far.
    redraw_count: int = 0
    #: The Magician's redraw or the Graveyard came before the resource step (rules option
    #: `powers_before_resources`): the turn goes back to it.
    before_resources: bool = False
    #: Graveyard: the destroyed district on offer, and the Warlord's player.
    destroyed: str | None = None
    warlord: int | None = None


@dataclass(frozen=True)
class Observation:
    """Exactly what `observer` knows: the table, its hand, what it saw in the draft."""

    observer: int
    num_players: int
    rules: RulesConfig
    round: int
    crown: int
    #: Who held the crown when this round's draft began (the first to pick).
    first_picker: int
    players: tuple[PlayerView, ...]
    draft: Draft
    #: (character, player) for each character revealed this round.
    revealed: tuple[tuple[str, int], ...]
    killed: str | None
    robbed: str | None
    deck_size: int
    #: Cards in the deck the observer can place, as (position from the bottom, card), sorted.
    deck_known: tuple[tuple[int, str], ...]
    #: The positions of `deck_known` every player knows (destroyed districts).
    deck_public: tuple[int, ...]
    first_complete: int | None
    decision: Decision
    game: str = "citadels"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: what JSON text of it parses back to (lists, not tuples)."""
        return lists(asdict(self))

    @classmethod
    def from_json(cls, data: Any) -> Observation:
        """Parse a dict as produced by `to_json`; InvalidObservationError names the bad field."""
        obj = Reader(data, "observation")
        game = obj.game("citadels")
        return cls(
            observer=obj.int("observer"),
            num_players=obj.int("num_players"),
            rules=RulesConfig.from_json(obj.get("rules", {})),
            round=obj.int("round"),
            crown=obj.int("crown"),
            first_picker=obj.int("first_picker"),
            players=tuple(_player(p, i) for i, p in enumerate(obj.list("players"))),
            draft=_draft(Reader(obj.get("draft"), "draft")),
            revealed=_pairs(obj, "revealed", str, int, worded("must be [character, player]")),
            killed=obj.opt_str("killed"),
            robbed=obj.opt_str("robbed"),
            deck_size=obj.int("deck_size"),
            deck_known=_pairs(obj, "deck_known", int, str, worded("must be [position, card]")),
            deck_public=obj.ints("deck_public", ()),
            first_complete=obj.opt_int("first_complete"),
            decision=_decision(Reader(obj.get("decision"), "decision")),
            game=game,
        )


def _is(value: Any, kind: type) -> bool:
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _pairs(r: Reader, key: str, first: type, second: type, shape: Wording) -> tuple[Any, ...]:
    """The pairs of `key`, each a `first` and a `second`; `shape` refuses any other."""
    out = []
    for i, pair in enumerate(r.list(key, ())):
        if not (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and _is(pair[0], first)
            and _is(pair[1], second)
        ):
            raise InvalidObservationError(f"{r.field(key)}[{i}]", shape)
        out.append((pair[0], pair[1]))
    return tuple(out)


def _player(data: Any, index: int) -> PlayerView:
    r = Reader(data, f"players[{index}]")
    return PlayerView(
        gold=r.int("gold"),
        hand_size=r.int("hand_size"),
        hand=r.cards("hand"),
        seen_of_mine=r.cards("seen_of_mine", ()),
        city=r.cards("city"),
        built_rounds=r.ints("built_rounds"),
        characters=r.cards("characters", ()),
    )


def _draft(r: Reader) -> Draft:
    shown = []
    for i, row in enumerate(r.list("shown", ())):
        if not isinstance(row, (list, tuple)) or not all(isinstance(c, str) for c in row):
            raise InvalidObservationError(f"draft.shown[{i}]", "must be a list of characters")
        shown.append(tuple(row))
    return Draft(
        step=r.int("step"),
        face_up=r.cards("face_up", ()),
        shown=tuple(shown),
        picks=r.cards("picks", ()),
        discards=r.cards("discards", ()),
    )


def _decision(r: Reader) -> Decision:
    phase = r.str("phase")
    if phase not in PHASES:
        raise InvalidObservationError(r.field("phase"), "unknown phase '{phase}'", phase=phase)
    return Decision(
        phase=phase,
        player=r.opt_int("player"),
        called=r.opt_str("called"),
        builds_left=r.int("builds_left", 0),
        income_done=r.bool("income_done", False),
        power_done=r.bool("power_done", False),
        laboratory_done=r.bool("laboratory_done", False),
        smithy_done=r.bool("smithy_done", False),
        drawn=r.cards("drawn", ()),
        drawn_hidden=r.int("drawn_hidden", 0),
        keep_left=r.int("keep_left", 0),
        min_card=r.opt_str("min_card"),
        redraw_count=r.int("redraw_count", 0),
        before_resources=r.bool("before_resources", False),
        destroyed=r.opt_str("destroyed"),
        warlord=r.opt_int("warlord"),
    )
