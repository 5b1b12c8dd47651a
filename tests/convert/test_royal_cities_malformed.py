"""Royal Cities' converter and engine on malformed messages: each kind of bad field raises
InvalidObservationError naming the snake_case path of the field, and the positions the
converter lets through that the engine must refuse (found through the converter) are
refused."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from convert import observation_from_proto, observation_to_proto
from engine.errors import InvalidObservationError
from engine.royal_cities import Observation, state_from_observation
from engine.royal_cities.observation import PHASES
from regent.v1 import advisor_pb2, royal_cities_pb2
from tests.convert.royal_cities_messages import GOOD, Colour, Phase, base_message, card

Mutation = Callable[[royal_cities_pb2.RoyalCitiesObservation], None]


def _set_cards(repeated: Any, *cards: royal_cities_pb2.RoyalCitiesCard) -> None:
    del repeated[:]
    repeated.extend(cards)


def _six_cities(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
    rc.regent.ClearField("cities")
    for _ in range(6):
        rc.regent.cities.add()


def _selection(city: int) -> Mutation:
    def mutate(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
        rc.decision.selection.add(card=GOOD, city=Colour.ROYAL_CITIES_COLOUR_RED)
        rc.decision.selection.add(card=GOOD, city=city)

    return mutate


def _phase(number: int) -> Mutation:
    def mutate(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
        rc.decision.phase = number

    return mutate


def _knight_from(text: str) -> Mutation:
    def mutate(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
        rc.decision.knight_from = text

    return mutate


def _ints(name: str, count: int) -> Mutation:
    def mutate(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
        getattr(rc.decision, name)[:] = [1] * count

    return mutate


def _taxed(*colours: int) -> Mutation:
    def mutate(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
        rc.decision.taxed[:] = colours

    return mutate


def _cities(count: int) -> Mutation:
    def mutate(rc: royal_cities_pb2.RoyalCitiesObservation) -> None:
        rc.players[0].ClearField("cities")
        for _ in range(count):
            rc.players[0].cities.add()

    return mutate


P = "royal_cities."
BAD_INPUTS: list[tuple[str, Mutation, str]] = [
    ("hand colour unspecified", lambda rc: _set_cards(rc.players[1].hand, GOOD, card(0, 3)),
     P + "players[1].hand[1]"),
    ("hand value 7", lambda rc: _set_cards(rc.players[0].hand, card(2, 7)),
     P + "players[0].hand[0]"),
    ("market value -1", lambda rc: _set_cards(rc.market, card(3, -1)), P + "market[0]"),
    ("discard colour 8", lambda rc: _set_cards(rc.discard, GOOD, GOOD, card(8, 1)),
     P + "discard[2]"),
    ("discard colour -5", lambda rc: _set_cards(rc.discard, card(-5, 1)), P + "discard[0]"),
    ("seen_of_mine", lambda rc: _set_cards(rc.players[1].seen_of_mine, card(0, 0)),
     P + "players[1].seen_of_mine[0]"),
    ("city card", lambda rc: _set_cards(rc.players[0].cities[2].cards, GOOD, card(3, 99)),
     P + "players[0].cities[2].cards[1]"),
    ("regent city card",
     lambda rc: (_six_cities(rc), _set_cards(rc.regent.cities[5].cards, card(0, 6))),
     P + "regent.cities[5].cards[0]"),
    ("drawn", lambda rc: _set_cards(rc.decision.drawn, card(7, 7)), P + "decision.drawn[0]"),
    ("passes", lambda rc: _set_cards(rc.decision.passes, GOOD, card(0, 1)),
     P + "decision.passes[1]"),
    ("min_card set but empty", lambda rc: rc.decision.min_card.SetInParent(),
     P + "decision.min_card"),
    ("first_build value 8", lambda rc: rc.decision.first_build.CopyFrom(card(1, 8)),
     P + "decision.first_build"),
    ("selection card",
     lambda rc: rc.decision.selection.add(card=card(0, 2), city=Colour.ROYAL_CITIES_COLOUR_RED),
     P + "decision.selection[0].card"),
    ("selection city unspecified", _selection(Colour.ROYAL_CITIES_COLOUR_UNSPECIFIED),
     P + "decision.selection[1].city"),
    ("selection city white", _selection(Colour.ROYAL_CITIES_COLOUR_WHITE),
     P + "decision.selection[1].city"),
    ("selection city 42", _selection(42), P + "decision.selection[1].city"),
    ("selection city -1", _selection(-1), P + "decision.selection[1].city"),
    ("taxed unspecified", _taxed(Colour.ROYAL_CITIES_COLOUR_UNSPECIFIED), P + "decision.taxed[0]"),
    ("taxed white", _taxed(Colour.ROYAL_CITIES_COLOUR_RED, Colour.ROYAL_CITIES_COLOUR_WHITE),
     P + "decision.taxed[1]"),
    ("taxed 9", _taxed(9), P + "decision.taxed[0]"),
    ("phase unspecified", _phase(Phase.ROYAL_CITIES_PHASE_UNSPECIFIED), P + "decision.phase"),
    ("phase 16", _phase(16), P + "decision.phase"),
    ("phase -1", _phase(-1), P + "decision.phase"),
    ("phase max int32", _phase(2**31 - 1), P + "decision.phase"),
    ("season_vp of 5", _ints("season_vp", 5), P + "decision.season_vp"),
    ("season_vp of 7", _ints("season_vp", 7), P + "decision.season_vp"),
    ("season_influence of 1", _ints("season_influence", 1), P + "decision.season_influence"),
    ("resume", lambda rc: setattr(rc.decision, "resume", "later"), P + "decision.resume"),
    ("resume upper case", lambda rc: setattr(rc.decision, "resume", "SETUP"),
     P + "decision.resume"),
    ("knight_from one word", _knight_from("p1"), P + "decision.knight_from"),
    ("knight_from owner p5", _knight_from("p5 red"), P + "decision.knight_from"),
    ("knight_from white City", _knight_from("p1 white"), P + "decision.knight_from"),
    ("knight_from three words", _knight_from("p1 red blue"), P + "decision.knight_from"),
    ("knight_from reversed", _knight_from("red p1"), P + "decision.knight_from"),
    ("knight_from no owner", _knight_from("regent"), P + "decision.knight_from"),
    ("knight_from card", _knight_from("p0 red-3"), P + "decision.knight_from"),
    ("five Cities", _cities(5), P + "players[0].cities"),
    ("seven Cities", _cities(7), P + "players[0].cities"),
    ("regent of three Cities", lambda rc: [rc.regent.cities.add() for _ in range(3)],
     P + "regent.cities"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "field"), [case[1:] for case in BAD_INPUTS], ids=[case[0] for case in BAD_INPUTS]
)
def test_bad_input_names_its_field(mutate: Mutation, field: str) -> None:
    msg = base_message()
    observation_from_proto(msg)  # valid before
    mutate(msg.royal_cities)
    with pytest.raises(InvalidObservationError) as err:
        observation_from_proto(msg)
    assert err.value.field == field


def test_an_empty_royal_cities_message_names_the_phase() -> None:
    """Set but empty: everything defaults, and the unspecified phase is the first error."""
    msg = advisor_pb2.Observation()
    msg.royal_cities.SetInParent()
    with pytest.raises(InvalidObservationError) as err:
        observation_from_proto(msg)
    assert err.value.field == "royal_cities.decision.phase"


# -- engine bugs found through the converter ----------------------------------------


def test_engine_rejects_a_vp_beyond_int16() -> None:
    """The converter passes any int32 on; the engine, which stores VP in 16 bits, must
    reject what does not fit (it once raised OverflowError here)."""
    msg = base_message(2)
    msg.royal_cities.players[0].vp = 40000
    obs = observation_from_proto(msg)
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(obs)
    assert err.value.field == "players[0].vp"


def _first_observation(phase: int, effect: int | None = None) -> Observation:
    """Player 0's first observation of a 2-player game (seed 0), with its decision changed."""
    state = engine.new_game("royal_cities", num_players=2, seed=0)
    msg = observation_to_proto(state.observation(0))
    msg.royal_cities.decision.phase = phase
    if effect is not None:
        msg.royal_cities.decision.effect = effect
    return observation_from_proto(msg)


