"""Royal Cities Seasons: the turn structure, Season change, catch-up, the end of the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.royal_cities import RoyalCitiesState
from tests.royal_cities.positions import legal_texts, play, position, seed_for_draws

MARKET4 = ["purple-3", "yellow-4", "pink-1", "red-1"]


def hand(state: RoyalCitiesState, p: int) -> tuple[str, ...]:
    return state.observation(p).players[p].hand


def all_stop(state: RoyalCitiesState) -> RoyalCitiesState:
    """Every player builds nothing in the Season's construction."""
    assert state.phase == "construct"
    for _ in range(state.num_players):
        play(state, "stop")
    return state


# --------------------------------------------------------------------------
# The turn
# --------------------------------------------------------------------------


def test_turn_play_is_optional_then_purchase_or_add() -> None:
    """Turn: A (optional) play a hand card or an own City's top card, then B purchase or C add."""
    state = position(
        2,
        hands={0: ["yellow-2", "red-3"]},
        cities={0: {"blue": ["blue-1"]}},
        market=MARKET4,
        hidden_hands={1: 2},
    )
    assert legal_texts(state) == [
        "play hand yellow-2",
        "play hand red-3",
        "play city blue",
        "purchase",
        "add",
    ]
    play(state, "play hand yellow-2")  # the Jester draws one card
    assert state.current_player == 0
    assert state.observation(0).decision.turn_played
    assert state.observation(0).players[0].hand_size == 2
    # Only one card is played per turn.
    assert legal_texts(state) == ["purchase", "add"]
    play(state, "add")
    assert state.current_player == 1
    assert len(state.observation(0).market) == 5


def test_turn_add_without_playing() -> None:
    """Turn: step A may be skipped; adding a card ends the turn."""
    state = position(2, hands={0: ["red-3"]}, market=MARKET4, hidden_hands={1: 2})
    play(state, "add")
    assert state.current_player == 1
    assert state.phase == "turn"
    assert hand(state, 0) == ("red-3",)


def test_no_purchase_before_the_second_row_is_complete() -> None:
    """Purchase: only when the 2nd row is complete (4 face-up cards)."""
    state = position(2, hands={0: ["red-3"]}, market=MARKET4[:3], hidden_hands={1: 2})
    assert legal_texts(state) == ["play hand red-3", "add"]


def test_purchase_power_and_canonical_order() -> None:
    """Purchase: power = face-up + Reserve cards, fixed at the start; at least one card;
    the rest of the power is lost; the turn ends without adding."""
    state = position(2, hands={0: []}, market=MARKET4, hidden_hands={1: 2}, reserve_size=4)
    play(state, "purchase")
    decision = state.observation(0).decision
    assert decision.phase == "purchase"
    assert decision.power == 8
    # Nothing taken yet and cards are affordable: no `stop`.
    assert legal_texts(state) == ["buy purple-3", "buy yellow-4", "buy pink-1", "buy red-1"]
    play(state, "buy yellow-4")
    assert state.observation(0).decision.power == 4
    # Cards are taken in non-decreasing kind order (a purchase is a set).
    assert legal_texts(state) == ["stop", "buy pink-1", "buy red-1"]
    play(state, "buy pink-1")
    assert state.observation(0).decision.power == 3
    assert legal_texts(state) == ["stop", "buy red-1"]
    play(state, "stop")
    obs = state.observation(1)
    assert obs.players[0].purchased
    assert obs.players[0].hand == ("yellow-4", "pink-1")  # bought cards are public
    assert obs.market == ("purple-3", "red-1")
    assert obs.last_purchaser == 0
    assert state.current_player == 1
    assert state.phase == "turn"


def test_purchase_power_counts_a_short_reserve() -> None:
    """Purchase: power counts the Reserve cards actually there."""
    state = position(
        2,
        hands={0: []},
        market=[*MARKET4, "blue-6", "green-5"],
        hidden_hands={1: 2},
        reserve_size=2,
    )
    play(state, "purchase")
    assert state.observation(0).decision.power == 8


def test_purchase_with_nothing_affordable_may_stop() -> None:
    """Purchase: when no card is affordable, the purchase takes nothing."""
    state = position(
        2,
        hands={0: []},
        market=["purple-6", "yellow-6", "pink-6", "red-6"],
        hidden_hands={1: 2},
        reserve_size=0,
    )
    play(state, "purchase")
    assert state.observation(0).decision.power == 4
    assert legal_texts(state) == ["stop"]
    play(state, "stop")
    assert state.observation(0).players[0].purchased


