"""Royal Cities solo mode against the Regent, from known positions and in random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.royal_cities import RoyalCitiesState, RulesConfig
from tests.royal_cities.positions import ALL_CARDS, legal_texts, play, position, seed_for_draws

MARKET4 = ["purple-3", "yellow-4", "pink-1", "white-1"]
EXPERT = RulesConfig(expert_royal_taxes=True)


def solo(pile: list[str] | None = None, **kw: object) -> RoyalCitiesState:
    """A solo position; with `pile`, the pile draws exactly those cards in that order."""
    kw.setdefault("hands", {0: []})
    kw.setdefault("market", MARKET4)
    if pile is not None:
        kw.update(pile=pile, reserve_size=0, seed=seed_for_draws(pile))
    return position(1, **kw)


def regent(state: RoyalCitiesState) -> tuple[tuple[str, ...], ...]:
    return state.observation(0).regent.cities


def mine(state: RoyalCitiesState) -> tuple[tuple[str, ...], ...]:
    return state.observation(0).players[0].cities


def discarded(state: RoyalCitiesState) -> Counter[str]:
    return Counter(state.observation(0).discard)


def cities(**spec: list[str]) -> tuple[tuple[str, ...], ...]:
    order = ("purple", "yellow", "pink", "red", "blue", "green")
    return tuple(tuple(spec.get(c, ())) for c in order)


# --------------------------------------------------------------------------
# A Season from a known position, end to end
# --------------------------------------------------------------------------


def test_solo_season_end_to_end() -> None:
    """Solo Season: adds feed the Regent, the purchase ends the Season, construction,
    majorities against the Regent, Royal Taxes, catch-up, then the next Season."""
    state = solo(
        pile=["red-2", "yellow-5", "green-1", "yellow-6", "green-6", "blue-3"],
        hands={0: ["red-3", "blue-5"]},
        cities={0: {"blue": ["blue-2"]}},
        regent_cities={"red": ["red-4"], "green": ["green-1"]},
        market=["purple-2", "yellow-3", "pink-4", "white-1"],
    )
    assert state.num_players == 1
    # No Hero in solo.
    assert legal_texts(state) == [
        "play hand red-3",
        "play hand blue-5",
        "play city blue",
        "purchase",
        "add",
    ]
    play(state, "add")
    assert state.phase == "solo_add"
    assert state.observation(0).decision.drawn == ("yellow-5", "red-2")
    assert legal_texts(state) == ["regent yellow-5 yellow", "regent red-2 red"]
    play(state, "regent red-2 red")
    # The Regent places the 2 under its 4; the yellow 5 goes to the Market (row 3).
    assert regent(state) == cities(red=["red-2", "red-4"], green=["green-1"])
    assert state.observation(0).market == (
        "purple-2",
        "yellow-3",
        "yellow-5",
        "pink-4",
        "white-1",
    )
    assert state.scores() == [0, 0]
    assert state.current_player == 0
    assert state.phase == "turn"

    play(state, "add")
    # The Regent already has a green 1: only the yellow 6 can go to it.
    assert legal_texts(state) == ["regent yellow-6 yellow"]
    play(state, "regent yellow-6 yellow")
    # The green 1 joins row 3 while a yellow pair is in the Market: +1 VP.
    assert state.scores() == [1, 0]
    assert len(state.observation(0).market) == 6

    play(state, "purchase")
    assert state.observation(0).decision.power == 6  # six face-up cards, no Reserve
    play(state, "buy purple-2", "buy yellow-3", "buy white-1", "stop")
    # The only Noble has purchased: the Season ends at once.
    assert state.phase == "construct"
    assert state.observation(0).players[0].hand == (
        "purple-2",
        "yellow-3",
        "red-3",
        "blue-5",
        "white-1",
    )
    play(
        state,
        "build purple-2 purple",
        "build yellow-3 yellow",
        "build blue-5 blue",
        "build white-1 yellow",
        "stop",
    )
    # Majorities: purple 1 (one crown), blue 3 (purple, yellow, blue hold a 1 or 2)
    # for the player; the Regent takes yellow (2: its red City has 2 cards), red (1)
    # and green (1: 4 cards). Royal Taxes take the blue 5 (blue earned the most).
    assert state.scores() == [5, 4]
    assert mine(state) == cities(
        purple=["purple-2"], yellow=["white-1", "yellow-3"], blue=["blue-2"]
    )
    assert regent(state) == cities(
        yellow=["yellow-6"], red=["red-2", "red-4"], blue=["blue-5"], green=["green-1"]
    )
    # Next Season: the Market keeps its 3 cards and is refilled (green 6 repeats a colour).
    obs = state.observation(0)
    assert obs.season == 2
    assert obs.market == ("yellow-5", "pink-4", "blue-3", "green-1")
    assert obs.players[0].hand == ("red-3",)
    assert not obs.players[0].purchased
    assert state.phase == "turn"
    assert state.current_player == 0


# --------------------------------------------------------------------------
# Adding to the Market: the Regent's card
# --------------------------------------------------------------------------


def test_add_draws_two_one_for_the_regent() -> None:
    """Solo add: draw 2, one to the Regent's Cities, the other to the Market."""
    state = solo(pile=["red-3", "blue-6"])
    play(state, "add")
    assert state.observation(0).decision.drawn == ("red-3", "blue-6")
    assert legal_texts(state) == ["regent red-3 red", "regent blue-6 blue"]
    play(state, "regent blue-6 blue")
    assert regent(state) == cities(blue=["blue-6"])
    assert state.observation(0).market == (*MARKET4[:3], "red-3", "white-1")
    assert state.phase == "turn"
    assert state.observation(0).decision.drawn == ()


