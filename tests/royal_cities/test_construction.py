"""Construction rules: the Season construction (Phase 2 A) and the setup's first build.

Rules: royal-cities.en.md "Construction rules" / "Wild Cards", RULES-NOTES.md "Construction".
Engine choice tested as such: a selection is a sequence of `build K C` steps in increasing
(kind * 6 + City) order, whites after every coloured card, then `stop`.
"""

from __future__ import annotations

from itertools import product

import pytest

from engine.royal_cities import RulesConfig
from engine.royal_cities.cards import CITY_COLOURS
from tests.royal_cities.positions import legal_texts, play, position


def construct(hand: list[str], own: dict[str, list[str]] | None = None, **kw):
    """Season construction, player 0 to choose first; player 1 holds `theirs` (default none)."""
    return position(
        phase="construct",
        player=0,
        hands={0: hand, 1: kw.pop("theirs", [])},
        cities={0: own or {}},
        **kw,
    )


def cities_of(state, player: int = 0) -> dict[str, tuple[str, ...]]:
    rows = state.observation(player).players[player].cities
    return {c: row for c, row in zip(CITY_COLOURS, rows, strict=True) if row}


# -- the rules one by one ----------------------------------------------------


def test_coloured_card_goes_to_its_colour_city():
    """Construction: "Each card must be built in your City of the same color"."""
    state = construct(["red-3", "blue-2", "green-5"])
    assert legal_texts(state) == [
        "stop",
        "build red-3 red",
        "build blue-2 blue",
        "build green-5 green",
    ]


def test_unique_values_in_a_city():
    """Construction: "Each City can have only one card of each Influence value (even if it's a
    Wild card)": red-4 and white-4 cannot both go to red; two red-5 copies give one build."""
    state = construct(["red-4", "red-5", "red-5", "white-4"])
    assert legal_texts(state) == ["stop", "build red-4 red", "build red-5 red"]
    play(state, "build red-4 red")
    assert legal_texts(state) == ["stop", "build red-5 red"]
    play(state, "build red-5 red")
    # The second red-5 has no place, white-4 would repeat the 4: only `stop`.
    assert legal_texts(state) == ["stop"]


def test_strictly_higher_than_the_top():
    """Construction: "each new card must be higher than the card on top": above red-3, red-1
    and the other red-3 cannot be built, red-4 can."""
    state = construct(["red-1", "red-3", "red-4"], {"red": ["red-3"]})
    assert legal_texts(state) == ["stop", "build red-4 red"]


def test_white_alone_cannot_be_built():
    """Wild cards: "A Wild card can never be built alone", even where the City already holds a
    card of its colour."""
    state = construct(["white-5"], {"red": ["red-1"], "blue": ["blue-2"]})
    assert legal_texts(state) == ["stop"]


def test_white_needs_partner_in_the_same_city_and_step():
    """Wild cards: a white card "must be built with another card of the chosen City's color"
    (RULES-NOTES: built into the same City in the same step)."""
    state = construct(["red-3", "blue-4", "white-5"], {"red": ["red-1"]})
    assert legal_texts(state) == ["stop", "build red-3 red", "build blue-4 blue"]
    play(state, "build red-3 red")
    assert legal_texts(state) == ["stop", "build blue-4 blue", "build white-5 red"]
    play(state, "build blue-4 blue")
    assert legal_texts(state) == ["stop", "build white-5 red", "build white-5 blue"]


def test_white_with_existing_partner_option():
    """Rules option white_with_existing_partner: "a coloured card already in that City is
    enough", so white-5 may go alone on red-1 (not on the empty blue City)."""
    state = construct(
        ["white-5"],
        {"red": ["red-1"]},
        rules=RulesConfig(white_with_existing_partner=True),
    )
    assert legal_texts(state) == ["stop", "build white-5 red"]
    play(state, "build white-5 red", "stop", "stop")
    assert cities_of(state) == {"red": ("red-1", "white-5")}