def test_purchase_once_per_season_then_turns_a_then_c() -> None:
    """Purchase once per Season; a player who purchased keeps taking turns: A, then C."""
    state = position(
        2,
        hands={0: ["red-3"]},
        market=MARKET4,
        hidden_hands={1: 2},
        purchased=(0,),
        player=0,
    )
    assert legal_texts(state) == ["play hand red-3", "add"]
    play(state, "play hand red-3")  # Assassin: no City anywhere, no target
    assert state.phase == "turn"
    assert legal_texts(state) == ["add"]
    play(state, "add")
    assert state.current_player == 1
    assert "purchase" in legal_texts(state)


def test_season_ends_at_once_when_the_last_player_purchases() -> None:
    """The Season ends as soon as the last player purchases: no add, construction next."""
    state = position(
        3,
        player=1,
        hands={0: []},
        hidden_hands={1: 1, 2: 1},
        market=MARKET4,
        purchased=(0, 2),
    )
    play(state, "purchase", "buy red-1", "stop")
    assert state.phase == "construct"
    assert state.current_player == 0
    obs = state.observation(0)
    assert obs.market == ("purple-3", "yellow-4", "pink-1")
    assert obs.last_purchaser == 1
    assert [v.purchased for v in obs.players] == [True, True, True]


def test_season_goes_on_while_a_player_has_not_purchased() -> None:
    """The Season does not end while one player has not purchased."""
    state = position(
        3,
        player=1,
        hands={0: []},
        hidden_hands={1: 1, 2: 1},
        market=MARKET4,
        purchased=(0,),
    )
    play(state, "purchase", "buy red-1", "stop")
    assert state.phase == "turn"
    assert state.current_player == 2
    play(state, "add")
    assert state.current_player == 0
    assert legal_texts(state) == ["add"]


def test_revolt_forces_the_last_purchase_and_ends_the_season() -> None:
    """A Revolt before purchasing forces the purchase; if it is the last, the Season ends."""
    pile = ["red-5"]
    state = position(
        2,
        player=1,
        hands={0: []},
        hidden_hands={1: 0},
        market=["purple-3", "yellow-4", "red-1", "red-2"],
        purchased=(0,),
        pile=pile,
        reserve_size=0,
    )
    play(state, "add")
    # Both reds left the Market; the revolter must purchase with the power left.
    obs = state.observation(1)
    assert obs.decision.phase == "purchase"
    assert obs.decision.power == 3
    assert obs.market == ("purple-3", "yellow-4", "red-5")
    assert obs.players[0].vp == 1
    assert obs.players[1].hero_up
    play(state, "buy purple-3", "stop")
    assert state.phase == "construct"
    assert state.observation(0).last_purchaser == 1


# --------------------------------------------------------------------------
# Season change
# --------------------------------------------------------------------------


def test_season_change_market_kept_and_refilled() -> None:
    """New Season: the Market keeps its cards and is refilled to 4 face-up cards,
    a drawn card of a colour already face up being discarded; purchase marks cleared."""
    pile = ["purple-1", "yellow-6", "white-2", "green-6"]
    state = position(
        2,
        phase="construct",
        player=0,
        purchased=(0, 1),
        last_purchaser=0,
        hands={0: []},
        market=["purple-3", "purple-5", "yellow-2"],
        pile=pile,
        reserve_size=0,
        seed=seed_for_draws(pile),
    )
    discard_before = Counter(state.observation(0).discard)
    all_stop(state)
    obs = state.observation(0)
    assert obs.season == 2
    assert obs.market == ("purple-3", "purple-5", "yellow-2", "white-2")
    assert Counter(obs.discard) - discard_before == Counter(["purple-1", "yellow-6"])
    assert obs.pile_size == 1
    assert [v.purchased for v in obs.players] == [False, False]
    assert state.phase == "turn"
    assert state.current_player == 1
    assert obs.starter == 1
    assert legal_texts(state) == ["purchase", "add"]


def test_season_change_large_market_kept_whole() -> None:
    """New Season: a Market of more than 4 cards keeps them all (no refill, no trim)."""
    market = ["purple-3", "purple-5", "yellow-2", "yellow-3", "red-1", "blue-1"]
    state = position(
        3,
        phase="construct",
        player=0,
        purchased=(0, 1, 2),
        last_purchaser=2,
        hands={0: []},
        market=market,
    )
    all_stop(state)
    obs = state.observation(0)
    assert obs.season == 2
    assert obs.market == tuple(market)
    assert state.current_player == 0
    assert obs.starter == 0


