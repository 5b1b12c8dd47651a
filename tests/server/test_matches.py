"""MatchService over a real socket: hosted matches with human and bot seats, their errors,
and hidden information: every view and event a seat receives is checked against the server's
true game (read in-process), and nothing a seat may not know reaches it or the server's log."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import grpc
import pytest

import engine
from convert import observation_from_proto, observation_to_proto
from engine.royal_cities import RulesConfig
from regent.v1 import advisor_pb2, common_pb2, matches_pb2, matches_pb2_grpc, royal_cities_pb2
from server.limits import ServerLimits
from tests.support.errors import violated_fields
from tests.support.server import CARD_NAME, RunningServer, serving

Code = grpc.StatusCode
PLAYING = matches_pb2.MATCH_STATUS_PLAYING
FINISHED = matches_pb2.MATCH_STATUS_FINISHED
SECRET_TEXT = "(secret choice made)"
#: Decisions taken in secret: the setup passes and first build, and Season construction.
SECRET_PHASES = {"pass", "first_build", "construct"}


def human(name: str = "ann") -> matches_pb2.SeatSpec:
    return matches_pb2.SeatSpec(human_name=name)


def bot(spec: str) -> matches_pb2.SeatSpec:
    return matches_pb2.SeatSpec(bot=spec)


def create(
    stub: matches_pb2_grpc.MatchServiceStub,
    seats: list[matches_pb2.SeatSpec],
    seed: int = 0,
    rules: royal_cities_pb2.RoyalCitiesRules | None = None,
    public: bool = False,
) -> tuple[str, dict[int, str]]:
    """A new match: its id and the token of each human seat."""
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES,
        seats=seats,
        seed=seed,
        royal_cities_rules=rules,
        public=public,
    )
    response = stub.CreateMatch(request, timeout=10)
    return response.match_id, {t.seat: t.token for t in response.tokens}


def error_of(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        result = call(request, timeout=10)
        if isinstance(result, grpc.Call) and hasattr(result, "__iter__"):
            list(result)
    return info.value


def view(stub, match_id: str, token: str) -> matches_pb2.GetViewResponse:
    return stub.GetView(matches_pb2.GetViewRequest(match_id=match_id, token=token), timeout=10)


def play(stub, match_id: str, token: str, move: common_pb2.Move) -> matches_pb2.PlayResponse:
    request = matches_pb2.PlayRequest(match_id=match_id, token=token, move=move)
    return stub.Play(request, timeout=10)


def watch(stub, match_id: str, token: str, timeout: float = 60) -> list[matches_pb2.MatchEvent]:
    request = matches_pb2.WatchRequest(match_id=match_id, token=token)
    return [r.event for r in stub.Watch(request, timeout=timeout)]


def list_all(stub, tokens: tuple[str, ...] = ()) -> list[matches_pb2.MatchSummary]:
    """Every match ListMatches shows for these tokens, page after page."""
    request = matches_pb2.ListMatchesRequest(tokens=tokens)
    found = []
    while True:
        page = stub.ListMatches(request, timeout=5)
        found.extend(page.matches)
        if not page.next_page_token:
            return found
        request.page_token = page.next_page_token


def play_out(
    stub, match_id: str, tokens: dict[int, str], rng: random.Random, deadline: float = 60
) -> matches_pb2.GetViewResponse:
    """Play random legal moves for the human seats until the match is over."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        for _, token in sorted(tokens.items()):
            current = view(stub, match_id, token)
            if current.status == FINISHED:
                return current
            if current.legal_moves:
                move = rng.choice(current.legal_moves)
                play(stub, match_id, token, move)
                break
        else:
            time.sleep(0.002)
    raise AssertionError("the match did not end in time")


# -- the happy paths ---------------------------------------------------------------------


