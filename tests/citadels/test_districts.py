"""Each of the fourteen unique districts (the Keep twice), as RULES-NOTES reads them."""

from __future__ import annotations

import engine
from engine.citadels.cards import COLOURS, DISTRICTS
from tests.citadels.positions import legal_texts, play, position

FOUR_COLOURS = ["manor", "temple", "tavern", "watchtower"]


def test_haunted_quarter_counts_as_the_missing_colour_unless_built_last_round():
    three = ["manor", "temple", "tavern", "keep"]  # red is missing
    base = 3 + 1 + 1 + 3 + 2
    early = position(called="warlord", cities={0: [*three, "haunted-quarter"]})
    late = position(
        called="warlord",
        cities={0: [*three, "haunted-quarter"]},
        built_this_round=("haunted-quarter",),
    )
    assert early.scores()[0] == base + 3
    assert late.scores()[0] == base
    # As a unique district of its own it always counts as purple.
    alone = position(called="warlord", cities={0: [*FOUR_COLOURS, "haunted-quarter"]},
                     built_this_round=("haunted-quarter",))  # fmt: skip
    assert alone.scores()[0] == 3 + 1 + 1 + 1 + 2 + 3


def test_keep_cannot_be_destroyed():
    state = position(called="warlord", gold=[9, 2, 2, 2], cities={1: ["keep", "manor"]},
                     revealed={"bishop": 3})  # fmt: skip
    assert "destroy p1 manor" in legal_texts(state)
    assert "destroy p1 keep" not in legal_texts(state)


def test_observatory_draws_three_and_keeps_one():
    state = position(called="warlord", cities={0: ["observatory"]}, phase="resource",
                     deck_top=["manor", "palace", "temple"], hands={0: []})  # fmt: skip
    play(state, "cards")
    assert state.observation(0).decision.drawn == ("manor", "palace", "temple")
    assert legal_texts(state) == ["keep manor", "keep palace", "keep temple"]
    play(state, "keep palace")
    view = state.observation(0)
    assert view.players[0].hand == ("palace",)
    assert [c for _, c in view.deck_known] == ["temple", "manor"]  # under the deck


def test_the_cards_not_kept_go_under_the_deck_by_kind_whatever_their_draw():
    """The drawer's view lists the drawn cards sorted, so their order under the deck must not
    depend on the draw's: a view entered from it would know another deck (RULES-NOTES leave
    the order to the drawer)."""
    under = []
    for drawn in (["manor", "palace", "temple"], ["temple", "palace", "manor"]):
        state = position(called="warlord", cities={0: ["observatory"]}, phase="resource",
                         deck_top=drawn, hands={0: []})  # fmt: skip
        play(state, "cards")
        play(state, "keep palace")
        under.append(state.observation(0).deck_known)
    assert under[0] == under[1]


def test_library_keeps_both_cards_drawn():
    state = position(called="warlord", cities={0: ["library"]}, phase="resource",
                     deck_top=["manor", "palace"], hands={0: []})  # fmt: skip
    play(state, "cards")
    assert state.phase == "main"
    assert state.observation(0).players[0].hand == ("manor", "palace")


def test_library_and_observatory_draw_three_keep_two():
    state = position(called="warlord", cities={0: ["library", "observatory"]}, phase="resource",
                     deck_top=["manor", "palace", "temple"], hands={0: []})  # fmt: skip
    play(state, "cards")
    assert legal_texts(state) == ["return manor", "return palace", "return temple"]
    play(state, "return manor")
    assert state.observation(0).players[0].hand == ("palace", "temple")


def test_kept_cards_are_a_secret_choice():
    state = position(called="warlord", cities={0: ["observatory"]}, phase="resource",
                     deck_top=["manor", "palace", "temple"])  # fmt: skip
    play(state, "cards")
    assert state.observation(1).decision.drawn == ()
    assert state.observation(1).decision.drawn_hidden == 3
    keep = state.string_to_action("keep palace")
    assert state.observed_action(keep, 1) == -1


def test_laboratory_discards_a_card_for_two_gold_once_per_turn():
    state = position(called="warlord", gold=[0, 2, 2, 2], cities={0: ["laboratory"]},
                     hands={0: ["manor", "temple"]})  # fmt: skip
    play(state, "laboratory temple")
    view = state.observation(0)
    assert view.players[0].gold == 2
    assert view.players[0].hand == ("manor",)
    assert view.deck_known[0] == (0, "temple")
    assert state.observation(1).deck_known == ()
    assert not any(t.startswith("laboratory") for t in legal_texts(state))


def test_smithy_pays_two_for_three_cards_once_per_turn():
    state = position(called="warlord", gold=[4, 2, 2, 2], cities={0: ["smithy"]},
                     hands={0: []}, deck_top=["manor", "temple", "docks"])  # fmt: skip
    play(state, "smithy")
    view = state.observation(0)
    assert view.players[0].gold == 2
    assert view.players[0].hand == ("manor", "temple", "docks")
    assert "smithy" not in legal_texts(state)
    poor = position(called="warlord", gold=[1, 2, 2, 2], cities={0: ["smithy"]})
    assert "smithy" not in legal_texts(poor)


