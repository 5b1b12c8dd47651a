"""Card effects (step A of a turn): each effect played from the hand and from the top of a City.

Rules: royal-cities.en.md "Card effects" and RULES-NOTES.md "Effects". Engine choices tested
as such: an effect's target is mandatory when one exists; with no target the card is just
discarded; the Knight puts a coloured card on its own colour City at once and asks `city X`
for a white card; the Astrologer builds with `build K C` steps in increasing order, then `stop`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.royal_cities import RulesConfig
from engine.royal_cities.cards import CITY_COLOURS
from tests.royal_cities.positions import ALL_CARDS, legal_texts, play, position

SOURCES = ["hand", "city"]
MARKET = ["purple-1", "yellow-2", "red-3", "green-4"]


def played(
    source: str,
    card: str,
    *,
    hands: dict[int, list[str]] | None = None,
    cities: dict[int, dict[str, list[str]]] | None = None,
    **kw,
):
    """Player 0 plays `card` (a pink card) from the hand, or from the top of the pink City."""
    hands = {q: list(h) for q, h in (hands or {}).items()}
    cities = {q: {c: list(r) for c, r in city.items()} for q, city in (cities or {}).items()}
    colour = card.split("-")[0]
    if source == "hand":
        hands.setdefault(0, []).append(card)
    else:
        own = cities.setdefault(0, {})
        own[colour] = [*own.get(colour, []), card]
    kw.setdefault("market", MARKET)
    if "pile" in kw:
        # Exact draws: the cards no one else holds go to player 1's hand, not to the
        # discard pile, so that the discard pile starts empty.
        placed = Counter(kw["market"]) + Counter(kw["pile"])
        for hand in hands.values():
            placed += Counter(hand)
        for own in cities.values():
            for row in own.values():
                placed += Counter(row)
        hands[1] = [*hands.get(1, []), *sorted((ALL_CARDS - placed).elements())]
    state = position(hands=hands, cities=cities, **kw)
    assert state.observation(0).discard == ()
    return play(state, f"play hand {card}" if source == "hand" else f"play city {colour}")


def city(state, owner: int, colour: str) -> tuple[str, ...]:
    """The cards of one City, bottom first."""
    return state.observation(0).players[owner].cities[CITY_COLOURS.index(colour)]


def assert_back_to_turn(state, card: str) -> None:
    """The effect is over: the played card is discarded, player 0 goes on to step B or C."""
    assert state.phase == "turn"
    assert state.current_player == 0
    assert state.observation(0).decision.turn_played
    assert card in state.observation(1).discard
    assert not any(text.startswith("play ") for text in legal_texts(state))


# -- playing a card ----------------------------------------------------------


def test_play_options_hand_and_city_tops():
    """Step A: "Discard a card from your hand or the highest card from one of your Cities to
    trigger its effect": every hand card and the top of every non-empty own City."""
    state = position(
        hands={0: ["green-2", "yellow-1"]},
        cities={0: {"red": ["red-1", "red-4"], "blue": ["blue-3"]}, 1: {"pink": ["pink-6"]}},
        market=MARKET,
    )
    assert legal_texts(state) == [
        "play hand yellow-1",
        "play hand green-2",
        "play city red",
        "play city blue",
        "purchase",
        "add",
    ]


def test_play_city_discards_only_the_top_card():
    """Step A: the highest card of the City is discarded; the covered card stays."""
    state = position(cities={0: {"red": ["red-1", "red-3"]}, 1: {"blue": ["blue-2"]}})
    play(state, "play city red")
    # red-3 is an Assassin: the remaining targets are red-1 (now on top) and blue-2.
    assert city(state, 0, "red") == ("red-1",)
    assert "red-3" in state.observation(0).discard
    assert state.observation(0).decision.effect == 3
    assert legal_texts(state) == ["target p0 red", "target p1 blue"]


