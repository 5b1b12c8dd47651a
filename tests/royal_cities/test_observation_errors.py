"""Malformed or inconsistent observations raise `InvalidObservationError` naming the field.

A client (or a search that rebuilds a game from an observation) must learn *where* an
observation is wrong, so every case asserts the exact `.field` value. The observations are
real ones, taken from seeded games and written as JSON, then broken in one place each:
unknown card names, more copies of a card than the deck has, counts that do not add up to
85, Cities out of order or of the wrong colour, bad phase names, wrong types, missing keys,
an observer out of range, `seen_of_mine` naming cards the observer does not hold, and more.

Parsing errors are checked through both entry points (`Observation.from_json` and
`engine.state_from_observation` on the dict); consistency errors through
`engine.state_from_observation`, which also accepts the unbroken observations.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine import InvalidObservationError
from engine.royal_cities import Observation
from engine.royal_cities.cards import CITY_COLOURS, copies, kind_name

ALL_CARDS: Counter[str] = Counter({kind_name(k): copies(k) for k in range(49)})
Mutation = Callable[[dict[str, Any]], None]


@functools.cache
def _base_text(num_players: int) -> str:
    """Player 0's observation, as JSON text, at the first `turn` decision after which player
    0 knows some of player 1's hand (the cards it passed) and player 1 has seen some of
    player 0's hand; in solo mode, at the first turn. Seeded, so always the same."""
    for seed in range(100):
        state = engine.new_game("royal_cities", num_players=num_players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            obs = state.observation(0)
            ready = obs.decision.phase == "turn" and obs.players[0].hand and obs.market
            if ready and num_players == 1:
                return json.dumps(obs.to_json())
            if ready and obs.players[1].hand and obs.players[1].seen_of_mine:
                return json.dumps(obs.to_json())
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no suitable observation")  # pragma: no cover


def base(num_players: int = 2) -> dict[str, Any]:
    """A fresh, valid observation (as parsed JSON) to break."""
    return json.loads(_base_text(num_players))


def shown(data: dict[str, Any]) -> Counter[str]:
    """The cards an observation dict names."""
    names = Counter(data["market"]) + Counter(data["discard"]) + Counter(data["decision"]["drawn"])
    for view in data["players"]:
        names += Counter(view["hand"])
        for city in view["cities"]:
            names += Counter(city)
    if data["regent"] is not None:
        for city in data["regent"]["cities"]:
            names += Counter(city)
    return names


def hidden(data: dict[str, Any]) -> list[str]:
    """The cards the observer does not see (in the pile, the Reserve, other hands)."""
    return sorted((ALL_CARDS - shown(data)).elements())


def colour_of(card: str) -> str:
    return card.split("-")[0]


def value_of(card: str) -> int:
    return int(card.split("-")[1])


def field_of(data: Any, parse_only: bool = False) -> str:
    """The field named by the InvalidObservationError the observation raises (through
    `Observation.from_json` when `parse_only`, otherwise `engine.state_from_observation`)."""
    with pytest.raises(InvalidObservationError) as info:
        if parse_only:
            Observation.from_json(data)
        else:
            engine.state_from_observation(data)
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err).startswith(f"{err.field}: "), str(err)
    return err.field


def broken(mutate: Mutation, num_players: int = 2) -> dict[str, Any]:
    data = base(num_players)
    mutate(data)
    return data


# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", (1, 2, 3, 4))
def test_unbroken_observations_are_accepted(num_players: int) -> None:
    """The base observations are valid: parsing and rebuilding reproduce them exactly (so the
    errors below come from the one change each test makes)."""
    data = base(num_players)
    obs = Observation.from_json(data)
    assert json.loads(json.dumps(obs.to_json())) == data
    assert engine.state_from_observation(data).observation(0) == obs
    assert engine.state_from_observation(obs).observation(0) == obs


# -- card names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (lambda d: d["market"], "market[0]"),
        (lambda d: d["discard"], "discard[0]"),
        (lambda d: d["players"][0]["hand"], "players[0].hand[0]"),
        (lambda d: d["players"][1]["hand"], "players[1].hand[0]"),
        (lambda d: d["players"][1]["cities"][2], "players[1].cities[2][0]"),
    ],
    ids=["market", "discard", "own-hand", "opponent-hand", "city"],
)
@pytest.mark.parametrize("name", ["orange-3", "red-7", "red", "white-", "", "red-2-2"])
def test_unknown_card_name(where: Callable, expected: str, name: str) -> None:
    """A card name that is not `colour-value` (colour of the seven, value 0-6) is named by
    its place and index, wherever it stands."""
    data = base()
    place = where(data)
    if place:
        place[0] = name
    else:
        place.append(name)
    assert field_of(data) == expected