def test_a_match_between_two_humans(
    regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub
) -> None:
    match_id, tokens = create(matches, [human("ann"), human("bob")], seed=5)
    assert sorted(tokens) == [0, 1]
    assert len(set(tokens.values())) == 2
    truth = engine.new_game("royal_cities", 2, 5)
    for seat, token in tokens.items():
        v = view(matches, match_id, token)
        assert v.seat == seat
        assert v.status == PLAYING
        assert observation_from_proto(v.observation) == truth.observation(seat)
        if seat == truth.current_player:
            assert [(m.id, m.text) for m in v.legal_moves] == [
                (a, truth.action_to_string(a)) for a in truth.legal_actions()
            ]
        else:
            assert not v.legal_moves
        assert not v.scores and not v.returns
    rng = random.Random(1)
    plays = 0
    while not truth.is_terminal():
        seat = truth.current_player
        action = rng.choice(truth.legal_actions())
        text = truth.action_to_string(action)
        # By id, by text, or by both.
        move = [
            common_pb2.Move(id=action),
            common_pb2.Move(text=text),
            common_pb2.Move(id=action, text=text),
        ][plays % 3]
        response = play(matches, match_id, tokens[seat], move)
        truth.apply_action(action)
        plays += 1
        assert response.view.seat == seat
        assert observation_from_proto(response.view.observation) == truth.observation(seat)
    final = view(matches, match_id, tokens[0])
    assert final.status == FINISHED
    assert list(final.scores) == truth.scores()
    assert list(final.returns) == pytest.approx(truth.returns())
    assert sum(final.returns) == pytest.approx(1.0)
    assert not final.legal_moves
    (summary,) = [
        m
        for m in matches.ListMatches(
            matches_pb2.ListMatchesRequest(tokens=[tokens[1]]), timeout=5
        ).matches
        if m.match_id == match_id
    ]
    assert summary.status == FINISHED
    assert summary.num_players == 2
    assert summary.game == common_pb2.GAME_ROYAL_CITIES
    assert summary.moves_played == plays
    assert list(summary.seats) == ["human:ann", "human:bob"]
    assert not summary.HasField("current_seat")


def test_a_solo_match(matches: matches_pb2_grpc.MatchServiceStub) -> None:
    match_id, tokens = create(matches, [human()], seed=3)
    assert list(tokens) == [0]
    first = view(matches, match_id, tokens[0])
    assert first.observation.royal_cities.HasField("regent")
    final = play_out(matches, match_id, tokens, random.Random(3))
    assert final.status == FINISHED
    assert len(final.scores) == 2  # the player and the Regent
    (summary,) = matches.ListMatches(
        matches_pb2.ListMatchesRequest(tokens=[tokens[0]]), timeout=5
    ).matches
    assert summary.match_id == match_id
    assert summary.status == FINISHED


def test_seat_tokens_are_hex_so_a_command_line_takes_them(
    matches: matches_pb2_grpc.MatchServiceStub,
) -> None:
    """`regent watch MATCH --token TOKEN`: a token starting with '-' would read as an option
    (base64url tokens did, one in 64)."""
    for seed in range(8):
        _, tokens = create(matches, [human("a"), human("b"), human("c"), human("d")], seed=seed)
        assert all(len(t) == 48 and set(t) <= set("0123456789abcdef") for t in tokens.values())


def test_a_match_of_bots_plays_itself(
    regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub
) -> None:
    match_id, tokens = create(
        matches,
        [bot("random"), bot("heuristic"), bot("mo-ismcts:iterations=30")],
        seed=9,
        public=True,
    )
    assert tokens == {}
    end = time.monotonic() + 30
    while time.monotonic() < end:
        summaries = list_all(matches)
        (summary,) = [m for m in summaries if m.match_id == match_id]
        assert summary.public
        if summary.status == FINISHED:
            break
        assert summary.HasField("current_seat")
        time.sleep(0.02)
    assert summary.status == FINISHED
    assert summary.moves_played > 20
    assert list(summary.seats) == ["bot:random", "bot:heuristic", "bot:mo-ismcts:iterations=30"]
    assert regent_server.true_match(match_id).state.is_terminal()


def test_a_match_against_a_level_plays(
    regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub
) -> None:
    """A seat of `level:3` plays a whole match against a human; its spec is kept as given."""
    match_id, tokens = create(matches, [human(), bot("level:3")], seed=4)
    final = play_out(matches, match_id, tokens, random.Random(4))
    assert final.status == FINISHED
    (summary,) = [m for m in list_all(matches, tuple(tokens.values())) if m.match_id == match_id]
    assert list(summary.seats)[1] == "bot:level:3"
    assert regent_server.true_match(match_id).state.is_terminal()


