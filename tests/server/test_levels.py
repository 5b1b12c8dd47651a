"""`level:N` through the service is level N: Recommend, Analyze and Review search with the
level's whole spec (its budget, temperature and options), as a hosted seat plays it; a budget
sent with a level is INVALID_ARGUMENT naming the part set; a level past the server's limits is
RESOURCE_EXHAUSTED on `bot`; level 10's second a move is honoured and still ends by the call's
deadline; a level that does not search answers with its bot's move."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format

import engine
from clients.client import RegentClient
from convert import observation_from_proto, observer_of
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import SearchBot, make_bot, resolve, search_config
from search.search import search
from tests.support.decisions import heuristic_decisions
from tests.support.errors import violated_fields
from tests.support.server import RunningServer

Code = grpc.StatusCode
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: One position of each game: (its file, the game's name).
POSITIONS = [("royal-cities-2p.json", "royal_cities"), ("citadels-4p.json", "citadels")]


def observation(name: str) -> advisor_pb2.Observation:
    return json_format.Parse((EXAMPLES / name).read_text(), advisor_pb2.Observation())


def players(message: advisor_pb2.Observation) -> int:
    return engine.state_from_observation(observation_from_proto(message)).num_players


def level(number: int, game: str, count: int) -> int:
    """The iterations of a level that searches."""
    config = search_config(f"level:{number}", game, count)
    assert config is not None
    return config.iterations


@pytest.mark.parametrize(("name", "game"), POSITIONS)
def test_recommend_and_analyze_search_the_levels_budget(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, name: str, game: str
) -> None:
    message = observation(name)
    count = players(message)
    for number in (1, 3):
        request = advisor_pb2.RecommendRequest(observation=message, bot=f"level:{number}")
        report = advisor.Recommend(request, timeout=30).report
        assert report.iterations == level(number, game, count)
        assert sum(m.visits for m in report.moves) == report.iterations
        analysis = advisor_pb2.AnalyzeRequest(observation=message, bot=f"level:{number}")
        *_, final = advisor.Analyze(analysis, timeout=30)
        assert final.final and final.report.iterations == level(number, game, count)


def test_recommend_plays_as_the_level_plays_in_process(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """The level's spec searched in process from the same position and seed gives the same
    move (drawn at the level's temperature) and visits."""
    message = observation("royal-cities-2p.json")
    game = observer_of(message)[0]
    for seed in range(4):
        request = advisor_pb2.RecommendRequest(observation=message, bot="level:3", seed=seed)
        report = advisor.Recommend(request, timeout=30).report
        state = engine.state_from_observation(observation_from_proto(message), seed=seed)
        config = search_config("level:3", game, 2, seed=seed)
        assert config is not None and config.temperature > 0
        expected = search(state, config)
        assert report.move.id == expected.action
        assert [(m.move.id, m.visits) for m in report.moves] == [
            (m.action, m.visits) for m in expected.moves
        ]


def test_a_review_searches_at_the_levels_budget(regent_server: RunningServer) -> None:
    """Every search of a review at `level:1`, the deeper ones too, runs the level's 10
    iterations: each mistake's alternatives hold that many visits."""
    observations, moves = heuristic_decisions()
    with RegentClient(regent_server.address) as client, client.review(
        observations, moves, iterations=0, deep_iterations=0, bot="level:1", seed=2
    ) as stream:  # fmt: skip
        review = list(stream)[-1].review
    assert review.complete and review.mistakes
    for mistake in review.mistakes:
        assert sum(a.visits for a in mistake.alternatives) == level(1, "royal_cities", 2)


@pytest.mark.parametrize(
    ("budget", "field"),
    [
        (common_pb2.SearchBudget(iterations=100), "budget.iterations"),
        (common_pb2.SearchBudget(seconds=0.5), "budget.seconds"),
        (common_pb2.SearchBudget(threads=1), "budget.threads"),
        (common_pb2.SearchBudget(iterations=-1), "budget.iterations"),
    ],
)
def test_a_budget_with_a_level_is_refused_naming_it(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, budget: common_pb2.SearchBudget, field: str
) -> None:
    message = observation("royal-cities-2p.json")
    for number in (3, 4, 10):  # a search, the heuristic (in Royal Cities), the top level
        for call, request in (
            (advisor.Recommend, advisor_pb2.RecommendRequest),
            (advisor.Analyze, advisor_pb2.AnalyzeRequest),
        ):
            sent = request(observation=message, budget=budget, bot=f"level:{number}")
            with pytest.raises(grpc.RpcError) as caught:
                answer = call(sent, timeout=30)
                list(answer) if call is advisor.Analyze else answer
            assert caught.value.code() == Code.INVALID_ARGUMENT
            assert violated_fields(caught.value) == [field]
            assert f"level:{number} has its own budget" in str(caught.value.details())


def test_a_level_past_the_limits_is_resource_exhausted(
    tight_channel: grpc.Channel, tight_advisor: advisor_pb2_grpc.AdvisorServiceStub
) -> None:
    """The tight server allows 5,000 iterations: level 9 (6,000 in Royal Cities) is refused
    in Recommend as in a hosted seat, and level 8 is served."""
    message = observation("royal-cities-2p.json")
    assert level(9, "royal_cities", 2) > 5000 >= level(8, "royal_cities", 2)
    request = advisor_pb2.RecommendRequest(observation=message, bot="level:9")
    with pytest.raises(grpc.RpcError) as caught:
        tight_advisor.Recommend(request, timeout=30)
    assert caught.value.code() == Code.RESOURCE_EXHAUSTED
    assert violated_fields(caught.value) == ["bot"]
    assert "level:9's iterations" in str(caught.value.details())
    request = advisor_pb2.RecommendRequest(observation=message, bot="level:8")
    assert tight_advisor.Recommend(request, timeout=30).report.iterations == level(
        8, "royal_cities", 2
    )
    seats = [matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(bot="level:9")]
    create = matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES, seats=seats)
    with pytest.raises(grpc.RpcError) as caught:
        matches_pb2_grpc.MatchServiceStub(tight_channel).CreateMatch(create, timeout=30)
    assert caught.value.code() == Code.RESOURCE_EXHAUSTED
    assert violated_fields(caught.value) == ["seats[1].bot"]