def test_add_white_card_for_any_regent_city_lacking_its_value() -> None:
    """Solo add: a white card may go to any Regent City that lacks its value."""
    state = solo(pile=["white-2", "red-2"], regent_cities={"red": ["red-2"]}, market=MARKET4[:3])
    play(state, "add")
    assert legal_texts(state) == [
        "regent white-2 purple",
        "regent white-2 yellow",
        "regent white-2 pink",
        "regent white-2 blue",
        "regent white-2 green",
    ]
    play(state, "regent white-2 green")
    assert regent(state) == cities(red=["red-2"], green=["white-2"])
    assert state.observation(0).market == (*MARKET4[:3], "red-2")


def test_regent_insertion_below_and_above() -> None:
    """The Regent's Cities take cards below or above existing ones, always ascending."""
    state = solo(
        pile=["red-1", "purple-6", "red-3", "white-4", "red-6", "purple-5"],
        regent_cities={"red": ["red-2", "red-5"]},
    )
    play(state, "add", "regent red-1 red")
    assert regent(state)[3] == ("red-1", "red-2", "red-5")
    play(state, "add", "regent white-4 red")
    assert regent(state)[3] == ("red-1", "red-2", "white-4", "red-5")
    play(state, "add")
    # The red City lacks a 3 and a 6 now: both are offered.
    assert legal_texts(state) == ["regent purple-5 purple", "regent red-6 red"]
    play(state, "regent red-6 red")
    assert regent(state)[3] == ("red-1", "red-2", "white-4", "red-5", "red-6")


def test_add_same_kind_drawn_twice() -> None:
    """Solo add: two copies of a kind drawn, one goes to the Regent, the other to the Market."""
    state = solo(pile=["blue-4", "blue-4"])
    play(state, "add")
    assert state.observation(0).decision.drawn == ("blue-4", "blue-4")
    assert legal_texts(state) == ["regent blue-4 blue"]
    play(state, "regent blue-4 blue")
    assert regent(state) == cities(blue=["blue-4"])
    assert "blue-4" in state.observation(0).market


def test_add_no_card_for_the_regent_keep_one_discard_the_other() -> None:
    """Solo add: if neither card can go to the Regent, one goes to the Market, the other is
    discarded."""
    state = solo(pile=["red-2", "red-5"], regent_cities={"red": ["red-2", "red-5"]})
    before = discarded(state)
    play(state, "add")
    assert legal_texts(state) == ["keep red-2", "keep red-5"]
    play(state, "keep red-5")
    assert "red-5" in state.observation(0).market
    assert "red-2" not in state.observation(0).market
    assert discarded(state) - before == Counter(["red-2"])
    assert regent(state) == cities(red=["red-2", "red-5"])


def test_add_with_a_single_card_to_draw_puts_it_in_the_market() -> None:
    """RULES-NOTES (round 2): adding when only one card can be drawn, it goes to the Market
    (the add's purpose); the Regent gets nothing that turn."""
    rest = sorted((ALL_CARDS - Counter([*MARKET4, "red-3"])).elements())
    state = solo(pile=["red-3"], hands={0: rest})
    play(state, "add")
    assert state.observation(0).market == (*MARKET4[:3], "red-3", "white-1")
    assert regent(state) == cities()
    assert state.phase == "turn"