@pytest.mark.parametrize(("num_players", "last", "starter"), [(2, 1, 0), (3, 0, 1), (4, 3, 0)])
def test_next_season_starts_left_of_the_last_purchaser(
    num_players: int, last: int, starter: int
) -> None:
    """New Season: the player to the left of the last purchaser starts."""
    state = position(
        num_players,
        phase="turn",
        player=last,
        purchased=tuple(p for p in range(num_players) if p != last),
        hands={0: []},
        market=MARKET4,
    )
    play(state, "purchase", "buy red-1", "stop")
    all_stop(state)
    assert state.season == 2
    assert state.current_player == starter
    assert state.observation(0).starter == starter
    assert state.observation(0).last_purchaser == last


# --------------------------------------------------------------------------
# Catch-up bonus
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vp", "draws"),
    [
        ([6, 12], [1, 0]),  # the rulebook example: the 10 lies between
        ([10, 12], [1, 0]),  # own score on a bonus space counts
        ([8, 10], [0, 0]),  # the leader's space does not
        ([9, 31], [3, 0]),  # 10, 20, 30
        ([12, 12], [0, 0]),
        ([0, 11], [1, 0]),
        ([45, 61], [2, 0]),  # the track wraps: 50, then 60
        ([48, 52], [1, 0]),
        ([51, 49], [0, 1]),  # behind by two, across the 50
        ([0, 51], [5, 0]),
    ],
)
def test_catch_up_1_to_3_players(vp: list[int], draws: list[int]) -> None:
    """Catch-up (1-3 players): 1 card per space 10, 20, 30... with own <= b < leader."""
    state = position(2, phase="construct", player=0, hands={0: []}, vp=vp, market=MARKET4)
    all_stop(state)
    obs = state.observation(0)
    assert [v.vp for v in obs.players] == vp
    assert [v.hand_size for v in obs.players] == draws


def test_catch_up_3_players() -> None:
    """Catch-up (3 players): everyone behind draws for the spaces up to the leader."""
    state = position(3, phase="construct", player=0, hands={0: []}, vp=[0, 25, 12], market=MARKET4)
    all_stop(state)
    assert [v.hand_size for v in state.observation(0).players] == [2, 0, 1]


@pytest.mark.parametrize(
    ("vp", "draws"),
    [
        ([5, 13, 0, 12], [2, 0, 2, 1]),  # 6, 12
        ([47, 57, 50, 55], [2, 0, 1, 1]),  # 48, then 56 (no bonus on 50)
        ([49, 63, 30, 62], [2, 0, 6, 1]),  # 56, 62; 30 .. 48 then 56, 62
        ([6, 6, 5, 0], [0, 0, 0, 0]),
    ],
)
def test_catch_up_4_players(vp: list[int], draws: list[int]) -> None:
    """Catch-up (4 players): spaces 6, 12, ... 48, then 56, 62 after the wrap."""
    state = position(4, phase="construct", player=0, hands={0: []}, vp=vp, market=MARKET4)
    all_stop(state)
    obs = state.observation(0)
    assert obs.season == 2
    assert [v.hand_size for v in obs.players] == draws


def test_catch_up_draws_come_from_the_pile() -> None:
    """Catch-up: the cards are drawn from the pile into the hand, player by player."""
    pile = ["blue-2", "green-4", "pink-6"]
    state = position(
        3,
        phase="construct",
        player=0,
        hands={0: ["red-1"]},
        vp=[9, 30, 19],
        market=MARKET4,
        pile=pile,
        reserve_size=0,
        seed=seed_for_draws(pile),
    )
    all_stop(state)
    assert hand(state, 0) == ("red-1", "blue-2", "green-4")
    assert hand(state, 2) == ("pink-6",)
    assert state.observation(0).pile_size == 0


def test_catch_up_before_the_market_refill() -> None:
    """Season end order: the catch-up cards are drawn before the new Season's refill."""
    pile = ["blue-2", "green-4", "yellow-6"]
    state = position(
        2,
        phase="construct",
        player=0,
        hands={0: []},
        vp=[9, 11],
        market=["purple-3", "pink-1", "red-1"],
        pile=pile,
        reserve_size=0,
        seed=seed_for_draws(pile),
    )
    all_stop(state)
    assert hand(state, 0) == ("blue-2",)
    assert state.observation(0).market == ("purple-3", "pink-1", "red-1", "green-4")
    assert state.observation(0).pile_size == 1


def test_no_catch_up_after_the_last_season() -> None:
    """Catch-up: none after the last Season, the game ends."""
    state = position(
        2, phase="construct", player=0, hands={0: []}, vp=[0, 30], market=MARKET4, season=4
    )
    all_stop(state)
    assert state.is_terminal()
    assert [v.hand_size for v in state.observation(0).players] == [0, 0]
    assert state.scores() == [0, 30]


