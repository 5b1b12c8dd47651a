"""Royal Cities' converter (convert/royal_cities.py): what survives the trip.

Every observation of seeded random games (1 to 4 players, every player, every step) survives
engine -> proto -> engine unchanged, also through binary and JSON encodings; every rules
option and every card round trips with the documented numbers; cards sent in any order read
the same (where order carries no meaning); empty fields read as their defaults.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from convert import observation_from_proto, observation_to_proto
from convert.royal_cities import card_from_proto, card_to_proto, rules_from_proto, rules_to_proto
from engine.errors import InvalidObservationError
from engine.royal_cities import Observation, RulesConfig
from engine.royal_cities.cards import COLOURS, parse_kind
from regent.v1 import advisor_pb2, royal_cities_pb2
from tests.convert.royal_cities_messages import (
    PLAYER_COUNTS,
    Colour,
    base_message,
    card,
    observations,
    sample,
)

GAMES_PER_COUNT = 20


# -- round trips -----------------------------------------------------------------

#: What the random games reach, so that the round trips are known to cover it.
EXPECTED_PHASES = {
    1: {"turn", "effect", "knight_destination", "purchase", "construct", "end", "solo_own"}
    | {"solo_regent", "solo_add", "tax", "solo_trim"},
    2: {"pass", "first_build", "turn", "effect", "knight_destination", "purchase", "hero_keep"}
    | {"construct", "end"},
}
EXPECTED_PHASES[3] = EXPECTED_PHASES[4] = EXPECTED_PHASES[2]


def _features(obs: Observation) -> set[str]:
    d = obs.decision
    found = {
        "knight_from": d.knight_from is not None,
        "min_card": d.min_card is not None,
        "first_build": d.first_build is not None,
        "selection": len(d.selection) >= 2,
        "passes": len(d.passes) == 2,
        "unsorted passes": list(d.passes) != sorted(d.passes, key=parse_kind),
        "taxed": bool(d.taxed),
        "drawn": bool(d.drawn),
        "drawn_hidden": d.drawn_hidden > 0,
        "catch_up": d.resume == "catch_up",
        "regent": obs.regent is not None,
        "seen_of_mine": any(v.seen_of_mine for v in obs.players),
        "opponent's hand": any(v.hand for q, v in enumerate(obs.players) if q != obs.observer),
    }
    return {name for name, present in found.items() if present}


EXPECTED_FEATURES = {
    1: {"knight_from", "min_card", "selection", "taxed", "drawn", "catch_up", "regent"},
    2: {"knight_from", "min_card", "first_build", "selection", "passes", "drawn", "drawn_hidden"}
    | {"seen_of_mine", "opponent's hand"},
}
EXPECTED_FEATURES[3] = EXPECTED_FEATURES[4] = EXPECTED_FEATURES[2] | {"unsorted passes"}


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_observation_round_trips(num_players: int) -> None:
    """engine -> proto -> engine is the identity for every player at every step; the message
    also survives binary serialization unchanged."""
    phases: set[str] = set()
    features: set[str] = set()
    for obs in observations(num_players, GAMES_PER_COUNT):
        msg = observation_to_proto(obs)
        assert observation_from_proto(msg) == obs
        assert advisor_pb2.Observation.FromString(msg.SerializeToString()) == msg
        phases.add(obs.decision.phase)
        features |= _features(obs)
    assert phases >= EXPECTED_PHASES[num_players]
    assert features >= EXPECTED_FEATURES[num_players]


def _via_binary(msg: advisor_pb2.Observation) -> advisor_pb2.Observation:
    return advisor_pb2.Observation.FromString(msg.SerializeToString())


def _via_json(msg: advisor_pb2.Observation) -> advisor_pb2.Observation:
    return json_format.Parse(json_format.MessageToJson(msg), advisor_pb2.Observation())


def _via_json_proto_names(msg: advisor_pb2.Observation) -> advisor_pb2.Observation:
    """snake_case keys and enum numbers, which protobuf's JSON parser accepts too."""
    text = json_format.MessageToJson(
        msg, preserving_proto_field_name=True, use_integers_for_enums=True
    )
    return json_format.Parse(text, advisor_pb2.Observation())


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("codec", [_via_binary, _via_json, _via_json_proto_names])
def test_observations_round_trip_through_encodings(
    codec: Callable[[advisor_pb2.Observation], advisor_pb2.Observation], num_players: int
) -> None:
    """Encoding drops unset and default fields; reading them back gives the same observation."""
    for obs in sample(num_players, 5, every=7 * num_players + 1):
        assert observation_from_proto(codec(observation_to_proto(obs))) == obs


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_observations_with_every_option_flipped_round_trip(num_players: int) -> None:
    """Games under non-default rules (expert taxes: several taxed Cities) round trip too."""
    flipped = RulesConfig(**{f.name: not f.default for f in dataclasses.fields(RulesConfig)})
    for obs in observations(num_players, 3, rules=flipped, first_seed=100):
        assert obs.rules == flipped
        assert observation_from_proto(_via_binary(observation_to_proto(obs))) == obs


