"""Who knows which district: nothing a player could not know shows in its view."""

from __future__ import annotations

from tests.citadels.positions import play, position


def others_holding(count):
    """Hidden hands for players 1-3 that hold `count` districts between them."""
    return {1: count - 2 * (count // 3), 2: count // 3, 3: count // 3}


def next_turn(state):
    play(state, "end turn")
    return state.current_player


def test_a_card_put_under_the_deck_in_secret_is_not_tracked_into_another_hand():
    state = position(called="magician", gold=[0, 2, 2, 2], cities={0: ["laboratory"]},
                     hands={0: ["manor", "temple"]}, hand_sizes=others_holding(65),
                     revealed={"thief": 1})  # fmt: skip
    assert state.observation(0).deck_size == 0
    play(state, "laboratory manor")
    assert state.observation(0).deck_known == ((0, "manor"),)
    drawer = next_turn(state)
    play(state, "cards")  # one card left to draw: it is kept at once
    mine = state.observation(drawer)
    assert "manor" not in mine.players[0].seen_of_mine  # p0's secret stays secret
    assert "manor" not in state.observation(0).players[drawer].hand


def test_a_destroyed_district_is_known_to_all_wherever_it_goes():
    state = position(called="warlord", gold=[9, 2, 2, 2], cities={1: ["castle"]},
                     hands={0: ["manor"]}, hand_sizes=others_holding(66),
                     revealed={"bishop": 3})  # fmt: skip
    play(state, "destroy p1 castle")
    for p in range(4):
        assert state.observation(p).deck_known == ((0, "castle"),)
        assert state.observation(p).deck_public == (0,)
    play(state, "end turn")  # the Warlord was last: a new round
    while state.phase != "resource":
        state.apply_action(state.legal_actions()[0])
    drawer = state.current_player
    play(state, "cards")
    for p in range(4):
        assert "castle" in state.observation(p).players[drawer].hand