# -- 0 Emptiness -------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_emptiness_discards_a_market_card(source):
    """0 Emptiness: "Discard 1 face up card from the Market"."""
    state = played(source, "pink-0")
    assert state.phase == "effect"
    assert state.observation(0).decision.effect == 0
    assert legal_texts(state) == [f"discard market {c}" for c in MARKET]
    play(state, "discard market red-3")
    view = state.observation(1)
    assert view.market == ("purple-1", "yellow-2", "green-4")
    assert "red-3" in view.discard
    assert_back_to_turn(state, "pink-0")
    # Three face-up cards left: the second row is no longer complete.
    assert legal_texts(state) == ["add"]


# -- 1 Villager --------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_villager_takes_top_of_own_city(source):
    """1 Villager: "Take the highest card from 1 of your Cities into your hand. You cannot
    retrieve a covered card"; an opponent's City is never a target."""
    state = played(
        source,
        "pink-1",
        cities={0: {"red": ["red-2", "red-5"], "blue": ["blue-1"]}, 1: {"green": ["green-3"]}},
    )
    assert state.observation(0).decision.effect == 1
    assert legal_texts(state) == ["city red", "city blue"]
    play(state, "city red")
    assert city(state, 0, "red") == ("red-2",)
    assert state.observation(0).players[0].hand == ("red-5",)
    assert_back_to_turn(state, "pink-1")


def test_villager_card_is_known_to_the_opponent():
    """Who sees what: the card a Villager takes back was public in the City, so the opponent
    knows it is in the hand."""
    state = played("hand", "pink-1", hands={0: ["green-4"]}, cities={0: {"red": ["red-5"]}})
    play(state, "city red")
    theirs = state.observation(1).players[0]
    assert theirs.hand_size == 2
    assert theirs.hand == ("red-5",)
    # ... and player 0 knows that they know it.
    assert state.observation(0).players[1].seen_of_mine == ("red-5",)


# -- 2 Jester ----------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_jester_draws_one_card(source):
    """2 Jester: "Draw 1 card and add it to your hand"."""
    state = played(source, "pink-2", pile=["red-6"], reserve_size=0)
    assert state.observation(0).players[0].hand == ("red-6",)
    assert state.observation(0).pile_size == 0
    assert_back_to_turn(state, "pink-2")


def test_jester_draw_is_hidden_from_the_opponent():
    """2 Jester: "Your opponents will not know what is left in your hand!": the opponent sees
    one more card, not which."""
    state = played("hand", "pink-2", hands={0: ["blue-3"]}, pile=["red-6"], reserve_size=0)
    assert state.observation(0).players[0].hand == ("red-6", "blue-3")
    theirs = state.observation(1).players[0]
    assert theirs.hand_size == 2
    assert theirs.hand == ()


# -- 3 Assassin --------------------------------------------------------------

ASSASSIN_CITIES = {
    0: {"blue": ["blue-1", "blue-4"]},
    1: {"red": ["red-2", "red-5"]},
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    ("target", "owner", "colour", "left", "gone"),
    [
        ("target p1 red", 1, "red", ("red-2",), "red-5"),
        ("target p0 blue", 0, "blue", ("blue-1",), "blue-4"),
    ],
    ids=["opponent", "own"],
)
def test_assassin_discards_top_of_any_city(source, target, owner, colour, left, gone):
    """3 Assassin: "Discard the highest card from 1 of your Cities or an opponent's City. You
    cannot discard a covered card"."""
    state = played(source, "pink-3", cities=ASSASSIN_CITIES)
    assert state.observation(0).decision.effect == 3
    assert legal_texts(state) == ["target p0 blue", "target p1 red"]
    play(state, target)
    assert city(state, owner, colour) == left
    assert gone in state.observation(1).discard
    assert_back_to_turn(state, "pink-3")