# --------------------------------------------------------------------------
# The end of the game
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("num_players", "season", "ends"),
    [(2, 3, False), (2, 4, True), (3, 3, False), (3, 4, True), (4, 2, False), (4, 3, True)],
)
def test_game_length(num_players: int, season: int, ends: bool) -> None:
    """The game ends after 4 Seasons with 1-3 players, after 3 with 4 players."""
    state = position(
        num_players, phase="construct", player=0, hands={0: []}, market=MARKET4, season=season
    )
    assert state.observation(0).num_seasons == (3 if num_players == 4 else 4)
    all_stop(state)
    assert state.is_terminal() == ends
    # Not over: the player left of the last purchaser (player 0) starts the next Season.
    assert state.current_player == (-1 if ends else 1)
    if ends:
        assert state.phase == "end"
        assert state.legal_actions() == []
    else:
        assert state.season == season + 1


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_season_count(num_players: int) -> None:
    """A whole game runs 4 Seasons (3 with 4 players), then returns and scores are set."""
    rng = random.Random(num_players)
    for seed in range(5):
        state = engine.new_game("royal_cities", num_players=num_players, seed=seed)
        seasons = {state.season}
        constructs = 0
        before = None
        while not state.is_terminal():
            if state.phase == "construct" and before != "construct":
                constructs += 1
            before = state.phase
            seasons.add(state.season)
            state.apply_action(rng.choice(state.legal_actions()))
        expected = 3 if num_players == 4 else 4
        assert seasons == set(range(1, expected + 1))
        assert constructs == expected
        returns = state.returns()
        assert len(returns) == num_players
        assert sum(returns) == pytest.approx(1.0)
        scores = state.scores()
        winners = [p for p in range(num_players) if returns[p] > 0]
        assert all(scores[p] == max(scores) for p in winners)


def test_returns_zero_before_the_end() -> None:
    """Returns are all 0 until the game is over."""
    state = position(3, hands={0: []}, market=MARKET4, vp=[5, 3, 1])
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.scores() == [5, 3, 1]


def final(num_players: int, **kw: object) -> RoyalCitiesState:
    """The last Season's construction, everyone building nothing."""
    season = 3 if num_players == 4 else 4
    state = position(num_players, phase="construct", player=0, market=MARKET4, season=season, **kw)
    return all_stop(state)


def test_hero_bonus_at_the_end() -> None:
    """Game end: each face-up Hero gives its Noble +2 VP."""
    state = final(3, hands={0: []}, vp=[10, 11, 9], hero_up=(0, 2))
    assert state.scores() == [12, 11, 11]
    assert [v.vp for v in state.observation(1).players] == [12, 11, 11]
    assert state.returns() == [1.0, 0.0, 0.0]


def test_hero_bonus_only_at_the_end() -> None:
    """A face-up Hero gives nothing at the end of an earlier Season."""
    state = position(
        2, phase="construct", player=0, hands={0: []}, market=MARKET4, vp=[3, 3], hero_up=(0,)
    )
    all_stop(state)
    assert state.scores() == [3, 3]
    assert state.observation(0).players[0].hero_up


def test_most_vp_wins() -> None:
    """Game end: the most VP wins."""
    state = final(
        2,
        hands={0: []},
        vp=[20, 19],
        cities={0: {"purple": ["purple-0"]}, 1: {"pink": ["pink-0"], "red": ["red-0"]}},
    )
    assert state.scores() == [20, 19]
    assert state.returns() == [1.0, 0.0]


def test_vp_tie_most_cards_built_wins() -> None:
    """Game end: a VP tie goes to the most cards built."""
    # Only value-0 cards: no City has influence, nobody scores at the end.
    state = final(
        2,
        hands={0: []},
        vp=[20, 20],
        cities={0: {"purple": ["purple-0"]}, 1: {"pink": ["pink-0"], "red": ["red-0"]}},
    )
    assert state.scores() == [20, 20]
    assert state.returns() == [0.0, 1.0]


def test_vp_tie_cards_tie_shared_victory() -> None:
    """Game end: tied on VP and on cards built, the victory is shared."""
    state = final(
        3,
        hands={0: []},
        vp=[15, 15, 14],
        cities={
            0: {"purple": ["purple-0"], "blue": ["blue-0"]},
            1: {"pink": ["pink-0"], "red": ["red-0"]},
            2: {"green": ["green-0"], "yellow": ["yellow-0"]},
        },
    )
    assert state.scores() == [15, 15, 14]
    assert state.returns() == [0.5, 0.5, 0.0]


