"""ApplyMove: the observer's move applied to its own observation, for a player at a real table.

The engine continues the game from the observation in a world it deals at random, so a card
the move turns up from a hidden place (the card added to the Market, a card drawn into the
hand) would be the world's guess. It never reaches the caller: every such card is a reveal
slot, and the caller names the table's cards, slot by slot, until the answer is complete.

The table's cards go where the engine draws from: `state_from_observation(..., draws=...)`
stacks the whole draw pile, the table's cards at the draws the caller could see and the
world's own cards at the draws it could not (another player's catch-up card). Which draw a
slot is can depend on the cards before it (a Market refill stops at four colours), so the
stacking is repeated until the slots the caller answered stay where they were put.

Each game says in `_GAMES` where its known cards lie, how big its draw pile is and which draws
a move took: Royal Cities' pile only shrinks, so the size tells; Citadels puts cards under its
deck as others come off the top, but every card the observer's own move draws lands in its
sight, and the cards it put under itself stay where it knows they are.

The move is played in several worlds that deal the remaining hidden cards and the other
players' secret choices differently; if the observer's view afterwards differs between them,
the move showed something the caller never told (the others' Season builds): FAILED_PRECONDITION.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import engine
from engine.citadels.cards import DISTRICTS, parse_district
from engine.errors import IllegalMoveError, InvalidObservationError
from engine.royal_cities.cards import copies, kind_name, parse_kind
from regent.v1 import advisor_pb2, common_pb2
from server.convert import observation_from_proto, observation_to_proto
from server.status import Rejected, failed_precondition, invalid_argument

#: A known card and the field of the observation that holds it.
Place = tuple[str, str]


def apply_move(
    observation: advisor_pb2.Observation, move: common_pb2.Move, revealed: Sequence[str]
) -> advisor_pb2.ApplyMoveResponse:
    """The observation after the observer's `move`, once `revealed` names every card the move
    turned up; until then the reveal slots only. Raises Rejected for a bad request."""
    game = observation.WhichOneof("game")
    try:
        obs = observation_from_proto(observation)
    except InvalidObservationError as err:
        raise Rejected(invalid_argument(f"observation.{err.field}", err.reason)) from None
    rules = _GAMES.get(obs.game)
    if rules is None:
        raise Rejected(invalid_argument("observation", f"ApplyMove does not play {obs.game}"))
    state = _state(obs, game, ())
    if state.is_terminal():
        raise Rejected(failed_precondition("the game is over: there is no move to apply"))
    if state.current_player != obs.observer:
        raise Rejected(
            invalid_argument(
                f"observation.{game}.observer",
                f"player {state.current_player} is to act, not the observer {obs.observer}: "
                "only the observer's own moves can be applied",
            )
        )
    action = _action(state, move)
    given = _cards(revealed, rules.unseen(obs), rules.parse)
    before = rules.places(obs)
    known = rules.known_draws(obs)
    positions = _positions([], len(given), known)
    for _ in range(len(given) + 2):
        draws = _stack(rules.unseen(obs), given, positions, rules.pile_size(obs), known)
        after = _after(obs, game, draws, action)
        slots = _slots(obs, after, draws, before, rules)
        placed = _positions([draw for draw, _ in slots], len(given), known)
        if placed == positions:
            break
        positions = placed
    else:  # unreachable: each round fixes one more of the caller's draws
        raise RuntimeError("the table's draws could not be placed")
    if len(given) > len(slots):
        raise Rejected(
            invalid_argument(
                f"revealed[{len(slots)}]", f"this move turns up only {len(slots)} card(s)"
            )
        )
    response = advisor_pb2.ApplyMoveResponse(
        reveals=[
            advisor_pb2.RevealSlot(
                place=f"{game}.{place}",
                description=rules.describe(place),
                card=given[i] if i < len(given) else "",
            )
            for i, (_, place) in enumerate(slots)
        ],
        complete=len(given) == len(slots),
    )
    if response.complete:
        response.observation.CopyFrom(observation_to_proto(after))
    return response


#: Worlds the move is played in, per game: they deal the cards the draws leave hidden, and
#: the other players' secret choices, each its own way, so a result that depends on those
#: differs. Citadels needs more: a round's end shows who held a character among few players
#: (the killed King takes the crown), which three worlds could agree on by chance.
WORLDS = {"royal_cities": range(3), "citadels": range(16)}


def _after(obs: Any, game: str | None, draws: list[str], action: int) -> Any:
    """The observer's observation after `action`, the same in every world; Rejected when
    the worlds disagree: the move shows the observer what another player chose in secret."""
    seen = []
    for seed in WORLDS[obs.game]:
        world = _state(obs, game, draws, seed)
        world.apply_action(action)
        seen.append(world.observation(obs.observer))
    if any(other != seen[0] for other in seen[1:]):
        raise Rejected(
            failed_precondition(
                "this move reveals what the other players hold or chose in secret, which Regent "
                "cannot know: set up the position after the reveal by hand"
            )
        )
    return seen[0]


def _state(obs: Any, game: str | None, draws: Sequence[str], seed: int = 0) -> engine.State:
    try:
        return engine.state_from_observation(obs, seed, draws)
    except InvalidObservationError as err:
        raise Rejected(invalid_argument(f"observation.{game}.{err.field}", err.reason)) from None


def _action(state: engine.State, move: common_pb2.Move) -> int:
    """The legal action `move` names, by id or text (both: they must agree)."""
    if not move.text and not move.HasField("id"):
        raise Rejected(invalid_argument("move", "give the move's id or its text"))
    action = move.id if move.HasField("id") else None
    if move.text:
        try:
            by_text = state.string_to_action(move.text)
        except IllegalMoveError as err:
            raise Rejected(invalid_argument("move.text", str(err))) from None
        if action is not None and action != by_text:
            raise Rejected(invalid_argument("move", "id and text name different moves"))
        action = by_text
    if action not in state.legal_actions():
        field = "move.text" if move.text else "move.id"
        raise Rejected(invalid_argument(field, f"not a legal move now (decision: {state.phase})"))
    return action


def _cards(revealed: Sequence[str], unseen: Counter[str], parse: Callable[[str], str]) -> list[str]:
    """The caller's cards by their engine names, each one the observer could not see."""
    left = Counter(unseen)
    cards = []
    for i, text in enumerate(revealed):
        try:
            name = parse(text)
        except ValueError as err:
            raise Rejected(invalid_argument(f"revealed[{i}]", str(err))) from None
        if left[name] <= 0:
            raise Rejected(
                invalid_argument(
                    f"revealed[{i}]",
                    f"{name} cannot have been hidden: every copy is already in the position",
                )
            )
        left[name] -= 1
        cards.append(name)
    return cards