@pytest.mark.parametrize(
    ("hand", "moves", "city"),
    [
        (["white-2", "red-5"], ["build red-5 red", "build white-2 red"], ("white-2", "red-5")),
        (["white-5", "red-2"], ["build red-2 red", "build white-5 red"], ("red-2", "white-5")),
    ],
    ids=["partner-higher", "partner-lower"],
)
def test_white_with_partner_lower_or_higher(hand, moves, city):
    """Wild cards: "the colored card can have an Influence value lower or higher than the Wild
    card"; the City's cards go on in ascending order."""
    state = construct(hand)
    play(state, *moves, "stop", "stop")
    assert cities_of(state) == {"red": city}
    assert state.observation(0).players[0].hand_size == 0


def test_several_cards_in_one_city_go_on_ascending():
    """Construction: "You cannot reorganize the cards in your Cities, only add them in ascending
    order": red-2, red-4, red-6 built in one step stand 2, 4, 6 above the red-1."""
    state = construct(["red-6", "red-2", "red-4"], {"red": ["red-1"]})
    play(state, "build red-2 red", "build red-4 red")
    # Canonical order: after red-4, the lower red-2 is not offered again.
    assert legal_texts(state) == ["stop", "build red-6 red"]
    play(state, "build red-6 red", "stop", "stop")
    assert cities_of(state) == {"red": ("red-1", "red-2", "red-4", "red-6")}


def test_unbuilt_cards_stay_in_hand():
    """Construction: "Keep your unbuilt cards in hand for the next Season"."""
    state = construct(["red-3", "blue-2", "white-1"], theirs=["green-6"])
    play(state, "build blue-2 blue", "stop", "stop")
    assert cities_of(state) == {"blue": ("blue-2",)}
    mine = state.observation(0).players[0]
    assert mine.hand_size == 2
    assert mine.hand == ("red-3", "white-1")


# -- secrecy -----------------------------------------------------------------


def test_season_construction_is_secret_until_everyone_has_chosen():
    """Construction: "Secretly select the cards from your hand that you wish to build and reveal
    them simultaneously": the opponent's observation shows no selection and nothing built."""
    state = construct(["red-3", "blue-2"], theirs=["green-4"])
    play(state, "build red-3 red")
    assert state.observation(0).decision.selection == (("red-3", "red"),)
    assert state.observation(1).decision.selection == ()
    play(state, "stop")
    assert state.current_player == 1
    theirs = state.observation(1)
    assert theirs.decision.selection == ()
    assert theirs.players[0].committed
    assert theirs.players[0].cities == ((), (), (), (), (), ())
    assert theirs.players[0].hand_size == 2
    # Player 1 chooses with the same options as without player 0's choice.
    assert legal_texts(state) == ["stop", "build green-4 green"]
    play(state, "build green-4 green")
    # Each sees only its own selection.
    assert state.observation(0).decision.selection == (("red-3", "red"),)
    assert state.observation(1).decision.selection == (("green-4", "green"),)
    play(state, "stop")
    # Revealed together.
    assert cities_of(state, 0) == {"red": ("red-3",)}
    assert cities_of(state, 1) == {"green": ("green-4",)}


# -- the first build ---------------------------------------------------------


def test_first_build_must_be_non_white():
    """Setup: "choose 1 card from your hand to build ... This card must not be white"."""
    state = position(
        phase="first_build",
        player=0,
        hands={0: ["white-0", "red-3", "blue-1"], 1: ["white-1", "white-2", "white-3"]},
    )
    assert legal_texts(state) == ["build red-3 red", "build blue-1 blue"]
    play(state, "build blue-1 blue")
    # Secret until both have chosen; player 1 holds only whites and builds nothing.
    assert state.observation(1).players[0].cities == ((), (), (), (), (), ())
    assert state.observation(1).decision.first_build is None
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    assert cities_of(state, 0) == {"blue": ("blue-1",)}
    assert cities_of(state, 1) == {}
    assert state.phase == "turn"
    assert state.current_player == 0


