"""The shape of a game's converter module (`convert/<game>.py`, named by its `GameSpec` as the
"converter" adapter): what it declares of the service's messages, its conversions, and what
ApplyMove needs to know of its cards. Every converter module satisfies `Converter`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol, TypeVar, cast

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from google.protobuf.message import Message

import engine
from engine.errors import InvalidObservationError, Wording
from engine.options import Options
from regent.v1 import common_pb2

#: A known card and the field of the observation that holds it.
Place = tuple[str, str]
#: (observation before, after, the stacked draws, the new cards the observer sees) ->
#: (draw index, card) of the draws the move may have taken, in order.
Drawn = Callable[[Any, Any, list[str], Counter[str]], list[tuple[int, str]]]


class CannotApply(Exception):
    """The move cannot be applied from the observation alone; the message says why and
    what to do instead (the service answers FAILED_PRECONDITION)."""


def add_places(places: Counter[Place], field: str, cards: Iterable[str]) -> None:
    """Count `cards` as known at `field`."""
    for card in cards:
        places[field, card] += 1


def cards_of(places: Counter[Place]) -> Counter[str]:
    """The cards of `places`, whatever their field."""
    out: Counter[str] = Counter()
    for (_, card), count in places.items():
        out[card] += count
    return out


M = TypeVar("M", bound=Message)
R = TypeVar("R", bound=Options)
E = TypeVar("E", bound=int)


def enum_numbers(enum: type[E], prefix: str, names: Iterable[str]) -> dict[str, E]:
    """A proto enum's numbers by the engine's names (`trading-post` is PREFIX_TRADING_POST),
    looked up by name so that the proto's numbering is not assumed."""
    # The generated stubs make an enum a class of its values; at runtime it is its wrapper,
    # whose `Value` the stubs type as a plain int.
    wrapper = cast(EnumTypeWrapper, enum)
    return {n: cast(E, wrapper.Value(prefix + n.upper().replace("-", "_"))) for n in names}


def rules_message(rules: Any, message: type[M]) -> M:
    """A rules dataclass as its message: every option set explicitly (an `optional` one too)."""
    return message(**{f.name: getattr(rules, f.name) for f in fields(rules)})


def rules_of_message(msg: Message, rules_class: type[R]) -> R:
    """A rules message as the engine's dataclass; an unset `optional` field takes the
    dataclass default."""
    values: dict[str, bool] = {}
    for f in fields(rules_class):
        if msg.DESCRIPTOR.fields_by_name[f.name].has_presence and not msg.HasField(f.name):
            continue
        values[f.name] = bool(getattr(msg, f.name))
    return rules_class(**values)


def seat_words(player: int, observer: int) -> str:
    """A player as a person at the table reads it: "you" for the observer, else P1..Pn
    (the seat + 1), as the page numbers them; never the engine's 0-based index."""
    return "you" if player == observer else f"P{player + 1}"


def seat_is(player: int, observer: int) -> str:
    """ "you are" or "P2 is": a player and the verb that agrees with it."""
    return "you are" if player == observer else f"{seat_words(player, observer)} is"


def _no_known_draws(obs: Any) -> dict[int, str]:
    return {}


def hold_in_hand(obs: Any, player: int, card: str) -> Any:
    """`obs` where the observer knows that `player` holds `card` (one more known card of its
    hand, kept in the game's kind order): the world ApplyObservedMove deals when the table
    showed that card leave that hand. InvalidObservationError when the hand has no room."""
    view = obs.players[player]
    if card in view.hand:
        return obs  # the observer knew it was there
    if len(view.hand) >= view.hand_size:
        raise InvalidObservationError(
            f"players[{player}].hand",
            "every card of {player}'s hand is known already",
            player=player,
        )
    order = {kind.name: i for i, kind in enumerate(engine.game(obs.game).cards)}
    hand = tuple(sorted((*view.hand, card), key=order.__getitem__))
    players = list(obs.players)
    players[player] = replace(view, hand=hand)
    return replace(obs, players=tuple(players))


def _no_outcome_text(before: Any, after: Any) -> str:
    return ""


