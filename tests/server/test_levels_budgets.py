"""A budget a user names is the budget: a search bot's spec that names a budget part
(`mo-ismcts:iterations=100`) searches with it through Recommend, Analyze and Review, in place
of the server's default budget; the request's budget fills the parts the spec leaves unset and
is INVALID_ARGUMENT naming the part it sets beside the spec's own (as beside a level; the
server's default spec gives way to it instead); the spec's own budget is held to the server's
limits (RESOURCE_EXHAUSTED on `bot`) and to the call's deadline. `regent hint`, against a
server and in process, and a tournament's `grpc://...?bot=SPEC` do the same."""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest

import engine
from clients.client import RegentClient, RegentError
from clients.tournament.remote import RemoteBot, parse_address
from convert import observation_from_proto
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from search.bots import make_bot
from search.review import Decision, ReviewConfig, review
from server.limits import ServerLimits
from tests.commands import regent
from tests.server.test_levels import observation
from tests.server.test_levels_clients import EXAMPLE
from tests.support.decisions import heuristic_decisions
from tests.support.errors import violated_fields
from tests.support.server import LOADED_HOST_MARGIN as MARGIN
from tests.support.server import RunningServer, serving

Code = grpc.StatusCode
POSITION = "royal-cities-2p.json"


def recommend(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, bot: str, timeout: float = 60, **budget: float
) -> common_pb2.SearchReport:
    request = advisor_pb2.RecommendRequest(
        observation=observation(POSITION), bot=bot, budget=common_pb2.SearchBudget(**budget)
    )
    return advisor.Recommend(request, timeout=timeout).report


