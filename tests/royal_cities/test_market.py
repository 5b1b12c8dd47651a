"""The Market: rows, purchases, adding a card, Revolts, the Hero, the draw pile.

Rules: royal-cities.en.md "The Market", "B Purchase", "C Add one card", "Revolt", "People's
Hero"; RULES-NOTES.md "Market geometry" and "Adding a card (step C) and Revolts".
Engine choices tested as such: a purchase takes cards in non-decreasing kind order, then
`stop`, which is legal only after one card or when nothing is affordable.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.royal_cities import RulesConfig
from tests.royal_cities.positions import ALL_CARDS, legal_texts, play, position

# Every prefix of 2+ cards has a pair of yellows, one green at most, no colour three times.
ROWS = [
    "yellow-4",
    "yellow-5",
    "green-6",
    "red-2",
    "purple-1",
    "pink-4",
    "blue-3",
    "white-2",
    "purple-2",
    "pink-3",
    "red-3",
    "blue-4",
]
REVOLT_MARKET = ["yellow-4", "yellow-5", "red-2", "blue-3"]


def everything_else(*groups: list[str]) -> list[str]:
    """The cards of the deck not named in `groups` (to fill a hand, so nothing is discarded)."""
    placed = Counter()
    for group in groups:
        placed += Counter(group)
    return sorted((ALL_CARDS - placed).elements())


# -- rows --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "gain"),
    [(2, 0), (3, 0), (4, 1), (7, 1), (8, 2), (11, 2), (12, 3)],
)
def test_row_of_the_added_card(n, gain):
    """Market geometry: "With n face-up cards, the next card added goes into row 2 + n // 4";
    row 2 gives nothing, rows 3, 4, 5 give 1, 2, 3 VP with a pair of another colour."""
    market = ROWS[:n]
    state = position(market=market, pile=["green-1"], reserve_size=0, vp=[0, 0])
    play(state, "add")
    assert state.scores() == [gain, 0]
    assert sorted(state.observation(0).market) == sorted([*market, "green-1"])
    assert state.phase == "turn"
    assert state.current_player == 1


def test_row_two_never_revolts():
    """Adding: "As long as you add cards to the 2nd row, nothing happens", even a third yellow."""
    market = ["yellow-4", "yellow-5", "red-2"]
    state = position(market=market, pile=["yellow-1"], reserve_size=0)
    play(state, "add")
    assert state.observation(0).market == ("yellow-1", "yellow-4", "yellow-5", "red-2")
    assert state.scores() == [0, 0]
    assert state.phase == "turn"
    assert state.current_player == 1


def test_no_row_vp_without_a_pair():
    """Adding (row 3+): the VP need "at least 1 set of 2 (or more) cards of the same color"."""
    market = ["purple-1", "yellow-2", "pink-3", "red-4", "blue-5"]
    state = position(market=market, pile=["green-1"], reserve_size=0)
    play(state, "add")
    assert state.scores() == [0, 0]


def test_row_vp_needs_a_pair_of_another_colour():
    """Adding: k <= 1 cards of the drawn colour; the pair must be of "some other colour" (one
    green plus the new green-1 is no pair that counts)."""
    market = ["purple-1", "yellow-2", "pink-3", "green-6"]
    state = position(market=market, pile=["green-1"], reserve_size=0)
    play(state, "add")
    assert state.scores() == [0, 0]
    assert "green-1" in state.observation(0).market


@pytest.mark.parametrize(("n", "allowed"), [(3, False), (4, True), (5, True)])
def test_purchase_needs_a_complete_second_row(n, allowed):
    """Purchase: "You cannot buy cards until the second row is complete (4 cards in the row)"."""
    state = position(market=ROWS[:n])
    assert ("purchase" in legal_texts(state)) is allowed
    assert "add" in legal_texts(state)


def test_purchase_once_per_season():
    """Purchase: "You can only buy once per Season": after purchasing, only A then C."""
    state = position(market=ROWS[:8], purchased=(0,), hands={0: ["red-5"]})
    assert legal_texts(state) == ["play hand red-5", "add"]


# -- purchasing --------------------------------------------------------------

POWER_MARKET = ["purple-6", "yellow-5", "pink-4", "red-3", "blue-2"]


@pytest.mark.parametrize(("reserve", "power"), [(0, 5), (4, 9)])
def test_purchase_power_counts_face_up_and_reserve(reserve, power):
    """Purchase: "Count the number of cards (face down and face up) in the Market. Each card
    counts as 1, and the total is your purchasing power"."""
    state = position(market=POWER_MARKET, reserve_size=reserve)
    play(state, "purchase")
    assert state.observation(0).decision.power == power
    affordable = [c for c in POWER_MARKET if int(c[-1]) <= power]
    assert legal_texts(state) == [f"buy {c}" for c in affordable]