@pytest.mark.parametrize(
    ("spec", "reason"),
    [("level:0", "within [1, 10]"), ("level:11", "within [1, 10]"), ("level:x", "whole number"),
     ("level:3,seconds=1", "no options")],
)  # fmt: skip
def test_a_bad_level_is_named(
    matches: matches_pb2_grpc.MatchServiceStub, spec: str, reason: str
) -> None:
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_ROYAL_CITIES, seats=[human(), bot(spec)], seed=1
    )
    err = error_of(matches.CreateMatch, request)
    assert err.code() == Code.INVALID_ARGUMENT
    assert violated_fields(err) == ["seats[1].bot"]
    assert reason in err.details()


def test_rules_options_reach_the_game(matches: matches_pb2_grpc.MatchServiceStub) -> None:
    rules = royal_cities_pb2.RoyalCitiesRules(
        crown_through_white=True, hero_on_every_revolt=False, expert_royal_taxes=True
    )
    match_id, tokens = create(matches, [human(), human()], seed=1, rules=rules)
    got = view(matches, match_id, tokens[0]).observation.royal_cities.rules
    assert got.crown_through_white
    assert not got.hero_on_every_revolt
    assert got.regent_scores_revolts  # unset: the engine's default, true
    assert observation_from_proto(view(matches, match_id, tokens[0]).observation).rules == (
        RulesConfig(crown_through_white=True, hero_on_every_revolt=False, expert_royal_taxes=True)
    )


def test_watch_replays_and_follows_a_match(matches: matches_pb2_grpc.MatchServiceStub) -> None:
    match_id, tokens = create(matches, [human("ann"), bot("heuristic")], seed=12)
    live: list[matches_pb2.MatchEvent] = []
    follower = threading.Thread(target=lambda: live.extend(watch(matches, match_id, tokens[0])))
    follower.start()
    final = play_out(matches, match_id, tokens, random.Random(12))
    follower.join(30)
    assert not follower.is_alive(), "Watch did not end with the match"
    replay = watch(matches, match_id, tokens[0])
    assert live == replay
    sequences = [e.sequence for e in replay]
    assert sequences == sorted(set(sequences))
    assert [e.status for e in replay] == [PLAYING] * (len(replay) - 1) + [FINISHED]
    assert list(replay[-1].scores) == list(final.scores)
    assert list(replay[-1].returns) == list(final.returns)
    assert replay[-1].observation == final.observation


def test_resign(regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub) -> None:
    match_id, tokens = create(matches, [human("ann"), human("bob"), bot("random")], seed=4)
    rng = random.Random(4)
    for _ in range(10):  # a few moves first
        for token in tokens.values():
            moves = view(matches, match_id, token).legal_moves
            if moves:
                play(matches, match_id, token, rng.choice(moves))
                break
    response = matches.Resign(
        matches_pb2.ResignRequest(match_id=match_id, token=tokens[1]), timeout=10
    )
    assert response.view.status == FINISHED
    assert list(response.view.resigned) == [1]
    assert response.view.returns[1] == 0.0
    assert sum(response.view.returns) == pytest.approx(1.0)
    other = view(matches, match_id, tokens[0])
    assert other.status == FINISHED
    assert list(other.resigned) == [1]
    assert not other.legal_moves
    events = watch(matches, match_id, tokens[0])
    assert events[-1].resigned_seat == 1
    assert events[-1].status == FINISHED
    assert not events[-1].HasField("move")
    # Nothing more can happen.
    for call, request in (
        (matches.Resign, matches_pb2.ResignRequest(match_id=match_id, token=tokens[0])),
        (matches.Resign, matches_pb2.ResignRequest(match_id=match_id, token=tokens[1])),
        (
            matches.Play,
            matches_pb2.PlayRequest(match_id=match_id, token=tokens[0], move=common_pb2.Move(id=0)),
        ),
    ):
        assert error_of(call, request).code() == Code.FAILED_PRECONDITION
    assert regent_server.true_match(match_id).resigned == [1]


