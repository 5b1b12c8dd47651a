"""Royal Cities setup: the deal, the secret passing, the first build, the start player, solo."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

import engine
from engine.royal_cities import RoyalCitiesState, RulesConfig, state_from_observation
from tests.royal_cities.positions import legal_texts, play, position, seed_for_draws

COLOUR_ORDER = ("purple", "yellow", "pink", "red", "blue", "green")


def new_game(num_players: int, seed: int) -> RoyalCitiesState:
    return engine.new_game("royal_cities", num_players=num_players, seed=seed, rules=RulesConfig())


def hand(state: RoyalCitiesState, p: int) -> tuple[str, ...]:
    """Player p's hand as p sees it."""
    return state.observation(p).players[p].hand


def colour(card: str) -> str:
    return card.split("-")[0]


def with_ages(state: RoyalCitiesState, ages: list[int]) -> RoyalCitiesState:
    """The same position seen by player 0, with other age ranks (0 = youngest)."""
    obs = state.observation(0)
    players = tuple(replace(view, age_rank=a) for view, a in zip(obs.players, ages, strict=True))
    return state_from_observation(replace(obs, players=players))


# --------------------------------------------------------------------------
# The deal
# --------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_deal_counts(num_players: int, seed: int) -> None:
    """Setup: 3 cards each, a Reserve of 4, a Market of 4 face-up cards of 4 colours."""
    state = new_game(num_players, seed)
    obs = state.observation(0)
    assert state.phase == "pass"
    assert state.season == 1
    assert [view.hand_size for view in obs.players] == [3] * num_players
    assert all(len(hand(state, p)) == 3 for p in range(num_players))
    assert obs.reserve_size == 4
    assert len(obs.market) == 4
    assert len({colour(c) for c in obs.market}) == 4
    assert obs.pile_size == 85 - 4 - 4 - len(obs.discard) - 3 * num_players
    assert [view.vp for view in obs.players] == [0] * num_players
    assert not any(view.hero_up or view.purchased for view in obs.players)
    assert all(view.cities == ((),) * 6 for view in obs.players)
    assert obs.num_seasons == (3 if num_players == 4 else 4)
    assert sorted(view.age_rank for view in obs.players) == list(range(num_players))


@pytest.mark.parametrize("seed", range(40))
def test_deal_duplicate_colours_discarded_face_up(seed: int) -> None:
    """Setup Market: a drawn card whose colour is already face up is discarded, face up."""
    state = new_game(3, seed)
    obs = state.observation(0)
    market_colours = {colour(c) for c in obs.market}
    # Every discarded card was a repeat of a colour already in the Market.
    assert {colour(c) for c in obs.discard} <= market_colours
    # The discard pile is public: every player sees the same cards there.
    assert all(state.observation(p).discard == obs.discard for p in range(3))


def test_deal_duplicates_example() -> None:
    """Setup Market, seed 28: seven repeats of Market colours went to the discard pile."""
    state = new_game(3, 28)
    obs = state.observation(1)
    assert obs.market == ("pink-2", "red-0", "blue-0", "green-2")
    assert obs.discard == (
        "red-2",
        "red-2",
        "red-5",
        "blue-1",
        "blue-2",
        "blue-4",
        "green-5",
    )
    assert obs.pile_size == 85 - 4 - 4 - 7 - 9 == 61
    assert state.card_locations() == {
        "pile": 61,
        "reserve": 4,
        "market": 4,
        "discard": 7,
        "hand": 9,
    }


# --------------------------------------------------------------------------
# Passing
# --------------------------------------------------------------------------

# Seed 1, 3 players: every dealt card is a different kind.
HANDS_3P = (
    ("green-2", "green-3", "green-4"),
    ("red-5", "blue-6", "green-6"),
    ("purple-2", "pink-4", "white-2"),
)


def test_pass_3p_legal_actions() -> None:
    """Setup passing: any hand card goes to the left, then any remaining card to the right."""
    state = new_game(3, 1)
    assert [hand(state, p) for p in range(3)] == list(HANDS_3P)
    assert state.current_player == 0
    assert legal_texts(state) == ["pass green-2", "pass green-3", "pass green-4"]
    play(state, "pass green-3")
    assert state.current_player == 0
    assert legal_texts(state) == ["pass green-2", "pass green-4"]
    assert state.observation(0).decision.passes == ("green-3",)
    play(state, "pass green-4")
    assert state.current_player == 1
    assert legal_texts(state) == ["pass red-5", "pass blue-6", "pass green-6"]