def test_purchase_spends_power_and_loses_the_rest():
    """Purchase: "If you do not use all of your purchasing power, the remaining balance is
    lost"."""
    state = position(market=POWER_MARKET, reserve_size=0)
    play(state, "purchase", "buy red-3")
    decision = state.observation(0).decision
    assert decision.power == 2
    assert decision.taken == 1
    # 2 power left: blue-2 still affordable (and after red-3 in kind order), or stop.
    assert legal_texts(state) == ["stop", "buy blue-2"]
    play(state, "stop")
    view = state.observation(1)
    assert view.players[0].purchased
    assert view.players[0].hand == ("red-3",)
    assert view.market == ("purple-6", "yellow-5", "pink-4", "blue-2")
    # The turn has passed; when player 0 plays again, no purchase and no power are left.
    play(state, "add")
    assert state.current_player == 0
    assert "purchase" not in legal_texts(state)


def test_purchase_in_kind_order_and_stop_rules():
    """Engine choice: cards are taken in non-decreasing kind order (both copies of a kind may
    be taken) and `stop` needs one card taken, unless nothing is affordable."""
    market = ["purple-1", "red-1", "red-1", "blue-1"]
    state = position(market=market, reserve_size=4)
    play(state, "purchase")
    assert legal_texts(state) == ["buy purple-1", "buy red-1", "buy blue-1"]
    play(state, "buy red-1")
    assert legal_texts(state) == ["stop", "buy red-1", "buy blue-1"]
    play(state, "buy red-1", "buy blue-1", "stop")
    assert state.observation(0).players[0].hand == ("red-1", "red-1", "blue-1")
    assert state.observation(0).market == ("purple-1",)


def test_purchase_with_nothing_affordable():
    """Purchase power 4 (four face-up cards, no Reserve) cannot pay a 5 or a 6: `stop` at once."""
    state = position(market=["purple-6", "yellow-5", "pink-6", "red-5"], reserve_size=0)
    play(state, "purchase")
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    assert state.observation(0).players[0].purchased
    assert state.observation(0).players[0].hand == ()


def test_purchase_known_to_everyone():
    """Purchase: the cards are taken from the face-up Market, so the opponent knows them."""
    state = position(market=POWER_MARKET, reserve_size=0)
    play(state, "purchase", "buy blue-2", "stop")
    assert state.observation(1).players[0].hand == ("blue-2",)


def test_market_compacts_after_purchase():
    """Purchase: "Rearrange the cards in the Market so there are no gaps in the rows": 9 cards,
    3 bought, so the next card goes to row 3 (1 VP), not row 4."""
    market = [
        "purple-1",
        "yellow-4",
        "yellow-5",
        "pink-4",
        "red-2",
        "red-3",
        "blue-3",
        "white-2",
        "green-6",
    ]
    state = position(market=market, pile=["green-1"], reserve_size=0)
    play(state, "purchase", "buy purple-1", "buy pink-4", "buy white-2", "stop")
    assert state.current_player == 1
    play(state, "add")
    assert state.scores() == [0, 1]


def test_market_compacts_after_emptiness():
    """Market geometry: "after a removal the row structure is compacted": 8 cards, Emptiness
    discards one, so the next card goes to row 3 (1 VP), not row 4."""
    state = position(market=ROWS[:8], hands={0: ["pink-0"]}, pile=["green-1"], reserve_size=0)
    play(state, "play hand pink-0", "discard market white-2", "add")
    assert state.scores() == [1, 0]


# -- Revolts -----------------------------------------------------------------