# -- rules and cards ---------------------------------------------------------------

OPTIONS = [f.name for f in dataclasses.fields(RulesConfig)]


@pytest.mark.parametrize("name", OPTIONS)
def test_each_rules_option_round_trips(name: str) -> None:
    default = RulesConfig()
    flipped = dataclasses.replace(default, **{name: not getattr(default, name)})
    for rules in (default, flipped):
        msg = rules_to_proto(rules)
        assert rules_from_proto(msg) == rules
        assert rules_from_proto(_via_binary_rules(msg)) == rules
        text = json_format.MessageToJson(msg)
        assert rules_from_proto(json_format.Parse(text, royal_cities_pb2.RoyalCitiesRules())) == (
            rules
        )


def _via_binary_rules(msg: royal_cities_pb2.RoyalCitiesRules) -> royal_cities_pb2.RoyalCitiesRules:
    return royal_cities_pb2.RoyalCitiesRules.FromString(msg.SerializeToString())


def test_unset_rules_are_the_engine_defaults() -> None:
    """The two `optional bool` options mean true when unset, as the proto documents."""
    assert rules_from_proto(royal_cities_pb2.RoyalCitiesRules()) == RulesConfig()
    assert RulesConfig().hero_on_every_revolt and RulesConfig().regent_scores_revolts
    explicit = royal_cities_pb2.RoyalCitiesRules(
        hero_on_every_revolt=False, regent_scores_revolts=False
    )
    assert rules_from_proto(explicit) == RulesConfig(
        hero_on_every_revolt=False, regent_scores_revolts=False
    )
    msg = base_message()
    msg.royal_cities.ClearField("rules")
    assert observation_from_proto(msg).rules == RulesConfig()


def test_every_card_round_trips_with_the_documented_numbers() -> None:
    for colour_index, colour in enumerate(COLOURS):
        for value in range(7):
            name = f"{colour}-{value}"
            msg = card_to_proto(name)
            assert msg.colour == colour_index + 1  # PURPLE = 1 .. WHITE = 7
            assert Colour.Name(msg.colour) == f"ROYAL_CITIES_COLOUR_{colour.upper()}"
            assert msg.value == value
            assert card_from_proto(msg, "card") == name


def test_card_to_proto_returns_a_fresh_message() -> None:
    """Changing a returned message must not change the next one."""
    first = card_to_proto("red-3")
    first.value = 5
    assert card_to_proto("red-3").value == 3


def test_card_to_proto_rejects_names_that_are_no_card() -> None:
    for name in ("red-7", "orange-1", "", "white"):
        with pytest.raises(ValueError):
            card_to_proto(name)


@pytest.mark.parametrize(
    ("colour", "value"), [(0, 1), (8, 1), (-1, 1), (99, 0), (1, -1), (1, 7), (7, 2**31 - 1)]
)
def test_card_from_proto_names_the_field(colour: int, value: int) -> None:
    with pytest.raises(InvalidObservationError) as err:
        card_from_proto(card(colour, value), "somewhere.card")
    assert err.value.field == "somewhere.card"


# -- order -------------------------------------------------------------------------


