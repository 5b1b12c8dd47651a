"""Perft-style counts: how many legal actions, and how many action sequences, where.

As in chess engines' perft, pinned counts catch a move generator that gains or loses moves
even when every move it makes is legal. Three kinds of check:

* along a fixed line of play (the seeded random policy `random.Random(seed).choice`) from
  `new_game("royal_cities", n, seed=seed)`, the number of legal actions at each of the
  first 40 steps;
* `perft(state, depth)`: the number of action sequences of exactly `depth` actions from a
  position (a game that ends sooner counts as one leaf), to depth 6, from ten positions
  on those lines (solo, 2, 3 and 4 players; setup, turns, effects, construction);
* an independent oracle, `expected_count(obs)`, which recomputes from the rulebook the
  number of legal actions of the common decisions from the observation alone, checked at
  every such step of whole games.

The literals were computed once from the engine. Those verified by hand from the rules are
marked "by hand" (the reasoning is in the comment); the oracle extends that reasoning to
every turn, pass, first build and purchase of the games it plays.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.royal_cities import Observation, RoyalCitiesState
from engine.royal_cities.cards import parse_kind


def new_game(num_players: int, seed: int) -> RoyalCitiesState:
    return engine.new_game("royal_cities", num_players=num_players, seed=seed)


def along_line(num_players: int, seed: int, steps: int) -> tuple[RoyalCitiesState, list[int]]:
    """The position after `steps` actions of the seeded random policy, and the number of
    legal actions at each step before it."""
    state = new_game(num_players, seed)
    policy = random.Random(seed)
    counts = []
    for _ in range(steps):
        legal = state.legal_actions()
        counts.append(len(legal))
        state.apply_action(policy.choice(legal))
    return state, counts


def perft(state: RoyalCitiesState, depth: int) -> int:
    """The number of action sequences of length `depth` (an earlier end is one leaf)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


# (players, seed): legal-action counts at steps 0..39 of the policy's line.
LINES = {
    (1, 4): [3, 8, 5, 4, 2, 2, 4, 4, 2, 5, 2, 1, 3, 4, 4, 1, 4, 5, 2, 4,
             2, 1, 6, 5, 4, 2, 1, 6, 6, 2, 2, 5, 2, 5, 2, 6, 3, 1, 4, 2],
    (2, 1): [2, 1, 2, 1, 2, 3, 5, 4, 1, 4, 3, 3, 1, 5, 1, 5, 5, 3, 1, 2,
             4, 3, 6, 2, 4, 4, 1, 6, 1, 7, 2, 1, 6, 1, 6, 1, 6, 6, 4, 1],
    (3, 2): [3, 2, 3, 2, 3, 2, 3, 3, 3, 5, 5, 1, 2, 5, 6, 1, 5, 4, 5, 1,
             5, 4, 1, 5, 4, 2, 1, 4, 3, 1, 4, 3, 5, 6, 4, 2, 6, 4, 1, 7],
    (4, 3): [3, 2, 3, 2, 3, 2, 3, 2, 3, 3, 3, 3, 5, 4, 1, 2, 5, 4, 2, 5,
             1, 5, 2, 4, 3, 1, 4, 4, 1, 2, 5, 6, 4, 4, 3, 4, 1, 5, 3, 1],
}  # fmt: skip


@pytest.mark.parametrize(("num_players", "seed"), sorted(LINES))
def test_legal_action_counts_along_a_line(num_players: int, seed: int) -> None:
    """The number of legal actions at each of the first 40 steps of a fixed line of play.

    By hand: (2, 1) starts [2, 1, 2, 1, ...]: passing in a 2-player game picks an unordered
    pair, low kind first; player 0 holds green-2, green-3, green-3, so it may start with
    green-2 or green-3 (2), and then only green-3 remains above its first pick (1); player 1
    holds red-2, blue-6, white-5: red-2 or blue-6 first (2); the policy picks blue-6, above
    which only white-5 remains (1).
    (3, 2) starts [3, 2, ...]: with three players the two passes are ordered (left, right):
    three different cards, then the two others."""
    _, counts = along_line(num_players, seed, 40)
    assert counts == LINES[(num_players, seed)]