def test_revolt_before_purchase_three_players():
    """Revolt: "If you haven't purchased any cards during this Season, each other Noble gains
    Victory Points based on the row" and the revolter must purchase, even with fewer than 4
    face-up cards left; the Hero turns face up; the turn ends."""
    state = position(3, market=REVOLT_MARKET, pile=["yellow-1"], reserve_size=0, vp=[1, 2, 3])
    play(state, "add")
    assert state.scores() == [1, 3, 4]
    assert state.phase == "purchase"
    assert state.current_player == 0
    view = state.observation(0)
    assert view.market == ("yellow-1", "red-2", "blue-3")
    assert view.decision.power == 3
    assert view.players[0].hero_up
    assert legal_texts(state) == ["buy yellow-1", "buy red-2", "buy blue-3"]
    play(state, "buy red-2", "stop")
    # The turn ends without adding a card; the next player is to move.
    assert state.phase == "turn"
    assert state.current_player == 1
    assert state.observation(1).market == ("yellow-1", "blue-3")
    assert state.observation(1).players[0].purchased


def test_revolt_in_row_four_gives_two_vp():
    """Revolt: "If you added a card to the 3rd row, the other Nobles gain 1 Victory Point (2 VP
    for the 4th row, 3 VP for the 5th row)"."""
    market = [*REVOLT_MARKET, "purple-1", "pink-4", "green-3", "white-2"]
    state = position(market=market, pile=["yellow-1"], reserve_size=0)
    play(state, "add")
    assert state.scores() == [0, 2]
    assert state.phase == "purchase"


# Row 2 holds four purples; every other colour has its pair: 16 face-up cards, and any card
# added next is a 17th, a Revolt in "row 6".
SIXTEEN = [
    "purple-1", "purple-2", "purple-3", "purple-4",
    *(f"{colour}-{v}" for colour in ("yellow", "pink", "red", "blue", "green", "white")
      for v in (1, 2)),
]  # fmt: skip


def test_a_seventeenth_face_up_card_revolts_as_in_row_five():
    """RULES-NOTES (round 2): "a row number past 5 counts as row 5" (the rulebook prints rows
    2-5 only): the other Nobles gain 3 VP, not 4."""
    state = position(3, market=SIXTEEN, pile=["yellow-3"], reserve_size=0)
    assert len(state.observation(0).market) == 16
    play(state, "add")
    assert state.scores() == [0, 3, 3]
    assert state.phase == "purchase"
    view = state.observation(0)
    assert len(view.market) == 15 and "yellow-3" in view.market


def test_a_seventeenth_card_after_purchasing_resolves_the_effect_without_vp():
    state = position(market=SIXTEEN, pile=["green-5"], reserve_size=0, purchased=(0,))
    play(state, "add")
    assert state.scores() == [0, 0]
    # The lowest discarded green is the 1: the Villager, with no City to take from.
    assert state.phase == "turn" and state.current_player == 1


def test_revolt_by_last_purchaser_ends_the_season():
    """Purchase: "If you are the last Noble to buy, your turn ends and everyone moves to PHASE 2";
    a Revolt's forced purchase counts."""
    state = position(3, market=REVOLT_MARKET, pile=["yellow-1"], reserve_size=0, purchased=(1, 2))
    play(state, "add")
    assert state.scores() == [0, 1, 1]
    play(state, "buy blue-3", "stop")
    assert state.phase == "construct"
    assert state.current_player == 0
    assert state.observation(0).last_purchaser == 0
    # "The Noble to the left of the last person who purchased cards starts the new Season",
    # and the Market tokens are retrieved.
    play(state, "stop", "stop", "stop")
    assert state.season == 2
    assert state.phase == "turn"
    assert state.current_player == 1
    assert not any(view.purchased for view in state.observation(0).players)


def test_revolt_after_purchase_resolves_lowest_effect():
    """Revolt: "If you had already purchased cards, the other Nobles do not gain any VP. Trigger
    the effect of the lowest card discarded": yellow-4 and yellow-5 go, the 4 (Merchant) acts."""
    state = position(market=REVOLT_MARKET, pile=["yellow-1"], reserve_size=0, purchased=(0,))
    play(state, "add")
    assert state.scores() == [0, 0]
    decision = state.observation(0).decision
    assert state.phase == "effect"
    assert decision.effect == 4
    assert decision.from_revolt
    assert legal_texts(state) == ["take market yellow-1", "take market red-2", "take market blue-3"]
    play(state, "take market red-2")
    assert state.observation(0).players[0].hand == ("red-2",)
    assert state.observation(0).market == ("yellow-1", "blue-3")
    # Then it is the next player's turn.
    assert state.phase == "turn"
    assert state.current_player == 1