@pytest.mark.parametrize("value", [5, None, ["red-2"], {"card": "red-2"}])
def test_card_that_is_not_a_string(value: Any) -> None:
    """A card given as a number, null, list or object is a wrong type, found while parsing."""
    data = base()
    data["market"][1] = value
    assert field_of(data, parse_only=True) == "market[1]"
    assert field_of(data) == "market[1]"


# -- cards in two places ---------------------------------------------------------------------


def first_excess(data: dict[str, Any]) -> str:
    """The field of the first card with no copy left for it, in the order the cards are
    placed: the Market, the discard pile, the Cities (players in order, then the Regent),
    the observer's hand, the other hands, the drawn cards."""
    observer = data["observer"]
    places = [("market", data["market"]), ("discard", data["discard"])]
    for q, view in enumerate(data["players"]):
        places += [(f"players[{q}].cities[{c}]", city) for c, city in enumerate(view["cities"])]
    if data["regent"] is not None:
        places += [(f"regent.cities[{c}]", city) for c, city in enumerate(data["regent"]["cities"])]
    places.append((f"players[{observer}].hand", data["players"][observer]["hand"]))
    places += [
        (f"players[{q}].hand", view["hand"])
        for q, view in enumerate(data["players"])
        if q != observer
    ]
    places.append(("decision.drawn", data["decision"]["drawn"]))
    used: Counter[str] = Counter()
    for field, cards in places:
        for i, card in enumerate(cards):
            used[card] += 1
            if used[card] > ALL_CARDS[card]:
                return f"{field}[{i}]"
    raise AssertionError("no card is in too many places")


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_market_card_also_in_the_discard_pile(index: int) -> None:
    """Each Market card written into the discard pile as many more times as the deck has
    copies: the copy with no card left for it is named."""
    data = base()
    card = data["market"][index]
    data["discard"] += [card] * ALL_CARDS[card]
    expected = first_excess(data)
    assert expected.startswith("discard[")
    assert field_of(data) == expected


def test_known_hand_card_also_in_the_cities() -> None:
    """A card the observer knows is in player 1's hand, written into Cities as well (every
    copy of it): the hand, placed after the Cities, is named."""
    data = base()
    card = data["players"][1]["hand"][0]
    colour = 0 if colour_of(card) == "white" else CITY_COLOURS.index(colour_of(card))
    for q in range(ALL_CARDS[card]):
        data["players"][q]["cities"][colour] = [card]
    expected = first_excess(data)
    assert ".hand[" in expected
    assert field_of(data) == expected


def test_drawn_card_also_in_the_market() -> None:
    data = base()
    card = data["market"][0]
    data["decision"]["drawn"] = [card] * ALL_CARDS[card]
    expected = first_excess(data)
    assert expected.startswith("decision.drawn[")
    assert field_of(data) == expected


def test_observer_hand_repeats_a_single_copy_card() -> None:
    """A card of which the deck has one copy, listed twice in the observer's hand."""
    data = base()
    single = next(c for c in hidden(data) if ALL_CARDS[c] == 1)
    hand = data["players"][0]["hand"]
    hand += [single, single]
    data["players"][0]["hand_size"] = len(hand)
    assert field_of(data) == f"players[0].hand[{len(hand) - 1}]"


# -- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.__setitem__("pile_size", d["pile_size"] + 1),
        lambda d: d.__setitem__("pile_size", d["pile_size"] - 1),
        lambda d: d.__setitem__("reserve_size", d["reserve_size"] - 1),
        lambda d: d["players"][1].__setitem__("hand_size", d["players"][1]["hand_size"] + 1),
        lambda d: d["decision"].__setitem__("drawn_hidden", 1),
        lambda d: d["discard"].append(hidden(d)[0]),
    ],
    ids=["pile+1", "pile-1", "reserve-1", "opponent-hand+1", "drawn_hidden", "extra-discard"],
)
def test_counts_that_do_not_add_up_to_85(mutate: Mutation) -> None:
    """Cards shown plus hidden counts (pile, Reserve, unseen hand cards, unseen draws) must
    be the 85 cards of the deck; otherwise `pile_size` is named."""
    assert field_of(broken(mutate)) == "pile_size"


@pytest.mark.parametrize(
    ("key", "value"),
    [("pile_size", 86), ("pile_size", -1), ("reserve_size", 5), ("reserve_size", -1)],
)
def test_sizes_out_of_range(key: str, value: int) -> None:
    assert field_of(broken(lambda d: d.__setitem__(key, value))) == key