DEAD_DECISIONS = [
    pytest.param(Phase.ROYAL_CITIES_PHASE_TAX, None, id="solo phase tax"),
    pytest.param(Phase.ROYAL_CITIES_PHASE_SOLO_ADD, None, id="solo phase solo_add"),
    pytest.param(Phase.ROYAL_CITIES_PHASE_EFFECT, 2, id="effect 2 (Jester)"),
    pytest.param(Phase.ROYAL_CITIES_PHASE_EFFECT, 1, id="effect 1 without a target"),
]


@pytest.mark.parametrize(("phase", "effect"), DEAD_DECISIONS)
def test_engine_rejects_decisions_without_legal_actions(phase: int, effect: int | None) -> None:
    obs = _first_observation(phase, effect)
    try:
        rebuilt = state_from_observation(obs)
    except InvalidObservationError:
        return
    assert rebuilt.is_terminal() or rebuilt.legal_actions(), "accepted a dead position"


def test_engine_rejects_a_solo_phase_that_corrupts_the_state() -> None:
    """A solo decision in a 2-player game (once accepted: its first move, "build green-1
    green", corrupted the state) is refused, naming the phase."""
    state = engine.new_game("royal_cities", num_players=2, seed=0)
    rng = random.Random(0)
    for _ in range(13):
        state.apply_action(rng.choice(state.legal_actions()))
    msg = observation_to_proto(state.observation(0))  # player 1 to play a turn
    state_from_observation(observation_from_proto(msg))  # accepted as it is
    msg.royal_cities.decision.phase = Phase.ROYAL_CITIES_PHASE_SOLO_OWN
    obs = observation_from_proto(msg)
    with pytest.raises(InvalidObservationError) as err:
        state_from_observation(obs)
    assert err.value.field == "decision.phase"


def test_phase_names_match_the_engine() -> None:
    """Each engine phase has the enum value named after it, and nothing else is a phase."""
    assert [Phase.Name(n) for n in Phase.values() if n] == [
        f"ROYAL_CITIES_PHASE_{p.upper()}" for p in PHASES
    ]