@pytest.mark.parametrize(
    ("first", "second", "starter"),
    [
        ("blue-2", "red-3", 0),
        ("blue-2", "red-2", 1),
        ("red-2", "blue-2", 0),
    ],
)
def test_first_build_lowest_value_starts(first, second, starter):
    """Setup: "The Noble who builds the card with the lowest Influence starts the game. In case
    of a tie, priority goes to the card tied that is built furthest to the left"."""
    state = position(phase="first_build", player=0, hands={0: [first], 1: [second]})
    colour = {0: first.split("-")[0], 1: second.split("-")[0]}
    play(state, f"build {first} {colour[0]}", f"build {second} {colour[1]}")
    assert state.phase == "turn"
    assert state.current_player == starter
    assert state.observation(0).starter == starter


# -- perft-like counts -------------------------------------------------------


def engine_selections(state) -> list[frozenset[str]]:
    """Every complete selection player 0 can make, one per `stop` leaf."""
    out: list[frozenset[str]] = []

    def walk(node, path):
        for action in node.legal_actions():
            text = node.action_to_string(action)
            if text == "stop":
                out.append(frozenset(path))
                continue
            child = node.clone()
            child.apply_action(action)
            walk(child, (*path, text))

    walk(state, ())
    return out


def oracle_selections(hand, own, existing_partner=False) -> set[frozenset[str]]:
    """The construction rules written out independently: every legal set of builds."""
    tops = {c: -1 for c in CITY_COLOURS}
    coloured_in = {c: False for c in CITY_COLOURS}
    for colour, row in own.items():
        tops[colour] = int(row[-1].split("-")[1])
        coloured_in[colour] = any(not card.startswith("white") for card in row)
    options = []
    for card in hand:
        colour = card.split("-")[0]
        options.append([None, *(CITY_COLOURS if colour == "white" else [colour])])
    found = set()
    for choice in product(*options):
        builds = [(card, c) for card, c in zip(hand, choice, strict=True) if c is not None]
        ok = True
        for c in CITY_COLOURS:
            values = [int(card.split("-")[1]) for card, city in builds if city == c]
            whites = [card for card, city in builds if city == c and card.startswith("white")]
            partner = any(city == c and not card.startswith("white") for card, city in builds)
            if len(set(values)) != len(values) or any(v <= tops[c] for v in values):
                ok = False
            if whites and not (partner or (existing_partner and coloured_in[c])):
                ok = False
        if ok:
            found.add(frozenset(f"build {card} {c}" for card, c in builds))
    return found


PERFT = [
    # hand, own Cities, rules option, root moves, complete selections
    (["red-2", "red-5", "white-3"], {}, False, 3, 7),
    (["red-2", "red-5", "white-3"], {"red": ["red-4"]}, False, 2, 2),
    (["red-2", "red-5", "white-3"], {"red": ["red-1"]}, True, 4, 8),
    (["red-2", "red-5", "white-3", "blue-1"], {}, False, 4, 18),
    (["red-3", "red-3"], {}, False, 2, 2),
    (
        ["purple-1", "purple-5", "yellow-3", "green-2", "white-0", "white-6"],
        {"purple": ["purple-2"], "green": ["green-2"]},
        False,
        3,
        13,
    ),
    (
        ["yellow-1", "yellow-4", "pink-2", "pink-6", "white-3", "white-5"],
        {"yellow": ["yellow-0"], "pink": ["white-1"]},
        False,
        5,
        106,
    ),
]


@pytest.mark.parametrize(("hand", "own", "existing", "root", "leaves"), PERFT)
def test_construction_perft(hand, own, existing, root, leaves):
    """Construction rules as a whole: the number of legal first steps and of complete
    selections (each reached by exactly one sequence) in fixed positions, checked against an
    independent enumeration of the rules."""
    state = construct(hand, own, rules=RulesConfig(white_with_existing_partner=existing))
    assert len(state.legal_actions()) == root
    selections = engine_selections(state)
    assert len(selections) == leaves
    assert len(set(selections)) == leaves
    assert set(selections) == oracle_selections(hand, own, existing)