def _positions(found: list[int], count: int, known: dict[int, str]) -> list[int]:
    """Where the caller's `count` cards go in the draw order: the draws found visible so
    far, then the next draws after the last of them that the observer does not know."""
    placed = found[:count]
    while len(placed) < count:
        draw = placed[-1] + 1 if placed else 0
        while draw in known:
            draw += 1
        placed.append(draw)
    return placed


def _stack(
    unseen: Counter[str],
    given: list[str],
    positions: list[int],
    pile_size: int,
    known: dict[int, str],
) -> list[str]:
    """The whole draw pile, top first: `given[i]` at draw `positions[i]`, the cards the
    observer knows where they are, the other unseen cards (in a fixed random order) elsewhere."""
    if positions and positions[-1] >= pile_size:
        raise Rejected(
            invalid_argument("revealed", f"the draw pile holds only {pile_size} card(s)")
        )
    rest = Counter(unseen) - Counter(given)
    others = sorted(rest.elements())
    random.Random(0).shuffle(others)
    pile: list[str | None] = [known.get(i) for i in range(pile_size)]
    for card, position in zip(given, positions, strict=True):
        pile[position] = card
    fill = iter(others)
    return [card if card is not None else next(fill) for card in pile]


def _slots(
    before_obs: Any, after_obs: Any, draws: list[str], before: Counter[Place], rules: _Rules
) -> list[tuple[int, str]]:
    """(draw index, place) of every drawn card the observer now sees, in the order drawn;
    Rejected when the move showed it other hidden cards (another player's secret choice)."""
    after = rules.places(after_obs)
    new_places = after - before
    new_cards = _cards_of(after) - _cards_of(before)
    known = rules.known_draws(before_obs)
    slots = []
    for index, card in rules.drawn(before_obs, after_obs, draws, new_cards):
        if index in known or new_cards[card] <= 0:
            continue  # drawn where the observer cannot see it, or a card it knew
        new_cards[card] -= 1
        place = next((p for p, c in new_places if c == card and new_places[p, c] > 0), "")
        if place:
            new_places[place, card] -= 1
        slots.append((index, place))
    if +new_cards:
        raise Rejected(
            failed_precondition(
                "this move reveals what other players chose in secret "
                f"({' '.join(sorted(new_cards.elements()))} among them); Regent cannot know "
                "those cards: set up the position after the reveal by hand"
            )
        )
    return slots


def _cards_of(places: Counter[Place]) -> Counter[str]:
    out: Counter[str] = Counter()
    for (_, card), count in places.items():
        out[card] += count
    return out


#: (observation before, after, the stacked draws, the new cards the observer sees) ->
#: (draw index, card) of the draws the move may have taken, in order.
Drawn = Callable[[Any, Any, list[str], Counter[str]], list[tuple[int, str]]]