def test_pass_3p_left_then_right() -> None:
    """3 players: the first card goes to the left (p+1), the second to the right (p-1)."""
    state = new_game(3, 1)
    play(state, "pass green-2", "pass green-3")  # p0: green-2 -> p1, green-3 -> p2
    play(state, "pass red-5", "pass blue-6")  # p1: red-5 -> p2, blue-6 -> p0
    play(state, "pass purple-2", "pass pink-4")  # p2: purple-2 -> p0, pink-4 -> p1
    assert state.phase == "first_build"
    assert state.current_player == 0
    assert hand(state, 0) == ("purple-2", "blue-6", "green-4")
    assert hand(state, 1) == ("pink-4", "green-2", "green-6")
    assert hand(state, 2) == ("red-5", "green-3", "white-2")
    assert [v.hand_size for v in state.observation(0).players] == [3, 3, 3]


def test_pass_4p_left_then_right() -> None:
    """4 players: each player gives one card to p+1 and one to p-1, keeping the third."""
    state = new_game(4, 9)
    assert [hand(state, p) for p in range(4)] == [
        ("yellow-0", "blue-3", "green-6"),
        ("purple-2", "green-2", "green-4"),
        ("pink-2", "blue-6", "green-5"),
        ("purple-6", "pink-4", "red-5"),
    ]
    play(state, "pass yellow-0", "pass blue-3")  # -> p1, -> p3
    play(state, "pass purple-2", "pass green-2")  # -> p2, -> p0
    play(state, "pass pink-2", "pass blue-6")  # -> p3, -> p1
    assert state.phase == "pass"
    play(state, "pass purple-6", "pass pink-4")  # -> p0, -> p2
    assert state.phase == "first_build"
    assert Counter(hand(state, 0)) == Counter(["green-6", "green-2", "purple-6"])
    assert Counter(hand(state, 1)) == Counter(["green-4", "yellow-0", "blue-6"])
    assert Counter(hand(state, 2)) == Counter(["green-5", "purple-2", "pink-4"])
    assert Counter(hand(state, 3)) == Counter(["red-5", "blue-3", "pink-2"])
    # Each giver knows the card it gave to each neighbour, nothing of the player opposite.
    obs = state.observation(0)
    assert [v.hand for v in obs.players[1:]] == [("yellow-0",), (), ("blue-3",)]
    assert [v.seen_of_mine for v in obs.players[1:]] == [("green-2",), (), ("purple-6",)]


def test_pass_2p_unordered_pair_low_kind_first() -> None:
    """2 players: two cards to the opponent, an unordered pair chosen low kind first."""
    state = new_game(2, 3)
    assert hand(state, 0) == ("yellow-1", "red-6", "green-3")
    # The highest card cannot open the pair: it would leave nothing above it.
    assert legal_texts(state) == ["pass yellow-1", "pass red-6"]
    play(state, "pass red-6")
    assert legal_texts(state) == ["pass green-3"]
    play(state, "pass green-3")
    assert state.current_player == 1
    assert hand(state, 1) == ("red-4", "red-5", "blue-2")
    play(state, "pass red-4", "pass blue-2")
    assert state.phase == "first_build"
    assert hand(state, 0) == ("yellow-1", "red-4", "blue-2")
    assert hand(state, 1) == ("red-5", "red-6", "green-3")


def test_pass_2p_two_copies_of_a_kind() -> None:
    """2 players: both copies of a kind may be passed together."""
    state = new_game(2, 6)
    assert hand(state, 0) == ("yellow-4", "yellow-4", "green-4")
    assert legal_texts(state) == ["pass yellow-4"]
    play(state, "pass yellow-4")
    assert legal_texts(state) == ["pass yellow-4", "pass green-4"]
    play(state, "pass yellow-4")
    play(state, "pass red-6", "pass green-3")
    assert hand(state, 0) == ("red-6", "green-3", "green-4")
    assert hand(state, 1) == ("yellow-4", "yellow-4", "blue-3")


