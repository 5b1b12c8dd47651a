"""Leduc poker's rules: the deal, legal actions and the raise cap, the showdown (a pair, the
higher card, a split pot), observations and hands rebuilt from them, the worlds the search
deals, and the exact solver's figure for uniform play against OpenSpiel's."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from bench.exploitability import ExactGame, uniform
from bench.leduc_poker_exact import deals
from clients.text import text_module
from convert import converter
from engine import IllegalMoveError, InvalidObservationError
from engine.leduc_poker import SPEC, LeducPokerState, Observation, RulesConfig
from engine.leduc_poker import state_from_observation as from_view
from engine.leduc_poker.core import Action


def hand(cards: tuple[str, str, str], history: tuple[str, ...] = ()) -> LeducPokerState:
    """A hand with these cards (player 0's, player 1's, the public card) after `history`."""
    view = Observation(0, 2, RulesConfig(), cards[0], None, (), None)
    state = from_view(view, draws=cards[1:])
    for text in history:
        state.apply_action(state.string_to_action(text))
    return state


def texts(state: LeducPokerState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_the_registry_knows_the_game_and_it_is_not_served() -> None:
    assert engine.game("leduc-poker") is SPEC
    assert SPEC.player_counts == (2,)
    assert [(card.name, card.copies) for card in SPEC.cards] == [("J", 2), ("Q", 2), ("K", 2)]
    assert SPEC.testing and converter("leduc_poker") is None and text_module("leduc_poker") is None
    with pytest.raises(ValueError, match="2 players"):
        engine.new_game("leduc_poker", 3)


def test_the_deal_draws_three_of_the_six_cards_uniformly() -> None:
    """A pair of ranks between the two hands comes up 1/5 of the time; the public card pairs
    player 0's card 1/5 of the time too (one of the four cards left, of five)."""
    hands = [engine.new_game("leduc_poker", 2, seed=seed).hands() for seed in range(6000)]
    assert Counter(h[0] for h in hands).keys() == {"J", "Q", "K"}
    same = sum(h[0] == h[1] for h in hands) / len(hands)
    paired = sum(h[0] == h[2] for h in hands) / len(hands)
    assert 0.17 < same < 0.23 and 0.17 < paired < 0.23, (same, paired)
    assert not any(h[0] == h[1] == h[2] for h in hands)


def test_the_betting_of_a_round_and_its_cap() -> None:
    state = hand(("J", "Q", "K"), ("check",))
    assert texts(state) == ["check", "bet"] and state.phase == "open"
    state.apply_action(state.string_to_action("bet"))
    assert texts(state) == ["fold", "call", "raise"] and state.phase == "facing_bet"
    state.apply_action(state.string_to_action("raise"))
    assert texts(state) == ["fold", "call"]  # two bets and raises a round at most
    state.apply_action(state.string_to_action("call"))
    assert state.round == 1 and state.current_player == 0
    assert texts(state) == ["check", "bet"]
    state.apply_action(state.string_to_action("check"))
    state.apply_action(state.string_to_action("bet"))
    state.apply_action(state.string_to_action("raise"))
    state.apply_action(state.string_to_action("call"))
    assert state.is_terminal() and state.max_game_length == len(state.observation(0).history)
    # The Queen beats the Jack: 1 + 2 + 2 in round one, 4 + 4 in round two.
    assert state.scores() == [0, 13] and state.returns() == [0.0, 1.0]
    state.check()


def test_action_ids_name_the_public_card_in_round_two() -> None:
    """The same move has one id in round one and one per public card in round two, so that a
    search's trees keep the public cards apart."""
    first = hand(("J", "Q", "K"), ("check", "check"))
    ids = {card: hand(("J", "Q", card), ("check", "check")).legal_actions()[0] for card in "JQK"}
    assert hand(("J", "Q", "K")).legal_actions() == [Action.A_CHECK, Action.A_BET]
    assert len(set(ids.values())) == 3 and first.legal_actions()[0] == ids["K"]
    assert all(a % Action.NUM_MOVES == Action.A_CHECK for a in ids.values())
    assert max(ids.values()) < Action.NUM_ACTIONS


