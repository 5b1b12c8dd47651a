"""Every reveal slot ApplyObservedMove asks has a way to answer it, and everything it says reads
as the page numbers players ("you", P1..Pn), over a real socket: seeded games of both games,
several player counts, followed from every seat, each slot answered from the true game; the
end of a turn whose outcome says "nothing more"; the card of another player's build offered
only among the districts it can afford, and a refusal that says why in the game's terms."""

from __future__ import annotations

import re

import grpc
import pytest

import engine
from convert import observation_from_proto, observation_to_proto
from convert.citadels import TABLE as CITADELS_TABLE
from engine.citadels.cards import DISTRICTS
from regent.v1 import advisor_pb2, common_pb2
from search.bots import make_bot
from server.apply_observed import NOTHING_MORE, PART
from tests.follow_table import follow_game
from tests.support.errors import field_violations

Code = grpc.StatusCode
#: The engine's 0-based player label ("p1" for the page's P2): never in a text a person reads.
ENGINE_LABEL = re.compile(r"\bp\d\b")
COST = {name: cost for name, _, cost, _ in DISTRICTS}


def _readable(*texts: str) -> None:
    for text in texts:
        assert not ENGINE_LABEL.search(text), f"an engine label in {text!r}"


class Watch:
    """ApplyObservedMove over the socket, every answer checked: no slot without a way to
    answer it, no engine label in a description, an option or a refusal, an answered slot's
    answer among its options, and "nothing more" the last thing asked. None for a refused
    answer (the driver tries the next one the table may have shown)."""

    def __init__(self, advisor) -> None:
        self.advisor = advisor
        self.kinds: set[int] = set()

    def __call__(self, request: advisor_pb2.ApplyObservedMoveRequest):
        try:
            response = self.advisor.ApplyObservedMove(request, timeout=60)
        except grpc.RpcError as err:
            if err.code() != Code.INVALID_ARGUMENT or not request.revealed:
                raise
            _readable(err.details() or "", *(v.description for v in field_violations(err)))
            return None
        for slot in response.reveals:
            self.kinds.add(slot.kind)
            _readable(slot.description, *slot.options)
            assert slot.kind != advisor_pb2.REVEAL_KIND_UNSPECIFIED, slot
            if slot.kind == advisor_pb2.REVEAL_KIND_OUTCOME:
                assert len(slot.options) > 1 and not slot.place, slot
            if slot.card and slot.options:
                assert slot.card in slot.options, slot
        if request.revealed and request.revealed[-1] == NOTHING_MORE:
            assert response.complete, "'nothing more' ends what the move showed"
        return response


def _same(view, truth, request) -> None:
    assert view == truth, f"after {request.move.text}"


def _follow(advisor, game: str, players: int, seed: int, steps: int | None = None) -> set[int]:
    """Follow the game from every seat (the driver asserts that the answers read off the true
    game give the true observation); the slot kinds asked."""
    watch = Watch(advisor)
    for seat in range(players):
        follow_game(game, players, seed, seat, watch, _same, steps)
    return watch.kinds


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12)])
def test_royal_cities_slots_can_all_be_answered(advisor, players: int, seed: int) -> None:
    kinds = _follow(advisor, "royal_cities", players, seed, steps=150)
    assert advisor_pb2.REVEAL_KIND_SECRET_CHOICE in kinds


def test_citadels_slots_can_all_be_answered(advisor) -> None:
    kinds = _follow(advisor, "citadels", 3, 10, steps=40)  # a round and the next draft
    assert advisor_pb2.REVEAL_KIND_OUTCOME in kinds


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [
        ("royal_cities", 2, 21),
        ("royal_cities", 3, 22),
        ("royal_cities", 4, 23),
        ("citadels", 3, 24),
        ("citadels", 4, 25),
        ("citadels", 5, 26),
        ("citadels", 7, 27),
    ],
)
def test_whole_games_slots_can_all_be_answered(advisor, game, players, seed) -> None:
    _follow(advisor, game, players, seed)


def _apply(advisor, observation, player: int, move: str, *revealed: str):
    request = advisor_pb2.ApplyObservedMoveRequest(
        observation=observation, player=player, move=common_pb2.Move(text=move),
        revealed=list(revealed),
    )  # fmt: skip
    return advisor.ApplyObservedMove(request, timeout=60)


