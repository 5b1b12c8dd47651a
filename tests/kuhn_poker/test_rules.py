"""Kuhn poker's rules: the deal, legal actions, every terminal payoff, illegal moves,
counts of the game tree, and the known value of the game."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest

import engine
from clients.text import text_module
from convert import converter
from engine import IllegalMoveError
from engine.kuhn_poker import SPEC
from engine.kuhn_poker.core import Action
from tests.kuhn_poker.exact import (
    DEALS,
    GAME_VALUE,
    child,
    deal,
    equilibrium,
    expected_chips,
    exploitability,
    infosets,
    uniform,
)

RANK = {"J": 0, "Q": 1, "K": 2}
#: Every way a hand ends, with the chips the winner takes and whether the cards are shown:
#: None for the higher card, else the player who folded.
ENDINGS = {
    ("check", "check"): (1, None),
    ("bet", "fold"): (1, 1),
    ("bet", "call"): (2, None),
    ("check", "bet", "fold"): (1, 0),
    ("check", "bet", "call"): (2, None),
}


def test_the_registry_knows_the_game_and_it_is_not_served() -> None:
    assert engine.game("kuhn-poker") is SPEC
    assert SPEC.player_counts == (2,)
    assert [card.name for card in SPEC.cards] == ["J", "Q", "K"]
    assert SPEC.testing and converter("kuhn_poker") is None and text_module("kuhn_poker") is None
    with pytest.raises(ValueError, match="2 players"):
        engine.new_game("kuhn_poker", 3)


def test_each_of_the_six_deals_is_equally_likely() -> None:
    counts = Counter(engine.new_game("kuhn_poker", 2, seed=seed).hands() for seed in range(6000))
    assert set(counts) == set(DEALS)
    assert all(850 < n < 1150 for n in counts.values()), counts


@pytest.mark.parametrize("cards", DEALS)
@pytest.mark.parametrize("history", list(ENDINGS))
def test_every_terminal_payoff(cards: tuple[str, str], history: tuple[str, ...]) -> None:
    """The pot goes to the higher card at a showdown and to the other player after a fold;
    returns are 1 and 0, scores the chips won, margins the net chips."""
    state = deal(cards, history)
    pot_won, folder = ENDINGS[history]
    winner = 1 - folder if folder is not None else int(RANK[cards[1]] > RANK[cards[0]])
    assert state.is_terminal() and state.current_player == engine.kuhn_poker.TERMINAL
    assert state.phase == "end" and state.legal_actions() == []
    assert state.returns() == [1.0 if p == winner else 0.0 for p in (0, 1)]
    assert state.scores() == [pot_won if p == winner else 0 for p in (0, 1)]
    shown = folder is None
    for p in (0, 1):
        assert state.observation(p).shown == (cards[1 - p] if shown else None)
    state.check()


def test_before_the_end_nobody_has_won_anything() -> None:
    state = deal(("K", "J"))
    assert state.returns() == [0.0, 0.0] and state.scores() == [0, 0]
    state.apply_action(Action.A_BET)
    assert state.returns() == [0.0, 0.0] and state.scores() == [0, 0]


def test_legal_actions_by_phase() -> None:
    state = deal(("Q", "K"))
    assert (state.phase, state.current_player, state.legal_actions()) == ("open", 0, [0, 1])
    state.apply_action(Action.A_CHECK)
    assert (state.phase, state.current_player, state.legal_actions()) == ("open", 1, [0, 1])
    state.apply_action(Action.A_BET)
    assert (state.phase, state.current_player, state.legal_actions()) == ("facing_bet", 0, [2, 3])
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["fold", "call"]


@pytest.mark.parametrize("history", [(), ("check",), ("bet",), ("check", "bet"), ("bet", "call")])
def test_an_illegal_move_raises_and_changes_nothing(history: tuple[str, ...]) -> None:
    state = deal(("J", "Q"), history)
    before = pickle.dumps(state)
    for action in [a for a in range(Action.NUM_ACTIONS) if a not in state.legal_actions()]:
        with pytest.raises(IllegalMoveError):
            state.apply_action(action)
    for bad in (-1, 4, 1000, True, "bet", 1.0, None):
        with pytest.raises(IllegalMoveError):
            state.apply_action(bad)  # type: ignore[arg-type]
    assert pickle.dumps(state) == before


def test_action_texts_round_trip_and_bad_text_is_refused() -> None:
    state = deal(("J", "Q"))
    for action in range(Action.NUM_ACTIONS):
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.string_to_action("  CALL ") == Action.A_CALL
    with pytest.raises(IllegalMoveError, match="raise"):
        state.string_to_action("raise")
    with pytest.raises(ValueError):
        state.action_to_string(4)


def test_clone_copy_and_pickle_are_independent() -> None:
    state = deal(("K", "Q"))
    for other in (
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
    ):
        assert other.observation(0) == state.observation(0) and other.hands() == state.hands()
        other.apply_action(Action.A_BET)
        assert state.legal_actions() == [0, 1] and state.observation(0).history == ()


def test_perft_counts_of_the_game_tree() -> None:
    """States per depth over the six deals: 6, 12, 24, 12; thirty hands end."""
    level = [deal(cards) for cards in DEALS]
    counts, ended = [], 0
    while level:
        counts.append(len(level))
        ended += sum(s.is_terminal() for s in level)
        level = [child(s, a) for s in level if not s.is_terminal() for a in s.legal_actions()]
    assert counts == [6, 12, 24, 12]
    assert ended == 6 * len(ENDINGS) == 30
    assert len(infosets()) == 12


def test_random_games_in_c_count_their_actions() -> None:
    actions = SPEC.random_games(2, 1000, 7)
    assert 2000 <= actions <= 3000


def test_the_game_value_is_minus_one_eighteenth() -> None:
    """Kuhn's equilibria give the first player -1/18 and cannot be exploited; uniformly
    random play is exploitable by 11/24 of a chip a hand."""
    for alpha in (0.0, 1 / 6, 1 / 3):
        strategy = equilibrium(alpha)
        assert expected_chips(strategy, 0) == pytest.approx(float(GAME_VALUE), abs=1e-12)
        assert expected_chips(strategy, 1) == pytest.approx(-float(GAME_VALUE), abs=1e-12)
        assert exploitability(strategy) == pytest.approx(0.0, abs=1e-12)
    assert exploitability(uniform()) == pytest.approx(11 / 24, abs=1e-12)