@pytest.mark.parametrize(
    ("cards", "history", "scores"),
    [
        (("J", "Q", "J"), ("check", "check", "check", "check"), [1, 0]),  # a pair of Jacks
        (("K", "Q", "J"), ("check", "check", "bet", "call"), [5, 0]),  # the higher card
        (("Q", "Q", "K"), ("bet", "call", "bet", "call"), [0, 0]),  # split
        (("K", "J", "Q"), ("bet", "fold"), [1, 0]),
        (("K", "J", "Q"), ("check", "bet", "raise", "fold"), [3, 0]),
        (("J", "K", "Q"), ("check", "check", "bet", "raise", "fold"), [0, 5]),
    ],
)
def test_showdowns_and_folds(
    cards: tuple[str, str, str], history: tuple[str, ...], scores: list[int]
) -> None:
    state = hand(cards, history)
    assert state.is_terminal() and state.scores() == scores
    split = scores == [0, 0]
    assert state.returns() == ([0.5, 0.5] if split else [float(s > 0) for s in scores])
    shown = state.observation(0).shown
    assert shown == (None if "fold" in history else cards[1])


def test_an_illegal_move_is_refused() -> None:
    state = hand(("J", "Q", "K"))
    with pytest.raises(IllegalMoveError):
        state.apply_action(state.string_to_action("call"))


def test_random_hands_keep_every_invariant() -> None:
    for seed in range(300):
        state = engine.new_game("leduc_poker", 2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.check()
            state.apply_action(rng.choice(state.legal_actions()))
        state.check()
        assert sum(state.returns()) == 1.0 and min(state.scores()) == 0
    assert SPEC.random_games(2, 100, 1) > 100


def test_an_observation_shows_what_its_player_knows_and_rebuilds_the_hand() -> None:
    state = hand(("Q", "K", "J"), ("bet", "call", "check"))
    view = state.observation(1)
    assert (view.card, view.public, view.history, view.shown) == (
        "K",
        "J",
        ("bet", "call", "check"),
        None,
    )
    assert Observation.from_json(json.loads(json.dumps(view.to_json()))) == view
    assert hand(("Q", "K", "J"), ("bet",)).observation(0).public is None
    for seed in range(40):
        again = from_view(view, seed=seed)
        assert again.observation(1) == view and again.hands()[1:] == ("K", "J")
    assert from_view(view, draws=("K",)).hands() == ("K", "K", "J")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"card": "A"}, "card"),
        ({"public": "J"}, "public"),  # not up in round one
        ({"history": ["call"]}, "history[0]"),
        ({"shown": "K"}, "shown"),
        ({"history": ["bet"] * 9}, "history"),
    ],
)
def test_a_wrong_observation_names_its_field(change: dict[str, object], field: str) -> None:
    data = {**hand(("Q", "K", "J")).observation(0).to_json(), **change}
    with pytest.raises(InvalidObservationError) as err:
        from_view(data)
    assert err.value.field == field


def test_draws_cannot_name_a_third_copy() -> None:
    view = Observation(0, 2, RulesConfig(), "K", None, (), None)
    with pytest.raises(InvalidObservationError) as err:
        from_view(view, draws=("K", "K"))
    assert err.value.field == "draws[1]"


def test_the_worlds_the_search_deals_keep_what_the_player_knows() -> None:
    """Round one: the other card and the public card are dealt again; round two: the other
    card alone, from the four cards the player has not seen."""
    for history in ((), ("check", "check", "bet")):
        state = hand(("K", "Q", "J"), history)
        player = state.current_player
        view = state.observation(player)
        dealt = Counter()
        for seed in range(2000):
            world = state.resample(player, seed)
            assert world.observation(player) == view
            dealt[world.hands()] += 1
        publics = {h[2] for h in dealt}
        assert publics == ({"J"} if history else {"J", "Q", "K"}), (history, dealt)
        assert {h[1 - player] for h in dealt} == {"J", "Q", "K"}


def test_uniform_play_is_exploitable_by_openspiel_s_figure() -> None:
    """OpenSpiel's NashConv of uniform play on its leduc_poker is 4.747222 (exploitability,
    the mean over the seats, half of it): the same rules, bets and payoffs."""
    game = ExactGame(deals())
    assert len(game.infosets()) == 288  # by rank: the suits never matter
    assert game.exploitability(uniform(game)) == pytest.approx(4.747222222 / 2, abs=1e-8)
    assert sum(p for p, _ in deals()) == pytest.approx(1.0)