def _before(game: str, players: int, seed: int, found) -> tuple[engine.State, int]:
    """The first state of a seeded heuristic game where `found(state, action)` holds for the
    action the bot chooses; that action."""
    state = engine.new_game(game, players, seed)
    bot = make_bot("heuristic")
    step = 0
    while not state.is_terminal():
        action = bot.choose(state, seed * 100_000 + step)
        if found(state, action):
            return state, action
        state.apply_action(action)
        step += 1
    raise AssertionError("no such moment")


def _answer_outcome(advisor, state: engine.State, action: int, seat: int):
    """Enter `action` (an end of turn) as `seat` saw it, each outcome slot answered off the
    true game ('nothing more' once the table showed nothing more): (the answers, the last
    response, the true observation after it)."""
    observation, player = observation_to_proto(state.observation(seat)), state.current_player
    after = state.clone()
    after.apply_action(action)
    truth = after.observation(seat)
    shown = CITADELS_TABLE.outcome(state.observation(seat), truth).split(PART)
    answers: list[str] = []
    while not (response := _apply(advisor, observation, player, "end turn", *answers)).complete:
        options = response.reveals[-1].options
        assert options, f"an outcome slot without options after {answers}"
        answers.append(next((o for o in options if o in shown and o not in answers), NOTHING_MORE))
        assert answers[-1] in options
    return answers, response, truth


def test_nothing_more_ends_a_turns_outcome(advisor) -> None:
    """The end of a turn after which the table showed nothing (nobody revealed the next
    character) where other worlds show more: 'nothing more' is an option and the answer, and
    the move is complete, the truth (issue 60: after 'nothing more' a second slot opened with
    no options, a dead end; and an outcome that showed nothing read 'as the engine dealt
    it')."""

    def ends_short(state: engine.State, action: int) -> bool:
        if state.current_player in (0, -1) or state.action_to_string(action) != "end turn":
            return False
        after = state.clone()
        after.apply_action(action)
        if CITADELS_TABLE.outcome(state.observation(0), after.observation(0)):
            return False  # the table showed something
        return bool(_answer_outcome(advisor, state, action, 0)[0])  # and other worlds more

    state, action = _before("citadels", 4, 11, ends_short)
    answers, response, truth = _answer_outcome(advisor, state, action, 0)
    assert answers[-1] == NOTHING_MORE
    assert observation_from_proto(response.observation) == truth
    _readable(*(s.description for s in response.reveals), *answers)


def test_a_build_is_offered_only_among_the_districts_the_builder_can_afford(advisor) -> None:
    """Another player's 'build ?': the slot's options are the districts it can build (no
    costlier one than its gold, none already in its city); naming a costlier one is refused
    with the reason, the player as the page numbers it."""

    def poor_builder(state: engine.State, action: int) -> bool:
        q = state.current_player
        if q in (0, -1) or not state.action_to_string(action).startswith("build "):
            return False
        return state.observation(0).players[q].gold < max(COST.values())

    state, action = _before("citadels", 4, 3, poor_builder)
    q = state.current_player
    view = state.observation(0)
    gold, city = view.players[q].gold, view.players[q].city
    observation = observation_to_proto(view)
    first = _apply(advisor, observation, q, "build ?")
    [slot] = first.reveals
    assert slot.kind == advisor_pb2.REVEAL_KIND_MOVE_CARD and slot.player == q
    assert slot.description == f"the card P{q + 1} built"
    assert slot.options and all(COST[d] <= gold and d not in city for d in slot.options)
    built = state.action_to_string(action).split()[1]
    assert built in slot.options
    done = _apply(advisor, observation, q, "build ?", built)
    state.apply_action(action)
    assert observation_from_proto(done.observation) == state.observation(0)
    costly = next(d for d in CITADELS_TABLE.unseen(view) if COST[d] > gold)
    with pytest.raises(grpc.RpcError) as info:
        _apply(advisor, observation, q, "build ?", costly)
    assert info.value.code() == Code.INVALID_ARGUMENT
    [violation] = field_violations(info.value)
    assert violation.field == "revealed[0]"
    # The district by its engine name: the page words it in its own language (a `card`).
    assert violation.description == f"P{q + 1} has {gold} gold; {costly} costs {COST[costly]}"
