"""The character draft for every player count: discards, who is shown what, secrecy."""

from __future__ import annotations

import random

import pytest

import engine
from engine.citadels.cards import CHARACTERS
from tests.citadels.positions import play

FACE_UP = {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0}


def draft(state, rng):
    """Play the round's draft at random; return [(player, shown set)] per pick."""
    shown = []
    while state.phase in ("pick", "discard"):
        p = state.current_player
        if state.phase == "pick":
            shown.append((p, {state.action_to_string(a)[5:] for a in state.legal_actions()}))
        state.apply_action(rng.choice(state.legal_actions()))
    return shown


@pytest.mark.parametrize("n", range(2, 8))
def test_face_up_discards_and_never_the_king(n):
    kings = 0
    for seed in range(300):
        view = engine.new_game("citadels", n, seed=seed).observation(0)
        assert len(view.draft.face_up) == FACE_UP[n]
        assert "king" not in view.draft.face_up
        kings += "king" in view.draft.shown[0]
    # The King is still dealt, to the players or face down.
    assert kings > 0


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (2, [7, 6, 4, 2]),
        (3, [7, 6, 5, 4, 3, 2]),
        (4, [5, 4, 3, 2]),
        (5, [6, 5, 4, 3, 2]),
        (6, [7, 6, 5, 4, 3, 2]),
        (7, [7, 6, 5, 4, 3, 2, 2]),
    ],
)
def test_each_picker_is_shown_what_is_left(n, sizes):
    for seed in range(40):
        state = engine.new_game("citadels", n, seed=seed)
        crown = state.observation(0).crown
        shown = draft(state, random.Random(seed))
        assert [len(s) for _, s in shown] == sizes
        order = [p for p, _ in shown]
        if n == 2:
            assert order == [crown, 1 - crown, crown, 1 - crown]
        else:
            assert order == [(crown + i) % n for i in range(len(sizes))]
        # Everyone holds one character (two with 2-3 players).
        holders = [h for h in state.holders().values() if h is not None]
        assert sorted(holders) == sorted(list(range(n)) * (2 if n <= 3 else 1))


def test_seven_players_the_last_gets_the_face_down_card():
    for seed in range(40):
        state = engine.new_game("citadels", 7, seed=seed)
        shown = draft(state, random.Random(seed))
        # The first six never saw the face-down card; the seventh is shown it.
        early = set().union(*(s for _, s in shown[:6]))
        assert len(early) == 7
        (hidden,) = set(CHARACTERS) - early
        assert hidden in shown[6][1]
        # The seventh keeps one of its two and puts the other face down.
        last = shown[6][0]
        view = state.observation(last)
        assert len(view.draft.picks) == 1 and len(view.draft.discards) == 1
        assert {*view.draft.picks, *view.draft.discards} == shown[6][1]


def test_two_players_discard_face_down_in_turn():
    state = engine.new_game("citadels", 2, seed=3)
    a = state.current_player
    b = 1 - a
    rng = random.Random(1)
    state.apply_action(rng.choice(state.legal_actions()))  # A keeps one of 7
    assert state.phase == "pick" and state.current_player == b
    state.apply_action(rng.choice(state.legal_actions()))  # B keeps one ...
    assert state.phase == "discard" and state.current_player == b  # ... and discards one
    state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player == a and state.phase == "pick"
    assert len(state.legal_actions()) == 4
    draft(state, rng)
    for p in (a, b):
        view = state.observation(p)
        assert len(view.draft.picks) == 2
    assert len(state.observation(a).draft.discards) == 1
    assert len(state.observation(b).draft.discards) == 1


def test_three_players_pick_twice_and_the_last_card_goes_face_down():
    state = engine.new_game("citadels", 3, seed=5)
    draft(state, random.Random(2))
    held = [h for h in state.holders().values() if h is not None]
    assert sorted(held) == [0, 0, 1, 1, 2, 2]
    for p in range(3):
        assert len(state.observation(p).draft.picks) == 2


@pytest.mark.parametrize("n", range(2, 8))
def test_picks_are_secret_choices(n):
    state = engine.new_game("citadels", n, seed=11)
    rng = random.Random(n)
    while state.phase in ("pick", "discard"):
        p = state.current_player
        action = rng.choice(state.legal_actions())
        for q in range(n):
            seen = state.observed_action(action, q)
            if q == p:
                assert seen == action
            else:
                assert seen in (-1, -2)
        state.apply_action(action)
        for q in range(n):
            view = state.observation(q)
            for other in range(n):
                if other != q and state.phase in ("pick", "discard"):
                    assert view.players[other].characters == ()


def test_the_crowned_player_picks_first_and_the_king_moves_the_crown():
    state = engine.new_game("citadels", 4, seed=9)
    assert state.current_player == state.observation(0).crown == 0
    rng = random.Random(0)
    draft(state, rng)
    king = state.holders()["king"]
    while state.phase != "pick":
        play(state, "gold" if state.phase == "resource" else "end turn")
    crown = state.observation(0).crown
    assert crown == (0 if king is None else king)
    assert state.current_player == crown