# -- 4 Merchant --------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_merchant_takes_a_market_card(source):
    """4 Merchant: "Take 1 face up card from the Market without paying its cost and add it to
    your hand"."""
    state = played(source, "pink-4", vp=[3, 3])
    assert state.observation(0).decision.effect == 4
    assert legal_texts(state) == [f"take market {c}" for c in MARKET]
    play(state, "take market red-3")
    view = state.observation(0)
    assert view.players[0].hand == ("red-3",)
    assert view.market == ("purple-1", "yellow-2", "green-4")
    assert "red-3" not in view.discard
    assert state.scores() == [3, 3]
    assert_back_to_turn(state, "pink-4")


def test_merchant_card_is_known_to_the_opponent():
    """Who sees what: a card taken from the face-up Market is known to every opponent."""
    state = played("hand", "pink-4", hands={0: ["green-1"]})
    play(state, "take market yellow-2")
    theirs = state.observation(1).players[0]
    assert theirs.hand_size == 2
    assert theirs.hand == ("yellow-2",)


# -- 5 Knight ----------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_knight_moves_coloured_card_from_opponent(source):
    """5 Knight: "Move the highest card from any City to 1 of yours. You cannot choose a covered
    card or one that you cannot build": a coloured card goes on its own colour City."""
    cities = {
        0: {"red": ["red-3"], "blue": ["blue-4"]},
        1: {"red": ["red-2", "red-5"], "blue": ["blue-4"], "green": ["green-6"]},
    }
    state = played(source, "pink-5", cities=cities)
    assert state.observation(0).decision.effect == 5
    # p1 blue-4 cannot go above player 0's blue-4; p1 red-5 and green-6 can be built.
    assert legal_texts(state) == ["target p1 red", "target p1 green"]
    play(state, "target p1 red")
    assert city(state, 0, "red") == ("red-3", "red-5")
    assert city(state, 1, "red") == ("red-2",)
    assert_back_to_turn(state, "pink-5")


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    ("destination", "result"),
    [("red", ("red-2", "white-3")), ("green", ("white-3",))],
    ids=["with-partner-below", "alone"],
)
def test_knight_moves_white_card_from_opponent(source, destination, result):
    """5 Knight: "you can move a Wild card (either yours or an opponent's) and build it alone
    (without needing another card) in 1 of your Cities"; the player picks the City."""
    cities = {0: {"purple": ["purple-4"], "red": ["red-2"]}, 1: {"yellow": ["yellow-1", "white-3"]}}
    state = played(source, "pink-5", cities=cities)
    assert legal_texts(state) == ["target p1 yellow"]
    play(state, "target p1 yellow")
    assert state.phase == "knight_destination"
    assert state.observation(1).decision.knight_from == "p1 yellow"
    # Not purple: white-3 is not higher than purple-4.
    assert legal_texts(state) == ["city yellow", "city pink", "city red", "city blue", "city green"]
    play(state, f"city {destination}")
    assert city(state, 0, destination) == result
    assert city(state, 1, "yellow") == ("yellow-1",)
    assert_back_to_turn(state, "pink-5")


@pytest.mark.parametrize("source", SOURCES)
def test_knight_moves_own_white_card_to_another_own_city(source):
    """5 Knight: "Move the highest card from any City to 1 of yours", a white card of your own
    included; a coloured card of your own has nowhere else to go."""
    cities = {0: {"purple": ["purple-5"], "red": ["red-2", "white-4"], "blue": ["blue-1"]}}
    state = played(source, "pink-5", cities=cities)
    assert legal_texts(state) == ["target p0 red"]
    play(state, "target p0 red")
    assert state.observation(0).decision.knight_from == "p0 red"
    # Not back onto red itself, not onto purple-5.
    assert legal_texts(state) == ["city yellow", "city pink", "city blue", "city green"]
    play(state, "city blue")
    assert city(state, 0, "blue") == ("blue-1", "white-4")
    assert city(state, 0, "red") == ("red-2",)
    assert_back_to_turn(state, "pink-5")