# -- errors --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_humans(regent_server: RunningServer) -> tuple[str, dict[int, str]]:
    with regent_server.channel() as ch:
        return create(matches_pb2_grpc.MatchServiceStub(ch), [human("ann"), human("bob")], seed=8)


def _requests(match_id: str, token: str):
    """One request of each seat RPC."""
    return [
        ("GetView", matches_pb2.GetViewRequest(match_id=match_id, token=token)),
        (
            "Play",
            matches_pb2.PlayRequest(match_id=match_id, token=token, move=common_pb2.Move(id=0)),
        ),
        ("Watch", matches_pb2.WatchRequest(match_id=match_id, token=token)),
        ("Resign", matches_pb2.ResignRequest(match_id=match_id, token=token)),
    ]


@pytest.mark.parametrize("rpc", ["GetView", "Play", "Watch", "Resign"])
def test_missing_token_is_unauthenticated(
    matches: matches_pb2_grpc.MatchServiceStub, two_humans, rpc: str
) -> None:
    match_id, _ = two_humans
    for match in (match_id, "no-such-match", ""):
        request = dict(_requests(match, ""))[rpc]
        assert error_of(getattr(matches, rpc), request).code() == Code.UNAUTHENTICATED


@pytest.mark.parametrize("rpc", ["GetView", "Play", "Watch", "Resign"])
def test_wrong_token_is_permission_denied(
    matches: matches_pb2_grpc.MatchServiceStub, two_humans, rpc: str
) -> None:
    match_id, tokens = two_humans
    other_id, other_tokens = create(matches, [human(), human()], seed=1)
    for token in ("not-a-token", tokens[0] + "x", tokens[0][:-1], other_tokens[0]):
        request = dict(_requests(match_id, token))[rpc]
        assert error_of(getattr(matches, rpc), request).code() == Code.PERMISSION_DENIED
    # The token of one match holds no seat in another.
    request = dict(_requests(other_id, tokens[1]))[rpc]
    assert error_of(getattr(matches, rpc), request).code() == Code.PERMISSION_DENIED


@pytest.mark.parametrize("rpc", ["GetView", "Play", "Watch", "Resign"])
def test_unknown_match_is_not_found(
    matches: matches_pb2_grpc.MatchServiceStub, two_humans, rpc: str
) -> None:
    _, tokens = two_humans
    for match_id in ("no-such-match", "", "0" * 16, "../../etc"):
        request = dict(_requests(match_id, tokens[0]))[rpc]
        assert error_of(getattr(matches, rpc), request).code() == Code.NOT_FOUND


def _illegal_moves(legal: list[common_pb2.Move]) -> Iterator[tuple[common_pb2.Move, str]]:
    """Moves that are not legal now, and the field their violation names."""
    ids = {m.id for m in legal}
    unused = next(i for i in range(1000) if i not in ids)
    yield common_pb2.Move(id=unused), "move.id"
    yield common_pb2.Move(id=-1), "move.id"
    yield common_pb2.Move(id=2**31 - 1), "move.id"
    yield common_pb2.Move(text="fly to the moon"), "move.text"
    yield common_pb2.Move(text="build white-9 red"), "move.text"
    yield common_pb2.Move(text="stop"), "move.text"
    yield common_pb2.Move(text="x" * 300), "move.text"
    yield common_pb2.Move(), "move"
    if len(legal) >= 2:
        yield common_pb2.Move(id=legal[0].id, text=legal[1].text), "move"


def test_an_illegal_play_changes_nothing(
    regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub
) -> None:
    match_id, tokens = create(matches, [human("ann"), human("bob"), human("cy")], seed=6)
    rng = random.Random(6)
    checked = 0
    for _ in range(40):
        views = {seat: view(matches, match_id, token) for seat, token in tokens.items()}
        (seat,) = [s for s, v in views.items() if v.legal_moves]
        for move, field_name in _illegal_moves(list(views[seat].legal_moves)):
            if move.text == "stop" and any(m.text == "stop" for m in views[seat].legal_moves):
                continue
            err = error_of(
                matches.Play,
                matches_pb2.PlayRequest(match_id=match_id, token=tokens[seat], move=move),
            )
            assert err.code() == Code.INVALID_ARGUMENT, (move, err.details())
            assert violated_fields(err) == [field_name]
            checked += 1
        after = {s: view(matches, match_id, t) for s, t in tokens.items()}
        assert after == views
        play(matches, match_id, tokens[seat], rng.choice(views[seat].legal_moves))
    assert checked > 300
    assert len(regent_server.true_match(match_id).events) == 40