class _Rules:
    """What ApplyMove needs of a game: where its known cards lie, how its draw pile is
    counted and read, and what a slot asks."""

    def __init__(
        self,
        places: Callable[[Any], Counter[Place]],
        deck: Counter[str],
        questions: dict[str, str],
        parse: Callable[[str], str],
        pile_size: Callable[[Any], int],
        drawn: Drawn,
        known_draws: Callable[[Any], dict[int, str]] = lambda obs: {},
    ) -> None:
        self.places = places
        self.deck = deck
        self.questions = questions
        #: A card's name as the caller wrote it -> the engine's; ValueError if it is none.
        self.parse = parse
        self.pile_size = pile_size
        self.drawn = drawn
        #: Draw index (0 = the top) -> the card the observer knows is there.
        self.known_draws = known_draws

    def unseen(self, obs: Any) -> Counter[str]:
        """The cards the observer cannot see: the deck less every card it knows."""
        return self.deck - _cards_of(self.places(obs))

    def describe(self, place: str) -> str:
        for prefix, question in self.questions.items():
            if place.startswith(prefix):
                return question
        return "a card drawn"


def _add(places: Counter[Place], field: str, cards: Sequence[str]) -> None:
    for card in cards:
        places[field, card] += 1


def _royal_cities_places(obs: Any) -> Counter[Place]:
    """Every card a Royal Cities observation names, with its field."""
    places: Counter[Place] = Counter()
    _add(places, "market", obs.market)
    _add(places, "discard", obs.discard)
    _add(places, "decision.drawn", obs.decision.drawn)
    for q, view in enumerate(obs.players):
        _add(places, f"players[{q}].hand", view.hand)
        for c, city in enumerate(view.cities):
            _add(places, f"players[{q}].cities[{c}]", city)
    if obs.regent is not None:
        for c, city in enumerate(obs.regent.cities):
            _add(places, f"regent.cities[{c}]", city)
    return places


def _royal_cities_drawn(
    before: Any, after: Any, draws: list[str], new_cards: Counter[str]
) -> list[tuple[int, str]]:
    """The pile only shrinks in a move, by the cards drawn; Rejected after a reshuffle."""
    if after.pile_size > before.pile_size or len(after.discard) < len(before.discard):
        raise Rejected(
            failed_precondition(
                "the draw pile ran out and was reshuffled during this move: "
                "set up the position after it by hand"
            )
        )
    return list(enumerate(draws[: before.pile_size - after.pile_size]))


def _citadels_places(obs: Any) -> Counter[Place]:
    """Every district a Citadels observation names, with its field."""
    places: Counter[Place] = Counter()
    _add(places, "decision.drawn", obs.decision.drawn)
    if obs.decision.destroyed is not None:
        _add(places, "decision.destroyed", [obs.decision.destroyed])
    _add(places, "deck_known", [card for _, card in obs.deck_known])
    for q, view in enumerate(obs.players):
        _add(places, f"players[{q}].hand", view.hand)
        _add(places, f"players[{q}].city", view.city)
    return places


def _citadels_known_draws(obs: Any) -> dict[int, str]:
    """The deck cards the observer put under it, by draw index (positions count from the
    bottom, draws from the top)."""
    return {obs.deck_size - 1 - position: card for position, card in obs.deck_known}


def _citadels_drawn(
    before: Any, after: Any, draws: list[str], new_cards: Counter[str]
) -> list[tuple[int, str]]:
    """Cards go under the deck as others come off its top, so the sizes do not tell how many
    were drawn; but every card the observer's own move draws lands in its sight (its hand or
    the cards to keep): the draws are the top cards up to the last new one it sees."""
    left = Counter(new_cards)
    known = _citadels_known_draws(before)
    taken = []
    for index, card in enumerate(draws):
        if not +left:
            break
        taken.append((index, card))
        if index not in known:
            if left[card] <= 0:
                break
            left[card] -= 1
    return taken


def _district_name(text: str) -> str:
    return DISTRICTS[parse_district(text)][0]


_GAMES: dict[str, _Rules] = {
    "royal_cities": _Rules(
        _royal_cities_places,
        Counter({kind_name(k): copies(k) for k in range(49)}),
        {
            "market": "the card turned up from the draw pile for the Market",
            "discard": "the card turned up from the draw pile for the Market",
            "decision.drawn": "a card you drew",
            "players[": "the card drawn into your hand",
            "regent.": "the card drawn for the Regent",
        },
        parse=lambda text: kind_name(parse_kind(text)),
        pile_size=lambda obs: obs.pile_size,
        drawn=_royal_cities_drawn,
    ),
    "citadels": _Rules(
        _citadels_places,
        Counter({name: n for name, _, _, n in DISTRICTS}),
        {
            "decision.drawn": "a district you drew, to keep or put back",
            "players[": "the district drawn into your hand",
        },
        parse=_district_name,
        pile_size=lambda obs: obs.deck_size,
        drawn=_citadels_drawn,
        known_draws=_citadels_known_draws,
    ),
}
