"""The protobuf conversions of convert/ (Royal Cities' and the generic ones).

Every observation of seeded random games (1 to 4 players, every player, every step) survives
engine -> proto -> engine unchanged, also through binary and JSON encodings; cards sent in any
order read the same; each kind of malformed message raises InvalidObservationError naming the
snake_case path of the bad field; and 300 random mutations of valid messages never make the
converter, or the engine behind it, raise anything else.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

import engine
from convert import observation_from_proto, observation_to_proto
from convert.royal_cities import card_from_proto, card_to_proto, rules_from_proto, rules_to_proto
from engine.errors import InvalidObservationError
from engine.royal_cities import Observation, RulesConfig, state_from_observation
from engine.royal_cities.cards import COLOURS, parse_kind
from engine.royal_cities.observation import PHASES
from regent.v1 import advisor_pb2, royal_cities_pb2

GAMES_PER_COUNT = 20
PLAYER_COUNTS = (1, 2, 3, 4)
Colour = royal_cities_pb2.RoyalCitiesColour
Phase = royal_cities_pb2.RoyalCitiesPhase


# -- games ---------------------------------------------------------------------


def observations(
    num_players: int, games: int, rules: RulesConfig | None = None, first_seed: int = 0
) -> Iterator[Observation]:
    """Every player's observation at every step, the end included, of seeded random games."""
    for seed in range(first_seed, first_seed + games):
        state = engine.new_game("royal_cities", num_players=num_players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while True:
            for player in range(num_players):
                yield state.observation(player)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def sample(num_players: int, games: int, every: int) -> Iterator[Observation]:
    """Every `every`-th observation of `observations`."""
    for i, obs in enumerate(observations(num_players, games)):
        if i % every == 0:
            yield obs


@functools.cache
def _base_bytes(num_players: int) -> bytes:
    """A valid observation at a `turn` in which the observer knows an opponent's card."""
    for obs in observations(num_players, 50):
        known = any(v.hand for q, v in enumerate(obs.players) if q != obs.observer)
        if obs.decision.phase == "turn" and obs.discard and (known or num_players == 1):
            return observation_to_proto(obs).SerializeToString()
    raise AssertionError("no suitable observation")  # pragma: no cover


def base_message(num_players: int = 2) -> advisor_pb2.Observation:
    """A fresh copy of a valid message, to break."""
    return advisor_pb2.Observation.FromString(_base_bytes(num_players))


def card(colour: int, value: int) -> royal_cities_pb2.RoyalCitiesCard:
    return royal_cities_pb2.RoyalCitiesCard(colour=colour, value=value)


GOOD = card(Colour.ROYAL_CITIES_COLOUR_YELLOW, 2)


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


# -- malformed messages ------------------------------------------------------------

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


def test_a_message_without_a_game_names_game() -> None:
    for msg in (advisor_pb2.Observation(), advisor_pb2.Observation.FromString(b"")):
        with pytest.raises(InvalidObservationError) as err:
            observation_from_proto(msg)
        assert err.value.field == "game"


def test_an_empty_royal_cities_message_names_the_phase() -> None:
    """Set but empty: everything defaults, and the unspecified phase is the first error."""
    msg = advisor_pb2.Observation()
    msg.royal_cities.SetInParent()
    with pytest.raises(InvalidObservationError) as err:
        observation_from_proto(msg)
    assert err.value.field == "royal_cities.decision.phase"


def test_other_messages_are_a_type_error() -> None:
    """Passing the wrong message type is a bug in the caller, not a bad request."""
    with pytest.raises(TypeError):
        observation_from_proto(royal_cities_pb2.RoyalCitiesObservation())  # type: ignore[arg-type]


# -- fuzzing -------------------------------------------------------------------------

EDGE_INTS = (-(2**31), -40000, -1, 0, 1, 2, 5, 6, 7, 15, 16, 21, 85, 86, 100, 101, 255, 2**31 - 1)
STRINGS = ("", "setup", "catch_up", "p0 red", "p3 green", "regent purple", "p4 red", "x", "é")


def _repeated(field: FieldDescriptor) -> bool:
    is_repeated = getattr(field, "is_repeated", None)  # protobuf >= 6.32; `label` before
    return bool(is_repeated) if is_repeated is not None else field.label == field.LABEL_REPEATED


def _slots(
    msg: Message, out: list[tuple[Message, FieldDescriptor]]
) -> list[tuple[Message, FieldDescriptor]]:
    """Every (message, field) in the tree, set or not."""
    for field in msg.DESCRIPTOR.fields:
        out.append((msg, field))
        if field.type == field.TYPE_MESSAGE:
            if _repeated(field):
                for child in getattr(msg, field.name):
                    _slots(child, out)
            elif msg.HasField(field.name):
                _slots(getattr(msg, field.name), out)
    return out


def _scalar(field: FieldDescriptor, rng: random.Random) -> object:
    if field.type == field.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == field.TYPE_STRING:
        return rng.choice(STRINGS)
    if field.type == field.TYPE_ENUM:
        return rng.randrange(-2, 18) if rng.random() < 0.8 else rng.choice(EDGE_INTS)
    return rng.choice(EDGE_INTS) if rng.random() < 0.5 else rng.randrange(-2, 25)


def _fill(msg: Message, rng: random.Random, depth: int = 0) -> None:
    """Set a random half of a message's fields to random values."""
    for field in msg.DESCRIPTOR.fields:
        if rng.random() < 0.5 or (field.type == field.TYPE_MESSAGE and depth > 2):
            continue
        if field.type == field.TYPE_MESSAGE and _repeated(field):
            for _ in range(rng.randrange(4)):
                _fill(getattr(msg, field.name).add(), rng, depth + 1)
        elif field.type == field.TYPE_MESSAGE:
            _fill(getattr(msg, field.name), rng, depth + 1)
        elif _repeated(field):
            getattr(msg, field.name).extend(_scalar(field, rng) for _ in range(rng.randrange(8)))
        else:
            setattr(msg, field.name, _scalar(field, rng))


def _mutate_fields(msg: Message, rng: random.Random) -> None:
    """Drop, add, change, nudge or duplicate one to three random fields or list entries."""
    for _ in range(rng.randint(1, 3)):
        parent, field = rng.choice(_slots(msg, []))
        how = rng.randrange(5)
        if _repeated(field):
            items = getattr(parent, field.name)
            if how == 0 or not items:
                if field.type == field.TYPE_MESSAGE:
                    _fill(items.add(), rng)
                else:
                    items.append(_scalar(field, rng))
            elif how == 1:
                del items[rng.randrange(len(items))]
            elif how == 2:
                parent.ClearField(field.name)
            elif field.type == field.TYPE_MESSAGE:
                items.add().CopyFrom(items[rng.randrange(len(items))])
            else:
                items[rng.randrange(len(items))] = _scalar(field, rng)
        elif how <= 1:
            parent.ClearField(field.name)
        elif field.type == field.TYPE_MESSAGE:
            _fill(getattr(parent, field.name), rng)
        elif how == 2 and field.type in (field.TYPE_INT32, field.TYPE_ENUM):
            setattr(parent, field.name, getattr(parent, field.name) + rng.choice((-1, 1)))
        else:
            setattr(parent, field.name, _scalar(field, rng))


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """Overwrite, insert, delete or truncate a few bytes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) + 1)
        how = rng.randrange(4)
        if how == 0 and at < len(out):
            out[at] = rng.randrange(256)
        elif how == 1:
            out[at:at] = rng.randbytes(rng.randint(1, 4))
        elif how == 2:
            del out[at : at + rng.randint(1, 8)]
        else:
            del out[at:]
    return bytes(out)


def fuzz_messages(count: int, seed: int) -> Iterator[advisor_pb2.Observation]:
    """`count` mutated messages: field mutations, mutated and random bytes that parse."""
    rng = random.Random(seed)
    bases = [base_message(n) for n in PLAYER_COUNTS]
    bases += [observation_to_proto(obs) for obs in sample(3, 1, every=37)]
    made = 0
    while made < count:
        msg = advisor_pb2.Observation()
        msg.CopyFrom(rng.choice(bases))
        kind = rng.random()
        if kind < 0.6:
            _mutate_fields(msg, rng)
        else:
            data = (
                _mutate_bytes(msg.SerializeToString(), rng)
                if kind < 0.9
                else rng.randbytes(rng.randrange(120))
            )
            msg = advisor_pb2.Observation()
            try:
                msg.ParseFromString(data)
            except DecodeError:
                continue
        made += 1
        yield msg


def test_fuzzed_messages_raise_only_invalid_observation_error() -> None:
    """Whatever a message holds, the converter raises only InvalidObservationError; and what
    it accepts, state_from_observation accepts or rejects with InvalidObservationError."""
    converted = rebuilt = 0
    for i, msg in enumerate(fuzz_messages(300, seed=2024)):
        context = f"case {i}: {msg.SerializeToString()!r}"
        try:
            obs = observation_from_proto(msg)
        except InvalidObservationError as err:
            assert isinstance(err.field, str) and err.field, context
            continue
        except Exception as err:  # pragma: no cover - the failure being tested for
            pytest.fail(f"converter raised {err!r} on {context}")
        converted += 1
        try:
            state_from_observation(obs, seed=i)
        except InvalidObservationError:
            continue
        except Exception as err:  # pragma: no cover - the failure being tested for
            pytest.fail(f"state_from_observation raised {err!r} on {context}")
        rebuilt += 1
    assert converted >= 50 and rebuilt >= 10  # the fuzzing reaches the engine, and past it


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
    state = engine.new_game("royal_cities", num_players=2, seed=0)
    rng = random.Random(0)
    for _ in range(13):
        state.apply_action(rng.choice(state.legal_actions()))
    msg = observation_to_proto(state.observation(0))  # player 1 to play a turn
    msg.royal_cities.decision.phase = Phase.ROYAL_CITIES_PHASE_SOLO_OWN
    try:
        rebuilt = state_from_observation(observation_from_proto(msg))
    except InvalidObservationError:
        return
    for action in rebuilt.legal_actions()[:1]:  # "build green-1 green"
        rebuilt.apply_action(action)
        rebuilt.observation(0)


def test_phase_names_match_the_engine() -> None:
    """Each engine phase has the enum value named after it, and nothing else is a phase."""
    assert [Phase.Name(n) for n in Phase.values() if n] == [
        f"ROYAL_CITIES_PHASE_{p.upper()}" for p in PHASES
    ]