@pytest.mark.parametrize("source", SOURCES)
def test_knight_cannot_move_own_coloured_card(source):
    """5 Knight: a coloured card can only be built in its colour City, so a player's own
    coloured top card is no target; with no target the Knight is just discarded."""
    state = played(source, "pink-5", cities={0: {"red": ["red-2"], "blue": ["blue-3"]}})
    assert_back_to_turn(state, "pink-5")
    assert city(state, 0, "red") == ("red-2",)
    assert city(state, 0, "blue") == ("blue-3",)


def test_knight_cannot_take_covered_card():
    """5 Knight: "You cannot choose a covered card": p1's red-6 cannot be built on player 0's
    red-6, and the white-2 under it, which could, is covered."""
    cities = {0: {"red": ["red-6"]}, 1: {"red": ["white-2", "red-6"]}}
    state = played("hand", "pink-5", cities=cities)
    assert_back_to_turn(state, "pink-5")
    assert city(state, 1, "red") == ("white-2", "red-6")


def test_knight_cannot_move_where_it_cannot_be_built():
    """5 Knight: "You cannot choose ... one that you cannot build": blue-3 cannot go above
    player 0's blue-4; yellow-5 can go above yellow-4; a white-0 fits only an empty City."""
    cities = {
        0: {
            "purple": ["purple-0"],
            "yellow": ["yellow-4"],
            "pink": ["pink-1"],
            "red": ["red-0"],
            "blue": ["blue-4"],
            "green": ["green-0"],
        },
        1: {"yellow": ["yellow-5"], "blue": ["blue-3"], "green": ["white-0"]},
    }
    state = played("hand", "pink-5", cities=cities)
    assert legal_texts(state) == ["target p1 yellow"]


# -- 6 Astrologer ------------------------------------------------------------

DRAWN = ["red-3", "red-5", "blue-1"]


def astrologer(source: str, pile=DRAWN, **kw):
    return played(source, "pink-6", pile=list(pile), reserve_size=0, **kw)


@pytest.mark.parametrize("source", SOURCES)
def test_astrologer_build_none(source):
    """6 Astrologer: "Draw 3 cards. Build 0, 1, or 2 of them ... and discard the others"."""
    state = astrologer(source)
    assert state.phase == "effect"
    assert state.observation(0).decision.effect == 6
    assert state.observation(0).decision.drawn == ("red-3", "red-5", "blue-1")
    assert legal_texts(state) == [
        "stop",
        "build red-3 red",
        "build red-5 red",
        "build blue-1 blue",
    ]
    play(state, "stop")
    view = state.observation(1)
    assert view.players[0].cities == ((), (), (), (), (), ())
    assert {"red-3", "red-5", "blue-1", "pink-6"} <= set(view.discard)
    assert view.decision.drawn == ()
    assert_back_to_turn(state, "pink-6")


@pytest.mark.parametrize("source", SOURCES)
def test_astrologer_build_one(source):
    """6 Astrologer: build 1 of the 3 drawn cards; the other 2 are discarded face up."""
    state = astrologer(source)
    play(state, "build blue-1 blue", "stop")
    assert city(state, 0, "blue") == ("blue-1",)
    assert city(state, 0, "red") == ()
    discard = state.observation(1).discard
    assert "red-3" in discard
    assert "red-5" in discard
    assert "blue-1" not in discard
    assert state.observation(0).players[0].hand == ()
    assert_back_to_turn(state, "pink-6")


@pytest.mark.parametrize("source", SOURCES)
def test_astrologer_build_two_ascending_in_one_city(source):
    """6 Astrologer: build at most 2; several cards in one City go on in ascending order."""
    state = astrologer(source)
    play(state, "build red-3 red")
    assert legal_texts(state) == ["stop", "build red-5 red", "build blue-1 blue"]
    play(state, "build red-5 red")
    # Two built already: the third drawn card cannot be built.
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    assert city(state, 0, "red") == ("red-3", "red-5")
    assert city(state, 0, "blue") == ()
    assert "blue-1" in state.observation(1).discard
    assert_back_to_turn(state, "pink-6")