def test_the_top_level_searches_its_second_within_the_deadline(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """Level 10 is a second a move with no iteration cap (not the server's default
    iterations); a call's deadline shorter than that still ends it in time. The clock is
    only bounded from below, or by the deadline the call itself must make."""
    message = observation("royal-cities-2p.json")
    request = advisor_pb2.RecommendRequest(observation=message, bot="level:10")
    report = advisor.Recommend(request, timeout=60).report
    assert report.elapsed_seconds >= 0.9 and report.iterations > 0
    answered = []
    for _ in range(3):  # a host loaded past its cores may miss one deadline
        try:
            answered.append(advisor.Recommend(request, timeout=0.8).report)
        except grpc.RpcError as err:
            assert err.code() == Code.DEADLINE_EXCEEDED
    assert answered and all(0 < r.elapsed_seconds < 0.8 and r.iterations for r in answered)


def test_a_level_that_does_not_search_answers_with_its_move(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """Royal Cities' level 4 is its heuristic: the heuristic's move from the request's seed,
    with no statistics and no iterations, in Recommend and in Analyze's one final report."""
    message = observation("royal-cities-2p.json")
    assert resolve("level:4", "royal_cities", 2) == "heuristic"
    state = engine.state_from_observation(observation_from_proto(message), seed=5)
    expected = make_bot("heuristic").choose(state, 5)
    request = advisor_pb2.RecommendRequest(observation=message, bot="level:4", seed=5)
    report = advisor.Recommend(request, timeout=30).report
    assert report.move.id == expected and report.move.text == state.action_to_string(expected)
    assert not report.moves and report.iterations == 0
    analysis = advisor_pb2.AnalyzeRequest(observation=message, bot="level:4", seed=5)
    (only,) = advisor.Analyze(analysis, timeout=30)
    assert only.final and only.report.move.id == expected and not only.report.moves


def test_a_hosted_seat_plays_the_levels_spec(
    regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub
) -> None:
    seats = [matches_pb2.SeatSpec(human_name="ann"), matches_pb2.SeatSpec(bot="level:1"),
             matches_pb2.SeatSpec(bot="level:10")]  # fmt: skip
    create = matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES, seats=seats, seed=8)
    created = matches.CreateMatch(create, timeout=30)
    bots = regent_server.true_match(created.match_id).bots
    for seat, number in ((1, 1), (2, 10)):
        played = bots[seat]
        assert isinstance(played, SearchBot)
        assert played.config == search_config(f"level:{number}", "royal_cities", 3)
    matches.Resign(
        matches_pb2.ResignRequest(match_id=created.match_id, token=created.tokens[0].token),
        timeout=30,
    )
