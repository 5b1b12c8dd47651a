"""The service with Citadels, over a real socket: every Advisor RPC with a Citadels observation,
malformed ones named by field, ListGames, and hosted Citadels matches whose views and Watch
events are checked against the server's true game: no seat ever sees another's hand, draft
picks, face-down discards or kept cards."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import grpc
import pytest

import engine
from convert import observation_from_proto, observation_to_proto
from engine.citadels.cards import CHARACTERS
from regent.v1 import advisor_pb2, citadels_pb2, common_pb2, matches_pb2
from tests.server.test_matches import FINISHED, SECRET_TEXT, error_of, human, play, view, watch
from tests.support.errors import violated_fields
from tests.support.server import RunningServer

Code = grpc.StatusCode
_pb = citadels_pb2


def citadels_position(
    num_players: int, seed: int, accept: Callable[[engine.State], bool]
) -> tuple[engine.State, advisor_pb2.Observation]:
    """The first state of a seeded random game that `accept` takes, and the observation of
    its player to act."""
    state = engine.new_game("citadels", num_players, seed=seed)
    rng = random.Random(seed)
    while not accept(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state, observation_to_proto(state.observation(state.current_player))


def _main_turn(state: engine.State) -> bool:
    return state.phase == "main" and state.round >= 2 and len(state.legal_actions()) > 2


def test_list_games_has_citadels(advisor) -> None:
    games = advisor.ListGames(advisor_pb2.ListGamesRequest(), timeout=5).games
    citadels = next(g for g in games if g.name == "citadels")
    assert citadels.game == common_pb2.GAME_CITADELS
    assert list(citadels.player_counts) == [2, 3, 4, 5, 6, 7]


def test_list_games_lists_every_citadels_rules_option(advisor) -> None:
    games = advisor.ListGames(advisor_pb2.ListGamesRequest(), timeout=5).games
    citadels = next(g for g in games if g.name == "citadels")
    listed = [(o.name, o.default_value, o.description) for o in citadels.rules_options]
    assert listed == [
        (name, default, doc) for name, default, doc in engine.citadels.RulesConfig.options()
    ]
    assert ("powers_before_resources", False) in [(name, d) for name, d, _ in listed]


def _before_resources(state: engine.State) -> bool:
    """A Magician's redraw or a Graveyard decision before the resource step."""
    return state.phase in ("redraw", "graveyard") and (
        state.observation(state.current_player).decision.before_resources
    )


def test_powers_before_resources_travel_through_proto_and_the_service(advisor) -> None:
    early = engine.citadels.RulesConfig(powers_before_resources=True)
    for seed in range(40):
        state = engine.new_game("citadels", 4, seed=seed, rules=early)
        rng = random.Random(seed)
        while not (state.is_terminal() or _before_resources(state)):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    obs = state.observation(state.current_player)
    assert obs.rules.powers_before_resources and obs.decision.before_resources
    msg = observation_to_proto(obs)
    assert msg.citadels.rules.powers_before_resources
    assert msg.citadels.decision.before_resources
    assert observation_from_proto(advisor_pb2.Observation.FromString(msg.SerializeToString())) == (
        obs
    )
    legal = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=msg), timeout=10)
    assert legal_ids(legal) == state.legal_actions()
    # At the start of a turn the service offers the powers along with the resource step.
    _, start = citadels_position(4, 5, lambda s: s.phase == "resource" and s.round >= 2)
    start.citadels.rules.powers_before_resources = True
    texts = [m.text for m in advisor.LegalMoves(
        advisor_pb2.LegalMovesRequest(observation=start), timeout=10).moves]  # fmt: skip
    assert texts[:2] == ["gold", "cards"] and "end turn" not in texts


@pytest.mark.parametrize("num_players", [2, 3, 5, 7])
def test_recommend_and_legal_moves(advisor, num_players: int) -> None:
    state, observation = citadels_position(num_players, num_players, _main_turn)
    legal = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=observation), timeout=10)
    assert legal.player == state.current_player
    assert [m.id for m in legal.moves] == state.legal_actions()
    assert [m.text for m in legal.moves] == [state.action_to_string(a) for a in legal_ids(legal)]
    request = advisor_pb2.RecommendRequest(
        observation=observation, budget=common_pb2.SearchBudget(iterations=300), seed=1
    )
    report = advisor.Recommend(request, timeout=30).report
    assert report.move.id in state.legal_actions()
    assert report.iterations == 300


def legal_ids(legal: advisor_pb2.LegalMovesResponse) -> list[int]:
    return [m.id for m in legal.moves]


def test_analyze_streams_a_draft_pick(advisor) -> None:
    _, observation = citadels_position(4, 1, lambda s: s.phase == "pick")
    request = advisor_pb2.AnalyzeRequest(
        observation=observation, budget=common_pb2.SearchBudget(iterations=600), interval_ms=10
    )
    reports = list(advisor.Analyze(request, timeout=30))
    assert reports[-1].final and reports[-1].report.iterations == 600
    assert reports[-1].report.move.text.startswith("pick ")