def test_add_row_vp_in_solo() -> None:
    """Solo add: row 3 with a pair of another colour in the Market, before purchasing: +1 VP."""
    state = solo(pile=["green-3", "blue-2"], market=["purple-3", "yellow-4", "red-1", "red-2"])
    play(state, "add", "regent blue-2 blue")
    assert state.scores() == [1, 0]


def test_revolt_in_solo() -> None:
    """Solo Revolt before purchasing: the Regent gains the row's VP, the player must
    purchase, no Hero; the purchase ends the Season."""
    state = solo(pile=["red-5", "green-3"], market=["purple-3", "yellow-4", "red-1", "red-2"])
    play(state, "add", "regent green-3 green")
    obs = state.observation(0)
    assert obs.decision.phase == "purchase"
    assert obs.decision.power == 3
    assert obs.market == ("purple-3", "yellow-4", "red-5")
    assert state.scores() == [0, 1]
    assert not obs.players[0].hero_up
    play(state, "buy purple-3", "stop")
    assert state.phase == "construct"


# --------------------------------------------------------------------------
# Royal Taxes
# --------------------------------------------------------------------------


def season_end(state: RoyalCitiesState, *builds: str) -> RoyalCitiesState:
    play(state, *builds, "stop")
    return state


def test_tax_city_with_most_vp() -> None:
    """Royal Taxes: the Regent steals the top card of the City that earned the most VP."""
    state = solo(
        phase="construct",
        cities={0: {"pink": ["pink-4", "pink-6"], "yellow": ["yellow-1"]}},
        regent_cities={"red": ["red-2"]},
    )
    season_end(state)
    # Pink 3 VP (10 / 3), yellow 2 VP (2 cards in the pink City); the Regent: red 1.
    assert state.scores() == [5, 1]
    assert mine(state) == cities(yellow=["yellow-1"], pink=["pink-4"])
    assert regent(state) == cities(pink=["pink-6"], red=["red-2"])
    assert state.season == 2


def test_tax_vp_tie_higher_influence() -> None:
    """Royal Taxes: Cities tied on VP, the one with the higher influence is taxed."""
    state = solo(
        phase="construct",
        cities={0: {"pink": ["pink-6"], "yellow": ["yellow-2", "yellow-5"]}},
    )
    season_end(state)
    # Pink 2 VP (influence 6), yellow 2 VP (influence 7).
    assert state.scores() == [4, 0]
    assert mine(state) == cities(yellow=["yellow-2"], pink=["pink-6"])
    assert regent(state) == cities(yellow=["yellow-5"])


def test_tax_full_tie_player_chooses() -> None:
    """Royal Taxes: tied on VP and influence, the player chooses the City."""
    state = solo(
        phase="construct",
        cities={0: {"pink": ["pink-6"], "yellow": ["yellow-1", "yellow-5"]}},
    )
    season_end(state)
    assert state.phase == "tax"
    assert state.current_player == 0
    decision = state.observation(0).decision
    assert decision.season_vp == (0, 2, 2, 0, 0, 0)
    assert decision.season_influence == (0, 6, 6, 0, 0, 0)
    assert decision.tax_left == 1
    assert legal_texts(state) == ["tax yellow", "tax pink"]
    play(state, "tax pink")
    assert mine(state) == cities(yellow=["yellow-1", "yellow-5"])
    assert regent(state) == cities(pink=["pink-6"])
    assert state.season == 2
    assert state.phase == "turn"


def test_tax_without_vp_most_influential_city() -> None:
    """Royal Taxes: no VP this Season, the Regent steals from the most influential City."""
    state = solo(
        phase="construct",
        cities={0: {"red": ["red-2"], "blue": ["blue-1", "blue-3"]}},
        regent_cities={"red": ["red-5"], "blue": ["blue-6"]},
    )
    season_end(state)
    # The Regent wins red (1: no City of 2 cards) and blue (1: no 1 or 2).
    assert state.scores() == [0, 2]
    assert mine(state) == cities(red=["red-2"], blue=["blue-1"])
    assert regent(state) == cities(red=["red-5"], blue=["blue-3", "blue-6"])


