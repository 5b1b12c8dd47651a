"""AdvisorService.ApplyObservedMove and LegalMoves' observed moves over a real socket: every
move shape of both games, the reveals a table shows together, refusals by field, and whole
seeded games followed from every seat, the entered position equal to the true observation
after every move."""

from __future__ import annotations

from collections import Counter

import grpc
import pytest

import engine
from convert import observation_from_proto, observation_to_proto
from convert.citadels import TABLE as CITADELS_TABLE
from convert.royal_cities import TABLE
from regent.v1 import advisor_pb2, common_pb2
from search.bots import make_bot
from server.apply_observed import HIDDEN_TEXT
from tests.follow_table import follow_game
from tests.royal_cities.positions import play, position
from tests.support.errors import violated_fields

Code = grpc.StatusCode
MARKET = ["purple-3", "yellow-4", "red-1", "blue-2"]


def _p1_turn() -> advisor_pb2.Observation:
    """Player 1 to play, seen by player 0 (who holds three cards; p1 holds three unknown)."""
    state = position(
        market=MARKET, player=1, hands={0: ["pink-2", "white-6", "green-5"]}, hidden_hands={1: 3}
    )
    return observation_to_proto(state.observation(0))


def _apply(advisor, observation, player: int, move: str, *revealed: str):
    request = advisor_pb2.ApplyObservedMoveRequest(
        observation=observation, player=player, move=common_pb2.Move(text=move),
        revealed=list(revealed),
    )  # fmt: skip
    return advisor.ApplyObservedMove(request, timeout=30)


def _error(advisor, observation, player: int, move: str, *revealed: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        _apply(advisor, observation, player, move, *revealed)
    return info.value


def _observed(advisor, observation) -> list[str]:
    request = advisor_pb2.LegalMovesRequest(observation=observation)
    response = advisor.LegalMoves(request, timeout=30)
    assert not response.moves, "another player's legal moves depend on its hidden cards"
    return [m.text for m in response.observed_moves]


def test_another_players_turn_offers_its_moves_as_the_observer_sees_them(advisor) -> None:
    moves = _observed(advisor, _p1_turn())
    assert {"add", "purchase", "play hand ?"} <= set(moves)
    assert not any("-" in m for m in moves), "no card of p1's hidden hand may be offered"
    own = observation_to_proto(position(market=MARKET).observation(0))
    response = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=own), timeout=30)
    assert response.moves and not response.observed_moves


def test_an_add_asks_only_for_the_card_turned_up(advisor) -> None:
    observation = _p1_turn()
    first = _apply(advisor, observation, 1, "add")
    assert not first.complete and not first.HasField("observation")
    [slot] = first.reveals
    assert slot.place == "royal_cities.market" and slot.card == ""
    done = _apply(advisor, observation, 1, "add", "green-6")
    after = observation_from_proto(done.observation)
    assert after.market == (*MARKET, "green-6")
    assert after.decision.player == 0 and after.observer == 0


def test_a_card_played_from_a_hidden_hand_is_its_shape_and_the_card(advisor) -> None:
    observation = _p1_turn()
    first = _apply(advisor, observation, 1, "play hand ?")
    assert [s.place for s in first.reveals] == ["royal_cities.players[1].hand"]
    done = _apply(advisor, observation, 1, "play hand ?", "yellow-3")  # the Merchant
    after = observation_from_proto(done.observation)
    assert after.players[1].hand_size == 2
    assert "yellow-3" in after.discard or after.decision.phase == "effect"


def test_a_card_played_from_a_hidden_hand_may_be_named_whole(advisor) -> None:
    """The table shows the card once played: the move by its text or id is the shape with
    its card answered (it was refused as a move the player could not make)."""
    observation = _p1_turn()
    shaped = _apply(advisor, observation, 1, "play hand ?", "yellow-3")
    whole = _apply(advisor, observation, 1, "play hand yellow-3")
    assert whole.complete and not whole.reveals
    assert whole.observation == shaped.observation
    action = engine.state_from_observation(observation_from_proto(observation))
    by_id = advisor_pb2.ApplyObservedMoveRequest(
        observation=observation,
        player=1,
        move=common_pb2.Move(id=action.string_to_action("play hand yellow-3")),
    )
    assert advisor.ApplyObservedMove(by_id, timeout=30).observation == shaped.observation