def test_pass_secret_until_revealed() -> None:
    """Passing is secret: the others' observations show nothing of a pending pass."""
    state = new_game(3, 1)
    before = [state.observation(q) for q in (1, 2)]
    play(state, "pass green-2")
    assert [state.observation(q) for q in (1, 2)] == before
    play(state, "pass green-3")
    for q, obs in zip((1, 2), before, strict=True):
        now = state.observation(q)
        assert now.players[0].committed
        assert now.players[0].hand == ()
        assert now.players[q].hand == HANDS_3P[q]
        assert now.decision.passes == ()
        # Only "player 0 has chosen" and "player 1 to choose" changed.
        players = (replace(obs.players[0], committed=True), *obs.players[1:])
        assert now == replace(obs, players=players, decision=replace(obs.decision, player=1))
    # The giver still holds the cards it chose, and sees its own choice.
    own = state.observation(0)
    assert own.players[0].hand == HANDS_3P[0]
    assert own.decision.passes == ("green-2", "green-3")
    play(state, "pass red-5")
    assert state.observation(1).decision.passes == ("red-5",)
    assert state.observation(0).decision.passes == ("green-2", "green-3")
    assert state.observation(2).decision.passes == ()
    play(state, "pass blue-6", "pass purple-2")
    # Player 2 has still not seen the cards passed to it.
    assert hand(state, 2) == HANDS_3P[2]
    assert state.observation(2).players[0].hand == ()
    assert state.observation(2).players[1].hand == ()


def test_pass_reveal_knowledge() -> None:
    """After the reveal, the giver knows its card in the receiver's hand, and nobody else."""
    state = new_game(3, 1)
    play(state, "pass green-2", "pass green-3")
    play(state, "pass red-5", "pass blue-6")
    play(state, "pass purple-2", "pass pink-4")
    o0, o1, o2 = (state.observation(q) for q in range(3))
    # What each player knows of the others' hands: the cards it gave them.
    assert o0.players[1].hand == ("green-2",)
    assert o0.players[2].hand == ("green-3",)
    assert o1.players[0].hand == ("blue-6",)
    assert o1.players[2].hand == ("red-5",)
    assert o2.players[0].hand == ("purple-2",)
    assert o2.players[1].hand == ("pink-4",)
    # Which of my cards each opponent has seen: the cards it gave me.
    assert o0.players[1].seen_of_mine == ("blue-6",)
    assert o0.players[2].seen_of_mine == ("purple-2",)
    assert o1.players[0].seen_of_mine == ("green-2",)
    assert o1.players[2].seen_of_mine == ("pink-4",)
    assert o2.players[0].seen_of_mine == ("green-3",)
    assert o2.players[1].seen_of_mine == ("red-5",)
    assert [v.committed for v in o0.players] == [False, False, False]


def test_pass_2p_reveal_knowledge() -> None:
    """2 players: after the reveal each player knows the two cards it gave."""
    state = new_game(2, 3)
    play(state, "pass red-6", "pass green-3", "pass red-4", "pass blue-2")
    assert state.observation(0).players[1].hand == ("red-6", "green-3")
    assert state.observation(1).players[0].hand == ("red-4", "blue-2")
    assert state.observation(0).players[1].seen_of_mine == ("red-4", "blue-2")
    assert state.observation(1).players[0].seen_of_mine == ("red-6", "green-3")


# --------------------------------------------------------------------------
# The first build and the start player
# --------------------------------------------------------------------------


def passed_3p() -> RoyalCitiesState:
    state = new_game(3, 1)
    play(state, "pass green-2", "pass green-3")
    play(state, "pass red-5", "pass blue-6")
    play(state, "pass purple-2", "pass pink-4")
    return state


def test_first_build_non_white() -> None:
    """The setup build is one non-white card, into the City of its colour."""
    state = passed_3p()
    assert legal_texts(state) == [
        "build purple-2 purple",
        "build blue-6 blue",
        "build green-4 green",
    ]
    play(state, "build blue-6 blue")
    assert legal_texts(state) == ["build pink-4 pink", "build green-2 green", "build green-6 green"]
    play(state, "build green-2 green")
    # white-2 cannot be built at setup.
    assert hand(state, 2) == ("red-5", "green-3", "white-2")
    assert legal_texts(state) == ["build red-5 red", "build green-3 green"]