def test_tax_without_vp_tied_influence_player_chooses() -> None:
    """Royal Taxes: no VP and two Cities of equal influence, the player chooses."""
    state = solo(
        phase="construct",
        cities={0: {"red": ["red-4"], "blue": ["blue-1", "blue-3"]}},
        regent_cities={"red": ["red-5"], "blue": ["blue-6"]},
    )
    season_end(state)
    assert state.scores() == [0, 2]
    assert legal_texts(state) == ["tax red", "tax blue"]
    play(state, "tax red")
    assert mine(state) == cities(blue=["blue-1", "blue-3"])
    assert regent(state) == cities(red=["red-4", "red-5"], blue=["blue-6"])


def test_tax_value_the_regent_has_is_discarded() -> None:
    """Royal Taxes: a stolen card whose value the Regent's City already has is discarded."""
    state = solo(
        phase="construct",
        cities={0: {"yellow": ["yellow-3", "yellow-5"]}},
        regent_cities={"yellow": ["yellow-5"]},
    )
    before = discarded(state)
    season_end(state)
    # Yellow 8 against 5: 2 VP (2 cards) for the player.
    assert state.scores() == [2, 0]
    assert mine(state) == cities(yellow=["yellow-3"])
    assert regent(state) == cities(yellow=["yellow-5"])
    assert discarded(state) - before == Counter(["yellow-5"])


def test_tax_takes_a_white_top_card() -> None:
    """Royal Taxes: the top card is stolen even if white; it joins the Regent's City of
    that colour."""
    state = solo(phase="construct", cities={0: {"yellow": ["yellow-1", "white-5"]}})
    season_end(state)
    assert state.scores() == [2, 0]
    assert mine(state) == cities(yellow=["yellow-1"])
    assert regent(state) == cities(yellow=["white-5"])


def test_tax_on_cities_built_this_season() -> None:
    """Royal Taxes come after this Season's construction and majorities."""
    state = solo(phase="construct", hands={0: ["green-2", "green-5"]})
    season_end(state, "build green-2 green", "build green-5 green")
    # Green: 2 cards -> 1 VP (minimum 1).
    assert state.scores() == [1, 0]
    assert mine(state) == cities(green=["green-2"])
    assert regent(state) == cities(green=["green-5"])


@pytest.mark.parametrize("season", [1, 2, 3])
def test_tax_in_seasons_1_to_3(season: int) -> None:
    """Royal Taxes: after majorities in Seasons 1, 2 and 3, one card."""
    state = solo(phase="construct", season=season, cities={0: {"blue": ["blue-1", "blue-3"]}})
    season_end(state)
    assert mine(state) == cities(blue=["blue-1"])
    assert regent(state) == cities(blue=["blue-3"])
    assert state.season == season + 1


def test_no_tax_after_season_4() -> None:
    """Royal Taxes: none at the end of the 4th Season; the game ends."""
    state = solo(phase="construct", season=4, cities={0: {"blue": ["blue-1", "blue-3"]}})
    season_end(state)
    assert state.is_terminal()
    assert mine(state) == cities(blue=["blue-1", "blue-3"])
    assert regent(state) == cities()
    assert state.scores() == [1, 0]


EXPERT_CITIES = {
    # Pink 3 VP, yellow 2 VP (2 cards), blue 1 VP (the yellow City holds a 1 and a 2).
    0: {"pink": ["pink-4", "pink-6"], "yellow": ["yellow-1", "yellow-2"], "blue": ["blue-6"]}
}


@pytest.mark.parametrize(
    ("season", "taxed"),
    [(1, ["pink"]), (2, ["pink", "yellow"]), (3, ["pink", "yellow", "blue"])],
)
def test_expert_taxes_1_2_3(season: int, taxed: list[str]) -> None:
    """Expert Royal Taxes: 1, 2, then 3 Cities taxed, by most VP."""
    state = solo(phase="construct", season=season, cities=EXPERT_CITIES, rules=EXPERT)
    season_end(state)
    assert state.scores() == [6, 0]
    top = {"pink": "pink-6", "yellow": "yellow-2", "blue": "blue-6"}
    assert regent(state) == cities(**{c: [top[c]] for c in taxed})
    left = {"pink": ["pink-4"], "yellow": ["yellow-1"], "blue": []}
    full = {c: [*v] for c, v in EXPERT_CITIES[0].items()}
    assert mine(state) == cities(**{c: left[c] if c in taxed else full[c] for c in full})