def test_public_moves_complete_at_once(advisor) -> None:
    done = _apply(advisor, _p1_turn(), 1, "purchase")
    assert done.complete and not done.reveals
    assert "buy purple-3" in _observed(advisor, done.observation)
    bought = _apply(advisor, done.observation, 1, "buy purple-3")
    assert bought.complete and not bought.reveals
    assert "purple-3" not in observation_from_proto(bought.observation).market


def test_a_secret_choice_is_one_step(advisor) -> None:
    state = engine.new_game("royal_cities", 3, 4)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])  # p0 has passed; p1 to pass
    observation = observation_to_proto(state.observation(0))
    assert _observed(advisor, observation) == [HIDDEN_TEXT]
    done = _apply(advisor, observation, 1, HIDDEN_TEXT)
    assert done.complete and not done.reveals
    after = observation_from_proto(done.observation)
    assert after.players[1].committed and after.decision.player == 2


def test_the_seasons_builds_are_entered_together(advisor) -> None:
    """The last to build at a Season's end: the table shows every player's builds at once;
    each other player's are one answer."""
    state = position(phase="construct", player=0, hands={0: ["red-2"]}, hidden_hands={1: 3})
    state = play(state, "build red-2 red")
    state = play(state, "stop")  # p0 builds red-2; p1 (seen by p0) ends the construction
    observation = observation_to_proto(state.observation(0))
    first = _apply(advisor, observation, 1, HIDDEN_TEXT)
    assert [s.place for s in first.reveals] == ["royal_cities.players[1].cities"]
    answers = ["blue-4 blue, white-5 blue"]
    table = iter(sorted((TABLE.unseen(observation_from_proto(observation)) - Counter(
        ["blue-4", "white-5"])).elements()))  # fmt: skip
    while not (done := _apply(advisor, observation, 1, HIDDEN_TEXT, *answers)).complete:
        assert done.reveals[-1].place in ("royal_cities.market", "royal_cities.discard")
        answers.append(next(table))  # the Market's refill
    after = observation_from_proto(done.observation)
    assert after.players[0].cities[3][-1] == "red-2"
    assert after.players[1].cities[4][-2:] == ("blue-4", "white-5")
    assert after.season == 2
    nothing = _apply(advisor, observation, 1, HIDDEN_TEXT, "none")
    assert [s.card for s in nothing.reveals][:1] == ["none"]


@pytest.mark.parametrize(
    ("player", "move", "revealed", "field"),
    [
        (0, "add", [], "player"),  # p1 is to act
        (1, "fly away", [], "move.text"),
        (1, "play hand ?", ["gold-3"], "revealed[0]"),
        (1, "play hand ?", ["white-6"], "revealed[0]"),  # in the observer's hand
        (1, "add", ["white-6"], "revealed[0]"),
        (1, "add", ["green-6", "green-3"], "revealed[1]"),  # an add turns up one card
    ],
)
def test_refusals_name_their_field(advisor, player, move, revealed, field) -> None:
    err = _error(advisor, _p1_turn(), player, move, *revealed)
    assert err.code() == Code.INVALID_ARGUMENT, err.details()
    assert violated_fields(err) == [field]


def test_a_missing_or_bad_observation_is_refused(advisor) -> None:
    with pytest.raises(grpc.RpcError) as info:
        advisor.ApplyObservedMove(advisor_pb2.ApplyObservedMoveRequest(), timeout=10)
    assert violated_fields(info.value) == ["observation"]
    err = _error(advisor, advisor_pb2.Observation(), 1, "add")
    assert violated_fields(err) == ["observation.game"]


def test_an_option_outside_the_list_is_refused(advisor) -> None:
    _, observation, player = _citadels_call(advisor)
    first = _apply(advisor, observation, player, "end turn")
    [slot] = first.reveals
    assert slot.options and not slot.card
    err = _error(advisor, observation, player, "end turn", "p9 is the queen")
    assert violated_fields(err) == ["revealed[0]"]


