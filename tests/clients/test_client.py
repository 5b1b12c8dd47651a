"""RegentClient (clients/client.py) against a real server on 127.0.0.1.

Every method is called over a real socket on a server running in this process
(tests/support/server.py's `serving`); failures come back as RegentError with the server's
BadRequest field violations; closing a stream cancels its call on the server.
"""

from __future__ import annotations

import pickle
import random
import time
from collections.abc import Iterator

import grpc
import pytest

import engine
from clients.client import RegentClient, RegentError, seat_spec
from convert import observation_to_proto
from engine.errors import Wording
from engine.interface import State
from regent.v1 import common_pb2, matches_pb2
from search.games import default_bot
from server.limits import ServerLimits
from tests.support.reports import check_order
from tests.support.server import LOADED_HOST_MARGIN, serving

ITERATIONS = 200
FINISHED = matches_pb2.MATCH_STATUS_FINISHED


@pytest.fixture(scope="module")
def client() -> Iterator[RegentClient]:
    limits = ServerLimits(deadline_margin=LOADED_HOST_MARGIN)
    with serving(limits) as server, RegentClient(server.address) as client:
        client.wait_ready(10)
        yield client


@pytest.fixture(scope="module")
def one_search_client() -> Iterator[RegentClient]:
    """A server that runs a single search at a time, so a leaked search shows."""
    limits = ServerLimits(max_searches=1)
    with serving(limits) as server, RegentClient(server.address) as client:
        yield client