def test_observer_hand_size_must_match_its_hand() -> None:
    """The observer sees its whole hand, so its hand_size is its hand's length."""
    data = broken(
        lambda d: d["players"][0].__setitem__("hand_size", d["players"][0]["hand_size"] + 1)
    )
    assert field_of(data) == "players[0].hand_size"


def test_opponent_known_cards_beyond_its_hand_size() -> None:
    data = base()
    data["players"][1]["hand_size"] = len(data["players"][1]["hand"]) - 1
    assert field_of(data) == "players[1].hand"


def test_too_many_drawn_cards() -> None:
    """At most three cards are drawn and not yet placed (the Astrologer's three)."""
    data = base()
    data["decision"]["drawn"] = hidden(data)[:2]
    data["decision"]["drawn_hidden"] = 2
    data["pile_size"] -= 2
    assert field_of(data) == "decision.drawn_hidden"


def test_market_of_seventeen_cards() -> None:
    data = base()
    extra = hidden(data)[: 17 - len(data["market"])]
    data["market"] += extra
    data["pile_size"] -= len(extra)
    assert field_of(data) == "market"


# -- Cities ------------------------------------------------------------------------------------


def _two_hidden_of_one_colour(data: dict[str, Any]) -> tuple[str, str]:
    """Two hidden coloured cards of one colour with different values, low then high."""
    cards = [c for c in hidden(data) if colour_of(c) != "white"]
    for low in cards:
        for high in cards:
            if colour_of(low) == colour_of(high) and value_of(low) < value_of(high):
                return low, high
    raise AssertionError("no pair")  # pragma: no cover


@pytest.mark.parametrize("owner", [0, 1])
def test_city_not_ascending(owner: int) -> None:
    """Cards in a City go strictly upwards in value, bottom first: the first card that does
    not is named."""
    data = base()
    low, high = _two_hidden_of_one_colour(data)
    colour = CITY_COLOURS.index(colour_of(low))
    data["players"][owner]["cities"][colour] = [high, low]
    assert field_of(data) == f"players[{owner}].cities[{colour}][1]"


def test_city_with_a_repeated_value() -> None:
    """A white card of the same value as the coloured card under it is not upwards."""
    data = base()
    white = next(c for c in hidden(data) if colour_of(c) == "white")
    partner = next(
        c for c in hidden(data) if colour_of(c) != "white" and value_of(c) == value_of(white)
    )
    colour = CITY_COLOURS.index(colour_of(partner))
    data["players"][0]["cities"][colour] = [partner, white]
    assert field_of(data) == f"players[0].cities[{colour}][1]"


@pytest.mark.parametrize("owner", [0, 1])
def test_coloured_card_in_the_wrong_city(owner: int) -> None:
    """A coloured card stands only in the City of its colour (white cards anywhere)."""
    data = base()
    card = next(c for c in hidden(data) if colour_of(c) not in ("white", "purple"))
    data["players"][owner]["cities"][0] = [card]  # the purple City
    assert field_of(data) == f"players[{owner}].cities[0][0]"


def test_coloured_card_in_the_wrong_regent_city() -> None:
    data = base(1)
    card = next(c for c in hidden(data) if colour_of(c) not in ("white", "yellow"))
    data["regent"]["cities"][1] = [card]
    assert field_of(data) == "regent.cities[1][0]"


def test_city_of_eight_cards_and_five_cities() -> None:
    data = base()
    data["players"][0]["cities"][3] = ["red-0"] * 8
    assert field_of(data) == "players[0].cities[3]"
    data = base()
    data["players"][1]["cities"] = data["players"][1]["cities"][:5]
    assert field_of(data, parse_only=True) == "players[1].cities"
    data = base()
    data["players"][1]["cities"][4] = "blue-2"
    assert field_of(data, parse_only=True) == "players[1].cities[4]"


# -- phases and other names ------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["dance", "Turn", "", "PH_TURN"])
def test_bad_phase_name(phase: str) -> None:
    data = broken(lambda d: d["decision"].__setitem__("phase", phase))
    assert field_of(data, parse_only=True) == "decision.phase"
    assert field_of(data) == "decision.phase"