def test_revolt_discards_every_card_of_the_colour():
    """Revolt: k >= 2 face-up cards of the drawn colour: "Discard all k cards of that colour",
    here three yellows (the third came in row 2); after the purchase the lowest, yellow-1
    (Villager), acts."""
    market = ["yellow-1", "yellow-4", "yellow-5", "red-2"]
    state = position(
        market=market,
        pile=["yellow-6"],
        reserve_size=0,
        purchased=(0,),
        cities={0: {"blue": ["blue-2"]}},
    )
    play(state, "add")
    view = state.observation(0)
    assert view.market == ("yellow-6", "red-2")
    # The other copy of each kind was in the discard pile from the start.
    assert view.discard.count("yellow-1") == 2
    assert view.discard.count("yellow-4") == 2
    assert view.discard.count("yellow-5") == 2
    assert view.decision.effect == 1
    assert legal_texts(state) == ["city blue"]
    play(state, "city blue")
    assert state.observation(0).players[0].hand == ("blue-2",)
    assert state.current_player == 1


def test_revolt_after_purchase_emptiness():
    """Revolt after purchase: yellow-0 and yellow-3 are discarded, the 0 (Emptiness) acts."""
    market = ["yellow-0", "yellow-3", "red-2", "blue-3"]
    state = position(market=market, pile=["yellow-6"], reserve_size=0, purchased=(0,))
    play(state, "add")
    assert state.observation(0).decision.effect == 0
    play(state, "discard market blue-3")
    assert state.observation(0).market == ("yellow-6", "red-2")
    assert state.current_player == 1


def test_revolt_after_purchase_jester():
    """Revolt after purchase: yellow-2 and yellow-5 are discarded, the 2 (Jester) draws."""
    market = ["yellow-2", "yellow-5", "red-2", "blue-3"]
    state = position(
        market=market, pile=["yellow-1", "yellow-6"], reserve_size=0, purchased=(0,), vp=[4, 4]
    )
    play(state, "add")
    view = state.observation(0)
    added = [c for c in view.market if c.startswith("yellow")]
    assert len(added) == 1
    assert sorted([*added, *view.players[0].hand]) == ["yellow-1", "yellow-6"]
    assert state.scores() == [4, 4]
    assert state.phase == "turn"
    assert state.current_player == 1


@pytest.mark.parametrize(("every", "hero_up"), [(True, True), (False, False)])
def test_revolt_after_purchase_turns_hero_up(every, hero_up):
    """Hero: "If you trigger a Revolt, resolve it. You then put your Hero or Heroine card face
    up again" (RULES-NOTES switch hero_on_every_revolt: only before the purchase)."""
    market = ["yellow-4", "yellow-5", "red-2", "blue-3"]
    state = position(
        market=market,
        pile=["yellow-1"],
        reserve_size=0,
        purchased=(0,),
        rules=RulesConfig(hero_on_every_revolt=every),
    )
    play(state, "add", "take market red-2")
    assert state.observation(0).players[0].hero_up is hero_up


def test_white_is_a_colour_for_revolts():
    """Adding: "White is a colour here like any other": white-1 and white-3 face up, a white-5
    added starts a Revolt."""
    market = ["white-1", "white-3", "red-2", "blue-3"]
    state = position(market=market, pile=["white-5"], reserve_size=0)
    play(state, "add")
    view = state.observation(0)
    assert view.market == ("red-2", "blue-3", "white-5")
    assert {"white-1", "white-3"} <= set(view.discard)
    assert state.scores() == [0, 1]
    assert state.phase == "purchase"


def test_white_pair_counts_for_row_vp():
    """Adding: a pair of whites is "a set of 2 cards of the same color" for the row VP."""
    market = ["white-1", "white-3", "red-2", "blue-3"]
    state = position(market=market, pile=["green-1"], reserve_size=0)
    play(state, "add")
    assert state.scores() == [1, 0]


# -- the Hero ----------------------------------------------------------------