def midgame(num_players: int = 3, seed: int = 5, moves: int = 25) -> State:
    """A seeded game after some random moves."""
    state = engine.new_game("royal_cities", num_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def texts(state: State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play_out(client: RegentClient, match_id: str, token: str) -> matches_pb2.GetViewResponse:
    """Play the human seat's first legal move until the match ends; the final view."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = client.get_view(match_id, token)
        if view.status == FINISHED:
            return view
        if view.legal_moves:
            client.play(match_id, token, view.legal_moves[0].id)
        else:
            time.sleep(0.002)  # a bot is moving
    raise AssertionError("the match did not end in 30 s")


# -- AdvisorService ------------------------------------------------------------------


def test_list_games(client: RegentClient) -> None:
    games = client.list_games()
    assert [g.name for g in games.games] == ["citadels", "royal_cities"]
    assert list(games.games[0].player_counts) == [2, 3, 4, 5, 6, 7]
    assert list(games.games[1].player_counts) == [1, 2, 3, 4]
    assert "expert_royal_taxes" in [o.name for o in games.games[1].rules_options]
    assert [g.title for g in games.games] == ["Citadels", "Royal Cities"]
    assert [(len(g.cards), sum(c.copies for c in g.cards)) for g in games.games] == [
        (30, 68),
        (49, 85),
    ]
    assert "mo-ismcts" in games.bot_kinds
    assert games.default_bot == ServerLimits.default_bot == ""
    assert games.games[0].default_bots[2] == default_bot(games.games[0].name, 2)


def test_citadels_through_the_client(client: RegentClient) -> None:
    """A Citadels engine observation is advised on; a Citadels match takes its rules."""
    state = engine.new_game("citadels", 4, seed=2)
    advice = client.recommend(state.observation(state.current_player), iterations=200, seed=1)
    assert advice.move.id in state.legal_actions()
    created = client.create_match(
        "citadels", ["human:ann", "random"], rules={"eight_districts": True}
    )
    seat = created.tokens[0]
    view = client.get_view(created.match_id, seat.token)
    assert view.observation.citadels.rules.eight_districts
    summary = next(m for m in client.list_matches([seat.token]) if m.match_id == created.match_id)
    assert summary.game == common_pb2.GAME_CITADELS


def test_recommend_takes_engine_and_proto_observations(client: RegentClient) -> None:
    """Both forms of an observation give the same, legal, advice for the same seed."""
    state = midgame()
    view = state.observation(state.current_player)
    by_engine = client.recommend(view, iterations=ITERATIONS, seed=3)
    by_proto = client.recommend(observation_to_proto(view), iterations=ITERATIONS, seed=3)
    assert by_engine.move.text in texts(state)
    assert by_engine.move == by_proto.move
    assert by_engine.iterations == ITERATIONS
    assert any(m.estimated for m in by_engine.moves)
    check_order(by_engine, alone=False)
    assert sum(m.visits for m in by_engine.moves) > 0
    assert all(0 <= m.win_chance <= 1 for m in by_engine.moves)
    assert by_engine.principal_variation[0] == by_engine.move.text


def test_recommend_with_a_bot_spec_and_a_deadline(client: RegentClient) -> None:
    """A large budget stops at the call's deadline, with an answer, not an error."""
    state = midgame(seed=8)
    view = state.observation(state.current_player)
    advice = client.recommend(view, iterations=900_000, bot="so-ismcts", timeout=0.5)
    assert advice.move.text in texts(state)
    assert advice.iterations < 900_000


def test_analyze_reports_until_the_budget_is_spent(client: RegentClient) -> None:
    state = midgame(seed=9)
    view = state.observation(state.current_player)
    with client.analyze(view, iterations=3000, interval_ms=5) as stream:
        reports = list(stream)
    assert reports, "no report"
    counts = [r.iterations for r in reports]
    assert counts == sorted(counts) and counts[-1] == 3000
    assert reports[-1].move.text in texts(state)


def test_closing_an_analysis_cancels_its_search(one_search_client: RegentClient) -> None:
    """The server's one search slot comes free once the stream is closed."""
    client = one_search_client
    state = midgame(seed=10)
    view = state.observation(state.current_player)
    stream = client.analyze(view, seconds=20, interval_ms=20)
    first = next(stream)
    assert first.move.text in texts(state)
    stream.close()
    assert list(stream) == []
    deadline = time.monotonic() + 5
    while True:
        try:
            advice = client.recommend(view, iterations=ITERATIONS)
            break
        except RegentError as err:  # the slot frees as soon as the server sees the cancel
            assert err.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert time.monotonic() < deadline, "the cancelled search kept its slot"
            time.sleep(0.02)
    assert advice.move.text in texts(state)


def test_legal_moves(client: RegentClient) -> None:
    state = midgame(num_players=2, seed=4)
    moves = client.legal_moves(state.observation(state.current_player))
    assert moves.player == state.current_player
    assert [(m.id, m.text) for m in moves.moves] == [
        (a, state.action_to_string(a)) for a in state.legal_actions()
    ]


def test_errors_name_the_bad_fields(client: RegentClient) -> None:
    state = midgame()
    message = observation_to_proto(state.observation(state.current_player))
    with pytest.raises(RegentError) as caught:
        client.recommend(message, iterations=-1)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in caught.value.field_violations] == ["budget.iterations"]
    assert str(caught.value) == "INVALID_ARGUMENT: budget.iterations: cannot be negative"
    assert caught.value.wording == Wording("cannot be negative")
    copy = pickle.loads(pickle.dumps(caught.value))  # as a tournament worker sends it back
    assert (copy.code, copy.message, copy.field_violations, copy.wording, str(copy)) == (
        caught.value.code, caught.value.message, caught.value.field_violations,
        caught.value.wording, str(caught.value),
    )  # fmt: skip

    message.royal_cities.market[0].value = 9
    with pytest.raises(RegentError) as caught:
        client.legal_moves(message)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations[0].field == "observation.royal_cities.market[0]"

    bystander = state.observation((state.current_player + 1) % 3)
    with pytest.raises(RegentError) as caught:
        client.recommend(bystander, iterations=ITERATIONS)
    assert caught.value.field_violations[0].field == "observation.royal_cities.observer"
    wording = caught.value.wording  # the template and its parameters, to word in any language
    assert wording is not None and "{" in wording.template and wording.params
    assert str(wording) in caught.value.message
    with pytest.raises(RegentError) as caught:
        client.recommend(state.observation(state.current_player), bot="random")
    assert caught.value.field_violations[0].field == "bot"


def test_an_error_names_its_status_once(client: RegentClient) -> None:
    """gRPC's own message for a deadline only restates the code: the error reads it once."""
    created = client.create_match("royal_cities", ["human:ann", "random"], seed=2)
    with pytest.raises(RegentError) as caught:
        list(client.watch(created.match_id, created.tokens[0].token, timeout=0.3))
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert str(caught.value) == "DEADLINE_EXCEEDED"
    assert caught.value.wording is None  # gRPC's own status: no wording of ours
    assert str(RegentError(grpc.StatusCode.INTERNAL, "")) == "INTERNAL"


def test_deadline_and_unreachable_server() -> None:
    with RegentClient("127.0.0.1:1") as nowhere:
        with pytest.raises(RegentError) as caught:
            nowhere.wait_ready(0.2)
        assert caught.value.code == grpc.StatusCode.UNAVAILABLE
        with pytest.raises(RegentError) as caught:
            nowhere.list_games(timeout=2)
        assert caught.value.code == grpc.StatusCode.UNAVAILABLE
        assert caught.value.field_violations == ()


# -- MatchService --------------------------------------------------------------------


def test_seat_specs() -> None:
    assert seat_spec("human:ann").human_name == "ann"
    assert seat_spec("bot:random").bot == "random"
    assert seat_spec("mo-ismcts:iterations=500").bot == "mo-ismcts:iterations=500"


def test_a_match_from_creation_to_resignation(client: RegentClient) -> None:
    created = client.create_match("royal-cities", ["human:ann", "random", "random"], seed=3)
    assert [t.seat for t in created.tokens] == [0]
    match, token = created.match_id, created.tokens[0].token

    view = client.get_view(match, token)
    assert view.seat == 0 and view.status == matches_pb2.MATCH_STATUS_PLAYING
    assert view.legal_moves, "seat 0 decides first"
    with pytest.raises(RegentError) as caught:
        client.play(match, token, "play hand purple-9")
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations[0].field == "move.text"
    after = client.play(match, token, view.legal_moves[0].text)  # by text
    assert after.observation != view.observation
    if after.legal_moves:
        client.play(match, token, after.legal_moves[-1].id)  # by id

    summary = next(m for m in client.list_matches([token]) if m.match_id == match)
    assert list(summary.seats) == ["human:ann", "bot:random", "bot:random"]
    assert summary.num_players == 3 and summary.moves_played >= 1

    final = client.resign(match, token)
    assert final.status == FINISHED and list(final.resigned) == [0]
    assert final.returns[0] == 0
    with pytest.raises(RegentError) as caught:
        client.play(match, token, 0)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION

    with client.watch(match, token) as events:
        replay = list(events)
    assert replay[-1].resigned_seat == 0 and replay[-1].status == FINISHED

    with pytest.raises(RegentError) as caught:
        client.get_view(match, "not-a-token")
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(RegentError) as caught:
        client.get_view("no-such-match", token)
    assert caught.value.code == grpc.StatusCode.NOT_FOUND


def test_watch_follows_a_match_to_its_end(client: RegentClient) -> None:
    created = client.create_match("royal_cities", ["human:bo", "bot:random"], seed=11)
    match, token = created.match_id, created.tokens[0].token
    stream = client.watch(match, token)
    final = play_out(client, match, token)
    events = list(stream)
    assert [e.sequence for e in events] == sorted({e.sequence for e in events})
    assert all(e.status != FINISHED for e in events[:-1])
    assert events[-1].status == FINISHED
    assert list(events[-1].scores) == list(final.scores)
    assert sum(final.returns) == pytest.approx(1)
    assert {e.seat for e in events} == {0, 1}
    assert any(e.move.text == "(secret choice made)" for e in events if e.seat == 1)


def test_closing_a_watch_ends_it(client: RegentClient) -> None:
    created = client.create_match("royal_cities", ["human:cy", "random"], seed=12)
    stream = client.watch(created.match_id, created.tokens[0].token)
    stream.close()
    assert list(stream) == []


def test_create_match_with_rules_and_bad_seats(client: RegentClient) -> None:
    created = client.create_match("royal_cities", ["human:di"], rules={"expert_royal_taxes": True})
    view = client.get_view(created.match_id, created.tokens[0].token)
    assert view.observation.royal_cities.rules.expert_royal_taxes
    assert view.observation.royal_cities.HasField("regent")

    with pytest.raises(RegentError) as caught:
        client.create_match("royal_cities", ["human:di", "nonsense"])
    assert caught.value.field_violations[0].field == "seats[1].bot"
    with pytest.raises(ValueError, match="unknown game"):
        client.create_match("chess", ["human:di"])