def test_play_out_of_turn_is_failed_precondition(
    matches: matches_pb2_grpc.MatchServiceStub,
) -> None:
    match_id, tokens = create(matches, [human("ann"), human("bob"), bot("random")], seed=2)
    for _ in range(5):
        views = {seat: view(matches, match_id, token) for seat, token in tokens.items()}
        (to_act,) = [s for s, v in views.items() if v.legal_moves]
        waiting = 1 - to_act
        # Even a move that is legal for the seat to act.
        for move in views[to_act].legal_moves[:3]:
            err = error_of(
                matches.Play,
                matches_pb2.PlayRequest(match_id=match_id, token=tokens[waiting], move=move),
            )
            assert err.code() == Code.FAILED_PRECONDITION
        assert {s: view(matches, match_id, t) for s, t in tokens.items()} == views
        play(matches, match_id, tokens[to_act], views[to_act].legal_moves[0])
        # Wait for the bot, if it is its turn.
        end = time.monotonic() + 10
        while not any(view(matches, match_id, t).legal_moves for t in tokens.values()):
            assert time.monotonic() < end
            time.sleep(0.005)


@pytest.mark.parametrize(
    ("request_fields", "field_name"),
    [
        ({"game": common_pb2.GAME_UNSPECIFIED, "seats": [human(), human()]}, "game"),
        ({"game": common_pb2.GAME_CITADELS, "seats": [human()]}, "seats"),
        ({"game": 99, "seats": [human(), human()]}, "game"),
        ({"seats": []}, "seats"),
        ({"seats": [human()] * 5}, "seats"),
        ({"seats": [human(), matches_pb2.SeatSpec()]}, "seats[1]"),
        ({"seats": [human(), bot("bot")]}, "seats[1].bot"),
        ({"seats": [bot("mo-ismcts:c=abc"), human()]}, "seats[0].bot"),
        ({"seats": [bot(""), human()]}, "seats[0].bot"),
        ({"seats": [bot("heuristic:depth=3"), human()]}, "seats[0].bot"),
    ],
)
def test_bad_create_match_is_invalid_argument(
    matches: matches_pb2_grpc.MatchServiceStub, request_fields: dict, field_name: str
) -> None:
    request = matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES)
    for key, value in request_fields.items():
        if key == "seats":
            request.seats.extend(value)
        else:
            setattr(request, key, value)
    err = error_of(matches.CreateMatch, request)
    assert err.code() == Code.INVALID_ARGUMENT, err.details()
    assert violated_fields(err) == [field_name]


def test_too_many_matches_is_resource_exhausted_until_one_ends() -> None:
    """The limit counts live matches: one that ends (resigned here) frees its place."""
    with serving(ServerLimits(max_matches=3)) as small, small.channel() as ch:
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        created = [create(stub, [human(), human()], seed=seed) for seed in range(3)]
        request = matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES, seats=[human(), human()]
        )
        for _ in range(2):
            assert error_of(stub.CreateMatch, request).code() == Code.RESOURCE_EXHAUSTED
        for match_id, tokens in created:
            resign = matches_pb2.ResignRequest(match_id=match_id, token=tokens[0])
            stub.Resign(resign, timeout=10)
            create(stub, [human(), human()])  # its place is free again
            assert error_of(stub.CreateMatch, request).code() == Code.RESOURCE_EXHAUSTED
        assert not small.server.matches.live.keys() & {m for m, _ in created}


