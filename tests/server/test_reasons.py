"""The reasons of a hint through a real server: Recommend's report carries the principal
variation's steps, the reasons and (Citadels) the beliefs, equal to the same search and
explanation made in this process; an Analyze stream carries them in its final report only."""

from __future__ import annotations

import pytest

import engine
from convert import observation_from_proto
from convert.reports import report
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from search.bots import hint_config
from search.explain import explain
from search.search import search
from tests.example_files import EXAMPLES, parsed
from tests.support.server import WIDE_LIMITS

BUDGET = common_pb2.SearchBudget(iterations=400, threads=1)


@pytest.mark.parametrize("name", ["citadels-4p.json", "royal-cities-2p.json"])
def test_recommend_explains_its_move_as_the_search_in_process_does(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, name: str
) -> None:
    observation = parsed(next(p for p in EXAMPLES if p.name == name))
    request = advisor_pb2.RecommendRequest(observation=observation, budget=BUDGET, seed=9)
    got = advisor.Recommend(request, timeout=30).report
    assert got.steps and got.steps[0].move == got.move.text
    assert [s.move for s in got.steps] == list(got.principal_variation)
    assert got.reasons[0].kind == "expects"
    state = engine.state_from_observation(observation_from_proto(observation), seed=9)
    game = state.observation(state.current_player).game
    assert bool(got.beliefs) == (game == "citadels")
    spec = WIDE_LIMITS.bot_for(game, state.num_players)
    config = hint_config(spec, game, state.num_players, iterations=400, threads=1, seed=9)
    result = search(state, config)
    here = report(result, explain(state, result))
    for field in ("move", "steps", "reasons", "beliefs", "principal_variation"):
        assert getattr(got, field) == getattr(here, field), field


def test_analyze_explains_its_final_report_only(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    observation = parsed(next(p for p in EXAMPLES if p.name == "citadels-4p.json"))
    request = advisor_pb2.AnalyzeRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=6000, threads=1),
        seed=2,
        interval_ms=20,
    )
    messages = list(advisor.Analyze(request, timeout=30))
    assert (
        len(messages) >= 2
        and messages[-1].final
        and messages[-1].report.reasons
        and messages[-1].report.beliefs
    )
    for message in messages[:-1]:
        assert not (message.report.reasons or message.report.beliefs or message.report.steps)
