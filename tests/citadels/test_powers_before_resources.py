"""The rules option `powers_before_resources` (RULES-NOTES, settled in round 2): off, the
resource step comes first; on, powers and unique districts may also come before it, each
still once per turn, and never building or income."""

from __future__ import annotations

import random

import pytest

import engine
from engine import InvalidObservationError
from engine.citadels import RulesConfig, state_from_observation
from search.ismcts import heuristic_action
from tests.citadels.positions import legal_texts, play, position

EARLY = RulesConfig(powers_before_resources=True)


def warlord_start(rules=None, **kwargs):
    """The start of a Warlord's turn with a Laboratory and a Smithy, districts to build
    and military income to collect, and a district to destroy."""
    kwargs.setdefault("gold", [6, 2, 2, 2])
    kwargs.setdefault("cities", {0: ["laboratory", "smithy", "prison"], 1: ["manor"]})
    return position(called="warlord", hands={0: ["tavern", "temple"]}, phase="resource",
                    revealed={"bishop": 3}, rules=rules, **kwargs)  # fmt: skip


def test_off_only_the_resource_step_starts_a_turn():
    assert legal_texts(warlord_start()) == ["gold", "cards"]
    magician = position(called="magician", hands={0: ["manor"]}, phase="resource")
    assert legal_texts(magician) == ["gold", "cards"]


def test_on_powers_and_districts_but_not_building_nor_income_come_first():
    state = warlord_start(EARLY)
    assert legal_texts(state) == [
        "gold",
        "cards",
        "destroy p0 prison",
        "destroy p0 laboratory",
        "destroy p0 smithy",
        "destroy p1 manor",
        "laboratory temple",
        "laboratory tavern",
        "smithy",
    ]
    # The turn cannot end before the resource step.
    assert "end turn" not in legal_texts(state)


def test_on_a_magician_swap_first_then_the_resource_step():
    state = position(called="magician", hands={0: ["manor"]}, hand_sizes={1: 3},
                     phase="resource", rules=EARLY)  # fmt: skip
    assert [t for t in legal_texts(state) if t.startswith("swap")] == ["swap p1", "swap p2",
                                                                      "swap p3"]  # fmt: skip
    play(state, "swap p1")
    assert state.phase == "resource"
    assert legal_texts(state) == ["gold", "cards"]
    assert state.observation(0).players[0].hand_size == 3
    assert state.observation(0).players[1].hand == ("manor",)
    play(state, "gold")
    assert state.phase == "main"
    assert not any(t.startswith(("swap", "redraw")) for t in legal_texts(state))


def test_on_a_magician_redraw_first_goes_back_to_the_resource_step():
    state = position(called="magician", hands={0: ["manor", "temple"]},
                     deck_top=["castle"], phase="resource", rules=EARLY)  # fmt: skip
    play(state, "redraw temple")
    assert state.phase == "redraw"
    assert state.observation(0).decision.before_resources
    play(state, "redraw done")
    assert state.phase == "resource"
    assert state.observation(0).players[0].hand == ("manor", "castle")
    assert legal_texts(state) == ["gold", "cards"]


def test_on_a_warlord_destruction_first_then_the_resource_step():
    state = warlord_start(EARLY)
    play(state, "destroy p1 manor")
    view = state.observation(0)
    assert view.players[0].gold == 6 - 2 and view.players[1].city == ()
    assert state.phase == "resource"
    assert legal_texts(state) == ["gold", "cards", "laboratory temple", "laboratory tavern",
                                  "smithy"]  # fmt: skip
    play(state, "gold")
    assert not any(t.startswith("destroy") for t in legal_texts(state))
    assert "income" in legal_texts(state) and "build tavern" in legal_texts(state)