def test_four_way_shared_victory() -> None:
    """Game end: a shared victory splits the return equally."""
    state = final(4, hands={0: []}, vp=[7, 7, 7, 7])
    assert state.returns() == [0.25, 0.25, 0.25, 0.25]


def test_hero_bonus_decides_a_tie() -> None:
    """Game end: the Hero bonus counts before ties are broken."""
    state = final(
        2,
        hands={0: []},
        vp=[18, 20],
        hero_up=(0,),
        cities={1: {"pink": ["pink-0"]}},
    )
    assert state.scores() == [20, 20]
    # Tied on VP: player 1 built one card, player 0 none.
    assert state.returns() == [0.0, 1.0]


def test_final_scoring_counts_last_majorities() -> None:
    """Game end: the last Season's majorities are scored before the winner is decided."""
    state = position(
        2,
        phase="construct",
        player=0,
        season=4,
        market=MARKET4,
        vp=[10, 11],
        hands={0: ["red-5"]},
        cities={0: {"red": ["red-2"]}},
    )
    play(state, "build red-5 red", "stop", "stop")
    # Red: influence 7, one City with 2 cards: 1 VP.
    assert state.observation(0).players[0].cities[3] == ("red-2", "red-5")
    assert state.scores() == [11, 11]
    assert state.returns() == [1.0, 0.0]


def test_nothing_to_draw_forces_the_purchase() -> None:
    """Adding when no card can be drawn at all: a player who has not purchased purchases now."""
    # Every card is placed: the pile, the Reserve and the discard pile are empty.
    state = position(
        2,
        hands={0: []},
        hidden_hands={1: 82},
        market=["purple-3", "yellow-4", "pink-1"],
        pile=[],
        reserve_size=0,
    )
    assert legal_texts(state) == ["add"]
    play(state, "add")
    assert state.phase == "purchase"
    assert state.observation(0).decision.power == 3
    assert legal_texts(state) == ["buy purple-3", "buy pink-1"]
    play(state, "buy purple-3", "stop")
    assert state.observation(0).players[0].purchased
    assert state.current_player == 1


def test_nothing_to_draw_after_purchase_ends_the_turn() -> None:
    """Adding when no card can be drawn at all, after purchasing: the turn just ends."""
    state = position(
        2,
        hands={0: []},
        hidden_hands={1: 82},
        market=["purple-3", "yellow-4", "pink-1"],
        pile=[],
        reserve_size=0,
        purchased=(0,),
    )
    play(state, "add")
    assert state.phase == "turn"
    assert state.current_player == 1
    assert state.observation(1).market == ("purple-3", "yellow-4", "pink-1")


def bonus(own: int, leader: int, four: bool) -> int:
    """Catch-up bonus spaces b with own <= b < leader."""
    if four:
        return sum(1 for b in range(max(own, 1), leader) if b % 50 and b % 50 % 6 == 0)
    return sum(1 for b in range(max(own, 1), leader) if b % 10 == 0)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_season_changes(num_players: int) -> None:
    """Every Season change in random games: catch-up draws, the Market kept and refilled
    with new colours, purchase marks cleared, the player left of the last purchaser starts."""
    rng = random.Random(100 + num_players)
    changes = 0
    for seed in range(8):
        state = engine.new_game("royal_cities", num_players=num_players, seed=seed)
        while not state.is_terminal():
            last_stop = state.phase == "construct" and state.current_player == num_players - 1
            action = rng.choice(state.legal_actions())
            if not (last_stop and state.action_to_string(action) == "stop"):
                state.apply_action(action)
                continue
            before = state.observation(0)
            state.apply_action(action)
            if state.is_terminal():
                break
            changes += 1
            after = state.observation(0)
            assert after.season == before.season + 1
            vp = [v.vp for v in after.players]
            for b, a, own in zip(before.players, after.players, vp, strict=True):
                built = sum(map(len, a.cities)) - sum(map(len, b.cities))
                draws = bonus(own, max(vp), num_players == 4)
                assert a.hand_size == b.hand_size - built + draws
                assert not a.purchased
            kept = Counter(before.market)
            assert not kept - Counter(after.market)
            new = list((Counter(after.market) - kept).elements())
            new_colours = [c.split("-")[0] for c in new]
            assert len(set(new_colours)) == len(new_colours)
            assert not set(new_colours) & {c.split("-")[0] for c in before.market}
            assert len(after.market) == max(4, len(before.market))
            assert state.current_player == (before.last_purchaser + 1) % num_players
            assert after.starter == state.current_player
    assert changes >= 8
