"""ApplyObservedMove: another player's move applied to the observer's observation, entered as
the table shows it, so that a player at a real table can follow a whole game.

The moves a player may be making are offered as the observer sees them (`observed_moves`):
the distinct `observed_action`s of its legal actions in worlds consistent with the observer's
view. A move that names a card the observer cannot place (a card played or built from a hidden
hand) is offered once, as a shape with `?` for the card ("play hand ?"): the card is the
first reveal slot. Another player's secret choice is one move, `HIDDEN_TEXT`.

The move is applied in a world consistent with the observer's view and with what the table
showed, found as follows, one reveal slot at a time (the caller answers the first open one):
- the shape's card: the observer is told the player holds it (the converter's `hold`);
- cards turned up from the draw pile where the observer sees them: stacked on the pile, as
  ApplyMove does;
- cards the observer now sees that came from another player's hand (the Magician's swap):
  the observer is told that player holds them;
- whatever else the worlds still disagree on (who reveals the next character called, a new
  round's face-up characters): the outcomes found in many worlds, in words (the converter's
  `outcome`), asked part by part, each slot's `options` the parts still possible; a part
  with one possibility is not asked.
Nothing hidden reaches the caller: the slots name only places and outcomes of the observer's
own view, and a slot still open carries no card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import engine
from convert import observation_to_proto
from convert.adapter import CannotApply, TableRules, seat_words
from engine.errors import IllegalMoveError, InvalidObservationError, Wording, worded, wording_of
from engine.interface import HIDDEN, UNSEEN
from regent.v1 import advisor_pb2, common_pb2
from server.apply import draw_positions, draw_slots, position_of, stack_pile, state_for
from server.status import Rejected, failed_precondition, invalid_argument

#: The text of another player's secret choice: the observer sees only that it was made.
HIDDEN_TEXT = "(a secret choice)"
#: Stands for the card of a move shape.
CARD = "?"
#: Worlds dealt to find the moves a player may be making.
SHAPE_WORLDS = 24
#: Worlds dealt to find the outcomes of a move the table settles (who reveals a character, a
#: new round's face-up characters): enough to meet each of a few hundred.
OUTCOME_WORLDS = 4000
#: Worlds dealt per outcome found, at least `MIN_OUTCOMES` times over, before the search ends.
OUTCOME_PER_ANSWER = 24
MIN_OUTCOMES = 8


def observed_moves(obs: Any) -> list[common_pb2.Move]:
    """The moves the player to act may be making, as `obs.observer` sees them: concrete moves
    (with their id) first, in id order, then the shapes that hide a card, then a secret
    choice. Empty when the observer is to act or the game is over."""
    card_names = {card.name for card in engine.game(obs.game).cards}
    concrete: dict[int, str] = {}
    shapes: set[str] = set()
    secret = False
    counts: Counter[int] = Counter()
    for seed in range(SHAPE_WORLDS):
        world = engine.state_from_observation(obs, seed)
        if world.is_terminal() or world.current_player == obs.observer:
            return []
        seen = {world.observed_action(a, obs.observer) for a in world.legal_actions()}
        secret = secret or bool(seen & {HIDDEN, UNSEEN})
        for action in seen - {HIDDEN, UNSEEN}:
            counts[action] += 1
            concrete.setdefault(action, world.action_to_string(action))
    for action, text in list(concrete.items()):
        words = text.split()
        if counts[action] < SHAPE_WORLDS and any(w in card_names for w in words):
            shapes.add(" ".join(CARD if w in card_names else w for w in words))
            del concrete[action]
    moves = [common_pb2.Move(id=a, text=concrete[a]) for a in sorted(concrete)]
    moves += [common_pb2.Move(text=shape) for shape in sorted(shapes)]
    if secret:
        moves.append(common_pb2.Move(id=HIDDEN, text=HIDDEN_TEXT))
    return moves


class _Answers:
    """The caller's answers, slot by slot; `slots` collects the slots asked so far."""

    def __init__(
        self, revealed: Sequence[str], game: str, parse: Callable[[str], str], observer: int
    ) -> None:
        self.revealed = list(revealed)
        self.game = game
        self.parse = parse
        self.observer = observer
        self.slots: list[advisor_pb2.RevealSlot] = []

    def who(self, player: int) -> str:
        """A player in a person's words: "you" or P1..Pn."""
        return seat_words(player, self.observer)

    @property
    def index(self) -> int:
        return len(self.slots)

    def last(self, count: int) -> list[str]:
        """The answers to the last `count` slots asked."""
        return [slot.card for slot in self.slots[len(self.slots) - count :]]

    def card(self, text: str) -> str:
        """The engine's name of the card answered to the last slot; Rejected naming it."""
        try:
            return self.parse(text)
        except ValueError as err:
            raise Rejected(
                invalid_argument(f"revealed[{self.index - 1}]", wording_of(err))
            ) from None

    def ask(
        self,
        kind: advisor_pb2.RevealKind,
        place: str,
        description: str,
        options: Sequence[str] = (),
        player: int | None = None,
    ) -> str | None:
        """The answer to a new slot, or None (the slot stays open and is the last)."""
        answer = self.revealed[self.index] if self.index < len(self.revealed) else ""
        self.slots.append(
            advisor_pb2.RevealSlot(
                place=f"{self.game}.{place}" if place else "",
                description=description,
                card=answer,
                options=list(options),
                player=player,
                kind=kind,
            )
        )
        return answer or None

    def response(self, after: Any = None) -> advisor_pb2.ApplyObservedMoveResponse:
        complete = after is not None
        if complete and len(self.revealed) > len(self.slots):
            raise Rejected(
                invalid_argument(
                    f"revealed[{len(self.slots)}]",
                    "this move shows only {count} thing(s) to enter",
                    count=len(self.slots),
                )
            )
        response = advisor_pb2.ApplyObservedMoveResponse(reveals=self.slots, complete=complete)
        if complete:
            response.observation.CopyFrom(observation_to_proto(after))
        return response


