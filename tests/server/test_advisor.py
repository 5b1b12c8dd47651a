"""AdvisorService over a real socket: Recommend, Analyze, LegalMoves, ListGames, health and
reflection, and the statuses of bad requests (with their google.rpc.BadRequest details)."""

from __future__ import annotations

import math
import re
import time

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import engine
from convert import observation_from_proto, observation_to_proto
from engine.royal_cities import RulesConfig
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, royal_cities_pb2
from search.bots import BOT_KINDS, SEARCH_BOTS, resolve
from search.games import default_bot
from search.levels import LEVELS
from tests.support.errors import field_violations, violated_fields
from tests.support.random_games import play_to, position, terminal_position
from tests.support.reports import check_order
from tests.support.server import RunningServer
from tests.timing import SLACK

Code = grpc.StatusCode
ADVISOR = "regent.v1.AdvisorService"
MATCHES = "regent.v1.MatchService"

#: (players, phase) of the positions the advice is checked in: every kind of decision.
POSITIONS = [
    (1, "turn"),
    (1, "solo_own"),
    (1, "purchase"),
    (2, "pass"),
    (2, "first_build"),
    (2, "turn"),
    (2, "construct"),
    (3, "turn"),
    (3, "effect"),
    (3, "pass"),
    (4, "turn"),
    (4, "construct"),
    (4, "purchase"),
]


def recommend(observation, iterations=300, **fields) -> advisor_pb2.RecommendRequest:
    budget = fields.pop("budget", common_pb2.SearchBudget(iterations=iterations, threads=1))
    return advisor_pb2.RecommendRequest(observation=observation, budget=budget, **fields)


def copy(observation: advisor_pb2.Observation) -> advisor_pb2.Observation:
    out = advisor_pb2.Observation()
    out.CopyFrom(observation)
    return out


def rpc_error(call, request, **kwargs) -> grpc.RpcError:
    """The error of a unary call (or of a stream's first message) that must fail."""
    with pytest.raises(grpc.RpcError) as info:
        result = call(request, timeout=10, **kwargs)
        if not hasattr(result, "report") and not hasattr(result, "moves"):
            list(result)  # a stream: the error arrives when reading it
    return info.value


# -- health and reflection -----------------------------------------------------------


@pytest.mark.parametrize("service", ["", ADVISOR, MATCHES])
def test_health_reports_serving(channel: grpc.Channel, service: str) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_health_of_an_unknown_service_is_not_found(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    with pytest.raises(grpc.RpcError) as info:
        health.Check(health_pb2.HealthCheckRequest(service="regent.v1.Nothing"), timeout=5)
    assert info.value.code() == Code.NOT_FOUND


def _reflect(channel: grpc.Channel, request: reflection_pb2.ServerReflectionRequest):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    (response,) = list(stub.ServerReflectionInfo(iter([request]), timeout=5))
    return response


def test_reflection_lists_the_services(channel: grpc.Channel) -> None:
    response = _reflect(channel, reflection_pb2.ServerReflectionRequest(list_services=""))
    names = {s.name for s in response.list_services_response.service}
    assert {ADVISOR, MATCHES, "grpc.health.v1.Health"} <= names


@pytest.mark.parametrize("symbol", [ADVISOR, MATCHES])
def test_reflection_describes_the_services(channel: grpc.Channel, symbol: str) -> None:
    request = reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol)
    response = _reflect(channel, request)
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in response.file_descriptor_response.file_descriptor_proto
    ]
    services = {f"{f.package}.{s.name}": s for f in files for s in f.service}
    assert symbol in services
    methods = {m.name for m in services[symbol].method}
    expected = (
        {
            "Recommend",
            "Analyze",
            "LegalMoves",
            "ListGames",
            "ApplyMove",
            "Review",
            "ApplyObservedMove",
        }
        if symbol == ADVISOR
        else {"CreateMatch", "GetView", "Play", "Watch", "ListMatches", "Resign"}
    )
    assert methods == expected


# -- ListGames -------------------------------------------------------------------------