def test_hero_draws_two_keeps_one():
    """Hero: "when you ADD ONE CARD TO THE MARKET, you can draw 2 cards (instead of 1) and
    choose which one to add to the Market (discard the second card). Then, flip your Hero"."""
    state = position(
        market=REVOLT_MARKET, pile=["green-1", "purple-3"], reserve_size=0, hero_up=(0,)
    )
    assert legal_texts(state) == ["purchase", "add", "add hero"]
    play(state, "add hero")
    assert state.phase == "hero_keep"
    assert state.observation(0).decision.drawn == ("purple-3", "green-1")
    assert legal_texts(state) == ["keep purple-3", "keep green-1"]
    # The opponent does not see the two drawn cards.
    assert state.observation(1).decision.drawn == ()
    assert state.observation(1).decision.drawn_hidden == 2
    play(state, "keep green-1")
    view = state.observation(1)
    assert view.market == ("yellow-4", "yellow-5", "red-2", "blue-3", "green-1")
    assert "purple-3" in view.discard
    assert not view.players[0].hero_up
    # Row 3 with a pair of yellows: the kept card earns the row VP.
    assert state.scores() == [1, 0]
    assert state.current_player == 1


def test_hero_face_down_cannot_be_used():
    """Hero: only a face-up Hero draws 2."""
    state = position(market=REVOLT_MARKET)
    assert legal_texts(state) == ["purchase", "add"]


def test_hero_usable_after_purchase():
    """Hero: "Even if you have already purchased cards from the Market during the current Season,
    you can still use your People's Hero or Heroine"."""
    state = position(
        market=REVOLT_MARKET,
        pile=["green-1", "purple-3"],
        reserve_size=0,
        hero_up=(0,),
        purchased=(0,),
    )
    assert legal_texts(state) == ["add", "add hero"]
    play(state, "add hero", "keep purple-3")
    assert "purple-3" in state.observation(0).market
    assert state.scores() == [0, 0]


def test_hero_kept_card_can_revolt_and_hero_comes_back():
    """Hero: "If you trigger a Revolt, resolve it. You then put your Hero or Heroine card face
    up again"."""
    state = position(
        market=REVOLT_MARKET, pile=["yellow-1", "purple-3"], reserve_size=0, hero_up=(0,)
    )
    play(state, "add hero", "keep yellow-1")
    view = state.observation(0)
    assert view.players[0].hero_up
    assert view.market == ("yellow-1", "red-2", "blue-3")
    assert state.phase == "purchase"
    assert state.scores() == [0, 1]


def test_hero_not_offered_when_no_card_can_be_drawn():
    """RULES-NOTES (round 2): "The Hero can't be used to add when no card can be drawn (nothing
    would be kept)": it stays face up."""
    reserve = ["green-1", "green-2", "green-3", "green-4"]
    state = position(
        market=REVOLT_MARKET,
        hands={1: everything_else(REVOLT_MARKET, reserve)},
        pile=[],
        reserve_size=4,
        hero_up=(0,),
    )
    assert legal_texts(state) == ["purchase", "add"]
    play(state, "add")
    assert state.observation(0).players[0].hero_up


@pytest.mark.parametrize(
    ("pile", "discard"), [(["green-1"], []), ([], ["green-1"])], ids=["pile", "reshuffle"]
)
def test_hero_offered_when_one_card_can_be_drawn(pile, discard):
    """With one card to draw (from the pile, or from the discard pile once the Reserve is
    dealt again), the Hero adds it and turns face down."""
    reserve = ["green-2", "green-3", "green-4", "green-5"]
    state = position(
        market=REVOLT_MARKET,
        hands={1: everything_else(REVOLT_MARKET, reserve, pile, discard)},
        pile=pile,
        discard=discard,
        reserve_size=4,
        hero_up=(0,),
    )
    assert legal_texts(state) == ["purchase", "add", "add hero"]
    play(state, "add hero")
    view = state.observation(0)
    assert len(view.market) == 5 and not view.players[0].hero_up


# -- the draw pile -----------------------------------------------------------