def test_graveyard_owner_may_buy_back_the_destroyed_district():
    state = position(called="warlord", gold=[9, 3, 2, 2], revealed={"bishop": 3},
                     cities={1: ["graveyard", "manor"], 2: ["castle"]})  # fmt: skip
    play(state, "destroy p2 castle")
    assert state.current_player == 1 and state.phase == "graveyard"
    assert legal_texts(state) == ["graveyard take", "graveyard decline"]
    play(state, "graveyard take")
    view = state.observation(0)
    assert view.players[1].gold == 2
    assert view.players[1].hand == ("castle",)  # everyone saw it go there
    assert state.current_player == 0 and state.phase == "main"


def test_graveyard_declined_goes_under_the_deck():
    state = position(called="warlord", gold=[9, 3, 2, 2], revealed={"bishop": 3},
                     cities={1: ["graveyard"], 2: ["castle"]})  # fmt: skip
    play(state, "destroy p2 castle", "graveyard decline")
    assert state.observation(2).deck_known[0] == (0, "castle")


def test_graveyard_not_offered_to_the_warlord_nor_without_gold():
    own = position(called="warlord", gold=[9, 3, 2, 2], revealed={"bishop": 3},
                   cities={0: ["graveyard"], 2: ["castle"]})  # fmt: skip
    play(own, "destroy p2 castle")
    assert own.phase == "main"
    broke = position(called="warlord", gold=[9, 0, 2, 2], revealed={"bishop": 3},
                     cities={1: ["graveyard"], 2: ["castle"]})  # fmt: skip
    play(broke, "destroy p2 castle")
    assert broke.phase == "main"


def test_imperial_treasury_and_map_room_score_gold_and_cards_in_hand():
    state = position(called="warlord", gold=[7, 2, 2, 2], hands={0: ["manor", "temple"]},
                     cities={0: ["imperial-treasury", "map-room"]})  # fmt: skip
    assert state.scores()[0] == 5 + 5 + 7 + 2


def test_great_wall_adds_one_to_the_warlords_price_but_not_for_itself():
    state = position(called="warlord", gold=[5, 2, 2, 2], revealed={"bishop": 3},
                     cities={1: ["great-wall", "watchtower", "castle"]})  # fmt: skip
    destroys = [t for t in legal_texts(state) if t.startswith("destroy")]
    # Watchtower 1 + 1 = 1 gold; Castle 4 - 1 + 1 = 4; Great Wall 6 - 1 = 5.
    assert destroys == ["destroy p1 castle", "destroy p1 watchtower", "destroy p1 great-wall"]
    play(state, "destroy p1 watchtower")
    assert state.observation(0).players[0].gold == 4


def test_school_of_magic_counts_for_any_income_character():
    for called, colour in (("bishop", "temple"), ("merchant", "tavern"), ("warlord", "prison")):
        state = position(called=called, cities={0: ["school-of-magic", colour]},
                         phase="resource")  # fmt: skip
        play(state, "gold", "income")
        bonus = 1 if called == "merchant" else 0
        assert state.observation(0).players[0].gold == 2 + 2 + bonus + 2, called


def test_university_and_dragon_gate_are_worth_eight_and_cost_five_to_destroy():
    state = position(called="warlord", gold=[5, 2, 2, 2], revealed={"bishop": 3},
                     cities={0: ["university"], 1: ["dragon-gate"]})  # fmt: skip
    assert state.scores()[:2] == [8, 8]
    assert "destroy p1 dragon-gate" in legal_texts(state)
    poorer = position(called="warlord", gold=[4, 2, 2, 2], revealed={"bishop": 3},
                      cities={1: ["university"]})  # fmt: skip
    assert "destroy p1 university" not in legal_texts(poorer)


def test_no_two_districts_of_the_same_name():
    state = position(called="warlord", gold=[9, 2, 2, 2], cities={0: ["keep"]},
                     hands={0: ["keep", "manor"]}, phase="resource")  # fmt: skip
    play(state, "gold")
    builds = [t for t in legal_texts(state) if t.startswith("build")]
    assert builds == ["build manor"]


def test_the_deck_holds_the_68_districts_of_rules_notes():
    counts = {}
    state = engine.new_game("citadels", 2, seed=0)
    for p in range(2):
        for name in state.observation(p).players[p].hand:
            counts[name] = counts.get(name, 0) + 1
    assert sum(copies for *_, copies in DISTRICTS) == 68
    table = {name: (COLOURS[colour], cost, copies) for name, colour, cost, copies in DISTRICTS}
    assert table["manor"] == ("noble", 3, 5) and table["palace"] == ("noble", 5, 3)
    assert table["cathedral"] == ("religious", 5, 2) and table["town-hall"] == ("trade", 5, 2)
    assert table["fortress"] == ("military", 5, 2) and table["keep"] == ("unique", 3, 2)
    assert table["imperial-treasury"][1] == 5 and table["smithy"][1] == 5
    assert sum(c for _, colour, _, c in DISTRICTS if colour == 4) == 14
    assert all(counts[name] <= table[name][2] for name in counts)


def test_building_pays_the_printed_cost():
    state = position(called="warlord", gold=[7, 2, 2, 2], hands={0: ["imperial-treasury"]})
    play(state, "build imperial-treasury")
    assert state.observation(0).players[0].gold == 2
