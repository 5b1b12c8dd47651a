"""AdvisorService.Review over a real socket: the streamed review equals the review made in
process from the same decisions, seeds and budgets; bad input is INVALID_ARGUMENT naming the
field (never UNKNOWN); a review too large, its checks' searches counted, is RESOURCE_EXHAUSTED;
a cancelled review frees its search slot."""

from __future__ import annotations

import grpc
import pytest

import engine
from clients.client import RegentClient, RegentError
from clients.tournament.play import play_game
from convert import observation_to_proto
from regent.v1 import advisor_pb2, common_pb2
from search.bots import make_bot, resolve
from search.games import default_bot
from search.levels import LEVELS
from search.review import Decision, ReviewConfig, check_searches, decisions_of_game, review
from server.limits import ServerLimits
from server.review_call import read_request
from tests.support.server import RunningServer
from tests.timing import SLACK

CONFIG = ReviewConfig(iterations=100, deep_iterations=300, mistakes=2, seed=9)


@pytest.fixture(scope="module")
def decisions() -> list[Decision]:
    """Seat 1's decisions in a seeded 4-player Citadels game of heuristic bots."""
    result = play_game("citadels", ["heuristic"] * 4, 21, None, 4, make_bot)
    return decisions_of_game(engine.new_game("citadels", 4, seed=21), result.moves, 1)


def ask(address: str, decisions: list[Decision], **options) -> list[advisor_pb2.ReviewResponse]:
    budget = dict(iterations=100, deep_iterations=300, mistakes=2, seed=9) | options
    with RegentClient(address) as client, client.review(
        [d.observation for d in decisions], [d.move for d in decisions], **budget
    ) as stream:  # fmt: skip
        return list(stream)


def test_the_streamed_review_is_the_review(
    regent_server: RunningServer, decisions: list[Decision]
) -> None:
    messages = ask(regent_server.address, decisions)
    expected = review(decisions, CONFIG)
    final = messages[-1].review
    assert [m.HasField("review") for m in messages] == [False] * (len(messages) - 1) + [True]
    assert [m.point.number for m in messages if m.HasField("point")] == [
        p.number for p in expected.points
    ]
    assert messages[-1].done == messages[-1].total
    assert final.complete and final.seat == 1
    got = [(p.number, p.move.text, p.win_chance, p.best.text, p.loss, p.checked, p.noise)
           for p in final.points]  # fmt: skip
    assert got == [
        (p.number, p.move, p.win_chance, p.best, p.loss, p.checked, p.noise)
        for p in expected.points
    ]
    assert any(p.checked for p in final.points)
    assert [(m.number, m.move.text, m.best.text, m.loss, m.noise, m.default_plays,
             m.deeper_search_prefers) for m in final.mistakes] == [
        (m.number, m.move, m.best, m.loss, m.noise, m.default_plays, m.deeper_search_prefers)
        for m in expected.mistakes
    ]  # fmt: skip
    for sent, made in zip(final.mistakes, expected.mistakes, strict=True):
        assert sent.observation == observation_to_proto(decisions[0].observation.__class__
                                                        .from_json(made.observation))  # fmt: skip
        assert [(a.move.text, a.visits) for a in sent.alternatives] == [
            (a.move, a.visits) for a in made.alternatives
        ]
        assert [(e.move.text, e.win_chance, e.noise, e.samples) for e in sent.estimates] == [
            (e.move, e.win_chance, e.noise, e.samples) for e in made.estimates
        ]


#: A request's fields that set no budget (as a level needs).
NO_BUDGET = {"budget": common_pb2.SearchBudget(), "deep_budget": common_pb2.SearchBudget()}


def request(decisions: list[Decision], **fields) -> advisor_pb2.ReviewRequest:
    message = advisor_pb2.ReviewRequest(
        observations=[observation_to_proto(d.observation) for d in decisions],
        moves=[common_pb2.Move(text=d.move) for d in decisions],
        budget=common_pb2.SearchBudget(iterations=50),
        deep_budget=common_pb2.SearchBudget(iterations=50),
    )
    for name, value in fields.items():
        if isinstance(value, list):
            del getattr(message, name)[:]
            getattr(message, name).extend(value)
        elif hasattr(value, "CopyFrom"):
            getattr(message, name).CopyFrom(value)
        else:
            setattr(message, name, value)
    return message


def refused(address: str, message: advisor_pb2.ReviewRequest) -> RegentError:
    with RegentClient(address) as client:
        stream = client._advisor.Review(message, timeout=30)
        with pytest.raises(grpc.RpcError) as caught:
            list(stream)
    return RegentError.from_rpc(caught.value)