def _not_to_act(acting: int, player: int, obs: Any) -> Wording:
    """Why `player` cannot move now that `acting` is to act, naming the observer "you" (a
    template of its own, so that a translation agrees with it)."""
    if acting == obs.observer:
        return worded("you are to act, not {player}", player=player)
    if player == obs.observer:
        return worded("{acting_player} is to act, not you", acting_player=acting)
    return worded("{acting_player} is to act, not {player}", acting_player=acting, player=player)


def apply_observed_move(
    observation: advisor_pb2.Observation,
    player: int,
    move: common_pb2.Move,
    revealed: Sequence[str],
) -> advisor_pb2.ApplyObservedMoveResponse:
    """The observation after `player`'s move as the observer saw it, once `revealed` answers
    every slot; until then the slots so far, the last one open. Raises Rejected."""
    game, obs, rules, state = position_of(observation)
    if player != state.current_player:
        raise Rejected(invalid_argument("player", _not_to_act(state.current_player, player, obs)))
    answers = _Answers(revealed, game, rules.parse, obs.observer)
    observed, world_obs = _move(obs, state, player, move, answers, rules)
    if observed is None:
        return answers.response()
    secret_round = rules.secret_round(obs, observed)
    if secret_round is not None:
        for place, description, giver in secret_round.questions:
            asked = answers.ask(
                advisor_pb2.REVEAL_KIND_SECRET_CHOICE, place, description, (), giver
            )
            if asked is None:
                return answers.response()
        try:
            world_obs, steps = secret_round.replay(answers.last(len(secret_round.questions)))
            engine.state_from_observation(world_obs)
        except (ValueError, InvalidObservationError) as err:
            raise Rejected(
                invalid_argument(f"revealed[{answers.index - 1}]", wording_of(err))
            ) from None
        return _reveal(world_obs, game, _Steps(steps), answers, rules)
    play = _Player(observed, obs.observer)
    if play(state_for(world_obs, game, ()), dry=True) is None:
        world_obs = _from_hand(obs, player, state.action_to_string(observed), rules, play)
    if world_obs is None:
        field = "move.text" if move.text else "move.id"
        why = rules.why_not(obs, player, state.action_to_string(observed)) if observed >= 0 else ""
        raise Rejected(
            invalid_argument(
                field,
                why
                or (
                    worded("you cannot make this move now")
                    if player == obs.observer
                    else worded("{player} cannot make this move now", player=player)
                ),
            )
        )
    return _reveal(world_obs, game, play, answers, rules)