def test_expert_taxes_not_after_season_4() -> None:
    """Expert Royal Taxes: still none after the 4th Season."""
    state = solo(phase="construct", season=4, cities=EXPERT_CITIES, rules=EXPERT)
    season_end(state)
    assert state.is_terminal()
    assert regent(state) == cities()


def test_expert_taxes_fewer_cities_than_taxes() -> None:
    """Expert Royal Taxes: a player with fewer Cities than taxes loses one card per City."""
    state = solo(phase="construct", season=3, cities={0: {"red": ["red-1", "red-4"]}}, rules=EXPERT)
    season_end(state)
    assert mine(state) == cities(red=["red-1"])
    assert regent(state) == cities(red=["red-4"])


def test_expert_taxes_tie_choice_then_next() -> None:
    """Expert Royal Taxes: a tie asks the player, then the next City is taxed."""
    state = solo(
        phase="construct",
        season=2,
        cities={0: {"pink": ["pink-6"], "yellow": ["yellow-1", "yellow-5"], "blue": ["blue-3"]}},
        rules=EXPERT,
    )
    season_end(state)
    assert legal_texts(state) == ["tax yellow", "tax pink"]
    assert state.observation(0).decision.tax_left == 2
    play(state, "tax yellow")
    # Pink is next (2 VP); blue (1 VP: the yellow City holds a 1) is spared.
    assert mine(state) == cities(yellow=["yellow-1"], blue=["blue-3"])
    assert regent(state) == cities(yellow=["yellow-5"], pink=["pink-6"])


# --------------------------------------------------------------------------
# Catch-up against the Regent
# --------------------------------------------------------------------------


def test_regent_catch_up_builds_directly() -> None:
    """Catch-up: a Regent behind the player draws one card per bonus space and builds it."""
    state = solo(
        phase="construct",
        pile=["red-4", "green-3", "blue-1"],
        vp=[21],
        regent_vp=9,
        regent_cities={"red": ["red-2", "red-5"]},
    )
    season_end(state)
    # Spaces 10 and 20 lie between 9 and 21.
    assert regent(state) == cities(red=["red-2", "red-4", "red-5"], green=["green-3"])
    assert state.observation(0).players[0].hand == ()
    assert state.observation(0).pile_size == 1
    assert state.season == 2


def test_regent_catch_up_discards_duplicates() -> None:
    """Catch-up: a card whose value the Regent's City has is discarded."""
    state = solo(
        phase="construct",
        pile=["red-5", "green-3"],
        vp=[11],
        regent_vp=0,
        regent_cities={"red": ["red-5"]},
    )
    before = discarded(state)
    season_end(state)
    assert regent(state) == cities(red=["red-5"])
    assert discarded(state) - before == Counter(["red-5"])
    assert state.observation(0).pile_size == 1


def test_regent_catch_up_white_card() -> None:
    """Catch-up: a white card for the Regent goes to the City the player names."""
    state = solo(
        phase="construct",
        pile=["white-3", "blue-1", "pink-2"],
        vp=[21],
        regent_vp=0,
        regent_cities={"purple": ["purple-3"]},
    )
    season_end(state)
    assert state.phase == "regent_white"
    assert state.observation(0).decision.drawn == ("white-3",)
    assert state.observation(0).decision.regent_draws == 1
    assert legal_texts(state) == [
        "regent white-3 yellow",
        "regent white-3 pink",
        "regent white-3 red",
        "regent white-3 blue",
        "regent white-3 green",
    ]
    play(state, "regent white-3 blue")
    assert regent(state) == cities(purple=["purple-3"], blue=["blue-1", "white-3"])
    assert state.season == 2
    assert state.phase == "turn"


def test_taxes_before_regent_catch_up() -> None:
    """Solo Season end order: majorities, Royal Taxes, then the Regent's catch-up."""
    state = solo(
        phase="construct",
        pile=["blue-3", "green-2"],
        vp=[20],
        regent_vp=9,
        cities={0: {"blue": ["blue-1", "blue-3"]}},
    )
    before = discarded(state)
    season_end(state)
    # Blue: 1 VP (a City holding a 1), so 21 against 9: the Regent draws 2 cards.
    assert state.scores() == [21, 9]
    # The tax put the blue 3 in the Regent's blue City first: the drawn blue 3 repeats it.
    assert regent(state) == cities(blue=["blue-3"], green=["green-2"])
    assert discarded(state) - before == Counter(["blue-3"])
    assert mine(state) == cities(blue=["blue-1"])