def test_bad_resume_and_game_names() -> None:
    data = broken(lambda d: d["decision"].__setitem__("resume", "later"))
    assert field_of(data) == "decision.resume"
    data = broken(lambda d: d.__setitem__("game", "chess"))
    assert field_of(data, parse_only=True) == "game"
    assert field_of(data) == "game"


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("effect", 7, "decision.effect"),
        ("effect", -1, "decision.effect"),
        ("power", 21, "decision.power"),
        ("knight_from", "p1", "decision.knight_from"),
        ("knight_from", "p9 red", "decision.knight_from"),
        ("knight_from", "p1 orange", "decision.knight_from"),
        ("min_card", "red-9", "decision.min_card"),
        ("taxed", ["orange"], "decision.taxed[0]"),
        ("season_vp", [0, 0, 0], "decision.season_vp"),
        ("season_vp", [0, 0, 0, 0, 0, 101], "decision.season_vp[5]"),
        ("selection", [["red-2"]], "decision.selection[0]"),
        ("selection", [["red-2", "red"]], "decision.selection[0]"),
        ("passes", ["red-2"], "decision.passes"),
        ("first_build", "red-2", "decision.first_build"),
        ("player", 2, "decision.player"),
        ("player", None, "decision.player"),
    ],
)
def test_bad_decision_values(key: str, value: Any, expected: str) -> None:
    """Out-of-range or impossible values of the pending decision (a selection, passes or a
    first build outside their phases, a player who cannot be to move)."""
    assert field_of(broken(lambda d: d["decision"].__setitem__(key, value))) == expected


# -- types -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("pile_size",), "58", "pile_size"),
        (("season",), "1", "season"),
        (("season",), 1.0, "season"),
        (("observer",), True, "observer"),
        (("players", 1, "vp"), "3", "players[1].vp"),
        (("players", 0, "hand_size"), 2.5, "players[0].hand_size"),
        (("players", 0, "hero_up"), "no", "players[0].hero_up"),
        (("players", 0, "hero_up"), 0, "players[0].hero_up"),
        (("players", 1, "hand"), "red-2", "players[1].hand"),
        (("market",), {"red-2": 1}, "market"),
        (("decision", "player"), "0", "decision.player"),
        (("decision", "turn_played"), 1, "decision.turn_played"),
        (("decision", "season_vp"), [0, 0, "1", 0, 0, 0], "decision.season_vp[2]"),
        (("decision",), 5, "decision"),
        (("players", 1), "p1", "players[1]"),
        (("rules",), [], "rules"),
        (("rules", "crown_through_white"), 1, "rules.crown_through_white"),
        (("rules", "house_rule"), True, "rules.house_rule"),
        (("regent",), 3, "regent"),
    ],
)
def test_wrong_types(path: tuple, value: Any, expected: str) -> None:
    """A string for an integer, a number for a boolean, a scalar for a list or an object:
    found while parsing, and named with its full path."""
    data = base()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert field_of(data, parse_only=True) == expected
    assert field_of(data) == expected


def test_not_an_object_at_all() -> None:
    for value in ([], "observation", 3, None):
        assert field_of(value, parse_only=True) == "observation"
    with pytest.raises(InvalidObservationError) as info:
        engine.state_from_observation([])
    assert info.value.field == "game"


# -- missing keys ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (("observer",), "observer"),
        (("num_players",), "num_players"),
        (("season",), "season"),
        (("players",), "players"),
        (("market",), "market"),
        (("discard",), "discard"),
        (("pile_size",), "pile_size"),
        (("reserve_size",), "reserve_size"),
        (("decision",), "decision"),
        (("decision", "phase"), "decision.phase"),
        (("players", 1, "hand"), "players[1].hand"),
        (("players", 0, "cities"), "players[0].cities"),
        (("players", 1, "vp"), "players[1].vp"),
        (("players", 0, "age_rank"), "players[0].age_rank"),
    ],
)
def test_missing_keys(path: tuple, expected: str) -> None:
    data = base()
    target = data
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    assert field_of(data, parse_only=True) == expected
    assert field_of(data) == expected


def test_missing_regent_vp_in_solo() -> None:
    data = base(1)
    del data["regent"]["vp"]
    assert field_of(data, parse_only=True) == "regent.vp"


def test_missing_game_key() -> None:
    """`engine.state_from_observation` dispatches on `game`, so a dict without it is refused
    there (while `Observation.from_json` assumes Royal Cities)."""
    data = base()
    del data["game"]
    assert field_of(data) == "game"
    assert Observation.from_json(data).game == "royal_cities"


def test_optional_keys_may_be_missing() -> None:
    """Keys with a default (`committed`, `seen_of_mine` of the observer, the decision's
    context, `rules`) may be left out of a valid observation."""
    data = base()
    for key in ("turn_played", "drawn", "selection", "passes", "taxed", "regent_draws"):
        del data["decision"][key]
    del data["players"][0]["seen_of_mine"]
    del data["players"][0]["committed"]
    del data["rules"]
    engine.state_from_observation(data)


