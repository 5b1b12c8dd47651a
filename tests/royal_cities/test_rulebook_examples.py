"""The rulebook's worked examples, replayed as known positions.

The rulebook's pictures are lost; each position below satisfies every sentence
of its example (see /work/shared/rules/royal-cities.en.md and RULES-NOTES.md).
"""

from __future__ import annotations

import pytest

from tests.royal_cities.positions import legal_texts, play, position

# -- (1) the scoring example: Eloise 12 VP, Will 10 VP -------------------------

ELOISE = {
    "purple": ["purple-1", "purple-2", "purple-4", "purple-5"],
    "pink": ["pink-2"],
    "red": ["red-4"],
    "blue": ["blue-1", "blue-6"],
    "green": ["green-1", "green-5"],
}
WILL = {
    "purple": ["purple-3"],
    "yellow": ["yellow-3"],
    "red": ["red-2", "white-3", "red-5"],
    "blue": ["blue-3", "blue-4"],
    "green": ["green-0", "green-6"],
}
# VP per colour (purple, yellow, pink, red, blue, green), as the example reads.
ELOISE_VP = (4, 0, 1, 0, 4, 3)
WILL_VP = (0, 3, 0, 3, 1, 3)


def _score(cities: dict[int, dict[str, list[str]]]):
    """Reach the Season's scoring: construction with empty hands, everyone builds nothing."""
    state = position(phase="construct", player=0, cities=cities)
    assert legal_texts(state) == ["stop"]
    return play(state, "stop", "stop")


def test_scoring_example_totals():
    """Scoring example: "In total, Eloise earns 12 VP for this Season, while Will earns 10 VP"."""
    state = _score({0: ELOISE, 1: WILL})
    assert state.scores() == [12, 10]
    # Scoring happened once: the next Season has begun.
    assert state.season == 2
    assert state.phase == "turn"


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [(ELOISE, WILL, ELOISE_VP), (WILL, ELOISE, WILL_VP)],
    ids=["eloise", "will"],
)
def test_scoring_example_per_colour(first, second, expected):
    """Scoring example, colour by colour: purple 4 crowns (Eloise); yellow 3 (Will's red City
    has 3 cards); pink 2 // 3 -> minimum 1 (Eloise); red 3 Cities of 2+ cards (Will); blue tied
    at 7: Eloise 4 Cities with a 1/2, Will 1; green tied at 6: 10 // 3 = 3 and 9 // 3 = 3."""
    state = _score({0: first, 1: second})
    # The engine records the per-colour VP of player 0 for the Season just scored.
    assert state.observation(0).decision.season_vp == expected
    assert state.scores()[0] == sum(expected)


def test_scoring_example_influences():
    """Scoring example: "Eloise wins the majority with 12 Influence against Will's 3" (purple),
    Will's red is 10 (white-3 counts in the City it stands in), blue 7-7, green 6-6."""
    state = _score({0: ELOISE, 1: WILL})
    assert state.observation(0).decision.season_influence == (12, 0, 2, 4, 7, 6)
    state = _score({0: WILL, 1: ELOISE})
    assert state.observation(0).decision.season_influence == (3, 3, 0, 10, 7, 6)


# -- (2) the purchase with power 11 -------------------------------------------

PURCHASE_MARKET = [
    "purple-3",
    "yellow-4",
    "yellow-5",
    "pink-0",
    "red-1",
    "blue-2",
    "green-6",
]


def test_purchase_example_power_eleven():
    """Purchase example: "With a total of 11 cards in the entire Market, her purchasing power
    is 11. Eloise adds the yellow 4, yellow 5, blue 2, and pink 0 to her hand"."""
    state = position(market=PURCHASE_MARKET, reserve_size=4)
    play(state, "purchase")
    assert state.phase == "purchase"
    assert state.observation(0).decision.power == 11
    # Cards are taken in non-decreasing kind order: yellow-4, yellow-5, pink-0, blue-2.
    play(state, "buy yellow-4", "buy yellow-5", "buy pink-0", "buy blue-2")
    assert state.observation(0).decision.power == 0
    # A fifth card would go over the power: only `stop` is left.
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    mine = state.observation(0).players[0]
    assert mine.hand == ("yellow-4", "yellow-5", "pink-0", "blue-2")
    assert mine.purchased
    assert state.observation(0).market == ("purple-3", "red-1", "green-6")
    # "If you are not the last Noble to buy, your turn ends."
    assert state.current_player == 1
    assert state.phase == "turn"


