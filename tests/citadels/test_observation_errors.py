"""Impossible or malformed Citadels observations: a specific error naming the field."""

from __future__ import annotations

import copy
import random
import re

import pytest

import engine
from engine import InvalidObservationError
from engine.citadels import state_from_observation


def mid_game_view():
    state = engine.new_game("citadels", 4, seed=21)
    rng = random.Random(21)
    while not (state.round == 2 and state.phase == "main"):
        state.apply_action(rng.choice(state.legal_actions()))
    return state.observation(state.current_player).to_json()


BASE = mid_game_view()


def edit(path, value):
    data = copy.deepcopy(BASE)
    *parents, last = path
    target = data
    for key in parents:
        target = target[key]
    if isinstance(value, dict) and isinstance(target[last], dict):
        target[last] = {**target[last], **value}
    else:
        target[last] = value
    return data


def observer():
    return BASE["observer"]


CASES = [
    (("game",), "go", "game"),
    (("num_players",), 9, "num_players"),
    (("observer",), 4, "observer"),
    (("round",), 0, "round"),
    (("crown",), -1, "crown"),
    (("players",), [], "players"),
    (("players", 0, "gold"), -1, "players[0].gold"),
    (("players", 0, "gold"), "lots", "players[0].gold"),
    (("players", 1), {"city": ["manor", "manor"], "built_rounds": [1, 1]}, "players[1].city[1]"),
    (("players", 1), {"city": ["castle-in-the-air"], "built_rounds": [1]}, "players[1].city[0]"),
    (("players", 1), {"city": ["manor"], "built_rounds": []}, "players[1].built_rounds"),
    (("players", 1), {"city": ["manor"], "built_rounds": [5]}, "players[1].built_rounds[0]"),
    (("deck_size",), 3, "deck_size"),
    (("deck_known",), [[99, "manor"]], "deck_known[0]"),
    (("deck_known",), [["top", "manor"]], "deck_known[0]"),
    (("draft", "face_up"), ["king", "thief"], "draft.face_up[0]"),
    (("draft", "step"), 1, "draft.step"),
    (("draft", "shown"), [], "draft.shown"),
    (("draft", "picks"), ["nobody"], "draft.picks[0]"),
    (("revealed",), [["king", 9]], "revealed[0][1]"),
    (("killed",), "jester", "killed"),
    (("decision", "phase"), "dance", "decision.phase"),
    (("decision", "player"), None, "decision.player"),
    (("decision", "called"), None, "decision.called"),
    (("rules",), {"eight_districts": "yes"}, "rules.eight_districts"),
    (("rules",), {"nine_districts": True}, "rules.nine_districts"),
]


@pytest.mark.parametrize(("path", "value", "field"), CASES, ids=[c[2] for c in CASES])
def test_bad_field_is_named(path, value, field):
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(edit(path, value))
    assert err.value.field == field, str(err.value)


def test_the_observers_hand_must_match_its_size():
    p = observer()
    data = edit(("players", p, "hand_size"), BASE["players"][p]["hand_size"] + 1)
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(data)
    assert err.value.field == f"players[{p}].hand"


def test_an_inconsistent_draft_is_caught():
    data = copy.deepcopy(BASE)
    shown = data["draft"]["shown"][0]
    data["draft"]["shown"][0] = shown[:-1]
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(data)
    assert err.value.field.startswith("draft")


def test_the_real_view_is_accepted():
    again = state_from_observation(BASE, seed=3)
    assert again.observation(observer()).to_json() == BASE


def test_random_corruptions_give_a_named_error_or_a_valid_game():
    """A thousand views with one or two fields replaced by odd values: each is either
    rejected with InvalidObservationError or rebuilt into a consistent game."""
    views = []
    for n in (2, 3, 4, 7):
        state = engine.new_game("citadels", n, seed=n)
        rng = random.Random(n)
        step = 0
        while not state.is_terminal():
            if step % 23 == 0:
                views.append(state.observation(state.current_player).to_json())
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    odd = [None, -1, 0, 1, 3, 8, 255, 70_000, "", "king", "manor", [], {}, True, 1.5, ["x"]]
    rng = random.Random(1)
    for trial in range(1000):
        data = copy.deepcopy(rng.choice(views))
        for _ in range(rng.randint(1, 2)):
            target, key = _random_place(data, rng)
            target[key] = rng.choice(odd)
        try:
            state = state_from_observation(data, seed=trial)
        except InvalidObservationError:
            continue
        state.check()


def _random_place(data, rng):
    """A random (container, key) inside a JSON value."""
    places = []

    def walk(value):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            places.append((value, key))
            if isinstance(child, (dict, list)):
                walk(child)

    walk(data)
    return rng.choice(places)


@pytest.mark.parametrize(("path", "value", "field"), CASES, ids=[c[2] for c in CASES])
def test_each_refusal_is_a_template_and_its_parameters(path, value, field):
    """The hint page words a refusal from its template (engine.errors.Wording): the reason is
    the template filled, and the template's parameters are exactly those given."""
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(edit(path, value))
    wording = err.value.wording
    assert str(wording) == err.value.reason
    assert set(re.findall(r"\{(\w+)\}", wording.template)) == set(wording.params), wording


def test_a_parse_error_keeps_its_template_under_the_field():
    data = edit(("players", 1), {"city": ["castle-in-the-air"], "built_rounds": [1]})
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(data)
    assert err.value.wording.template == "unknown district '{name}'"
    assert err.value.wording.params == {"name": "castle-in-the-air"}
    assert err.value.reason == "unknown district 'castle-in-the-air'"


def test_a_seat_in_a_refusal_is_counted_from_1_and_the_observer_is_you():
    state = engine.new_game("citadels", 4, seed=5)
    picker = state.current_player
    data = state.observation((picker + 2) % 4).to_json()
    data["decision"]["player"] = (picker + 1) % 4
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(data)
    assert err.value.wording.template == "draft step {step} is a pick by {player}"
    assert err.value.reason == f"draft step 0 is a pick by P{picker + 1}"
    data = state.observation(picker).to_json()  # the picker's own view: its own pick
    data["decision"]["player"] = (picker + 1) % 4
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(data)
    assert err.value.wording.template == "draft step {step} is your pick"
    assert err.value.reason == "draft step 0 is your pick"