def test_player_catch_up_against_the_regent() -> None:
    """Catch-up: a player behind the Regent draws one card per bonus space."""
    state = solo(phase="construct", pile=["red-4", "green-3"], vp=[9], regent_vp=12)
    season_end(state)
    assert state.observation(0).players[0].hand == ("red-4",)
    assert regent(state) == cities()


def test_no_catch_up_after_season_4_solo() -> None:
    """Catch-up: none after the last Season in solo either."""
    state = solo(phase="construct", season=4, vp=[30], regent_vp=0)
    season_end(state)
    assert state.is_terminal()
    assert regent(state) == cities()
    assert state.scores() == [30, 0]


# --------------------------------------------------------------------------
# The Market trim before a new Season
# --------------------------------------------------------------------------


def test_market_trim_to_four() -> None:
    """Before a new Season the player discards Market cards down to 4 face-up cards."""
    market = ["purple-1", "yellow-2", "pink-3", "red-4", "blue-5", "green-6"]
    state = solo(phase="construct", market=market)
    before = discarded(state)
    season_end(state)
    assert state.phase == "solo_trim"
    assert state.current_player == 0
    # Discards go in non-decreasing kind order, so the last card cannot open them.
    assert legal_texts(state) == [
        "discard market purple-1",
        "discard market yellow-2",
        "discard market pink-3",
        "discard market red-4",
        "discard market blue-5",
    ]
    play(state, "discard market pink-3")
    assert legal_texts(state) == [
        "discard market red-4",
        "discard market blue-5",
        "discard market green-6",
    ]
    play(state, "discard market green-6")
    obs = state.observation(0)
    assert obs.market == ("purple-1", "yellow-2", "red-4", "blue-5")
    assert discarded(state) - before == Counter(["pink-3", "green-6"])
    assert obs.season == 2
    assert state.phase == "turn"


def test_market_trim_then_refill_not_needed() -> None:
    """Market trim: the 4 cards kept may share colours; no refill follows."""
    market = ["red-1", "red-2", "blue-1", "blue-2", "green-3"]
    state = solo(phase="construct", market=market)
    season_end(state)
    assert legal_texts(state) == [
        "discard market red-1",
        "discard market red-2",
        "discard market blue-1",
        "discard market blue-2",
        "discard market green-3",
    ]
    play(state, "discard market green-3")
    assert state.observation(0).market == ("red-1", "red-2", "blue-1", "blue-2")
    assert state.phase == "turn"


def test_market_of_four_not_trimmed() -> None:
    """Market trim: nothing to do with 4 face-up cards."""
    state = solo(phase="construct")
    season_end(state)
    assert state.phase == "turn"
    assert state.observation(0).market == tuple(MARKET4)


def test_no_market_trim_after_season_4() -> None:
    """Market trim: none when the game ends."""
    market = ["purple-1", "yellow-2", "pink-3", "red-4", "blue-5", "green-6"]
    state = solo(phase="construct", market=market, season=4)
    season_end(state)
    assert state.is_terminal()


# --------------------------------------------------------------------------
# The end of a solo game
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vp", "regent_vp", "returns"),
    [
        (31, 0, 1.0),  # beat the Regent by 31 or more
        (30, 20, 1.0),  # by 10
        (25, 25, 0.5),  # tie
        (20, 29, 0.0),  # the Regent wins by less than 10
        (10, 20, 0.0),  # by 10 or more
    ],
)
def test_solo_result_and_margin(vp: int, regent_vp: int, returns: float) -> None:
    """Solo end: scores are [player, Regent] (the Legend margin); returns 1, 0.5 or 0."""
    state = solo(phase="construct", season=4, vp=[vp], regent_vp=regent_vp)
    season_end(state)
    assert state.is_terminal()
    assert state.scores() == [vp, regent_vp]
    assert state.scores()[0] - state.scores()[1] == vp - regent_vp
    assert state.returns() == [returns]