def _copy(item: Any) -> Any:
    """A detached copy of a list entry (a message or a number)."""
    if not isinstance(item, Message):
        return item
    copy = type(item)()
    copy.CopyFrom(item)
    return copy


def _shuffle(rng: random.Random, repeated: Any) -> bool:
    """Shuffle a repeated field in place; whether its order changed."""
    before = [_copy(x) for x in repeated]
    after = [_copy(x) for x in before]
    rng.shuffle(after)
    del repeated[:]
    repeated.extend(after)
    return after != before


def shuffle_sets(msg: advisor_pb2.Observation, rng: random.Random) -> bool:
    """Shuffle every list whose order carries no meaning; whether anything moved."""
    rc = msg.royal_cities
    fields = [rc.market, rc.discard, rc.decision.drawn, rc.decision.taxed, rc.decision.selection]
    for player in rc.players:
        fields += [player.hand, player.seen_of_mine]
    if rc.num_players == 2:
        fields.append(rc.decision.passes)
    moved = [_shuffle(rng, f) for f in fields]
    return any(moved)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_lists_in_any_order_read_the_same(num_players: int) -> None:
    """Hands, seen_of_mine, Market, discard, drawn, taxed, selection (and 2-player passes)
    are read into the engine's order, so a client need not sort them."""
    rng = random.Random(num_players)
    moved = 0
    for obs in sample(num_players, 5, every=3):
        msg = observation_to_proto(obs)
        moved += shuffle_sets(msg, rng)
        assert observation_from_proto(msg) == obs
    assert moved > 50


def test_passes_of_three_or_four_players_keep_their_order() -> None:
    """With 3-4 players the first pass goes left and the second right: the order is meaning,
    so it is kept (the engine lists them as chosen, not sorted)."""
    msg = base_message(3)
    passes = msg.royal_cities.decision.passes
    passes.extend([card(Colour.ROYAL_CITIES_COLOUR_GREEN, 4), card(1, 0)])
    assert observation_from_proto(msg).decision.passes == ("green-4", "purple-0")
    msg = base_message(2)
    msg.royal_cities.decision.passes.extend([card(Colour.ROYAL_CITIES_COLOUR_GREEN, 4), card(1, 0)])
    assert observation_from_proto(msg).decision.passes == ("purple-0", "green-4")


def test_cities_keep_their_order() -> None:
    """A City lists its cards bottom first: that order is never changed."""
    msg = base_message()
    city = msg.royal_cities.players[0].cities[3].cards
    del city[:]
    city.extend(
        [card(Colour.ROYAL_CITIES_COLOUR_WHITE, 5), card(Colour.ROYAL_CITIES_COLOUR_RED, 1)]
    )
    assert observation_from_proto(msg).players[0].cities[3] == ("white-5", "red-1")


# -- lenient readings ----------------------------------------------------------------


def test_empty_fields_read_as_their_defaults() -> None:
    """Empty season lists are six zeros, an empty resume is "setup", an empty knight_from and
    unset optional fields are None, and no Cities at all are six empty ones."""
    msg = base_message(1)
    rc = msg.royal_cities
    for name in ("season_vp", "season_influence", "resume", "knight_from", "player", "effect"):
        rc.decision.ClearField(name)
    rc.decision.ClearField("min_card")
    rc.ClearField("market")
    rc.players[0].ClearField("cities")
    rc.regent.ClearField("cities")
    obs = observation_from_proto(msg)
    d = obs.decision
    assert d.season_vp == d.season_influence == (0,) * 6
    assert d.resume == "setup"
    assert d.knight_from is d.player is d.effect is d.min_card is None
    assert obs.market == ()
    assert obs.regent is not None
    assert obs.players[0].cities == obs.regent.cities == ((),) * 6


def test_knight_from_is_read_in_any_case_and_spacing() -> None:
    msg = base_message()
    msg.royal_cities.decision.knight_from = "  P1   Red "
    assert observation_from_proto(msg).decision.knight_from == "p1 red"
    msg.royal_cities.decision.knight_from = "regent green"
    assert observation_from_proto(msg).decision.knight_from == "regent green"