def _move(
    obs: Any,
    state: engine.State,
    player: int,
    move: common_pb2.Move,
    answers: _Answers,
    rules: TableRules,
) -> tuple[int | None, Any]:
    """The observed action the move names and the observation to deal worlds from; None
    while the card of a shape is still to be entered."""
    if move.HasField("id") and not move.text:
        if move.id in (HIDDEN, UNSEEN):
            return HIDDEN, obs
        return _action(state, lambda: state.action_to_string(move.id), "move.id", obs.observer), obs
    if not move.text:
        raise Rejected(invalid_argument("move", "give the move's id or its text"))
    if move.text == HIDDEN_TEXT:
        return HIDDEN, obs
    if CARD not in move.text.split():
        return _action(state, lambda: move.text, "move.text", obs.observer), obs
    cards = _move_cards(obs, player, move.text, rules)
    verb = _PAST.get(move.text.split()[0], "")
    what = (
        f"the card {answers.who(player)} {verb}"
        if verb
        else f"the card of {answers.who(player)}'s move"
    )
    text = answers.ask(
        advisor_pb2.REVEAL_KIND_MOVE_CARD, f"players[{player}].hand", what, list(cards), player
    )
    if text is None:
        return None, obs
    card = answers.card(text)
    written = move.text.replace(CARD, card, 1)
    if card not in cards:
        why = rules.why_not(obs, player, written)
        raise Rejected(
            invalid_argument(
                "revealed[0]",
                why
                or (
                    worded("you cannot {move} now", move=written)
                    if player == obs.observer
                    else worded("{player} cannot {move} now", player=player, move=written)
                ),
            )
        )
    return _action(state, lambda: written, "move.text", obs.observer), cards[card]


#: The past tense of a shape's verb, for the question that asks its card.
_PAST = {"play": "played", "build": "built"}


def _from_hand(obs: Any, player: int, text: str, rules: TableRules, play: _Player) -> Any:
    """For a move named whole (by id or text) with a card from a hand the observer could not
    see, a card the table shows once played: the observation in which `player` held it,
    as a shape's answered card gives; None if no card of the move makes it possible."""
    names = {card.name for card in engine.game(obs.game).cards}
    for word in text.split():
        if word not in names:
            continue
        try:
            held = rules.hold(obs, player, word)
            if play(engine.state_from_observation(held), dry=True) is not None:
                return held
        except InvalidObservationError:  # no room for it, or no copy left
            continue
    return None


def _move_cards(obs: Any, player: int, shape: str, rules: TableRules) -> dict[str, Any]:
    """The cards `player` can make the move `shape` with, as far as the observer knows, in
    the game's card order, each with the observation to deal worlds from (where the observer
    knows the player holds it): a card it may hold, for which the move is legal (a district
    it can afford)."""
    found: dict[str, Any] = {}
    for kind in engine.game(obs.game).cards:
        try:  # the card leaves a hand the observer did not know it was in
            world_obs = rules.hold(obs, player, kind.name)
            world = engine.state_from_observation(world_obs)
        except InvalidObservationError:  # no room for it, or no copy left: a known card
            world_obs, world = obs, engine.state_from_observation(obs)
        try:
            action = world.string_to_action(shape.replace(CARD, kind.name, 1))
        except (IllegalMoveError, ValueError):
            continue
        if action in world.legal_actions():
            found[kind.name] = world_obs
    return found


def _action(state: engine.State, text: Callable[[], str], field: str, observer: int) -> int:
    """The action a text names, or the label the observer sees for a hidden one (a card put
    under the deck)."""
    try:
        written = text()
    except ValueError as err:  # an id no action has
        raise Rejected(invalid_argument(field, wording_of(err))) from None
    try:
        return state.string_to_action(written)
    except (IllegalMoveError, ValueError) as err:
        labels = {state.observed_action(a, observer) for a in state.legal_actions()}
        found = [a for a in labels if a >= 0 and state.action_to_string(a) == written]
        if not found:
            raise Rejected(invalid_argument(field, wording_of(err))) from None
        return found[0]


class _Player:
    """Plays, in a world, an action the observer sees as `observed` (for a secret choice, the
    unseen steps before it too)."""

    def __init__(self, observed: int, observer: int) -> None:
        self.observed = observed
        self.observer = observer
        self.secret = observed == HIDDEN

    def __call__(
        self, world: engine.State, dry: bool = False, seed: int = 0
    ) -> engine.State | None:
        """The world after the move, the player's secret choice drawn from `seed` (each is
        possible as far as the observer knows); with `dry`, only whether it can be played
        (None if not)."""
        actor = world.current_player
        rng = random.Random(seed)
        for _ in range(100):  # a secret choice is a handful of steps
            legal = world.legal_actions()
            seen = [a for a in legal if world.observed_action(a, self.observer) == self.observed]
            inner = [a for a in legal if world.observed_action(a, self.observer) == UNSEEN]
            if not self.secret:
                inner = []
            if not seen and not inner:
                return None
            if dry:
                return world
            action = rng.choice(seen + inner)
            world.apply_action(action)
            if action in seen:
                return world
            if world.current_player != actor:
                return None
        return None