def test_purchase_example_fifth_card_unaffordable():
    """Purchase example: power 11 buys 4 + 5 + 2 + 0 = 11, "the remaining balance" is zero,
    so no fifth card (purple-3, red-1 or green-6) can be bought."""
    state = position(market=PURCHASE_MARKET, reserve_size=4)
    play(state, "purchase", "buy yellow-4", "buy yellow-5", "buy pink-0", "buy blue-2")
    for card in ("red-1", "purple-3", "green-6"):
        assert f"buy {card}" not in legal_texts(state)


# -- (3) VP for adding a card to row 3, 4, 5 ---------------------------------

# Each list ends with exactly one green (green-6) and a pair of yellows; no colour has 3.
ROW3_MARKET = ["yellow-4", "yellow-5", "green-6", "red-2"]
ROW4_MARKET = [*ROW3_MARKET, "purple-1", "pink-4", "blue-3", "white-2"]
ROW5_MARKET = [*ROW4_MARKET, "purple-2", "pink-3", "red-3", "blue-4"]


@pytest.mark.parametrize(
    ("market", "row", "gain"),
    [(ROW3_MARKET, 3, 1), (ROW4_MARKET, 4, 2), (ROW5_MARKET, 5, 3)],
    ids=["row3", "row4", "row5"],
)
def test_add_green_one_gains_row_vp(market, row, gain):
    """Add example: "Eloise adds a green 1 to the Market, which only has one green card (6). She
    earns 1 Victory Point because she added it to the 3rd row and there is a set of 2 yellow
    cards" (2 VP on the 4th row, 3 VP on the 5th row)."""
    assert 2 + len(market) // 4 == row
    state = position(market=market, pile=["green-1"], reserve_size=0, vp=[5, 5])
    play(state, "add")
    assert state.scores() == [5 + gain, 5]
    view = state.observation(0)
    assert sorted(view.market) == sorted([*market, "green-1"])
    assert state.current_player == 1


@pytest.mark.parametrize("market", [ROW3_MARKET, ROW4_MARKET, ROW5_MARKET])
def test_add_green_one_after_purchase_gains_nothing(market):
    """Add example, rules summary: "If you have already purchased and there is at least 1 set
    of 2 cards of another color in the Market, nothing happens"."""
    state = position(market=market, pile=["green-1"], reserve_size=0, vp=[5, 5], purchased=(0,))
    play(state, "add")
    assert state.scores() == [5, 5]
    assert "green-1" in state.observation(0).market


# -- (4) the Revolt example --------------------------------------------------


def test_revolt_example_discards_both_yellows():
    """Revolt example: "Eloise adds a yellow 1 to the Market, which already has 2 yellow cards
    (4 and 5). She discards those 2 cards because she has just triggered a Revolt"."""
    market = ["yellow-4", "yellow-5", "red-2", "blue-3"]
    state = position(market=market, pile=["yellow-1"], reserve_size=0, vp=[0, 0])
    play(state, "add")
    view = state.observation(0)
    assert view.market == ("yellow-1", "red-2", "blue-3")
    assert "yellow-4" in view.discard
    assert "yellow-5" in view.discard
    # Row 3, not yet purchased: Will gains 1 VP and Eloise must purchase now.
    assert state.scores() == [0, 1]
    assert state.phase == "purchase"
    assert state.current_player == 0


# -- (5) the construction example --------------------------------------------