def test_astrologer_selection_in_increasing_order():
    """Engine choice: builds are chosen in increasing (kind, City) order, so after red-5 the
    lower red-3 is no longer offered (the same set is reached the other way)."""
    state = astrologer("hand")
    play(state, "build red-5 red")
    assert legal_texts(state) == ["stop", "build blue-1 blue"]


def test_astrologer_builds_only_above_the_top():
    """6 Astrologer builds "following the construction rules": each card higher than the top."""
    state = astrologer("hand", cities={0: {"red": ["red-4"]}})
    assert legal_texts(state) == ["stop", "build red-5 red", "build blue-1 blue"]


def test_astrologer_white_needs_partner_in_same_use():
    """6 Astrologer: a white card "must be built with another card of the chosen City's color"
    in the same Astrologer use; the red-1 already built is not enough."""
    state = astrologer("hand", pile=["white-4", "red-2", "blue-6"], cities={0: {"red": ["red-1"]}})
    assert legal_texts(state) == ["stop", "build red-2 red", "build blue-6 blue"]
    play(state, "build red-2 red")
    # Only red has a partner; blue-6 is not selected, so white-4 may not go to blue.
    assert legal_texts(state) == ["stop", "build blue-6 blue", "build white-4 red"]
    play(state, "build white-4 red")
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    assert city(state, 0, "red") == ("red-1", "red-2", "white-4")
    assert "blue-6" in state.observation(1).discard
    assert_back_to_turn(state, "pink-6")


def test_astrologer_white_below_its_partner():
    """Wild cards: "the colored card can have an Influence value lower or higher than the Wild
    card": white-2 with red-5 goes on as white-2 then red-5."""
    state = astrologer("hand", pile=["white-2", "red-5", "green-3"])
    play(state, "build red-5 red")
    assert legal_texts(state) == ["stop", "build green-3 green", "build white-2 red"]
    play(state, "build white-2 red", "stop")
    assert city(state, 0, "red") == ("white-2", "red-5")
    assert "green-3" in state.observation(1).discard


def test_astrologer_white_with_existing_partner_option():
    """Rules option white_with_existing_partner: "a coloured card already in that City is
    enough", so white-4 may join the existing red-1 straight away."""
    state = astrologer(
        "hand",
        pile=["white-4", "red-2", "blue-6"],
        cities={0: {"red": ["red-1"]}},
        rules=RulesConfig(white_with_existing_partner=True),
    )
    assert legal_texts(state) == [
        "stop",
        "build red-2 red",
        "build blue-6 blue",
        "build white-4 red",
    ]
    play(state, "build white-4 red", "stop")
    assert city(state, 0, "red") == ("red-1", "white-4")


def test_astrologer_draw_hidden_until_chosen():
    """Who sees what: the 3 drawn cards are the player's alone; a card chosen to build is public,
    and the discarded rest is face up."""
    state = astrologer("hand")
    theirs = state.observation(1).decision
    assert theirs.drawn == ()
    assert theirs.drawn_hidden == 3
    play(state, "build red-3 red")
    theirs = state.observation(1).decision
    assert theirs.drawn == ("red-3",)
    assert theirs.drawn_hidden == 2
    assert theirs.selection == (("red-3", "red"),)


# -- no target ---------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    ("card", "setup"),
    [
        ("pink-0", {"market": []}),
        ("pink-1", {}),
        ("pink-3", {}),
        ("pink-4", {"market": []}),
        ("pink-5", {"cities": {1: {"red": ["red-3"]}, 0: {"red": ["red-4"]}}}),
    ],
    ids=["emptiness-empty-market", "villager", "assassin", "merchant-empty-market", "knight"],
)
def test_effect_without_target_just_discards(source, card, setup):
    """Effects: "A card may be played even when its effect finds no target; it is then just
    discarded"."""
    state = played(source, card, vp=[2, 2], **setup)
    assert_back_to_turn(state, card)
    assert state.scores() == [2, 2]
    assert state.observation(0).players[0].hand == ()