def test_on_the_graveyard_before_the_resource_step_returns_the_warlord_to_it():
    state = position(called="warlord", gold=[9, 3, 2, 2], revealed={"bishop": 3},
                     cities={1: ["graveyard"], 2: ["castle"]}, phase="resource",
                     rules=EARLY)  # fmt: skip
    play(state, "destroy p2 castle")
    assert state.phase == "graveyard" and state.current_player == 1
    view = state.observation(1)
    assert view.decision.before_resources
    # The Graveyard's owner can be advised from its own view.
    again = state_from_observation(view, seed=3)
    assert again.observation(1) == view
    play(state, "graveyard take")
    assert state.current_player == 0 and state.phase == "resource"
    assert legal_texts(state) == ["gold", "cards"]


def test_on_each_power_and_district_once_per_turn_across_the_resource_step():
    state = warlord_start(EARLY, deck_top=["manor", "castle", "palace", "church", "docks"])
    play(state, "laboratory temple", "smithy")
    assert legal_texts(state)[:2] == ["gold", "cards"]
    assert not any(t.startswith(("laboratory", "smithy")) for t in legal_texts(state))
    play(state, "gold")
    assert not any(t.startswith(("laboratory", "smithy")) for t in legal_texts(state))
    assert any(t.startswith("destroy") for t in legal_texts(state))


def test_on_the_assassin_and_the_thief_act_first_too():
    assassin = position(called="assassin", phase="resource", rules=EARLY)
    play(assassin, "kill merchant")
    assert assassin.observation(0).killed == "merchant"
    assert legal_texts(assassin) == ["gold", "cards"]
    thief = position(called="thief", phase="resource", rules=EARLY, revealed={"assassin": 1})
    play(thief, "rob king", "cards")
    assert thief.phase in ("keep", "main")


def test_on_the_resource_step_itself_is_unchanged():
    state = warlord_start(EARLY)
    play(state, "gold")
    assert state.observation(0).players[0].gold == 8
    assert "end turn" in legal_texts(state)


def test_observations_before_the_resource_step_are_checked():
    state = warlord_start(EARLY)
    play(state, "laboratory temple")
    view = state.observation(0)
    assert view.decision.laboratory_done and view.decision.phase == "resource"
    assert state_from_observation(view, seed=1).observation(0) == view
    # Without the option, no power or district can have been used before the resource step.
    off = view.to_json() | {"rules": {"powers_before_resources": False}}
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(off)
    assert err.value.field == "decision.laboratory_done"
    # Income never comes before it.
    early_income = view.to_json()
    early_income["decision"] = early_income["decision"] | {"income_done": True}
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(early_income)
    assert err.value.field == "decision.income_done"
    # `before_resources` only in the Magician's redraw or the Graveyard, with the option.
    misplaced = view.to_json()
    misplaced["decision"] = misplaced["decision"] | {"before_resources": True}
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(misplaced)
    assert err.value.field == "decision.before_resources"


def random_game(n, seed, pick):
    """Yield states along one game with the option on, choosing with `pick`."""
    state = engine.new_game("citadels", n, seed=seed, rules=EARLY)
    while not state.is_terminal():
        yield state
        state.apply_action(pick(state))


@pytest.mark.parametrize("n", [2, 4, 7])
def test_on_round_trips_at_every_step(n):
    rng = random.Random(n)
    early = 0
    for step, state in enumerate(random_game(n, n, lambda s: rng.choice(s.legal_actions()))):
        state.check()
        if state.phase in ("redraw", "graveyard"):
            early += state.observation(state.current_player).decision.before_resources
        for p in range(n):
            view = state.observation(p)
            world = state.resample(p, step * 7 + p)
            world.check()
            assert world.observation(p) == view
            if state.current_player == p:
                assert world.legal_actions() == state.legal_actions()
            assert state_from_observation(view.to_json(), seed=step).observation(p) == view
    assert early > 0, "no redraw nor Graveyard before the resource step was reached"


@pytest.mark.parametrize("n", [2, 5])
def test_on_the_heuristic_stays_legal(n):
    for seed in range(3):
        state = engine.new_game("citadels", n, seed=seed, rules=EARLY)
        step = 0
        while not state.is_terminal():
            action = heuristic_action(state, step)
            assert action in state.legal_actions()
            state.apply_action(action)
            step += 1