@pytest.mark.parametrize(
    "spec",
    ["mo-ismcts:iterations=1000000", "mo-ismcts:iterations=0,seconds=3600", "pimc:threads=64"],
)
def test_hosted_bots_respect_the_server_limits(tight_server: RunningServer, spec: str) -> None:
    with tight_server.channel() as ch:
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        request = matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_ROYAL_CITIES, seats=[human(), bot(spec)], seed=1
        )
        try:
            response = stub.CreateMatch(request, timeout=10)
        except grpc.RpcError as err:
            assert err.code() in (Code.RESOURCE_EXHAUSTED, Code.INVALID_ARGUMENT)
            assert violated_fields(err) == ["seats[1].bot"]
            return
        # Accepted: end it before its bot, which moves second, ever searches.
        (token,) = [t.token for t in response.tokens]
        stub.Resign(matches_pb2.ResignRequest(match_id=response.match_id, token=token), timeout=5)
        raise AssertionError(f"a hosted bot {spec!r} over the server's limits was accepted")


# -- hidden information ----------------------------------------------------------------------

#: (seats, how many matches): "H" is a scripted human seat, anything else a bot spec.
LINEUPS = [
    (["H"], 3),
    (["H", "H"], 2),
    (["H", "random"], 3),
    (["heuristic", "H"], 2),
    (["H", "mo-ismcts:iterations=50"], 2),
    (["H", "random", "H"], 2),
    (["heuristic", "H", "mo-ismcts:iterations=50"], 3),
    (["random", "heuristic", "H"], 1),
    (["H", "H", "H"], 1),
    (["mo-ismcts:iterations=50", "H", "random"], 3),
    (["H", "random", "heuristic", "mo-ismcts:iterations=50"], 3),
    (["H", "H", "random", "random"], 2),
    (["mo-ismcts:iterations=50", "H", "heuristic", "H"], 2),
    (["H", "H", "H", "H"], 1),
]


def _card_names(obs) -> set[str]:
    """Every card an engine observation names: what its observer knows of."""
    d = obs.decision
    names = set(obs.market) | set(obs.discard) | set(d.drawn) | set(d.passes)
    names |= {card for card, _ in d.selection}
    names |= {c for c in (d.first_build, d.min_card) if c}
    for v in obs.players:
        names |= set(v.hand) | set(v.seen_of_mine)
        names |= {card for city in v.cities for card in city}
    if obs.regent is not None:
        names |= {card for city in obs.regent.cities for card in city}
    return names


