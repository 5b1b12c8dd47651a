"""Bounds on what a caller sends, against a real server: inputs that used to end in UNKNOWN
(a deeply nested page token, a move id no action has, a review its game cannot search) are
INVALID_ARGUMENT naming the field; seat names are printable and bot specs short, since
every client that lists or prints a match shows them."""

from __future__ import annotations

import base64
import random

import grpc
import pytest

import engine
from convert import observation_to_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from tests.support.errors import violated_fields

Code = grpc.StatusCode


def refused(call, request, stream: bool = False) -> grpc.RpcError:
    """The error a call ends with (a streaming one read to its end)."""
    with pytest.raises(grpc.RpcError) as info:
        answer = call(request, timeout=30)
        if stream:
            list(answer)
    return info.value


def to_act(game: str, players: int, seat: int, seed: int, moves: int) -> engine.State:
    """A state after `moves` random moves (seeded) and then first moves until `seat` acts."""
    state = engine.new_game(game, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    while state.current_player != seat:
        state.apply_action(state.legal_actions()[0])
    return state


def decision(state: engine.State) -> tuple[advisor_pb2.Observation, common_pb2.Move]:
    """The player to act's observation and a legal move, for a ReviewRequest."""
    observation = observation_to_proto(state.observation(state.current_player))
    return observation, common_pb2.Move(id=state.legal_actions()[0])


# -- finding 6: UNKNOWN no more -----------------------------------------------------------


def test_a_deeply_nested_page_token_is_invalid(
    matches: matches_pb2_grpc.MatchServiceStub,
) -> None:
    for raw in (b"[" * 1000, b"[" * 20 + b"]" * 20, b'[1.5, "not hex"]', b"\xff\xfe"):
        token = base64.urlsafe_b64encode(raw).decode()
        err = refused(matches.ListMatches, matches_pb2.ListMatchesRequest(page_token=token))
        assert err.code() == Code.INVALID_ARGUMENT, raw[:20]
        assert violated_fields(err) == ["page_token"]


def test_a_move_id_no_action_has_is_invalid(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    """ApplyObservedMove with a move id past every action's and no text."""
    state = to_act("citadels", 4, 1, seed=1, moves=30)
    observer = (state.current_player + 1) % 4
    request = advisor_pb2.ApplyObservedMoveRequest(
        observation=observation_to_proto(state.observation(observer)),
        player=state.current_player,
        move=common_pb2.Move(id=2147483647),
    )
    err = refused(advisor.ApplyObservedMove, request)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == ["move.id"]


def test_a_review_its_game_cannot_search_is_invalid(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """`infer` where the game has no model of the players' choices (Royal Cities solo);
    decisions of two games."""
    royal = decision(to_act("royal_cities", 1, 0, seed=1, moves=10))
    citadels = decision(to_act("citadels", 4, 0, seed=1, moves=5))
    for pairs, bot, field in (
        ([royal], "mo-ismcts:infer=1", "bot"),
        ([citadels, royal], "", "observations[1]"),
    ):
        request = advisor_pb2.ReviewRequest(
            observations=[o for o, _ in pairs], moves=[m for _, m in pairs], bot=bot
        )
        err = refused(advisor.Review, request, stream=True)
        assert err.code() == Code.INVALID_ARGUMENT, field
        assert violated_fields(err) == [field]


# -- findings 5 and 9: what every lister and printer of a match shows ----------------------


CONTROLS = ["a\x00b", "line\nbreak", "\x1b[31mred", "tab\there", "\u202eevil"]


@pytest.mark.parametrize("name", CONTROLS)
def test_seat_names_are_printable(matches: matches_pb2_grpc.MatchServiceStub, name: str) -> None:
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=[matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(human_name=name)],
    )
    err = refused(matches.CreateMatch, request)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == ["seats[1].human_name"]


def test_names_of_any_script_and_spaces_are_fine(
    matches: matches_pb2_grpc.MatchServiceStub,
) -> None:
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=[matches_pb2.SeatSpec(human_name=n) for n in ("Ann Lee", "Zoë 李")],
    )
    assert len(matches.CreateMatch(request, timeout=10).tokens) == 2


def test_bot_specs_are_at_most_200_characters(
    matches: matches_pb2_grpc.MatchServiceStub,
) -> None:
    long_spec = "mo-ismcts:iterations=100" + ",c=1.0" * 40_000  # ~0.2 MB
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=[matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(bot=long_spec)],
        public=True,
    )
    err = refused(matches.CreateMatch, request)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == ["seats[1].bot"]
    assert len(err.details()) < 1000