def _no_reason(obs: Any, player: int, move: str) -> str:
    return ""


#: A step of a replayed round of secret choices: an action, or None for any choice.
Step = int | None


@dataclass(frozen=True)
class SecretRound:
    """A move that ends a round of secret choices, which the table then shows together (a
    Season's builds): what to ask, one question per player whose choice the observer now
    sees, as (place, description, that player); and, from the answers, the observation at
    the round's start where the observer knows the cards they chose, with the steps that
    replay the round (ValueError or InvalidObservationError for answers that cannot be)."""

    questions: tuple[tuple[str, str, int], ...]
    replay: Callable[[Sequence[str]], tuple[Any, list[Step]]]


def _no_secret_round(obs: Any, action: int) -> SecretRound | None:
    return None


@dataclass(frozen=True)
class TableRules:
    """What ApplyMove needs of a game: where its known cards lie, how its draw pile is
    counted and read, what a slot asks, and in how many worlds a move is tried."""

    #: Every card an observation names, with its field.
    places: Callable[[Any], Counter[Place]]
    #: Every card of the box, by name.
    deck: Counter[str]
    #: A field path's prefix -> the question a reveal slot there asks.
    questions: Mapping[str, str]
    #: A card's name as the caller wrote it -> the engine's; ValueError if it is none.
    parse: Callable[[str], str]
    #: The number of cards in the draw pile.
    pile_size: Callable[[Any], int]
    drawn: Drawn
    #: Worlds the move is played in: they deal the cards the draws leave hidden, and the
    #: other players' secret choices, each its own way, so a result that depends on those
    #: differs between them.
    worlds: int
    #: Draw index (0 = the top) -> the card the observer knows is there.
    known_draws: Callable[[Any], dict[int, str]] = _no_known_draws
    #: ApplyObservedMove: (observation, player, card) -> the observation where the observer
    #: knows `player` holds `card` where its move takes it from.
    hold: Callable[[Any, int, str], Any] = hold_in_hand
    #: ApplyObservedMove: (observation before, after) -> what the table showed of a move's
    #: outcome that is no card (who revealed a character), in words; "" when nothing.
    outcome: Callable[[Any, Any], str] = _no_outcome_text
    #: ApplyObservedMove: (observation, player, a move's text) -> why, in the game's terms
    #: and from what the observer sees, `player` cannot make that move ("P3 has 4 gold; Keep
    #: costs 6"); "" when the converter has no reason to give.
    why_not: Callable[[Any, int, str], Wording | str] = _no_reason
    #: ApplyObservedMove: (observation, the observed action) -> the round of secret choices
    #: the move ends, or None.
    secret_round: Callable[[Any, int], SecretRound | None] = _no_secret_round

    def unseen(self, obs: Any) -> Counter[str]:
        """The cards the observer cannot see: the deck less every card it knows."""
        return self.deck - cards_of(self.places(obs))

    def describe(self, place: str) -> str:
        for prefix, question in self.questions.items():
            if place.startswith(prefix):
                return question
        return "a card drawn"


class Converter(Protocol):
    """A game's converter module. Field paths in its `InvalidObservationError`s follow the
    conventions of `convert` (snake_case, dots, `[i]`), relative to the game's message."""

    #: The game's `regent.v1.Game` enum number.
    GAME: common_pb2.Game
    #: Its field of the `regent.v1.Observation` oneof `game`.
    ONEOF: str
    #: Its field of `CreateMatchRequest`, and that field's message class.
    RULES_FIELD: str
    RULES_MESSAGE: type[Message]
    #: ApplyMove's knowledge of its cards.
    TABLE: TableRules

    def observation_to_proto(self, obs: Any) -> Message:
        """The oneof branch for an engine observation."""
        ...

    def observation_from_proto(self, msg: Any, path: str) -> Any:
        """The engine observation of a oneof branch found at `path`, its shape checked."""
        ...

    def rules_to_proto(self, rules: Any) -> Message: ...

    def rules_from_proto(self, msg: Any) -> Any:
        """The engine's RulesConfig; unset options take the engine's defaults."""
        ...