def test_construction_example():
    """Construction example: "Eloise decides to build her yellow 4 and 5, and her red 1 and 6.
    She cannot build her green 1, as her green City already has a card of higher Influence (2).
    She chooses not to build her pink 6"."""
    hand = ["yellow-4", "yellow-5", "pink-6", "red-1", "red-6", "green-1"]
    state = position(
        phase="construct",
        player=0,
        hands={0: hand},
        cities={0: {"green": ["green-2"]}, 1: {"green": ["green-3"]}},
    )
    assert legal_texts(state) == [
        "stop",
        "build yellow-4 yellow",
        "build yellow-5 yellow",
        "build pink-6 pink",
        "build red-1 red",
        "build red-6 red",
    ]
    play(state, "build yellow-4 yellow", "build yellow-5 yellow", "build red-1 red")
    assert "build green-1 green" not in legal_texts(state)
    play(state, "build red-6 red", "stop", "stop")
    mine = state.observation(0).players[0]
    assert mine.cities == (
        (),
        ("yellow-4", "yellow-5"),
        (),
        ("red-1", "red-6"),
        (),
        ("green-2",),
    )
    # Unbuilt cards stay in hand for the next Season.
    assert mine.hand == ("pink-6", "green-1")
    # Yellow 9 (2 cards) and red 7 (2 Cities of 2 cards) for Eloise; green 3 > 2 for Will.
    assert state.scores() == [4, 1]


# -- (6) the crown count -----------------------------------------------------


def test_crown_count_example():
    """Crowns: "the rulebook example city purple 1, 2, 4, 5 shows 4 crowns (bottom of 2, 4, 5 +
    top of 5)"; the winner of purple earns 1 VP per visible crown."""
    state = _score({0: {"purple": ["purple-1", "purple-2", "purple-4", "purple-5"]}})
    assert state.observation(0).decision.season_vp == (4, 0, 0, 0, 0, 0)
    assert state.scores() == [4, 0]


def test_crown_count_white_on_top_hides_top_crown():
    """Crowns: "A white card on top hides the top crown below it": purple 1, 2, 4, 5 under a
    white 6 shows only the 3 bottom crowns of 2, 4, 5."""
    city = ["purple-1", "purple-2", "purple-4", "purple-5", "white-6"]
    state = _score({0: {"purple": city}})
    assert state.observation(0).decision.season_vp == (3, 0, 0, 0, 0, 0)


# -- (7) the catch-up example ------------------------------------------------


def test_catch_up_example():
    """Catch-up example: "At the end of the 1st Season, Eloise has 6 Victory Points, and Will is
    leading with 12 Victory Points. There is 1 Bonus space (the 10) between Eloise and Will.
    Therefore, Eloise draws 1 card before the start of the new Season"."""
    state = position(
        phase="construct",
        player=0,
        vp=[6, 12],
        market=["purple-1", "yellow-2", "pink-3", "red-4"],
        pile=["blue-5"],
        reserve_size=0,
    )
    play(state, "stop", "stop")
    assert state.scores() == [6, 12]
    assert state.season == 2
    view = state.observation(0)
    assert view.players[0].hand == ("blue-5",)
    assert view.players[1].hand_size == 0
    assert view.pile_size == 0


@pytest.mark.parametrize(
    ("own", "leader", "cards"),
    [(6, 12, 1), (10, 12, 1), (8, 10, 0), (9, 21, 2), (12, 12, 0)],
)
def test_catch_up_bonus_spaces_counted(own, leader, cards):
    """Catch-up (1-3 players): bonus spaces 10, 20, 30...; a player draws 1 card per space b
    with own score <= b < leader's score."""
    state = position(
        phase="construct",
        player=0,
        vp=[own, leader],
        market=["purple-1", "yellow-2", "pink-3", "red-4"],
        pile=["blue-5", "green-6"],
        reserve_size=0,
    )
    play(state, "stop", "stop")
    view = state.observation(0)
    assert view.players[0].hand_size == cards
    assert view.players[1].hand_size == 0
    assert view.pile_size == 2 - cards
