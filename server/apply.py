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

Each game's converter module says in its `TABLE` (`convert.adapter.TableRules`) where its
known cards lie, how big its draw pile is, which draws a move took and in how many worlds a
move is tried.

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
from convert import converter, observation_from_proto, observation_to_proto
from convert.adapter import CannotApply, Place, TableRules, cards_of
from engine.errors import InvalidObservationError, wording_of
from regent.v1 import advisor_pb2, common_pb2
from server.moves import action_of
from server.status import Rejected, failed_precondition, invalid_argument


def apply_move(
    observation: advisor_pb2.Observation, move: common_pb2.Move, revealed: Sequence[str]
) -> advisor_pb2.ApplyMoveResponse:
    """The observation after the observer's `move`, once `revealed` names every card the move
    turned up; until then the reveal slots only. Raises Rejected for a bad request."""
    game, obs, rules, state = position_of(observation)
    if state.current_player != obs.observer:
        raise Rejected(
            invalid_argument(
                f"observation.{game}.observer",
                "{player} is to act, not the observer ({observer_player}): only the observer's"
                " own moves can be applied",
                player=state.current_player,
                observer_player=obs.observer,
            )
        )
    action = action_of(state, move)
    given = table_cards(revealed, rules.unseen(obs), rules.parse)
    before = rules.places(obs)
    known = rules.known_draws(obs)
    positions = draw_positions([], len(given), known)
    for _ in range(len(given) + 2):
        draws = stack_pile(rules.unseen(obs), given, positions, rules.pile_size(obs), known)
        after = after_in_worlds(obs, game, draws, action, rules.worlds)
        try:
            slots, secret = draw_slots(obs, after, draws, before, rules)
        except CannotApply as err:
            raise Rejected(failed_precondition(wording_of(err))) from None
        if +secret:
            raise Rejected(
                failed_precondition(
                    "this move reveals what other players chose in secret ({cards} among"
                    " them); Regent cannot know those cards: set up the position after the"
                    " reveal by hand",
                    cards=" ".join(sorted(secret.elements())),
                )
            )
        placed = draw_positions([draw for draw, _ in slots], len(given), known)
        if placed == positions:
            break
        positions = placed
    else:  # unreachable: each round fixes one more of the caller's draws
        raise RuntimeError("the table's draws could not be placed")
    if len(given) > len(slots):
        raise Rejected(
            invalid_argument(
                f"revealed[{len(slots)}]",
                "this move turns up only {count} card(s)",
                count=len(slots),
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


def after_in_worlds(obs: Any, game: str | None, draws: list[str], action: int, worlds: int) -> Any:
    """The observer's observation after `action`, the same in `worlds` worlds; Rejected when
    they disagree: the move shows the observer what another player chose in secret."""
    seen = []
    for seed in range(worlds):
        world = state_for(obs, game, draws, seed)
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


def position_of(observation: advisor_pb2.Observation) -> tuple[str, Any, TableRules, engine.State]:
    """The game, the observation read, its table rules and the state a move is applied to;
    Rejected for an observation that cannot be read or a game that is over."""
    game = observation.WhichOneof("game") or ""
    try:
        obs = observation_from_proto(observation)
    except InvalidObservationError as err:
        raise Rejected(invalid_argument(f"observation.{err.field}", err.wording)) from None
    state = state_for(obs, game, ())
    if state.is_terminal():
        raise Rejected(failed_precondition("the game is over: there is no move to apply"))
    return game, obs, table_rules(obs), state


def table_rules(obs: Any) -> TableRules:
    """What the table shows of the moves of the game `obs` (read from a message) is played in."""
    found = converter(obs.game)
    assert found is not None, "a game read from a message has a converter"
    return found.TABLE


def state_for(obs: Any, game: str | None, draws: Sequence[str], seed: int = 0) -> engine.State:
    try:
        return engine.state_from_observation(obs, seed, draws)
    except InvalidObservationError as err:
        raise Rejected(invalid_argument(f"observation.{game}.{err.field}", err.wording)) from None


def table_cards(
    revealed: Sequence[str], unseen: Counter[str], parse: Callable[[str], str]
) -> list[str]:
    """The caller's cards by their engine names, each one the observer could not see."""
    left = Counter(unseen)
    cards = []
    for i, text in enumerate(revealed):
        try:
            name = parse(text)
        except ValueError as err:
            raise Rejected(invalid_argument(f"revealed[{i}]", wording_of(err))) from None
        if left[name] <= 0:
            raise Rejected(
                invalid_argument(
                    f"revealed[{i}]",
                    "{card} cannot have been hidden: every copy is already in the position",
                    card=name,
                )
            )
        left[name] -= 1
        cards.append(name)
    return cards


def draw_positions(found: list[int], count: int, known: dict[int, str]) -> list[int]:
    """Where the caller's `count` cards go in the draw order: the draws found visible so
    far, then the next draws after the last of them that the observer does not know."""
    placed = found[:count]
    while len(placed) < count:
        draw = placed[-1] + 1 if placed else 0
        while draw in known:
            draw += 1
        placed.append(draw)
    return placed


def stack_pile(
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
            invalid_argument(
                "revealed", "the draw pile holds only {count} card(s)", count=pile_size
            )
        )
    rest = Counter(unseen) - Counter(given)
    others = sorted(rest.elements())
    random.Random(0).shuffle(others)
    pile: list[str | None] = [known.get(i) for i in range(pile_size)]
    for card, position in zip(given, positions, strict=True):
        pile[position] = card
    fill = iter(others)
    return [card if card is not None else next(fill) for card in pile]


def draw_slots(
    before_obs: Any, after_obs: Any, draws: list[str], before: Counter[Place], rules: TableRules
) -> tuple[list[tuple[int, str]], Counter[str]]:
    """(draw index, place) of every drawn card the observer now sees, in the order drawn,
    and the other cards it now sees that it did not before (from another player's hand)."""
    after = rules.places(after_obs)
    new_places = after - before
    new_cards = cards_of(after) - cards_of(before)
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
    return slots, +new_cards