def test_list_games(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    response = advisor.ListGames(advisor_pb2.ListGamesRequest(), timeout=5)
    assert [g.name for g in response.games] == ["citadels", "royal_cities"]  # by name
    citadels, game = response.games
    assert citadels.game == common_pb2.GAME_CITADELS
    assert citadels.name == "citadels"
    assert list(citadels.player_counts) == [2, 3, 4, 5, 6, 7]
    assert [(o.name, o.default_value) for o in citadels.rules_options] == [
        ("eight_districts", False),
        ("powers_before_resources", False),
    ]
    assert citadels.rules_options[0].description
    assert (citadels.title, citadels.score_unit) == ("Citadels", "points")
    assert (len(citadels.cards), sum(c.copies for c in citadels.cards)) == (30, 68)
    assert citadels.cards[9].name == "trading-post"
    assert dict(citadels.cards[9].attributes) == {"colour": "trade", "cost": "2"}
    assert game.game == common_pb2.GAME_ROYAL_CITIES
    assert (game.title, game.score_unit) == ("Royal Cities", "VP")
    assert (len(game.cards), sum(c.copies for c in game.cards)) == (49, 85)
    yellow_2 = game.cards[9]
    assert (yellow_2.name, yellow_2.copies) == ("yellow-2", 2)
    assert dict(yellow_2.attributes) == {"colour": "yellow", "value": "2", "effect": "Jester"}
    assert dict(game.cards[48].attributes) == {"colour": "white", "value": "6"}
    assert game.name == "royal_cities"
    assert list(game.player_counts) == [1, 2, 3, 4]
    options = {o.name: o for o in game.rules_options}
    defaults = RulesConfig()
    assert set(options) == {
        "crown_through_white",
        "hero_on_every_revolt",
        "white_with_existing_partner",
        "catch_up_upper_inclusive",
        "expert_royal_taxes",
        "regent_scores_revolts",
    }
    for name, option in options.items():
        assert option.default_value == getattr(defaults, name)
        assert option.description
    assert options["hero_on_every_revolt"].default_value is True
    assert options["regent_scores_revolts"].default_value is True
    assert list(response.bot_kinds) == list(BOT_KINDS)
    assert {"random", "heuristic", "pimc", "so-ismcts", "mo-ismcts", "level"} == set(
        response.bot_kinds
    )
    assert response.default_bot == ""  # each game's own default, by player count
    for game in response.games:
        assert sorted(game.default_bots) == list(game.player_counts)
        assert all(spec.split(":")[0] in SEARCH_BOTS for spec in game.default_bots.values())


def test_list_games_lists_the_difficulty_levels(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """Every game lists the levels, weakest first, with the spec of each per player count."""
    response = advisor.ListGames(advisor_pb2.ListGamesRequest(), timeout=5)
    assert "level" in response.bot_kinds
    for info in response.games:
        assert [level.level for level in info.levels] == [level.number for level in LEVELS]
        for level, listed in zip(LEVELS, info.levels, strict=True):
            assert listed.description == level.description
            assert set(listed.bots) == set(info.player_counts)
            for players, spec in listed.bots.items():
                assert spec == resolve(f"level:{level.number}", info.name, players)
        top = info.levels[-1]
        for players, spec in top.bots.items():
            assert spec.startswith(default_bot(info.name, players))
            assert "seconds=1" in spec


# -- Recommend ---------------------------------------------------------------------------


def _check_report(
    report: common_pb2.SearchReport, observation: advisor_pb2.Observation, iterations: int
) -> None:
    """A legal move, every legal move listed once, visits adding up to the iterations,
    rewards and win chances within [0, 1], in the report's order."""
    state = engine.state_from_observation(observation_from_proto(observation), seed=1)
    legal = {a: state.action_to_string(a) for a in state.legal_actions()}
    assert report.move.HasField("id")
    assert report.move.id in legal
    assert report.move.text == legal[report.move.id]
    listed = {m.move.id: m.move.text for m in report.moves}
    assert listed == legal
    assert len(report.moves) == len(legal)
    assert report.iterations == iterations
    assert sum(m.visits for m in report.moves) == report.iterations
    check_order(report, state.num_players == 1)
    assert report.moves[0].move == report.move
    for m in report.moves:
        assert 0.0 <= m.win_chance <= 1.0, m
        assert 0.0 <= m.mean_reward <= 1.0, m
        assert m.visits >= 0
    assert report.elapsed_seconds > 0
    if report.principal_variation:
        assert report.principal_variation[0] == report.move.text


@pytest.mark.parametrize(("num_players", "phase"), POSITIONS)
def test_recommend_gives_a_legal_move(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, num_players: int, phase: str
) -> None:
    state, observation = position(num_players, seed=num_players * 10, phase=phase)
    response = advisor.Recommend(recommend(observation, 400, seed=3), timeout=10)
    _check_report(response.report, observation, 400)
    # Legal in the true game too: the observer's moves do not depend on what it cannot see.
    assert response.report.move.id in state.legal_actions()


@pytest.mark.parametrize(
    "bot", ["mo-ismcts", "so-ismcts:c=1.2", "pimc:worlds=4", ""]
)  # a level has its own budget: tests/server/test_levels.py
def test_recommend_with_each_search_bot(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, bot: str
) -> None:
    _, observation = position(3, seed=5)
    response = advisor.Recommend(recommend(observation, 200, bot=bot), timeout=10)
    _check_report(response.report, observation, 200)


def test_recommend_is_reproducible_with_a_seed(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(3, seed=21)
    first = advisor.Recommend(recommend(observation, 500, seed=42), timeout=10).report
    again = advisor.Recommend(recommend(observation, 500, seed=42), timeout=10).report
    assert again.move == first.move
    assert [(m.move.id, m.visits) for m in again.moves] == [
        (m.move.id, m.visits) for m in first.moves
    ]
    assert list(again.principal_variation) == list(first.principal_variation)


def test_recommend_with_the_default_budget(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    """No budget at all: the server's default number of iterations."""
    _, observation = position(2, seed=4)
    report = advisor.Recommend(advisor_pb2.RecommendRequest(observation=observation), timeout=20)
    _check_report(report.report, observation, report.report.iterations)
    assert report.report.iterations > 0


@pytest.mark.timing
def test_recommend_with_a_time_budget(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    """A 0.2 s search answers at its budget, not at the call's 10 s deadline."""
    _, observation = position(2, seed=4)
    budget = common_pb2.SearchBudget(seconds=0.2)
    start = time.perf_counter()
    report = advisor.Recommend(recommend(observation, budget=budget), timeout=10).report
    took = time.perf_counter() - start
    assert 0.15 <= report.elapsed_seconds < 0.2 + SLACK
    assert took < 0.2 + SLACK
    _check_report(report, observation, report.iterations)


def test_recommend_with_two_threads(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    _, observation = position(4, seed=8)
    budget = common_pb2.SearchBudget(iterations=200, threads=2)
    report = advisor.Recommend(recommend(observation, budget=budget), timeout=10).report
    assert sum(m.visits for m in report.moves) == report.iterations
    assert report.iterations >= 200


def test_iteration_budget_counts_all_threads(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(4, seed=8)
    budget = common_pb2.SearchBudget(iterations=300, threads=2)
    report = advisor.Recommend(recommend(observation, budget=budget), timeout=10).report
    assert report.iterations <= 300


# -- Analyze -------------------------------------------------------------------------------


def test_analyze_streams_growing_reports(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    _, observation = position(3, seed=2)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation,
        budget=common_pb2.SearchBudget(iterations=8000, threads=1),
        seed=5,
        interval_ms=40,
    )
    messages = list(advisor.Analyze(request, timeout=30))
    assert len(messages) >= 3
    assert [m.final for m in messages] == [False] * (len(messages) - 1) + [True]
    counts = [m.report.iterations for m in messages]
    assert counts == sorted(counts)
    assert counts[0] < counts[-1]
    assert len(set(counts[:-1])) == len(counts) - 1, "each report adds iterations"
    for m in messages:
        assert sum(s.visits for s in m.report.moves) == m.report.iterations
        for s in m.report.moves:
            assert 0.0 <= s.win_chance <= 1.0
    _check_report(messages[-1].report, observation, 8000)


@pytest.mark.timing
def test_analyze_with_the_default_interval(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    """A report every 250 ms of search by default: a 1 s search sends at most four (each slice
    takes at least its 250 ms however loaded the host), and more than one."""
    _, observation = position(2, seed=2)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation, budget=common_pb2.SearchBudget(seconds=1.0)
    )
    messages = list(advisor.Analyze(request, timeout=10))
    assert 2 <= len(messages) <= 4
    assert all(m.report.elapsed_seconds >= 0.25 for m in messages)
    assert messages[-1].final
    assert messages[-1].report.elapsed_seconds >= 0.95


def test_analyze_of_a_small_budget_sends_one_final_report(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(2, seed=3)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation, budget=common_pb2.SearchBudget(iterations=50), interval_ms=5000
    )
    (message,) = list(advisor.Analyze(request, timeout=10))
    assert message.final
    _check_report(message.report, observation, 50)


# -- LegalMoves ----------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "phase"), POSITIONS)
def test_legal_moves_are_the_engines(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, num_players: int, phase: str
) -> None:
    state, observation = position(num_players, seed=num_players, phase=phase)
    response = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=observation), timeout=5)
    rebuilt = engine.state_from_observation(observation_from_proto(observation))
    expected = [(a, rebuilt.action_to_string(a)) for a in rebuilt.legal_actions()]
    assert [(m.id, m.text) for m in response.moves] == expected
    assert [(a, state.action_to_string(a)) for a in state.legal_actions()] == expected
    assert response.HasField("player")
    assert response.player == state.current_player


def test_legal_moves_of_another_players_view(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    """From an onlooker's observation, LegalMoves names the player to act and lists no
    moves: that player's moves depend on a hand the onlooker cannot see."""
    state = play_to(3, 7, lambda s: s.phase == "turn", 10)
    onlooker = (state.current_player + 1) % 3
    observation = observation_to_proto(state.observation(onlooker))
    response = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=observation), timeout=5)
    assert response.player == state.current_player
    assert list(response.moves) == []


def test_legal_moves_of_a_finished_game_are_none(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    observation = terminal_position(2, seed=1)
    response = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=observation), timeout=5)
    assert not response.HasField("player")
    assert not response.moves


# -- bad requests ----------------------------------------------------------------------------


def _observer_hand(observation: advisor_pb2.Observation):
    rc = observation.royal_cities
    return rc.players[rc.observer].hand


def _unknown_colour(o: advisor_pb2.Observation) -> None:
    _observer_hand(o)[0].colour = 9


def _value_seven(o: advisor_pb2.Observation) -> None:
    _observer_hand(o)[0].value = 7


def _card_in_two_places(o: advisor_pb2.Observation) -> None:
    card = _observer_hand(o)[0]
    o.royal_cities.market.extend([card, card])  # a third copy at least


def _white_twice(o: advisor_pb2.Observation) -> None:
    white = common_card(7, 4)
    o.royal_cities.market.append(white)
    o.royal_cities.discard.append(white)


def _pile_too_big(o: advisor_pb2.Observation) -> None:
    o.royal_cities.pile_size += 1


def _own_hand_size_off(o: advisor_pb2.Observation) -> None:
    rc = o.royal_cities
    rc.players[rc.observer].hand_size += 1


def _too_many_players(o: advisor_pb2.Observation) -> None:
    o.royal_cities.num_players = 7


def _unknown_phase(o: advisor_pb2.Observation) -> None:
    o.royal_cities.decision.phase = 42


def _five_cities(o: advisor_pb2.Observation) -> None:
    rc = o.royal_cities
    del rc.players[rc.observer].cities[:]
    rc.players[rc.observer].cities.add()


def _no_game(o: advisor_pb2.Observation) -> None:
    o.ClearField("royal_cities")


def common_card(colour: int, value: int) -> royal_cities_pb2.RoyalCitiesCard:
    return royal_cities_pb2.RoyalCitiesCard(colour=colour, value=value)


#: name -> (how to break a valid observation, the violated field's path in the request).
MALFORMED = {
    "unknown card colour": (
        _unknown_colour,
        r"observation\.royal_cities\.players\[\d\]\.hand\[0\]",
    ),
    "card value 7": (_value_seven, r"observation\.royal_cities\.players\[\d\]\.hand\[0\]"),
    "card in two places": (_card_in_two_places, r"observation\.royal_cities\..+"),
    "single white card twice": (_white_twice, r"observation\.royal_cities\..+"),
    "counts off": (_pile_too_big, r"observation\.royal_cities\.pile_size"),
    "hand size off": (_own_hand_size_off, r"observation\.royal_cities\.players\[\d\]\.hand_size"),
    "seven players": (_too_many_players, r"observation\.royal_cities\.num_players"),
    "unknown phase": (_unknown_phase, r"observation\.royal_cities\.decision\.phase"),
    "five Cities": (_five_cities, r"observation\.royal_cities\.players\[\d\]\.cities"),
    "no game": (_no_game, r"observation(\.game)?"),
}


@pytest.mark.parametrize("rpc", ["Recommend", "Analyze", "LegalMoves"])
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_observation_is_invalid_argument(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, case: str, rpc: str
) -> None:
    breaker, _ = MALFORMED[case]
    _, observation = position(3, seed=11)
    broken = copy(observation)
    breaker(broken)
    if rpc == "LegalMoves":
        request = advisor_pb2.LegalMovesRequest(observation=broken)
    elif rpc == "Analyze":
        request = advisor_pb2.AnalyzeRequest(
            observation=broken, budget=common_pb2.SearchBudget(iterations=100)
        )
    else:
        request = recommend(broken, 100)
    err = rpc_error(getattr(advisor, rpc), request)
    assert err.code() == Code.INVALID_ARGUMENT, err.details()
    (violation,) = field_violations(err)
    assert violation.field.startswith("observation")
    assert violation.description
    assert violation.field in err.details()


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_violation_names_a_field_of_the_request(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, case: str
) -> None:
    breaker, pattern = MALFORMED[case]
    _, observation = position(3, seed=11)
    broken = copy(observation)
    breaker(broken)
    err = rpc_error(advisor.Recommend, recommend(broken, 100))
    assert err.code() == Code.INVALID_ARGUMENT
    (field,) = violated_fields(err)
    assert re.fullmatch(pattern, field), field
    assert _is_request_path(advisor_pb2.RecommendRequest.DESCRIPTOR, field), field


def _is_request_path(descriptor, path: str) -> bool:
    """Whether `path` (a.b[2].c) names a field of the message `descriptor`: a repeated field
    takes an index except as the last part; a oneof's name counts as the last part."""
    parts = path.split(".")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        match = re.fullmatch(r"([a-z_]+)(\[\d+\])?", part)
        if descriptor is None or match is None:
            return False
        name, index = match.groups()
        found = descriptor.fields_by_name.get(name)
        if found is None:
            return last and index is None and name in descriptor.oneofs_by_name
        if index is not None and not found.is_repeated:
            return False
        if index is None and found.is_repeated and not last:
            return False
        descriptor = found.message_type
    return True


def test_missing_observation(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    for call, request in (
        (advisor.Recommend, advisor_pb2.RecommendRequest()),
        (advisor.LegalMoves, advisor_pb2.LegalMovesRequest()),
        (advisor.Analyze, advisor_pb2.AnalyzeRequest()),
    ):
        err = rpc_error(call, request)
        assert err.code() == Code.INVALID_ARGUMENT
        assert violated_fields(err) == ["observation"]


@pytest.mark.parametrize(
    "bot",
    [
        "bot",
        "alphazero",
        "MO-ISMCTS",
        "mo-ismcts:c=abc",
        "mo-ismcts:nonsense=1",
        "mo-ismcts:iterations",
        "mo-ismcts:algorithm=pimc",
        "mo-ismcts:playout=perfect",
        "mo-ismcts:epsilon=2",
        "pimc:worlds=0",
        "random",
        "heuristic",
        "heuristic:x=1",
        "level:11",
        "level:x",
    ],
)
def test_bad_bot_spec(advisor: advisor_pb2_grpc.AdvisorServiceStub, bot: str) -> None:
    _, observation = position(2, seed=1)
    err = rpc_error(advisor.Recommend, recommend(observation, 100, bot=bot))
    assert err.code() == Code.INVALID_ARGUMENT, err.details()
    assert violated_fields(err) == ["bot"]


@pytest.mark.parametrize(
    ("budget", "field"),
    [
        (common_pb2.SearchBudget(iterations=-1), "budget.iterations"),
        (common_pb2.SearchBudget(seconds=-0.5), "budget.seconds"),
        (common_pb2.SearchBudget(iterations=100, threads=-1), "budget.threads"),
        (common_pb2.SearchBudget(seconds=math.nan), "budget.seconds"),
        (common_pb2.SearchBudget(iterations=-(2**63)), "budget.iterations"),
    ],
)
def test_negative_budget_is_invalid_argument(
    advisor: advisor_pb2_grpc.AdvisorServiceStub, budget: common_pb2.SearchBudget, field: str
) -> None:
    _, observation = position(2, seed=1)
    for call, request in (
        (advisor.Recommend, recommend(observation, budget=budget)),
        (advisor.Analyze, advisor_pb2.AnalyzeRequest(observation=observation, budget=budget)),
    ):
        err = rpc_error(call, request)
        assert err.code() == Code.INVALID_ARGUMENT
        assert violated_fields(err) == [field]


def test_negative_interval_is_invalid_argument(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(2, seed=1)
    request = advisor_pb2.AnalyzeRequest(
        observation=observation, budget=common_pb2.SearchBudget(iterations=100), interval_ms=-1
    )
    err = rpc_error(advisor.Analyze, request)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == ["interval_ms"]


@pytest.mark.parametrize(
    ("budget", "field"),
    [
        (common_pb2.SearchBudget(iterations=5001), "budget.iterations"),
        (common_pb2.SearchBudget(iterations=2**63 - 1), "budget.iterations"),
        (common_pb2.SearchBudget(seconds=30.5), "budget.seconds"),
        (common_pb2.SearchBudget(seconds=math.inf), "budget.seconds"),
        (common_pb2.SearchBudget(iterations=100, threads=2), "budget.threads"),
    ],
)
def test_budget_over_the_limit_is_resource_exhausted(
    tight_advisor: advisor_pb2_grpc.AdvisorServiceStub,
    budget: common_pb2.SearchBudget,
    field: str,
) -> None:
    _, observation = position(2, seed=1)
    for call, request in (
        (tight_advisor.Recommend, recommend(observation, budget=budget)),
        (
            tight_advisor.Analyze,
            advisor_pb2.AnalyzeRequest(observation=observation, budget=budget),
        ),
    ):
        err = rpc_error(call, request)
        assert err.code() == Code.RESOURCE_EXHAUSTED, err.details()
        assert violated_fields(err) == [field]


def test_budget_at_the_limit_is_served(
    tight_advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    _, observation = position(2, seed=1)
    report = tight_advisor.Recommend(recommend(observation, 5000), timeout=20).report
    assert report.iterations == 5000


def test_more_searches_than_the_limit_is_resource_exhausted(
    tight_server: RunningServer, tight_advisor: advisor_pb2_grpc.AdvisorServiceStub
) -> None:
    """With max_searches=1, a running Analyze leaves no room for another search."""
    _, observation = position(3, seed=6)
    analysis = tight_advisor.Analyze(
        advisor_pb2.AnalyzeRequest(
            observation=observation, budget=common_pb2.SearchBudget(seconds=10), interval_ms=50
        ),
        timeout=20,
    )
    try:
        next(analysis)
        assert tight_server.server.slots.running == 1
        for call, request in (
            (tight_advisor.Recommend, recommend(observation, 100)),
            (
                tight_advisor.Analyze,
                advisor_pb2.AnalyzeRequest(
                    observation=observation, budget=common_pb2.SearchBudget(iterations=100)
                ),
            ),
        ):
            err = rpc_error(call, request)
            assert err.code() == Code.RESOURCE_EXHAUSTED
            assert violated_fields(err) == ["budget"]
        # LegalMoves runs no search: still served.
        tight_advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=observation), timeout=5)
    finally:
        analysis.cancel()
    tight_server.wait_idle(SLACK)  # freed at the cancel, not at the end of its 10 s
    report = tight_advisor.Recommend(recommend(observation, 100), timeout=10).report
    assert report.iterations == 100


def test_advice_for_a_player_not_to_act(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    state = play_to(3, 3, lambda s: s.phase == "turn", 10)
    onlooker = (state.current_player + 1) % 3
    observation = observation_to_proto(state.observation(onlooker))
    for call, request in (
        (advisor.Recommend, recommend(observation, 100)),
        (
            advisor.Analyze,
            advisor_pb2.AnalyzeRequest(
                observation=observation, budget=common_pb2.SearchBudget(iterations=100)
            ),
        ),
    ):
        err = rpc_error(call, request)
        assert err.code() == Code.INVALID_ARGUMENT
        assert violated_fields(err) == ["observation.royal_cities.observer"]


def test_advice_for_a_finished_game_is_failed_precondition(
    advisor: advisor_pb2_grpc.AdvisorServiceStub,
) -> None:
    observation = terminal_position(3, seed=2)
    err = rpc_error(advisor.Recommend, recommend(observation, 100))
    assert err.code() == Code.FAILED_PRECONDITION


def test_huge_seed_is_fine(advisor: advisor_pb2_grpc.AdvisorServiceStub) -> None:
    _, observation = position(2, seed=9)
    report = advisor.Recommend(recommend(observation, 100, seed=2**64 - 1), timeout=10).report
    _check_report(report, observation, 100)