def refused(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def test_the_specs_iterations_are_the_budget(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    """100 iterations, not the server's default 5,000, in Recommend and Analyze."""
    report = recommend(advisor, "mo-ismcts:iterations=100")
    assert report.iterations == 100 == sum(m.visits for m in report.moves)
    analysis = advisor_pb2.AnalyzeRequest(
        observation=observation(POSITION), bot="mo-ismcts:iterations=100"
    )
    *_, final = advisor.Analyze(analysis, timeout=60)
    assert final.final and final.report.iterations == 100


def test_the_specs_seconds_are_honoured(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    """The spec's seconds stop a search the request's million iterations would not end for
    minutes (bounded from below only: a search never ends before its time); the spec's
    seconds beside the request's iterations, the iterations end it first."""
    report = recommend(advisor, "mo-ismcts:seconds=0.2", iterations=1_000_000)
    assert report.elapsed_seconds >= 0.19 and 0 < report.iterations < 1_000_000
    report = recommend(advisor, "mo-ismcts:seconds=30", iterations=100)
    assert report.iterations == 100


def test_the_specs_seconds_end_by_the_calls_deadline(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """A spec's 30 s still answers within a 1.5 s call (a loaded host may miss one)."""
    answered = []
    for _ in range(3):
        try:
            answered.append(recommend(advisor, "mo-ismcts:seconds=30", timeout=1.5))
        except grpc.RpcError as err:
            assert err.code() == Code.DEADLINE_EXCEEDED
    assert answered and all(0 < r.elapsed_seconds < 1.5 and r.iterations for r in answered)


@pytest.mark.parametrize(
    ("bot", "budget", "field"),
    [
        ("mo-ismcts:iterations=100", {"iterations": 50}, "budget.iterations"),
        ("mo-ismcts:seconds=0.5", {"seconds": 0.5}, "budget.seconds"),
        ("mo-ismcts:iterations=100,threads=1", {"threads": 1}, "budget.threads"),
    ],
)
def test_a_budget_part_the_spec_sets_is_refused_naming_it(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, bot: str, budget: dict[str, float], field: str
) -> None:
    err = refused(lambda: recommend(advisor, bot, **budget))
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == [field]
    assert f"{bot} sets its own {field.removeprefix('budget.')}" in str(err.details())


@pytest.mark.parametrize(
    ("bot", "code", "words"),
    [
        ("mo-ismcts:iterations=6000", Code.RESOURCE_EXHAUSTED, "iterations=6000's iterations"),
        ("mo-ismcts:seconds=31", Code.RESOURCE_EXHAUSTED, "seconds=31's seconds"),
        ("mo-ismcts:iterations=10,threads=2", Code.RESOURCE_EXHAUSTED, "'s threads"),
        ("mo-ismcts:iterations=-1", Code.INVALID_ARGUMENT, "iterations"),
    ],
)
def test_a_specs_budget_is_held_to_the_servers_limits(
    tight_advisor: advisor_pb2_grpc.AdvisorServiceStub, bot: str, code: Code, words: str
) -> None:
    """The tight server allows 5,000 iterations, 30 s and one thread a search."""
    err = refused(lambda: recommend(tight_advisor, bot))
    assert err.code() == code
    assert violated_fields(err) == ["bot"]
    assert words in str(err.details())
    wording = RegentError.from_rpc(err).wording  # both refusals kept worded, for the page
    assert wording is not None and str(wording) in err.details()
    if code == Code.RESOURCE_EXHAUSTED:
        assert wording.template == "{spec}'s {part}: {reason}"
        assert wording.params["reason"].startswith("{value} exceeds the server's limit")


def test_the_servers_default_spec_gives_way_to_the_requests_budget() -> None:
    """A server whose default bot names its iterations searches with them for a request that
    names no bot and no budget, and with the request's where it sets them: the request did
    not name the spec, so its budget is not refused beside it."""
    limits = ServerLimits(default_bot="mo-ismcts:iterations=100", deadline_margin=MARGIN)
    with serving(limits) as server, server.channel() as channel:
        advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
        assert recommend(advisor, "").iterations == 100
        assert recommend(advisor, "", iterations=50).iterations == 50
        err = refused(lambda: recommend(advisor, "mo-ismcts:iterations=100", iterations=50))
        assert err.code() == Code.INVALID_ARGUMENT


def test_a_review_searches_at_the_specs_budget(regent_server: RunningServer) -> None:
    """Every search of a review with `mo-ismcts:iterations=20`, the deeper ones too, runs
    20 iterations (not the review's defaults, 500 and 4,000): the review is the one made in
    process with 20 iterations for every search, its first looks (the unchecked points) and
    its checks (the checked points, valued by searches at the deeper budget; a mistake's
    deeper search's visits); a deeper budget's iterations beside the spec are refused naming
    `deep_budget.iterations`."""
    observations, moves = heuristic_decisions()
    config = ReviewConfig(bot="mo-ismcts", iterations=20, deep_iterations=20, seed=12)
    expected = review([Decision(o, m) for o, m in zip(observations, moves, strict=True)], config)
    with RegentClient(regent_server.address) as client:
        with client.review(observations, moves, bot="mo-ismcts:iterations=20", seed=12) as stream:
            final = list(stream)[-1].review
        assert final.complete
        assert [(p.number, p.win_chance, p.best.text, p.loss, p.checked, p.noise)
                for p in final.points] == [
            (p.number, p.win_chance, p.best, p.loss, p.checked, p.noise) for p in expected.points
        ]  # fmt: skip
        assert any(p.checked for p in final.points) and not all(p.checked for p in final.points)
        assert [(m.number, m.loss, [(a.move.text, a.visits) for a in m.alternatives])
                for m in final.mistakes] == [
            (m.number, m.loss, [(a.move, a.visits) for a in m.alternatives])
            for m in expected.mistakes
        ]  # fmt: skip
        for mistake in final.mistakes:
            assert sum(a.visits for a in mistake.alternatives) == 20
        with pytest.raises(RegentError) as caught, client.review(
            observations, moves, bot="mo-ismcts:iterations=20", deep_iterations=100
        ) as stream:  # fmt: skip
            list(stream)
    assert caught.value.code == Code.INVALID_ARGUMENT
    assert [v.field for v in caught.value.field_violations] == ["deep_budget.iterations"]


@pytest.mark.parametrize("where", ["server", "local"])
def test_hint_searches_the_specs_budget(regent_server: RunningServer, where: str) -> None:
    place = ["--local"] if where == "local" else ["--server", regent_server.address]
    result = regent("hint", str(EXAMPLE), *place, "--bot", "mo-ismcts:iterations=100")
    assert result.returncode == 0, result.stderr
    assert "; 100 iterations in " in result.stdout
    both = regent("hint", str(EXAMPLE), *place, "--bot", "mo-ismcts:iterations=100",
                  "--seconds", "30")  # fmt: skip
    assert both.returncode == 0, both.stderr
    assert "; 100 iterations in " in both.stdout
    refused = regent(
        "hint", str(EXAMPLE), *place, "--bot", "mo-ismcts:iterations=100", "--iterations", "50"
    )
    assert refused.returncode == 2 and refused.stdout == ""
    (line,) = refused.stderr.splitlines()
    assert "budget.iterations" in line and "sets its own iterations" in line


def test_a_remote_bot_searches_its_specs_budget(regent_server: RunningServer) -> None:
    """`grpc://...?bot=SPEC` plays as SPEC in process, move for move (the same search from
    the same seed: 30 iterations at temperature 1, not 5,000); a budget part beside the
    spec's own is refused before any game."""
    spec = "mo-ismcts:iterations=30,temperature=1"
    remote = RemoteBot(f"grpc://{regent_server.address}?bot={spec}")
    local = make_bot(spec)
    state = engine.state_from_observation(observation_from_proto(observation(POSITION)))
    assert [remote.choose(state, seed) for seed in range(8)] == [
        local.choose(state, seed) for seed in range(8)
    ]
    with pytest.raises(ValueError, match="sets its own iterations"):
        parse_address(f"grpc://h:1?bot={spec}&iterations=5")
    assert parse_address(f"grpc://h:1?bot={spec}&seconds=5").seconds == 5
