"""`merge_draws`: below the root, a decision whose options hang on the player's own hidden draw
(Citadels: which drawn card to keep) is named in the trees by rank, so the worlds' draws share
one subtree. The root still names moves by their actions, a kept tree is dropped where its next
moves are named by rank, and the search still reads only the player's information."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from engine.interface import State
from search.search import ALGORITHMS, Search, SearchConfig, search
from tests.search.test_never_peeks import positions, rebuilt, summary


def _resource_decision(seed: int) -> State:
    """A Citadels 2-player position at a resource decision, from a seeded random game."""
    state = engine.new_game("citadels", 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 120)):
        state.apply_action(rng.choice(state.legal_actions()))
    while state.phase != "resource":
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_keep_after_a_draw_is_named_by_rank_below_the_root() -> None:
    state = _resource_decision(23)  # drawing cards is the move, with or without
    merged = search(state, SearchConfig(iterations=2000, seed=1, merge_draws=1))
    apart = search(state, SearchConfig(iterations=2000, seed=1))
    assert merged.text == apart.text == "cards"
    # The card kept has no name in the merged tree: it is the heuristic's first, or second.
    assert merged.principal_variation[:2] == ("cards", "(hidden)")
    assert apart.principal_variation[1].startswith("keep ")
    assert {m.action for m in merged.moves} == set(state.legal_actions())


def test_the_root_names_the_keep_by_its_cards() -> None:
    state = _resource_decision(23)
    state.apply_action(state.string_to_action("cards"))
    assert state.phase == "keep"
    result = search(state, SearchConfig(iterations=1000, seed=1, merge_draws=1))
    assert {m.action for m in result.moves} == set(state.legal_actions())
    assert result.text.startswith("keep ")


@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts"])
def test_a_kept_tree_whose_next_moves_are_ranks_is_not_reused(algorithm: str) -> None:
    state = _resource_decision(23)
    config = SearchConfig(algorithm=algorithm, iterations=2000, seed=1, merge_draws=1)
    first = Search(state, config)
    first.advance()
    cards = state.string_to_action("cards")
    after = state.clone()
    after.apply_action(cards)
    kept = Search(after, replace(config, iterations=300), previous=first, played=cards)
    assert sum(m.visits for m in kept.result().moves) == 0  # started afresh
    kept.advance()
    result = kept.result()
    assert sum(m.visits for m in result.moves) == 300
    assert {m.action for m in result.moves} == set(after.legal_actions())


def test_merged_searches_never_peek() -> None:
    for k, state in positions("citadels", 12, seed=5):
        player = state.current_player
        again = rebuilt(state, player, k)
        for algorithm in ALGORITHMS:
            config = SearchConfig(algorithm=algorithm, iterations=300, seed=k, merge_draws=1)
            assert summary(search(state, config)) == summary(search(again, config)), (
                state.num_players, k, state.phase, algorithm)  # fmt: skip