def test_bad_input_names_the_field(regent_server: RunningServer, decisions: list[Decision]) -> None:
    two = decisions[:2]
    game = observation_to_proto(two[0].observation).WhichOneof("game")
    other_seat = engine.new_game("citadels", 4, seed=21).observation(0)
    players = engine.state_from_observation(two[0].observation).num_players
    heuristic = next(
        level.number
        for level in LEVELS
        if resolve(f"level:{level.number}", two[0].observation.game, players) == "heuristic"
    )  # the level that does not search, in this game
    cases = [
        (request([]), "observations"),
        (request(two, moves=[common_pb2.Move(text=two[0].move)]), "moves"),
        (request(two, moves=[common_pb2.Move(text=two[0].move), common_pb2.Move()]), "moves[1]"),
        (request(two, moves=[common_pb2.Move(text=two[0].move), common_pb2.Move(text="fly")]),
         "moves[1].text"),
        (request(two, moves=[common_pb2.Move(text=two[0].move), common_pb2.Move(id=10**6)]),
         "moves[1].id"),
        (request(two, observations=[observation_to_proto(two[0].observation),
                                    advisor_pb2.Observation()]), "observations[1].game"),
        (request([*two, Decision(other_seat, "pick king")]), f"observations[2].{game}.observer"),
        (request(two, budget=common_pb2.SearchBudget(iterations=-1)), "budget.iterations"),
        (request(two, deep_budget=common_pb2.SearchBudget(seconds=-1)), "deep_budget.seconds"),
        (request(two, mistakes=-1), "mistakes"),
        (request(two, mistakes=21), "mistakes"),
        (request(two, bot="heuristic"), "bot"),
        (request(two, bot="mo-ismcts:c=nan"), "bot"),
        (request(two, bot="level:11"), "bot"),
        (request(two, bot=f"level:{heuristic}", **NO_BUDGET), "bot"),
        (request(two, bot="level:1"), "budget.iterations"),
        (request(two, bot="level:1", budget=common_pb2.SearchBudget(),
                 deep_budget=common_pb2.SearchBudget(seconds=1)), "deep_budget.seconds"),
    ]  # fmt: skip
    for message, field in cases:
        error = refused(regent_server.address, message)
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT, (field, error)
        assert error.field_violations[0].field == field, (field, error)


def test_a_level_or_no_bot_is_resolved_for_the_reviewed_game(decisions: list[Decision]) -> None:
    """`level:10` is the game's default at its player count, its budget the level's for
    every search; no bot is that default."""
    first = decisions[0].observation
    players = engine.state_from_observation(first).num_players
    default = default_bot(first.game, players)
    _, named = read_request(request(decisions[:1], bot="level:10", **NO_BUDGET), ServerLimits())
    assert named.bot.startswith(default) and "seconds=1" in named.bot
    assert named.iterations == named.deep_iterations == 0
    assert named.seconds == named.deep_seconds == 1
    _, unnamed = read_request(request(decisions[:1]), ServerLimits())
    assert unnamed.bot == default


def test_a_review_over_the_limits_is_resource_exhausted(
    regent_server: RunningServer, decisions: list[Decision]
) -> None:
    too_deep = request(decisions[:1], deep_budget=common_pb2.SearchBudget(iterations=10**7))
    error = refused(regent_server.address, too_deep)
    assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error.field_violations[0].field == "deep_budget.iterations"
    many = request(decisions * 10, budget=common_pb2.SearchBudget(iterations=900_000))
    error = refused(regent_server.address, many)
    assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error.field_violations[0].field == "budget.iterations"
    # One decision checked at 900,000 iterations a search: 25 searches of them (the deeper
    # one and 8 from the position after each of 3 moves) and 7 first looks more.
    deep, first = check_searches(ReviewConfig())
    assert (deep, first) == (25, 7)
    checked = request(decisions[:1], deep_budget=common_pb2.SearchBudget(iterations=900_000))
    error = refused(regent_server.address, checked)
    assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error.field_violations[0].field == "deep_budget.iterations"
    assert "22,500,400 iterations" in error.field_violations[0].description


@pytest.mark.timing
def test_a_closed_review_frees_its_slot(
    tight_server: RunningServer, decisions: list[Decision]
) -> None:
    with RegentClient(tight_server.address) as client:
        stream = client.review(
            [d.observation for d in decisions], [d.move for d in decisions], iterations=5000
        )
        first = next(stream)
        assert first.total > first.done >= 1
        stream.close()
    tight_server.wait_idle(SLACK)  # freed at the close, not at the review's end


@pytest.mark.timing
def test_a_review_stops_at_the_deadline_with_what_is_done(
    tight_server: RunningServer, decisions: list[Decision]
) -> None:
    """Searches of 5 s each under a 2 s deadline: the review answers by the deadline (else
    gRPC ends the call with DEADLINE_EXCEEDED, which the client raises) with what it did.
    (No checks: with theirs, 32 searches of 5 s a check, it would be over the 300 s limit.)"""
    with RegentClient(tight_server.address) as client:
        messages = list(client.review(
            [d.observation for d in decisions], [d.move for d in decisions],
            seconds=5.0, deep_seconds=5.0, mistakes=0, timeout=2.0,
        ))  # fmt: skip
    final = messages[-1].review
    assert not final.complete and len(final.points) < len(decisions)