def test_solo_tie_not_broken_by_cards_built() -> None:
    """Solo end: a VP tie with the Regent stays a tie whatever the cards built."""
    state = solo(
        phase="construct",
        season=4,
        vp=[12],
        regent_vp=12,
        cities={0: {"purple": ["purple-0"], "yellow": ["yellow-0"], "pink": ["pink-0"]}},
    )
    season_end(state)
    assert state.scores() == [12, 12]
    assert state.returns() == [0.5]


def test_solo_final_majorities_against_the_regent() -> None:
    """Solo end: the last Season's majorities count for both sides, ties score for both."""
    state = solo(
        phase="construct",
        season=4,
        vp=[10],
        regent_vp=11,
        cities={0: {"red": ["red-1", "red-3"]}},
        regent_cities={"red": ["red-4"], "green": ["green-1"]},
    )
    season_end(state)
    # Red tied at 4: the player scores 1 (one City of 2 cards), the Regent 1 (minimum).
    # Green: the Regent alone, 1 VP.
    assert state.scores() == [11, 13]
    assert state.returns() == [0.0]


# --------------------------------------------------------------------------
# Random solo games
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [RulesConfig(), EXPERT], ids=["basic", "expert"])
def test_random_solo_games(rules: RulesConfig) -> None:
    """Random solo games reach the end after 4 Seasons with consistent results."""
    rng = random.Random(7)
    for seed in range(15):
        state = engine.new_game("royal_cities", num_players=1, seed=seed, rules=rules)
        season = 1
        while not state.is_terminal():
            assert state.current_player == 0
            assert "add hero" not in legal_texts(state)
            if state.phase == "tax":
                assert state.season <= 3
            if state.season != season and state.phase == "turn":
                # A new Season's first turn: the Market was trimmed / refilled to 4 cards.
                assert state.season == season + 1
                season = state.season
                assert len(state.observation(0).market) == 4
            state.apply_action(rng.choice(state.legal_actions()))
            state.check()
        assert season == 4
        player, regent_vp = state.scores()
        expected = 1.0 if player > regent_vp else 0.5 if player == regent_vp else 0.0
        assert state.returns() == [expected]
        assert not state.observation(0).players[0].hero_up


COLOURS6 = ("purple", "yellow", "pink", "red", "blue", "green")


@pytest.mark.parametrize("rules", [RulesConfig(), EXPERT], ids=["basic", "expert"])
def test_random_solo_royal_taxes(rules: RulesConfig) -> None:
    """Royal Taxes in random solo games: the Cities with the most VP this Season, then the
    most influence, lose their top card to the Regent (1 City, or 1-2-3 when expert)."""
    rng = random.Random(11)
    checked = 0
    for seed in range(25):
        state = engine.new_game("royal_cities", num_players=1, seed=seed, rules=rules)
        while not state.is_terminal():
            if not (state.phase == "construct" and state.season <= 3):
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            # Build at random, then look at the Cities just before the reveal.
            move = rng.choice(legal_texts(state))
            while move != "stop":
                play(state, move)
                move = rng.choice(legal_texts(state))
            obs = state.observation(0)
            built = [list(city) for city in obs.players[0].cities]
            for card, city in obs.decision.selection:
                built[COLOURS6.index(city)].append(card)
            for city in built:
                city.sort(key=lambda c: int(c[-1]))
            season = state.season
            vp_before = obs.players[0].vp
            play(state, "stop")
            # season_vp is what each colour earned the player this Season.
            gained = sum(state.observation(0).decision.season_vp)
            assert state.scores()[0] == vp_before + gained
            taxes = season if rules.expert_royal_taxes else 1
            taken: list[int] = []
            while True:
                decision = state.observation(0).decision
                keys = {
                    c: (decision.season_vp[c], decision.season_influence[c])
                    for c in range(6)
                    if built[c] and c not in taken
                }
                if len(taken) == taxes or not keys:
                    break
                best = max(keys.values())
                tied = [c for c in range(6) if keys.get(c) == best]
                if state.phase == "tax" and len(tied) > 1:
                    assert legal_texts(state) == [f"tax {COLOURS6[c]}" for c in tied]
                    choice = rng.choice(tied)
                    play(state, f"tax {COLOURS6[choice]}")
                    taken.append(choice)
                else:
                    assert len(tied) == 1
                    taken.append(tied[0])
            after = state.observation(0).players[0].cities
            for c in range(6):
                expected = built[c][:-1] if c in taken else built[c]
                assert list(after[c]) == expected
            checked += 1
    assert checked >= 50