def test_first_build_secret_then_revealed_together() -> None:
    """The first builds are chosen secretly and revealed together; lowest value starts."""
    state = passed_3p()
    before = state.observation(2)
    play(state, "build blue-6 blue")
    # The chooser sees its own choice; the others see only that a choice was made.
    assert state.observation(0).decision.first_build == "blue-6"
    assert state.observation(1).decision.first_build is None
    play(state, "build green-2 green")
    assert state.observation(1).decision.first_build == "green-2"
    now = state.observation(2)
    assert now.decision.first_build is None
    assert [v.committed for v in now.players] == [True, True, False]
    assert all(v.cities == ((),) * 6 for v in now.players)
    assert now.players[0].hand == before.players[0].hand == ("purple-2",)
    assert now.players[1].hand == ("pink-4",)
    assert [v.hand_size for v in now.players] == [3, 3, 3]
    play(state, "build green-3 green")
    assert state.phase == "turn"
    obs = state.observation(2)
    assert obs.players[0].cities == ((), (), (), (), ("blue-6",), ())
    assert obs.players[1].cities == ((), (), (), (), (), ("green-2",))
    assert obs.players[2].cities == ((), (), (), (), (), ("green-3",))
    assert [v.hand_size for v in obs.players] == [2, 2, 2]
    assert [v.committed for v in obs.players] == [False, False, False]
    assert state.current_player == 1
    assert obs.starter == 1


@pytest.mark.parametrize(
    ("builds", "starter"),
    [
        # Lowest value first, whatever the colour.
        (["build green-1 green", "build purple-2 purple"], 0),
        (["build purple-2 purple", "build green-1 green"], 1),
        # Same value: the card built furthest left (purple, yellow, pink, red, blue, green).
        (["build green-2 green", "build yellow-2 yellow"], 1),
        (["build yellow-2 yellow", "build green-2 green"], 0),
        (["build pink-3 pink", "build red-3 red"], 0),
        (["build blue-3 blue", "build red-3 red"], 1),
    ],
)
def test_start_player_value_then_colour(builds: list[str], starter: int) -> None:
    """Start player: the lowest value built; a tie goes to the leftmost colour."""
    state = position(
        2,
        phase="first_build",
        player=0,
        hands={
            0: ["purple-2", "yellow-2", "pink-3", "blue-3", "green-1", "green-2"],
            1: ["purple-2", "yellow-2", "pink-3", "red-3", "green-1", "green-2"],
        },
    )
    play(state, *builds)
    assert state.phase == "turn"
    assert state.current_player == starter
    assert state.observation(0).starter == starter


@pytest.mark.parametrize(("ages", "starter"), [([0, 1, 2], 0), ([2, 0, 1], 1), ([1, 2, 0], 0)])
def test_start_player_youngest_of_the_tied(ages: list[int], starter: int) -> None:
    """Start player: same value and colour, the youngest of the tied Nobles starts."""
    state = position(
        3,
        phase="first_build",
        player=0,
        hands={0: ["red-3", "blue-1"], 1: ["red-3", "blue-6"], 2: ["white-3", "blue-5"]},
    )
    state = with_ages(state, ages)
    # Players 0 and 1 tie on red 3; player 2's blue 5 is higher, even when youngest.
    play(state, "build red-3 red", "build red-3 red", "build blue-5 blue")
    assert state.current_player == starter
    assert state.observation(0).starter == starter


def test_start_player_value_beats_age() -> None:
    """Start player: the lowest value starts even if another Noble is younger."""
    state = position(
        3,
        phase="first_build",
        player=0,
        hands={0: ["red-3", "red-4"], 1: ["purple-4", "blue-6"], 2: ["red-4", "blue-5"]},
    )
    state = with_ages(state, [0, 1, 2])
    play(state, "build red-4 red", "build purple-4 purple", "build red-4 red")
    # Three 4s: purple is furthest left, though player 0 is the youngest.
    assert state.current_player == 1


@pytest.mark.parametrize(("ages", "starter"), [([0, 1], 0), ([1, 0], 1)])
def test_start_player_youngest_breaks_a_full_tie(ages: list[int], starter: int) -> None:
    """Start player: same value and same colour, the youngest Noble starts."""
    state = position(
        2,
        phase="first_build",
        player=0,
        hands={0: ["red-3", "blue-6"], 1: ["red-3", "green-6"]},
    )
    state = with_ages(state, ages)
    assert [v.age_rank for v in state.observation(0).players] == ages
    play(state, "build red-3 red", "build red-3 red")
    assert state.current_player == starter
    assert state.observation(1).starter == starter


def test_first_build_only_whites_builds_nothing_and_ranks_last() -> None:
    """A hand of only white cards builds nothing (`stop`) and cannot start the game."""
    state = position(
        3,
        phase="first_build",
        player=0,
        hands={0: ["white-0", "white-1", "white-2"], 1: ["blue-6"], 2: ["green-6"]},
    )
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    assert legal_texts(state) == ["build blue-6 blue"]
    play(state, "build blue-6 blue", "build green-6 green")
    obs = state.observation(0)
    assert obs.players[0].cities == ((),) * 6
    assert obs.players[0].hand == ("white-0", "white-1", "white-2")
    # Two 6s: blue is further left than green.
    assert state.current_player == 1