class _Steps:
    """Replays a round of secret choices from its start: each step an action, or None for
    any choice of the player to act (one the observer never sees)."""

    secret = True

    def __init__(self, steps: list[int | None]) -> None:
        self.steps = steps

    def __call__(
        self, world: engine.State, dry: bool = False, seed: int = 0
    ) -> engine.State | None:
        rng = random.Random(seed)
        for step in self.steps:
            legal = world.legal_actions()
            action = rng.choice(legal) if step is None else step
            if action not in legal:
                return None
            world.apply_action(action)
        return world


Play = _Player | _Steps


def _reveal(
    world_obs: Any, game: str, play: Play, answers: _Answers, rules: TableRules
) -> advisor_pb2.ApplyObservedMoveResponse:
    """The slots after the move's own: cards from others' hands, draws, then the outcome."""
    world_obs = _hands(world_obs, game, play, answers, rules)
    draws = None if world_obs is None else _draws(world_obs, game, play, answers, rules)
    if draws is None:
        return answers.response()
    outcomes = _outcomes(world_obs, game, draws, play, rules)
    shown: list[str] = []  # the outcome's parts answered so far, or taken when alone
    while True:
        left = [w for w in outcomes if [_part(w, i) for i in range(len(shown))] == shown]
        if len(left) == 1:
            return answers.response(outcomes[left[0]])
        options = sorted({_part(words, len(shown)) for words in left})
        if len(options) == 1:
            shown.append(options[0])
            continue
        chosen = answers.ask(
            advisor_pb2.REVEAL_KIND_OUTCOME, "", "what the table showed next", options
        )
        if chosen is None:
            return answers.response()
        if chosen not in options:
            raise Rejected(
                invalid_argument(f"revealed[{answers.index - 1}]", "is none of the slot's options")
            )
        shown.append(chosen)


#: Separates the parts of an outcome's words, asked one at a time.
PART = "; "
#: The part of an outcome that says nothing more.
NOTHING_MORE = "nothing more"


def _part(words: str, index: int) -> str:
    """The outcome's part `index`, or "nothing more" past its last (from the first for an
    outcome that shows nothing)."""
    parts = words.split(PART) if words else []
    return parts[index] if index < len(parts) else NOTHING_MORE


def _stacked(
    world_obs: Any, game: str, play: Play, rules: TableRules, given: list[str]
) -> tuple[list[str], list[tuple[int, str]], Counter[str], Any, int]:
    """The draw pile with `given` where the observer saw them drawn, the draw slots of the
    move, the other cards it shows, the observation after it, and the seed of the world
    (the first where the move can be made)."""
    known = rules.known_draws(world_obs)
    positions = draw_positions([], len(given), known)
    for _ in range(len(given) + 2):
        draws = stack_pile(
            rules.unseen(world_obs), given, positions, rules.pile_size(world_obs), known
        )
        seed, after = next(
            (
                (seed, a)
                for seed in range(OUTCOME_WORLDS)
                if (a := _after(world_obs, game, draws, play, seed))
            ),
            (0, None),
        )
        if after is None:
            raise Rejected(failed_precondition("no world Regent dealt allows this move"))
        try:
            slots, others = draw_slots(world_obs, after, draws, rules.places(world_obs), rules)
        except CannotApply as err:
            raise Rejected(failed_precondition(wording_of(err))) from None
        placed = draw_positions([draw for draw, _ in slots], len(given), known)
        if placed == positions:
            return draws, slots, others, after, seed
        positions = placed
    raise RuntimeError("the table's draws could not be placed")  # each round fixes one more


def _hands(
    world_obs: Any, game: str, play: Play, answers: _Answers, rules: TableRules
) -> Any | None:
    """The observation to deal worlds from once the caller named every card the move shows
    from another player's hand (the Magician's swap); None while one is to be entered."""
    while True:
        draws, _, others, after, seed = _stacked(world_obs, game, play, rules, [])
        if not others:
            return world_obs
        if play.secret:
            raise Rejected(
                failed_precondition(
                    "this move shows what several players chose in secret, which Regent "
                    "cannot follow yet: set up the position after the reveal by hand"
                )
            )
        world = state_for(world_obs, game, draws, seed)
        moved = play(world.clone(), seed=seed)
        owner, place = _hand_source(world_obs, world, moved, after, others, rules)
        text = answers.ask(
            advisor_pb2.REVEAL_KIND_HELD_CARD,
            place,
            f"a card {answers.who(owner)} held, which you now see",
            (),
            owner,
        )
        if text is None:
            return None
        card = _unseen_card(answers, text, world_obs, [], rules)
        try:
            world_obs = rules.hold(world_obs, owner, card)
            engine.state_from_observation(world_obs)
        except InvalidObservationError:
            raise Rejected(
                invalid_argument(
                    f"revealed[{answers.index - 1}]",
                    "{owner_player} cannot have held {card}",
                    owner_player=owner,
                    card=card,
                )
            ) from None