def test_legal_moves_of_another_players_view(advisor) -> None:
    state, _ = citadels_position(4, 2, _main_turn)
    other = (state.current_player + 1) % 4
    observation = observation_to_proto(state.observation(other))
    legal = advisor.LegalMoves(advisor_pb2.LegalMovesRequest(observation=observation), timeout=10)
    assert legal.player == state.current_player and not legal.moves
    with pytest.raises(grpc.RpcError) as info:
        advisor.Recommend(advisor_pb2.RecommendRequest(observation=observation), timeout=10)
    assert info.value.code() == Code.INVALID_ARGUMENT
    assert violated_fields(info.value) == ["observation.citadels.observer"]


def test_apply_move_asks_for_the_drawn_districts(advisor) -> None:
    _, observation = citadels_position(3, 11, lambda s: s.phase == "resource")
    request = advisor_pb2.ApplyMoveRequest(
        observation=observation, move=common_pb2.Move(text="cards")
    )
    first = advisor.ApplyMove(request, timeout=10)
    assert not first.complete and len(first.reveals) == 2
    assert {slot.place for slot in first.reveals} == {"citadels.decision.drawn"}
    request.revealed.extend(["tavern", "watchtower"])
    done = advisor.ApplyMove(request, timeout=10)
    assert done.complete
    after = observation_from_proto(done.observation)
    assert after.decision.phase == "keep"
    assert after.decision.drawn == ("tavern", "watchtower")