def test_first_build_two_white_only_hands_youngest_starts() -> None:
    """Two players building nothing: the youngest of them starts."""
    state = position(
        2,
        phase="first_build",
        player=0,
        hands={0: ["white-0", "white-1"], 1: ["white-2", "white-3"]},
    )
    state = with_ages(state, [1, 0])
    play(state, "stop", "stop")
    assert state.phase == "turn"
    assert state.current_player == 1


# --------------------------------------------------------------------------
# Solo setup
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_solo_setup_deal(seed: int) -> None:
    """Solo setup: the Market as usual, 2 cards for the Regent's Cities, then 4 cards in hand."""
    state = new_game(1, seed)
    obs = state.observation(0)
    assert state.phase == "solo_own"
    assert state.current_player == 0
    assert obs.regent is not None
    assert obs.regent.vp == 0
    regent_cards = [c for city in obs.regent.cities for c in city]
    # Two cards drawn for the Regent (a repeat of a value it holds is discarded).
    assert 1 <= len(regent_cards) <= 2
    assert len(obs.market) == 4
    assert len({colour(c) for c in obs.market}) == 4
    assert obs.reserve_size == 4
    assert len(obs.players[0].hand) == 4
    assert obs.pile_size + len(obs.discard) + len(regent_cards) == 85 - 4 - 4 - 4
    assert state.card_locations()["hand"] == 4


def test_solo_setup_white_first_seed21() -> None:
    """Solo setup, seed 21: the first Regent card is white, the player names its City;
    the second card follows, then the player's 4 cards."""
    state = new_game(1, 21)
    assert state.phase == "regent_white"
    obs = state.observation(0)
    assert obs.decision.drawn == ("white-0",)
    assert obs.decision.regent_draws == 1
    assert obs.players[0].hand_size == 0
    assert legal_texts(state) == [f"regent white-0 {c}" for c in COLOUR_ORDER]
    play(state, "regent white-0 pink")
    obs = state.observation(0)
    assert obs.regent.cities == (("purple-6",), (), ("white-0",), (), (), ())
    assert state.phase == "solo_own"
    assert obs.players[0].hand == ("red-2", "red-5", "white-3", "white-5")
    assert legal_texts(state) == ["build red-2 red", "build red-5 red"]


def test_solo_setup_flow_seed0() -> None:
    """Solo setup: build one non-white card, give the Regent one it lacks, keep two."""
    state = new_game(1, 0)
    obs = state.observation(0)
    assert obs.regent.cities == ((), (), (), (), (), ("green-0", "green-2"))
    assert obs.players[0].hand == ("purple-2", "purple-4", "red-4", "white-4")
    assert legal_texts(state) == [
        "build purple-2 purple",
        "build purple-4 purple",
        "build red-4 red",
    ]
    play(state, "build purple-4 purple")
    assert state.phase == "solo_regent"
    # Any card the Regent lacks: the white one in any of its Cities.
    assert legal_texts(state) == [
        "regent purple-2 purple",
        "regent red-4 red",
        "regent white-4 purple",
        "regent white-4 yellow",
        "regent white-4 pink",
        "regent white-4 red",
        "regent white-4 blue",
        "regent white-4 green",
    ]
    play(state, "regent white-4 green")
    assert state.phase == "turn"
    assert state.current_player == 0
    obs = state.observation(0)
    assert obs.players[0].hand == ("purple-2", "red-4")
    assert obs.players[0].cities == (("purple-4",), (), (), (), (), ())
    assert obs.regent.cities == ((), (), (), (), (), ("green-0", "green-2", "white-4"))
    assert obs.season == 1