def _draws(
    world_obs: Any, game: str, play: Play, answers: _Answers, rules: TableRules
) -> list[str] | None:
    """The draw pile as the table drew it, once the caller named every card the move turned
    up where the observer sees it; None while one is to be entered."""
    start = answers.index
    given: list[str] = []
    while True:
        del answers.slots[start:]
        draws, slots, *_ = _stacked(world_obs, game, play, rules, given)
        for i, (_, place) in enumerate(slots):
            text = answers.ask(advisor_pb2.REVEAL_KIND_DRAWN_CARD, place, rules.describe(place))
            if text is None:
                return None
            if i == len(given):
                given.append(_unseen_card(answers, text, world_obs, given, rules))
                break
        else:
            return draws


def _unseen_card(
    answers: _Answers, text: str, obs: Any, given: list[str], rules: TableRules
) -> str:
    card = answers.card(text)
    left = rules.unseen(obs) - Counter(given)
    if left[card] <= 0:
        raise Rejected(
            invalid_argument(
                f"revealed[{answers.index - 1}]",
                "{card} cannot have been hidden: every copy is already in the position",
                card=card,
            )
        )
    return card


def _after(world_obs: Any, game: str, draws: list[str], play: Play, seed: int = 0) -> Any:
    """The observer's observation after the move in the world `seed` deals; None in a world
    where the move cannot be made (another card than the one shown is in the hand)."""
    world = state_for(world_obs, game, draws, seed)
    if play(world, seed=seed) is None:
        return None
    return world.observation(world_obs.observer)


def _hand_source(
    world_obs: Any,
    world: engine.State,
    moved: engine.State | None,
    after: Any,
    others: Counter[str],
    rules: TableRules,
) -> tuple[int, str]:
    """(the player whose hand held it, the place it went) of a card the observer now sees
    that came from another player's hand (or from the cards the mover drew), in `world`
    before the move and `moved` after it (`after` is the observer's observation there): the
    player whose hand lost it (the world may have dealt the same kind to others too)."""
    card = min(others.elements())

    def held(state: engine.State, q: int) -> int:
        return Counter(state.observation(q).players[q].hand)[card]

    owners = [
        q
        for q in range(world.num_players)
        if q != world_obs.observer and moved is not None and held(world, q) > held(moved, q)
    ]
    new_places = rules.places(after) - rules.places(world_obs)
    mine = f"players[{world_obs.observer}]"
    places = sorted((p for p, c in new_places if c == card), key=lambda p: mine not in p)
    if not places:
        raise Rejected(failed_precondition("this move shows more than Regent can follow"))
    return (owners or [world.current_player])[0], places[0]  # in no hand: the mover's drawn


def _outcomes(
    world_obs: Any, game: str, draws: list[str], play: Play, rules: TableRules
) -> dict[str, Any]:
    """The observer's observations after the move, by the outcome's words: one entry when
    the worlds agree, else every outcome found; Rejected when cards still differ (other
    players' secret choices shown together)."""
    seen = [a for seed in range(rules.worlds) if (a := _after(world_obs, game, draws, play, seed))]
    if seen and all(after == seen[0] for after in seen):
        return {"": seen[0]}
    found: dict[str, Any] = {}
    places = None
    for seed in range(OUTCOME_WORLDS):
        if seed >= OUTCOME_PER_ANSWER * max(len(found), MIN_OUTCOMES):
            break  # each outcome found has been met many times over: the rest are rare
        after = _after(world_obs, game, draws, play, seed)
        if after is None:
            continue
        places = places or rules.places(after)
        if rules.places(after) != places:
            raise Rejected(
                failed_precondition(
                    "this move shows what several players chose in secret, which Regent "
                    "cannot follow yet: set up the position after the reveal by hand"
                )
            )
        words = rules.outcome(world_obs, after)
        if found.setdefault(words, after) != after:
            raise Rejected(
                failed_precondition(
                    "this move shows more than Regent can tell apart: set up the position "
                    "after it by hand"
                )
            )
    return found