# (players, seed, steps along the line): the phase there and perft(1), ..., perft(6).
PERFT = [
    # By hand: 2 players, the start. Player 0 holds green-2, green-3, green-3: the unordered
    # pairs are {green-2, green-3} and {green-3, green-3} -> perft(2) = 2. Player 1 holds
    # red-2, blue-6, white-5 (three kinds): 2 first picks -> perft(3) = 4, and the three
    # pairs of three kinds -> perft(4) = 2 * 3 = 6.
    (2, 1, 0, "pass", [2, 2, 4, 6, 14, 29]),
    # By hand: 3 players, the start. Player 0 holds red-6, green-3, green-4; the passes are
    # ordered: 3 then 2 -> perft(2) = 6; player 1 also holds three kinds: 6 * 3 = 18, 6 * 6 = 36.
    (3, 2, 0, "pass", [3, 6, 18, 36, 108, 216]),
    # By hand: solo, the start. The hand is pink-5, red-3, green-3, white-5: the first build
    # is a coloured card into its own City (3, a white card needs a partner); then one card
    # for the Regent, whose Cities hold purple-1 and yellow-6: each coloured card left goes
    # to its colour (2), white-5 to any of the six Cities (6) -> perft(2) = 3 * 8 = 24.
    (1, 4, 0, "solo_own", [3, 24, 120, 370, 944, 2802]),
    # By hand: 4 players, step 12, player 0's turn. It holds blue-2 and green-6, its green
    # City holds green-1, it has not played nor purchased, the Market holds four cards, its
    # Hero is face down: play hand (2) + play city (1) + purchase + add -> perft(1) = 5.
    (4, 3, 12, "turn", [5, 17, 58, 157, 496, 1506]),
    (2, 1, 12, "turn", [1, 5, 11, 30, 99, 282]),
    (3, 2, 12, "turn", [2, 10, 37, 115, 372, 1284]),
    (2, 1, 30, "effect", [2, 2, 12, 31, 77, 234]),
    (1, 4, 30, "solo_add", [2, 10, 34, 96, 279, 790]),
    (3, 2, 30, "construct", [4, 11, 35, 122, 436, 1515]),
    (4, 3, 30, "turn", [5, 17, 25, 91, 234, 523]),
]


@pytest.mark.parametrize(
    ("num_players", "seed", "steps", "phase", "counts"),
    PERFT,
    ids=[f"{n}p-seed{s}-step{k}" for n, s, k, _, _ in PERFT],
)
def test_perft(num_players: int, seed: int, steps: int, phase: str, counts: list[int]) -> None:
    """The number of action sequences of each depth from a position on a fixed line."""
    state, _ = along_line(num_players, seed, steps)
    assert state.phase == phase
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


def test_perft_leaves_the_position_unchanged() -> None:
    """perft explores clones: the position it starts from is untouched."""
    state, _ = along_line(3, 2, 12)
    before = state.observation(0), state.legal_actions()
    perft(state, 3)
    assert (state.observation(0), state.legal_actions()) == before


# --------------------------------------------------------------------------------------------
# The oracle: the rulebook's counts, from what the player to move sees
# --------------------------------------------------------------------------------------------


def expected_count(obs: Observation) -> int | None:
    """The number of legal actions of the decision pending for `obs.observer` (the player to
    move), computed from the rules alone, or None for the decisions not modelled here.

    * turn: one `play hand` per kind in hand and one `play city` per non-empty own City
      unless a card was played this turn; `purchase` unless already purchased or fewer than
      four cards face up; `add`; `add hero` with the Hero face up;
    * pass: 3-4 players pass one card left, then one right: any kind still in hand; 2
      players pass an unordered pair, low kind first: a first kind with at least two cards
      from it upwards, then any kind from the first upwards still in hand;
    * first build / solo first build: a coloured kind into its own City, or `stop` when the
      hand holds only white cards;
    * purchase: each Market kind from the last one bought upwards whose value is at most
      the power left, and `stop` once a card is taken (or when nothing can be bought)."""
    d = obs.decision
    me = obs.players[obs.observer]
    hand = Counter(parse_kind(card) for card in me.hand)
    if d.phase == "turn":
        count = 0
        if not d.turn_played:
            count += len(hand) + sum(1 for city in me.cities if city)
        count += not me.purchased and len(obs.market) >= 4
        return count + 1 + me.hero_up
    if d.phase == "pass":
        passed = [parse_kind(card) for card in d.passes]
        left = hand - Counter(passed)
        if obs.num_players > 2:
            return len(left)
        if not passed:
            return sum(1 for k in left if sum(n for j, n in left.items() if j >= k) >= 2)
        return sum(1 for k in left if k >= passed[0])
    if d.phase in ("first_build", "solo_own"):
        coloured = [k for k in hand if k < 42]
        return len(coloured) or 1
    if d.phase == "purchase":
        low = parse_kind(d.min_card) if d.min_card else 0
        market = {parse_kind(card) for card in obs.market}
        buyable = [k for k in market if k >= low and k % 7 <= d.power]
        return len(buyable) + (d.taken > 0 or not buyable)
    return None


@pytest.mark.parametrize("num_players", (1, 2, 3, 4))
def test_counts_follow_the_rules(num_players: int) -> None:
    """Along 30 whole games per player count, the engine's number of legal actions equals
    the oracle's at every turn, pass, first build and purchase (thousands of positions)."""
    checked = Counter()
    for seed in range(30):
        state = new_game(num_players, seed)
        policy = random.Random(seed)
        while not state.is_terminal():
            obs = state.observation(state.current_player)
            expected = expected_count(obs)
            legal = state.legal_actions()
            if expected is not None:
                checked[obs.decision.phase] += 1
                texts = [state.action_to_string(a) for a in legal]
                assert len(legal) == expected, f"{num_players}p seed {seed}: {obs} -> {texts}"
            state.apply_action(policy.choice(legal))
    assert checked["turn"] > 300 and checked["purchase"] > 100, checked
