"""A person at the table, for the tests that follow whole games: what they would enter for
each move of a true game, from one seat (the move as they see it, and the answer to each
reveal slot read off the true game), and a driver that plays seeded bot games through an
`apply(request) -> response` function (the RPC, or the page)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from convert import converter, observation_from_proto, observation_to_proto
from convert.adapter import cards_of
from engine.interface import HIDDEN, UNSEEN
from regent.v1 import advisor_pb2, common_pb2
from search.bots import make_bot
from server.apply_observed import CARD, HIDDEN_TEXT, NOTHING_MORE, PART

#: Sends a request; None when an answer in it is refused (INVALID_ARGUMENT on `revealed`).
Apply = Callable[
    [advisor_pb2.ApplyObservedMoveRequest], advisor_pb2.ApplyObservedMoveResponse | None
]


def entered_move(before: engine.State, action: int, seat: int) -> common_pb2.Move:
    """The move as `seat` would enter it: its own move as played, another's as seen (a
    secret choice, a label, a concrete move or its shape with the card hidden)."""
    if before.current_player == seat:
        return common_pb2.Move(text=before.action_to_string(action))
    seen = before.observed_action(action, seat)
    if seen == HIDDEN:
        return common_pb2.Move(id=HIDDEN, text=HIDDEN_TEXT)
    return common_pb2.Move(text=before.action_to_string(seen))


def shape_of(move: common_pb2.Move, game: str) -> tuple[common_pb2.Move, str | None]:
    """The move's shape when its card is one the observer could not know, with that card."""
    names = {card.name for card in engine.game(game).cards}
    words = move.text.split()
    cards = [w for w in words if w in names]
    if not cards:
        return move, None
    return common_pb2.Move(text=" ".join(CARD if w in names else w for w in words)), cards[0]


@dataclass
class Tally:
    """What following a game took."""

    moves: int = 0
    opponent_moves: int = 0
    #: Taps per opponent move: one for the move, one per answer.
    taps: Counter[int] = field(default_factory=Counter)


def answers(
    slots: list[advisor_pb2.RevealSlot], view: Any, truth: Any, before: engine.State, action: int
) -> list[str]:
    """What the table may show for the last of `slots`, read off the true game after the
    move, most likely first (which draw came first the true game does not say)."""
    slot = slots[-1]
    given = [s.card for s in slots[:-1]]
    rules = converter(view.game).TABLE
    place = slot.place.split(".", 1)[1] if slot.place else ""
    if slot.kind == advisor_pb2.REVEAL_KIND_OUTCOME:  # the parts, in the converter's words
        shown = [*rules.outcome(view, truth).split(PART), NOTHING_MORE]
        return [option for option in slot.options if option in shown]
    if place.endswith(".cities"):
        q = int(place.split("[")[1].split("]")[0])
        built = [
            f"{card} {ROYAL_CITIES[c]}"
            for c, (old, new) in enumerate(
                zip(view.players[q].cities, truth.players[q].cities, strict=True)
            )
            for card in new[len(old) :]
        ]
        return [", ".join(built) or "none"]
    if slot.kind == advisor_pb2.REVEAL_KIND_SECRET_CHOICE and place.endswith(".hand"):
        q = slot.player  # the card it passed the observer
        passes = list(before.observation(q).decision.passes)
        if q == before.current_player:  # the last pass is the move itself
            passes.append(before.action_to_string(action).split()[-1])
        n, me = view.num_players, view.observer
        earlier = sum(s.kind == slot.kind for s in slots[:-1])
        return [passes[earlier if n == 2 else 0 if q == (me - 1) % n else 1]]
    new = cards_of(rules.places(truth)) - cards_of(rules.places(view)) - Counter(given)
    moved = rules.places(truth) - rules.places(view)
    at_place = {c for (p, c) in moved if p == place and new[c] > 0}
    return sorted(+new, key=lambda c: (c not in at_place, c))


#: Royal Cities' City colours, in their order.
ROYAL_CITIES = ("purple", "yellow", "pink", "red", "blue", "green")


def follow_game(
    game: str,
    players: int,
    seed: int,
    seat: int,
    apply: Apply,
    check: Callable[..., None],
    steps: int | None = None,
) -> Tally:
    """Play a seeded game of heuristic bots and enter every move from `seat` through `apply`;
    `check(entered observation, true observation, the request that entered it)` after each
    move (the request holds the move as entered and every answer). With `steps`, only the
    game's first `steps` actions."""
    state = engine.new_game(game, players, seed)
    bot = make_bot("heuristic")
    view = state.observation(seat)
    tally = Tally()
    step = 0
    while not state.is_terminal() and (steps is None or step < steps):
        before = state.clone()
        action = bot.choose(state, seed * 100_000 + step)
        step += 1
        state.apply_action(action)
        if before.current_player != seat and before.observed_action(action, seat) == UNSEEN:
            continue  # a step inside another player's secret choice: nothing to enter
        truth = state.observation(seat)
        move = entered_move(before, action, seat)
        request = advisor_pb2.ApplyObservedMoveRequest(
            observation=observation_to_proto(view), player=before.current_player, move=move
        )
        shaped, card = shape_of(move, game)
        if before.current_player != seat and card is not None:
            offered = {m.text for m in _observed_moves(view)}
            if move.text not in offered:
                request.move.CopyFrom(shaped)
                request.revealed.append(card)
        response = _complete(apply, request, view, truth, before, action)
        assert response is not None, f"no answers give the true observation after {move.text}"
        tally.moves += 1
        if before.current_player != seat:
            tally.opponent_moves += 1
            tally.taps[1 + len(request.revealed)] += 1
        view = observation_from_proto(response.observation)
        check(view, truth, request)
    return tally


def _complete(
    apply: Apply,
    request: advisor_pb2.ApplyObservedMoveRequest,
    view: Any,
    truth: Any,
    before: engine.State,
    action: int,
) -> advisor_pb2.ApplyObservedMoveResponse | None:
    """The answer after the slots are answered as the table shows (None if no answers give
    the true observation); `request.revealed` then holds the answers."""
    response = apply(request)
    if response is None:  # an answer the service refused: not what the table showed
        return None
    if response.complete:
        return response if observation_from_proto(response.observation) == truth else None
    for text in answers(list(response.reveals), view, truth, before, action):
        request.revealed.append(text)
        found = _complete(apply, request, view, truth, before, action)
        if found is not None:
            return found
        del request.revealed[-1]
    return None


def _observed_moves(view: Any) -> list[common_pb2.Move]:
    from server.apply_observed import observed_moves

    return observed_moves(view)