def test_apply_move_refuses_a_move_that_shows_a_hand(advisor) -> None:
    """The Magician's swap shows the other hand: the table must set it up by hand."""
    for seed in range(60):
        state = engine.new_game("citadels", 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            swaps = [a for a in state.legal_actions() if state.action_to_string(a) == "swap p1"]
            if swaps and state.current_player != 1:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            continue
        request = advisor_pb2.ApplyMoveRequest(
            observation=observation_to_proto(state.observation(state.current_player)),
            move=common_pb2.Move(text="swap p1"),
        )
        err = error_of(advisor.ApplyMove, request)
        assert err.code() == Code.FAILED_PRECONDITION
        assert "secret" in err.details()
        return
    pytest.fail("no game reached a Magician's swap")


def _district(o: advisor_pb2.Observation) -> None:
    o.citadels.players[o.citadels.observer].hand.append(99)


def _character(o: advisor_pb2.Observation) -> None:
    o.citadels.draft.picks.append(0)


def _phase(o: advisor_pb2.Observation) -> None:
    o.citadels.decision.phase = 42


def _killed(o: advisor_pb2.Observation) -> None:
    o.citadels.killed = 12


def _reveal(o: advisor_pb2.Observation) -> None:
    o.citadels.revealed.add(character=0, player=1)


def _deck_card(o: advisor_pb2.Observation) -> None:
    o.citadels.deck_known.add(position=0, district=0)


def _two_in_a_city(o: advisor_pb2.Observation) -> None:
    player = o.citadels.players[1]
    player.city.extend([_pb.CITADELS_DISTRICT_MANOR, _pb.CITADELS_DISTRICT_MANOR])
    player.built_rounds.extend([1, 1])


def _deck_too_big(o: advisor_pb2.Observation) -> None:
    o.citadels.deck_size += 1


def _negative_gold(o: advisor_pb2.Observation) -> None:
    o.citadels.players[0].gold = -3


def _rounds_missing(o: advisor_pb2.Observation) -> None:
    o.citadels.players[0].city.append(_pb.CITADELS_DISTRICT_DRAGON_GATE)


def _face_up_king(o: advisor_pb2.Observation) -> None:
    o.citadels.draft.face_up[0] = _pb.CITADELS_CHARACTER_KING


#: name -> (how to break an observation, the field path of the request blamed)
MALFORMED: dict[str, tuple[Callable[[advisor_pb2.Observation], None], str]] = {
    "district number": (_district, "observation.citadels.players[{me}].hand[{last}]"),
    "character zero in a list": (_character, "observation.citadels.draft.picks[1]"),
    "phase number": (_phase, "observation.citadels.decision.phase"),
    "killed number": (_killed, "observation.citadels.killed"),
    "reveal of no character": (_reveal, "observation.citadels.revealed[{reveals}].character"),
    "deck card of no district": (_deck_card, "observation.citadels.deck_known[{known}].district"),
    "two manors in a city": (_two_in_a_city, "observation.citadels.players[1].city[{city1}]"),
    "deck too big": (_deck_too_big, "observation.citadels.deck_size"),
    "negative gold": (_negative_gold, "observation.citadels.players[0].gold"),
    "city without its rounds": (_rounds_missing, "observation.citadels.players[0].built_rounds"),
    "the King face up": (_face_up_king, "observation.citadels.draft.face_up[0]"),
}


@pytest.mark.parametrize("rpc", ["Recommend", "Analyze", "LegalMoves", "ApplyMove"])
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_citadels_observation_is_invalid_argument(advisor, rpc: str, case: str) -> None:
    _, observation = citadels_position(5, 3, _main_turn)
    obs = observation.citadels
    path = MALFORMED[case][1].format(
        me=obs.observer,
        last=len(obs.players[obs.observer].hand),
        reveals=len(obs.revealed),
        known=len(obs.deck_known),
        city1=len(obs.players[1].city) + 1,
    )
    MALFORMED[case][0](observation)
    request = {
        "Recommend": advisor_pb2.RecommendRequest,
        "Analyze": advisor_pb2.AnalyzeRequest,
        "LegalMoves": advisor_pb2.LegalMovesRequest,
        "ApplyMove": advisor_pb2.ApplyMoveRequest,
    }[rpc](observation=observation)
    if rpc == "ApplyMove":
        request.move.text = "end turn"
    err = error_of(getattr(advisor, rpc), request)
    assert err.code() == Code.INVALID_ARGUMENT, err.details()
    assert violated_fields(err) == [path], err.details()


# -- hosted matches --------------------------------------------------------------------------

SECRET = ("pick ", "discard ", "keep ", "return ")
LABELS = ("redraw ", "laboratory ")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_hosted_citadels_match_hides_what_others_cannot_see(
    regent_server: RunningServer, matches, seed: int
) -> None:
    """Two humans play at random against bots; every view and Watch event is the seat's own
    view of the true game, others' picks, discards and kept cards are hidden moves, and no
    opponent's hand, picks or unrevealed characters reach the seat."""
    num_players = 3 + seed % 4
    seats = [human("ann"), human("bob")] + [
        matches_pb2.SeatSpec(bot="heuristic" if i % 2 else "random") for i in range(num_players - 2)
    ]
    request = matches_pb2.CreateMatchRequest(
        game=common_pb2.GAME_CITADELS,
        seats=seats,
        seed=seed,
        citadels_rules=_pb.CitadelsRules(
            eight_districts=seed % 2 == 0, powers_before_resources=seed > 2
        ),
    )
    created = matches.CreateMatch(request, timeout=10)
    tokens = {t.seat: t.token for t in created.tokens}
    match = regent_server.true_match(created.match_id)
    assert match.game == "citadels" and match.state.rules.eight_districts == (seed % 2 == 0)
    assert match.state.rules.powers_before_resources == (seed > 2)
    rng = random.Random(seed)
    views = 0
    finished = False
    end = time.monotonic() + 120
    while not finished:
        assert time.monotonic() < end, "the match did not end in time"
        moved = False
        for seat, token in tokens.items():
            current = view(matches, created.match_id, token)
            finished = current.status == FINISHED
            if finished:
                break
            _check_view(current.observation, seat)
            views += 1
            if current.legal_moves:
                if rng.random() < 0.002:
                    resign = matches_pb2.ResignRequest(match_id=created.match_id, token=token)
                    matches.Resign(resign, timeout=10)
                else:
                    play(matches, created.match_id, token, rng.choice(current.legal_moves))
                moved = True
        if not moved:
            time.sleep(0.002)  # a bot is thinking
    assert views > 20
    for seat, token in tokens.items():
        events = watch(matches, created.match_id, token)
        assert events[-1].status == FINISHED
        _check_events(match, events, seat)


def _check_view(observation: advisor_pb2.Observation, seat: int) -> None:
    """What any view of `seat` may hold: its own picks only, others' characters revealed."""
    obs = observation_from_proto(observation)
    assert obs.observer == seat
    revealed = {(c, q) for c, q in obs.revealed}
    for q, player in enumerate(obs.players):
        if q != seat:
            assert all((c, q) in revealed for c in player.characters), "an unrevealed pick shown"


def _check_events(match, events: list[matches_pb2.MatchEvent], seat: int) -> None:
    true_events = {e.sequence: e for e in match.events}
    for event in events:
        truth = true_events[event.sequence]
        assert observation_from_proto(event.observation) == truth.after.observation(seat)
        _check_view(event.observation, seat)
        if truth.action is None:
            assert event.resigned_seat == truth.resigned_seat
            continue
        text = truth.after.action_to_string(truth.action)
        public = text == "redraw done" or not text.startswith(SECRET + LABELS)
        if truth.seat == seat or public:
            assert event.move.id == truth.action and event.move.text == text
        elif text.startswith(SECRET):
            assert event.move.id == -1 and event.move.text == SECRET_TEXT
        else:
            # Which card went away stays the mover's: only that one did.
            assert event.move.text in ("(a card under the deck)", "(a card to the laboratory)")
        if truth.seat != seat:
            assert not any(c in event.move.text for c in CHARACTERS) or text.startswith(
                ("kill ", "rob ")
            )