@dataclass
class Audit:
    """What one hosted match showed to its human seats, checked against its true states."""

    server: RunningServer
    match_id: str
    seats: list[str]
    seed: int
    tokens: dict[int, str]
    checks: Counter = field(default_factory=Counter)
    _deal: engine.State | None = None
    #: (id of a true state, seat) -> (the state, kept alive; the seat's view of it).
    _views: dict = field(default_factory=dict)

    _finished: object = None

    @property
    def match(self):
        """The server's true match (loaded from its database), kept once it is over."""
        if self._finished is not None:
            return self._finished
        match = self.server.true_match(self.match_id)
        if match.finished:
            self._finished = match
        return match

    def truth(self, index: int) -> engine.State:
        """The true state after `index` events (0: the deal)."""
        if index == 0:
            if self._deal is None:
                self._deal = engine.new_game("royal_cities", len(self.seats), self.seed)
            return self._deal
        return self.match.events[index - 1].after

    def expected_view(self, truth: engine.State, seat: int) -> advisor_pb2.Observation:
        """The seat's view of a true state, checked once to hold exactly what the seat may
        know of the others' hands: its own hand whole, of each other hand at most the cards
        that hand truly holds."""
        key = (id(truth), seat)
        if key not in self._views:
            obs = truth.observation(seat)
            assert obs.observer == seat
            for q, seen in enumerate(obs.players):
                true_hand = truth.observation(q).players[q].hand
                if q == seat:
                    assert seen.hand == true_hand
                else:
                    assert not Counter(seen.hand) - Counter(true_hand), "a card it lacks"
                    assert seen.hand_size == len(true_hand)
            self._views[key] = (truth, observation_to_proto(obs))
        return self._views[key][1]

    def check_observation(self, message, seat: int, truth: engine.State) -> None:
        """A received observation is exactly the seat's view of the true state."""
        if message != self.expected_view(truth, seat):
            received = observation_from_proto(message)
            expected = truth.observation(seat)
            assert received.observer == seat
            own = expected.players[seat].hand
            assert received.players[seat].hand == own, "not the seat's own hand"
            for q, seen in enumerate(received.players):
                if q != seat:
                    true_hand = truth.observation(q).players[q].hand
                    assert not Counter(seen.hand) - Counter(true_hand), "a card it lacks"
                    assert not Counter(seen.hand) - Counter(expected.players[q].hand), (
                        "a card the seat does not know"
                    )
            assert received == expected, "not the seat's view of the true state"
        self.checks["observations"] += 1

    def check_view(self, response, seat: int, first: int, last: int) -> None:
        """A GetView/Play/Resign view: the true state after some event in first..last."""
        assert response.seat == seat
        candidates = [self.truth(i) for i in range(first, last + 1)]
        matching = [s for s in candidates if self.expected_view(s, seat) == response.observation]
        truth = matching[-1] if matching else candidates[-1]
        self.check_observation(response.observation, seat, truth)
        legal = [(m.id, m.text) for m in response.legal_moves]
        if response.status == PLAYING and truth.current_player == seat:
            expected = [(a, truth.action_to_string(a)) for a in truth.legal_actions()]
            assert legal == expected
            # Nothing in them the seat could not work out from its own view.
            received = observation_from_proto(response.observation)
            rebuilt = engine.state_from_observation(received, seed=self.seed)
            assert [(a, rebuilt.action_to_string(a)) for a in rebuilt.legal_actions()] == legal
        else:
            assert not legal
        self.checks["views"] += 1

    def expected_events(self, seat: int) -> list[int]:
        """The sequence numbers the seat may see: all but the inner steps of others'
        secret choices."""
        visible = []
        for k, event in enumerate(self.match.events):
            before = self.truth(k)
            inner_step = (
                event.action is not None
                and event.seat != seat
                and before.phase in SECRET_PHASES
                and event.after.current_player == event.seat
                and event.after.phase == before.phase
            )
            if not inner_step:
                visible.append(k)
        return visible

    def check_events(self, events: list[matches_pb2.MatchEvent], seat: int) -> None:
        """Every Watch event the seat received, against the true events."""
        assert [e.sequence for e in events] == self.expected_events(seat)
        all_events = self.match.events
        for message in events:
            k = message.sequence
            true_event = all_events[k]
            before, after = self.truth(k), true_event.after
            self.check_observation(message.observation, seat, after)
            if true_event.seat is None:
                assert not message.HasField("seat")
            else:
                assert message.seat == true_event.seat
            if true_event.action is None:  # a resignation
                assert message.resigned_seat == true_event.resigned_seat
                assert not message.HasField("move")
                self.checks["resignations"] += 1
                continue
            text = message.move.text
            if true_event.seat == seat or before.phase not in SECRET_PHASES:
                assert message.move.id == true_event.action
                assert text == before.action_to_string(true_event.action)
                # A card named in a move is one the seat knows of, before or after it.
                known = _card_names(before.observation(seat)) | _card_names(after.observation(seat))
                for name in CARD_NAME.finditer(text):
                    assert name.group(0) in known, (text, "names a card the seat cannot know")
                self.checks["moves"] += 1
            else:
                assert message.move.id == -1
                assert text == SECRET_TEXT
                assert not CARD_NAME.search(text)
                self.checks["secret choices"] += 1
        statuses = [e.status for e in events]
        assert statuses[:-1] == [PLAYING] * (len(events) - 1)
        assert statuses[-1] == FINISHED
        final = self.match
        assert list(events[-1].scores) == list(final.state.scores())
        assert list(events[-1].returns) == pytest.approx(final.returns())