def test_reshuffle_when_pile_is_empty():
    """Adding: "When the draw pile is empty, shuffle the discarded cards and the 4 cards from the
    Reserve and make a new draw pile and Reserve"."""
    market = ["red-1", "blue-2", "green-3"]
    state = position(market=market, pile=[], reserve_size=4)
    before = state.observation(0)
    assert before.pile_size == 0
    assert len(before.discard) == 78
    play(state, "add")
    after = state.observation(0)
    assert after.discard == ()
    assert after.reserve_size == 4
    # 78 discarded + 4 Reserve = 82; a new Reserve of 4; one card drawn.
    assert after.pile_size == 77
    assert len(after.market) == 4
    assert state.card_locations() == {"pile": 77, "reserve": 4, "market": 4}


def test_jester_reshuffles_with_its_own_card():
    """Draw pile: the Jester is discarded before it draws, so with an empty pile and an empty
    discard pile it is shuffled with the Reserve into a new pile (5 cards: 4 Reserve + 1 draw)."""
    market = REVOLT_MARKET
    hidden = ["green-1", "green-2", "green-3", "green-4"]
    state = position(
        market=market,
        hands={0: ["pink-2"], 1: everything_else(market, hidden, ["pink-2"])},
        pile=[],
        reserve_size=4,
    )
    assert state.observation(0).discard == ()
    play(state, "play hand pink-2")
    view = state.observation(0)
    assert view.players[0].hand_size == 1
    assert view.pile_size == 0
    assert view.reserve_size == 4
    assert view.discard == ()


def test_draw_with_no_card_anywhere_after_purchase():
    """Draw pile: "If a draw is needed and neither the draw pile nor the discard pile and
    Reserve can supply a card, the draw does nothing": the turn just ends."""
    reserve = ["green-1", "green-2", "green-3", "green-4"]
    state = position(
        market=REVOLT_MARKET,
        hands={1: everything_else(REVOLT_MARKET, reserve)},
        pile=[],
        reserve_size=4,
        purchased=(0,),
    )
    play(state, "add")
    view = state.observation(0)
    assert view.market == tuple(REVOLT_MARKET)
    assert view.pile_size == 0
    assert view.reserve_size == 4
    assert view.discard == ()
    assert state.phase == "turn"
    assert state.current_player == 1


def test_draw_with_no_card_anywhere_before_purchase():
    """Draw pile: "If a draw is needed and neither the draw pile nor the discard pile and
    Reserve can supply a card, the draw does nothing": the player chose to add, not to buy."""
    reserve = ["green-1", "green-2", "green-3", "green-4"]
    state = position(
        market=REVOLT_MARKET,
        hands={1: everything_else(REVOLT_MARKET, reserve)},
        pile=[],
        reserve_size=4,
    )
    play(state, "add")
    assert state.phase == "turn"
    assert state.current_player == 1
    assert not state.observation(0).players[0].purchased


def test_draw_when_reshuffle_leaves_only_a_reserve():
    """Draw pile: the discard pile and Reserve become a new pile and "a new Reserve of 4 is dealt
    from it"; when that could leave no card, "the draw does nothing": no reshuffle either (a
    Reserve of 0 and 2 discards, plus the Jester itself: 3 cards stay in the discard pile)."""
    market = REVOLT_MARKET
    discard = ["green-1", "green-2"]
    state = position(
        market=market,
        hands={0: ["pink-2"], 1: everything_else(market, discard, ["pink-2"])},
        discard=discard,
        pile=[],
        reserve_size=0,
    )
    play(state, "play hand pink-2")
    view = state.observation(0)
    assert view.players[0].hand_size == 0
    assert view.reserve_size == 0
    assert view.pile_size == 0
    assert view.discard == ("pink-2", "green-1", "green-2")


# -- Season refill -----------------------------------------------------------


def test_season_refill_four_different_colours():
    """Season end: "add cards until the 2nd row is complete. All cards must be of different
    colors (if you draw a card of a color already present, discard it and draw another)"; the
    Market keeps its cards."""
    state = position(
        phase="construct",
        player=0,
        market=["red-1"],
        pile=["red-3", "blue-1", "green-2", "white-4"],
        reserve_size=0,
    )
    play(state, "stop", "stop")
    view = state.observation(0)
    assert view.season == 2
    assert view.market[0] == "red-1"
    assert len(view.market) == 4
    colours = [card.split("-")[0] for card in view.market]
    assert sorted(colours) == ["blue", "green", "red", "white"]
    # red-3 was drawn and discarded, or is still in the pile (the other red-3 was discarded
    # from the start).
    assert view.pile_size + view.discard.count("red-3") == 2
