"""The end of the game at the end of the round, every scoring bonus and the tie-break."""

from __future__ import annotations

from engine.citadels import RulesConfig
from tests.citadels.positions import play, position

SIX = ["manor", "castle", "temple", "church", "tavern", "market"]
SEVEN = [*SIX, "docks"]


def finish_round(state):
    """Everyone else takes gold and ends the turn until the round is over."""
    while state.phase not in ("pick", "end"):
        play(state, "gold" if state.phase == "resource" else "end turn")
    return state


def test_seventh_district_ends_the_game_at_the_end_of_the_round():
    state = position(called="architect", gold=[9, 2, 2, 2], cities={0: SIX},
                     hands={0: ["palace"]}, phase="resource")  # fmt: skip
    play(state, "gold", "build palace", "end turn")
    assert state.observation(0).first_complete == 0
    # The Warlord (if dealt) still plays this round.
    finish_round(state)
    assert state.is_terminal() and state.current_player == -1


def test_six_districts_do_not_end_it():
    state = position(called="architect", gold=[9, 2, 2, 2], cities={0: SIX[:5]},
                     hands={0: ["palace"]}, phase="resource")  # fmt: skip
    play(state, "gold", "build palace", "end turn")
    finish_round(state)
    assert state.phase == "pick"


def test_eight_districts_with_two_or_three_players_and_as_an_option():
    first = ("thief", "magician", "king", "bishop", "merchant", "architect", "warlord")
    two = position(2, called="warlord", picks=("warlord", "magician"), discards=("thief",),
                   shown=(first, ("thief", "magician", "bishop", "merchant")),
                   revealed={"magician": 0, "king": 1, "merchant": 1}, cities={0: SEVEN},
                   hands={0: ["palace"]}, gold=[9, 2], phase="resource")  # fmt: skip
    play(two, "gold", "build palace")
    assert two.observation(0).first_complete == 0
    eight = position(called="architect", gold=[9, 2, 2, 2], cities={0: SIX},
                     hands={0: ["palace"]}, phase="resource",
                     rules=RulesConfig(eight_districts=True))  # fmt: skip
    play(eight, "gold", "build palace")
    assert eight.observation(0).first_complete is None


def test_final_scores_with_every_bonus():
    cities = {
        0: ["manor", "temple", "tavern", "watchtower", "keep", "castle"],  # five colours
        1: SIX,
        2: ["university", "dragon-gate"],
    }
    state = position(called="architect", gold=[9, 2, 2, 2], cities=cities,
                     hands={0: ["palace"]}, phase="resource")  # fmt: skip
    play(state, "gold", "build palace", "end turn")
    finish_round(state)
    scores = state.scores()
    # p0: 3+1+1+1+3+4+5 districts + 3 colours + 4 first complete.
    assert scores[0] == 18 + 3 + 4
    assert scores[1] == 3 + 4 + 1 + 2 + 1 + 2
    assert scores[2] == 16
    assert state.returns()[0] == 1.0


def test_other_completed_cities_score_two():
    state = position(called="architect", gold=[9, 2, 2, 2], cities={0: SIX, 1: SEVEN},
                     first_complete=1, hands={0: ["palace"]}, phase="resource",
                     revealed={"magician": 1})  # fmt: skip
    before = state.scores()[1]
    play(state, "gold", "build palace", "end turn")
    finish_round(state)
    assert state.scores()[1] == before
    assert state.scores()[0] == 3 + 4 + 1 + 2 + 1 + 2 + 5 + 2


def test_tie_goes_to_the_highest_character_revealed_in_the_last_round():
    mine = ["palace", "castle", "manor", "temple", "church", "watchtower"]
    theirs = ["manor", "castle", "temple", "church", "tavern", "market", "trading-post"]
    state = position(called="warlord", gold=[9, 2, 2, 2], cities={0: mine, 1: theirs},
                     first_complete=1, hands={0: ["tavern"]}, revealed={"king": 1},
                     phase="resource")  # fmt: skip
    play(state, "gold", "build tavern", "end turn")  # the Warlord is the last call
    assert state.is_terminal()
    assert state.scores()[:2] == [17 + 2, 15 + 4]
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]  # Warlord (8) beats King (4)


def test_scores_before_the_end_are_the_standing_points_and_returns_are_zero():
    state = position(called="warlord", cities={0: ["manor"]})
    assert state.scores()[0] == 3
    assert state.returns() == [0.0, 0.0, 0.0, 0.0]