def _host(server: RunningServer, lineup: list[str], seed: int) -> Counter:
    """Host one match, play its human seats at random, check everything they receive."""
    rng = random.Random(seed)
    seats = [human(f"h{i}") if s == "H" else bot(s) for i, s in enumerate(lineup)]
    with server.channel() as ch:
        stub = matches_pb2_grpc.MatchServiceStub(ch)
        match_id, tokens = create(stub, seats, seed=seed)
        assert sorted(tokens) == [i for i, s in enumerate(lineup) if s == "H"]
        audit = Audit(server, match_id, lineup, seed, tokens)
        streams: dict[int, list[matches_pb2.MatchEvent]] = {seat: [] for seat in tokens}
        watchers = [
            threading.Thread(
                target=lambda s=seat: streams[s].extend(watch(stub, match_id, tokens[s], 120))
            )
            for seat in tokens
        ]
        for w in watchers:
            w.start()
        resign_after = rng.randrange(20, 60) if seed % 7 == 3 else None
        plays = 0
        end = time.monotonic() + 120
        asking = min(tokens)
        current = None  # the last view of the seat `asking`, when still current
        while True:
            assert time.monotonic() < end, "the match did not end in time"
            # Now and then every seat looks, not only the one to act.
            lookers = sorted(tokens) if plays % 5 == 0 else [] if current else [asking]
            for seat in lookers:
                first = len(audit.match.events)
                response = view(stub, match_id, tokens[seat])
                audit.check_view(response, seat, first, len(audit.match.events))
                if seat == asking:
                    current = response
            if current.status == FINISHED:
                break
            if plays == resign_after:
                first = len(audit.match.events)
                request = matches_pb2.ResignRequest(match_id=match_id, token=tokens[asking])
                response = stub.Resign(request, timeout=10)
                audit.check_view(response.view, asking, first, len(audit.match.events))
                assert response.view.status == FINISHED
                break
            if current.legal_moves:
                move = rng.choice(current.legal_moves)
                move = [common_pb2.Move(id=move.id), common_pb2.Move(text=move.text), move][
                    plays % 3
                ]
                first = len(audit.match.events)
                current = play(stub, match_id, tokens[asking], move).view
                audit.check_view(current, asking, first, len(audit.match.events))
                plays += 1
                if current.legal_moves or current.status == FINISHED:
                    continue  # the same seat again: its view is the Play's answer
            decision = current.observation.royal_cities.decision
            if decision.HasField("player") and decision.player in tokens:
                asking = decision.player
            else:
                time.sleep(0.002)  # a bot is thinking
            current = None
        for w in watchers:
            w.join(60)
            assert not w.is_alive(), "Watch did not end with the match"
        for seat, events in streams.items():
            audit.check_events(events, seat)
        if seed % 5 == 0:  # a late watcher sees the same
            seat = max(tokens)
            assert watch(stub, match_id, tokens[seat]) == streams[seat]
    audit.checks["matches"] += 1
    return audit.checks


def test_hidden_information(
    regent_server: RunningServer, server_log: list[logging.LogRecord]
) -> None:
    """30 hosted matches (1-4 players, bots and scripted humans, a few resignations): every
    view and event a human seat receives is its own view of the true state, its own hand
    whole, other hands never beyond what it knows, others' secret choices hidden; and no
    card name reaches the server's log."""
    jobs = []
    seed = 100
    for lineup, count in LINEUPS:
        for _ in range(count):
            jobs.append((lineup, seed))
            seed += 1
    assert len(jobs) == 30
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: _host(regent_server, *job), jobs))
    total = sum(results, Counter())
    assert total["matches"] == 30
    assert total["resignations"] >= 2
    assert total["secret choices"] > 100
    assert total["moves"] > 1000
    assert total["views"] > 1000
    assert not regent_server.loop_errors
    leaks = [r.getMessage() for r in server_log if CARD_NAME.search(logging.Formatter().format(r))]
    assert not leaks, leaks[:5]
    assert any("/regent.v1.MatchService/Play OK" in r.getMessage() for r in server_log)


def test_views_of_a_hosted_match_reveal_nothing_of_other_hands(
    regent_server: RunningServer, matches: matches_pb2_grpc.MatchServiceStub
) -> None:
    """A direct check at the deal: an opponent's hand is hidden, only its size is shown."""
    match_id, tokens = create(matches, [human(), human(), human()], seed=31)
    truth = regent_server.true_match(match_id).state
    for seat, token in tokens.items():
        obs = view(matches, match_id, token).observation.royal_cities
        for q, player in enumerate(obs.players):
            true_hand = truth.observation(q).players[q].hand
            if q == seat:
                assert [(c.colour, c.value) for c in player.hand] == [
                    (c.colour, c.value)
                    for c in observation_to_proto(truth.observation(q)).royal_cities.players[q].hand
                ]
            else:
                assert not player.hand
                assert player.hand_size == len(true_hand)