# -- players and the observer ------------------------------------------------------------------


@pytest.mark.parametrize("observer", [-1, 2, 4, 100])
def test_observer_out_of_range(observer: int) -> None:
    assert field_of(broken(lambda d: d.__setitem__("observer", observer))) == "observer"


def test_player_list_and_count() -> None:
    assert field_of(broken(lambda d: d.__setitem__("num_players", 5))) == "num_players"
    assert field_of(broken(lambda d: d.__setitem__("num_players", 0))) == "num_players"
    data = base()
    data["players"].append(copy.deepcopy(data["players"][1]))
    assert field_of(data) == "players"
    assert field_of(broken(lambda d: d["players"][1].__setitem__("age_rank", 0))) == (
        "players[1].age_rank"
    )
    assert field_of(broken(lambda d: d["players"][0].__setitem__("age_rank", 2))) == (
        "players[0].age_rank"
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [("num_seasons", 3), ("season", 0), ("season", 5), ("starter", 2), ("last_purchaser", -1)],
)
def test_season_and_turn_order_out_of_range(key: str, value: int) -> None:
    assert field_of(broken(lambda d: d.__setitem__(key, value))) == key


def test_regent_only_in_solo() -> None:
    data = base()
    data["regent"] = {"vp": 0, "cities": [[]] * 6}
    assert field_of(data) == "regent"
    data = base(1)
    data["regent"] = None
    assert field_of(data) == "regent"


def test_seen_of_mine_naming_a_card_not_in_the_hand() -> None:
    """`players[q].seen_of_mine` lists cards of the observer's hand that q has seen: a card
    the observer does not hold is named with its index."""
    data = base()
    mine = Counter(data["players"][0]["hand"])
    absent = next(c for c in hidden(data) if c not in mine)
    data["players"][1]["seen_of_mine"] = [absent]
    assert field_of(data) == "players[1].seen_of_mine[0]"


def test_seen_of_mine_with_more_copies_than_the_hand() -> None:
    data = base()
    seen = data["players"][1]["seen_of_mine"]
    card = seen[0]
    seen += [card] * (data["players"][0]["hand"].count(card) + 1 - seen.count(card))
    assert field_of(data) == f"players[1].seen_of_mine[{len(seen) - 1}]"


def test_seen_of_mine_with_an_unknown_name_or_about_the_observer() -> None:
    data = broken(lambda d: d["players"][1].__setitem__("seen_of_mine", ["gold-1"]))
    assert field_of(data) == "players[1].seen_of_mine[0]"
    data = base()
    data["players"][0]["seen_of_mine"] = [data["players"][0]["hand"][0]]
    assert field_of(data) == "players[0].seen_of_mine"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"knight_from": "p1 red"}, "decision.knight_from"),  # no Knight is played
        ({"min_card": "red-2"}, "decision.min_card"),  # a purchase's order outside a purchase
        ({"from_revolt": True}, "decision.from_revolt"),
    ],
    ids=["knight-outside-effect", "min-card-in-turn", "revolt-in-turn"],
)
def test_context_that_the_decision_cannot_have(changes: dict[str, Any], field: str) -> None:
    """Well-formed and counted right, but rebuilt it reads differently (context the pending
    decision does not carry): the first field that differs is named by its JSON path."""
    data = broken(lambda d: d["decision"].update(changes))
    assert field_of(data) == field


def test_game_over_before_the_last_season() -> None:
    """The game ends only after the last Season: an "end" mid-game names the phase."""
    data = broken(lambda d: d["decision"].update({"phase": "end", "player": None}))
    assert field_of(data) == "decision.phase"


# -- ranges ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("vp", [40_000, -40_000])
def test_vp_out_of_range(vp: int) -> None:
    assert field_of(broken(lambda d: d["players"][1].__setitem__("vp", vp))) == "players[1].vp"


def test_regent_vp_out_of_range() -> None:
    assert field_of(broken(lambda d: d["regent"].__setitem__("vp", 10**6), 1)) == "regent.vp"


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("regent_draws", 99, "decision.regent_draws"),
        ("taken", 99, "decision.taken"),
        ("season_influence", [0, 0, 0, 0, 0, 99], "decision.season_influence[5]"),
    ],
)
def test_out_of_range_context_names_its_own_field(key: str, value: Any, field: str) -> None:
    assert field_of(broken(lambda d: d["decision"].__setitem__(key, value))) == field
