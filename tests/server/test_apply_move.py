"""AdvisorService.ApplyMove over a real socket: reveal slots answered one at a time, the
table's cards used as drawn, and the refusals (bad cards, illegal moves, secret reveals)."""

from __future__ import annotations

import random
from collections import Counter

import grpc
import pytest

import engine
from convert import observation_from_proto, observation_to_proto
from convert.adapter import cards_of
from convert.royal_cities import TABLE
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from tests.royal_cities.positions import play, position
from tests.royal_cities.test_rulebook_examples import ELOISE, WILL
from tests.support.errors import violated_fields

Code = grpc.StatusCode
MARKET = ["purple-3", "yellow-4", "red-1", "blue-2"]


def _turn() -> advisor_pb2.Observation:
    state = position(market=MARKET, hands={0: ["pink-2", "white-6", "green-5"]})
    return observation_to_proto(state.observation(0))


def _apply(advisor, observation, move: str, *revealed: str) -> advisor_pb2.ApplyMoveResponse:
    request = advisor_pb2.ApplyMoveRequest(
        observation=observation, move=common_pb2.Move(text=move), revealed=list(revealed)
    )
    return advisor.ApplyMove(request, timeout=10)


def _error(advisor, observation, move: str, *revealed: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        _apply(advisor, observation, move, *revealed)
    return info.value


def _market(response: advisor_pb2.ApplyMoveResponse) -> list[str]:
    return list(observation_from_proto(response.observation).market)


def test_adding_asks_for_the_card_then_uses_it(advisor: advisor_pb2_grpc.AdvisorServiceStub):
    observation = _turn()
    first = _apply(advisor, observation, "add")
    assert not first.complete
    assert not first.HasField("observation"), "no guessed card may reach the caller"
    [slot] = first.reveals
    assert slot.place == "royal_cities.market"
    assert "Market" in slot.description
    assert slot.card == ""
    done = _apply(advisor, observation, "add", "green-6")
    assert done.complete
    assert done.reveals[0].card == "green-6"
    assert _market(done) == [*MARKET, "green-6"]
    after = done.observation.royal_cities
    assert after.pile_size == observation.royal_cities.pile_size - 1
    assert after.decision.player == 1


def test_moves_without_hidden_cards_complete_at_once(advisor) -> None:
    done = _apply(advisor, _turn(), "play hand green-5")  # the Knight: a target to choose
    assert done.complete and not done.reveals
    assert done.observation.royal_cities.decision.player == 0


def test_the_astrologer_asks_three_cards_one_by_one(advisor) -> None:
    observation = _turn()
    answers = ["blue-6", "blue-1", "yellow-0"]
    for given in range(3):
        response = _apply(advisor, observation, "play hand white-6", *answers[:given])
        assert not response.complete
        assert [s.card for s in response.reveals] == [*answers[:given], "", "", ""][:3]
        assert {s.place for s in response.reveals} == {"royal_cities.decision.drawn"}
    done = _apply(advisor, observation, "play hand white-6", *answers)
    drawn = observation_from_proto(done.observation).decision.drawn
    assert sorted(drawn) == sorted(answers)


def test_a_season_end_asks_for_the_catch_up_card_and_the_refill(advisor) -> None:
    """Will (seen by himself, p1) closes the construction of the rulebook's scoring example:
    12 VP to 10, he draws a catch-up card, then the empty Market is refilled to four
    colours; a card of a colour already there is discarded and one more is turned up."""
    state = position(phase="construct", player=0, cities={0: ELOISE, 1: WILL})
    observation = observation_to_proto(play(state, "stop").observation(1))
    table = ["yellow-1", "yellow-2", "yellow-3", "pink-5", "red-6", "white-0"]
    given: list[str] = []
    while True:
        response = _apply(advisor, observation, "stop", *given)
        if response.complete:
            break
        assert response.reveals[0].place == "royal_cities.players[1].hand"
        given.append(table[len(given)])
    after = observation_from_proto(response.observation)
    assert given == table
    assert [p.vp for p in after.players] == [12, 10]
    assert after.players[1].hand == ("yellow-1",)
    assert after.market == ("yellow-2", "pink-5", "red-6", "white-0")
    assert after.discard == ("yellow-3",)
    assert after.season == 2


@pytest.mark.parametrize(
    ("revealed", "field"),
    [
        (["purple-3", "purple-3"], "revealed[1]"),  # one copy in the Market, one hidden
        (["white-6"], "revealed[0]"),  # in the observer's hand
        (["gold-3"], "revealed[0]"),
        (["green-6", "green-3"], "revealed[1]"),  # adding turns up one card only
    ],
)
def test_impossible_revealed_cards_name_their_slot(advisor, revealed, field) -> None:
    err = _error(advisor, _turn(), "add", *revealed)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == [field]


@pytest.mark.parametrize(
    ("move", "field"), [("fly away", "move.text"), ("play hand red-6", "move.text"), ("", "move")]
)
def test_illegal_moves_are_refused(advisor, move: str, field: str) -> None:
    err = _error(advisor, _turn(), move)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == [field]


def test_only_the_observer_to_act_may_move(advisor) -> None:
    state = position(market=MARKET, hands={0: ["pink-2"]}, hidden_hands={1: 2})
    observation = observation_to_proto(state.observation(1))
    err = _error(advisor, observation, "add")
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == ["observation.royal_cities.observer"]


def test_an_impossible_position_names_its_field(advisor) -> None:
    observation = _turn()
    observation.royal_cities.players[0].hand[0].value = 9
    err = _error(advisor, observation, "add")
    assert violated_fields(err) == ["observation.royal_cities.players[0].hand[0]"]
    err = _error(advisor, advisor_pb2.Observation(), "add")
    assert violated_fields(err) == ["observation.game"]


def test_revealing_secret_choices_is_refused(advisor) -> None:
    """The last to build at a Season's end sees what the others built: Regent cannot."""
    state = position(phase="construct", player=0, hands={0: ["red-2"]}, hidden_hands={1: 3})
    state = play(state, "stop")  # p0 builds nothing; p1 (the observer) ends the construction
    observation = observation_to_proto(state.observation(1))
    err = _error(advisor, observation, "stop")
    assert err.code() == Code.FAILED_PRECONDITION
    assert "secret" in err.details()


def _table_answers(before, pile: list[str], after) -> list[str]:
    """The cards a table shows for a move: the drawn cards the observer now knows, in order."""
    new = cards_of(TABLE.places(after))
    new.subtract(cards_of(TABLE.places(before)))
    answers = []
    for card in pile[: before.pile_size - after.pile_size]:
        if new[card] > 0:
            new[card] -= 1
            answers.append(card)
    return answers


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
def test_random_games_continue_as_the_table_did(advisor, num_players: int) -> None:
    """At every move of random games, answering the slots with a true world's drawn cards
    gives that world's next observation, or a refusal (a secret reveal, a reshuffle)."""
    unseen = TABLE.unseen
    outcomes: Counter[str] = Counter()
    for game in range(3):
        state = engine.new_game("royal_cities", num_players, game)
        rng = random.Random(game)
        while not state.is_terminal():
            me = state.current_player
            before = state.observation(me)
            action = rng.choice(state.legal_actions())
            pile = sorted(unseen(before).elements())
            rng.shuffle(pile)
            truth = engine.state_from_observation(before, game + 100, pile[: before.pile_size])
            truth.apply_action(action)
            answers = _table_answers(before, pile, truth.observation(me))
            request = advisor_pb2.ApplyMoveRequest(
                observation=observation_to_proto(before), move=common_pb2.Move(id=action)
            )
            try:
                while True:
                    response = advisor.ApplyMove(request, timeout=10)
                    if response.complete:
                        break
                    request.revealed.append(answers[len(request.revealed)])
            except grpc.RpcError as err:
                assert err.code() == Code.FAILED_PRECONDITION, err.details()
                outcomes["refused"] += 1
            else:
                assert list(request.revealed) == answers
                assert observation_from_proto(response.observation) == truth.observation(me)
                outcomes["applied"] += 1
            state.apply_action(action)
    assert outcomes["applied"] > 10 * outcomes["refused"]