def _citadels_call(advisor):
    """A Citadels turn's end after which player 0 cannot tell who is called next."""
    state = engine.new_game("citadels", 4, 1)
    bot = make_bot("heuristic")
    step = 0
    while True:
        texts = [state.action_to_string(a) for a in state.legal_actions()]
        if state.current_player not in (0, -1) and "end turn" in texts:
            observation = observation_to_proto(state.observation(0))
            if _apply(advisor, observation, state.current_player, "end turn").reveals:
                return state, observation, state.current_player
        state.apply_action(bot.choose(state, step))
        step += 1


def test_who_is_called_next_is_answered_among_few_options(advisor) -> None:
    """A turn's end: who reveals the next character (and a new round's face-up characters),
    each part one tap among the options, and the truth follows."""
    state, observation, player = _citadels_call(advisor)
    before = state.observation(0)
    state.apply_action(state.string_to_action("end turn"))
    truth = state.observation(0)
    shown = CITADELS_TABLE.outcome(before, truth).split("; ")
    answers: list[str] = []
    while not (response := _apply(advisor, observation, player, "end turn", *answers)).complete:
        slot = response.reveals[-1]
        assert 1 < len(slot.options) <= 60 and not slot.card
        [part] = [option for option in slot.options if option in shown]
        answers.append(part)
    assert answers and observation_from_proto(response.observation) == truth


def _via(advisor):
    def apply(request):
        try:
            return advisor.ApplyObservedMove(request, timeout=60)
        except grpc.RpcError as err:
            if err.code() == Code.INVALID_ARGUMENT and request.revealed:
                return None  # an answer the table did not show
            raise

    return apply


def _same(view, truth, request) -> None:
    assert view == truth, f"after {request.move.text}"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 8), (4, 5)])
def test_whole_royal_cities_games_follow_the_table_from_every_seat(advisor, players, seed):
    for seat in range(players):
        tally = follow_game("royal_cities", players, seed, seat, _via(advisor), _same)
        assert tally.opponent_moves > 20
        assert sum(k * n for k, n in tally.taps.items()) <= 2 * tally.opponent_moves


def test_a_solo_game_is_the_observers_own_moves(advisor) -> None:
    tally = follow_game("royal_cities", 1, 3, 0, _via(advisor), _same)
    assert tally.moves > 20 and tally.opponent_moves == 0


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_whole_citadels_game_follows_the_table_from_every_seat(advisor, seat: int) -> None:
    tally = follow_game("citadels", 4, 3, seat, _via(advisor), _same)
    assert tally.opponent_moves > 50
    assert sum(k * n for k, n in tally.taps.items()) <= 2 * tally.opponent_moves


@pytest.mark.slow
def test_a_hand_swapped_twice_follows_exactly(advisor) -> None:
    """Seed 1 from P1: in round 7 P1 receives, by a Magician's swap, cards a third player had
    seen in an earlier swap; P1 cannot know which, and neither does its observation."""
    follow_game("citadels", 4, 1, 0, _via(advisor), _same)


def test_the_magicians_swap_shows_the_hand_received(advisor) -> None:
    """P3 swaps hands with P4 (the observer): P4 names the cards it receives, one tap each,
    and the position follows the table."""
    state = engine.new_game("citadels", 4, 3)
    bot = make_bot("heuristic")
    step = 0
    while state.action_to_string(action := bot.choose(state, 300_000 + step)) != "swap p3":
        state.apply_action(action)
        step += 1
    observation = observation_to_proto(state.observation(3))
    state.apply_action(action)
    truth = state.observation(3)
    received = list(truth.players[3].hand)
    answers: list[str] = []
    while not (response := _apply(advisor, observation, 2, "swap p3", *answers)).complete:
        slot = response.reveals[-1]
        # the hand it went to (or, for a kind the observer gave away too, the swapped one)
        assert slot.place in ("citadels.players[3].hand", "citadels.players[2].hand")
        assert "a card P3 held" in slot.description and slot.player == 2
        assert slot.kind == advisor_pb2.REVEAL_KIND_HELD_CARD
        assert not slot.card
        answers.append(next(c for c in received if answers.count(c) < received.count(c)))
    assert sorted(answers) == sorted(received)
    assert observation_from_proto(response.observation) == truth