def test_solo_setup_regent_white_and_duplicate() -> None:
    """Solo setup: a white drawn for the Regent goes to the City the player names;
    a value the Regent already has in that City is discarded; then 4 cards in hand."""
    pile = ["red-4", "red-1", "red-2", "red-3", "red-5"]
    state = position(
        1,
        phase="regent_white",
        player=0,
        regent_cities={"red": ["red-4"]},
        market=["purple-1", "yellow-1", "pink-1", "blue-1"],
        drawn=("white-4",),
        regent_draws=1,
        resume="setup",
        pile=pile,
        reserve_size=0,
        seed=seed_for_draws(pile),
    )
    # The white 4 cannot join the red City, which already has a 4.
    assert legal_texts(state) == [
        "regent white-4 purple",
        "regent white-4 yellow",
        "regent white-4 pink",
        "regent white-4 blue",
        "regent white-4 green",
    ]
    discarded = Counter(state.observation(0).discard)
    play(state, "regent white-4 blue")
    obs = state.observation(0)
    assert state.phase == "solo_own"
    # The second Regent card, red-4, repeats the red City's 4: discarded.
    assert obs.regent.cities == ((), (), (), ("red-4",), ("white-4",), ())
    assert Counter(obs.discard) - discarded == Counter(["red-4"])
    assert obs.players[0].hand == ("red-1", "red-2", "red-3", "red-5")
    assert obs.pile_size == 0
    assert legal_texts(state) == [
        "build red-1 red",
        "build red-2 red",
        "build red-3 red",
        "build red-5 red",
    ]
    play(state, "build red-2 red")
    # The Regent lacks red 1, 3 and 5 (it inserts below or above its red 4).
    assert legal_texts(state) == ["regent red-1 red", "regent red-3 red", "regent red-5 red"]
    play(state, "regent red-1 red")
    obs = state.observation(0)
    assert obs.regent.cities == ((), (), (), ("red-1", "red-4"), ("white-4",), ())
    assert obs.players[0].cities == ((), (), (), ("red-2",), (), ())
    assert obs.players[0].hand == ("red-3", "red-5")
    assert state.phase == "turn"


def test_solo_setup_no_card_for_the_regent() -> None:
    """Solo setup: when no remaining card can go to the Regent, the player keeps three."""
    pile = ["red-2", "red-3", "red-5", "red-6"]
    state = position(
        1,
        phase="regent_white",
        player=0,
        regent_cities={"red": ["red-2", "red-3", "red-5", "red-6"]},
        market=["purple-1", "yellow-1", "pink-1", "blue-1"],
        drawn=("white-0",),
        regent_draws=0,
        resume="setup",
        pile=pile,
        reserve_size=0,
        seed=seed_for_draws(pile),
    )
    play(state, "regent white-0 red")
    assert state.observation(0).players[0].hand == ("red-2", "red-3", "red-5", "red-6")
    play(state, "build red-5 red")
    # The Regent's red City holds 0, 2, 3, 5, 6: no card of the three left can join it.
    assert state.phase == "turn"
    obs = state.observation(0)
    assert obs.players[0].hand == ("red-2", "red-3", "red-6")
    assert obs.regent.cities[3] == ("white-0", "red-2", "red-3", "red-5", "red-6")


def start_key(card: str | None, age: int) -> tuple[int, int, int]:
    """Start order: value, then colour from the left, then age (nothing built: last)."""
    if card is None:
        return (99, 99, age)
    name, value = card.rsplit("-", 1)
    return (int(value), COLOUR_ORDER.index(name), age)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_setups(num_players: int) -> None:
    """Random setups: passed cards reach the right neighbours, the first builds appear
    together, and the start player follows value, colour, then age."""
    rng = random.Random(num_players)
    for seed in range(20):
        state = new_game(num_players, seed)
        dealt = [Counter(hand(state, p)) for p in range(num_players)]
        passes: list[list[str]] = []
        for p in range(num_players):
            assert state.current_player == p
            chosen = []
            for _ in range(2):
                move = rng.choice(legal_texts(state))
                chosen.append(move.split()[1])
                play(state, move)
                if state.phase == "pass":
                    assert list(state.observation(p).decision.passes) == chosen
            passes.append(chosen)
        assert state.phase == "first_build"
        for p in range(num_players):
            expected = dealt[p] - Counter(passes[p])
            if num_players == 2:
                expected += Counter(passes[1 - p])
            else:
                expected += Counter([passes[(p - 1) % num_players][0]])
                expected += Counter([passes[(p + 1) % num_players][1]])
            assert Counter(hand(state, p)) == expected
        builds: list[str | None] = []
        for _ in range(num_players):
            move = rng.choice(legal_texts(state))
            builds.append(None if move == "stop" else move.split()[1])
            play(state, move)
        obs = state.observation(0)
        ages = [v.age_rank for v in obs.players]
        keys = [start_key(card, age) for card, age in zip(builds, ages, strict=True)]
        assert state.current_player == keys.index(min(keys))
        for p in range(num_players):
            built = [c for city in obs.players[p].cities for c in city]
            assert built == ([] if builds[p] is None else [builds[p]])
            assert obs.players[p].hand_size == (3 if builds[p] is None else 2)
