"""`merge_draws`: below the root, a decision whose options hang on the player's own hidden draw
(Citadels: which drawn card to keep; Royal Cities: which of the Hero's two cards goes to the
Market) is named in the trees by rank, so the worlds' draws share one subtree. The root still
names moves by their actions, a kept tree is dropped where its next moves are named by rank,
and the search still reads only the player's information."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from engine.interface import State
from search.search import Search, SearchConfig, search
from tests.search.test_never_peeks import check_searches

#: (game, seed of a 2-player position where the draw is the searched move, the draw)
DRAWS = [("citadels", 40, "cards"), ("royal_cities", 32, "add hero")]


def _before_draw(game: str, seed: int, draw: str) -> State:
    """A 2-player position of a seeded random game where the move `draw` is legal."""
    state = engine.new_game(game, 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(10, 150)):
        state.apply_action(rng.choice(state.legal_actions()))
    while draw not in [state.action_to_string(a) for a in state.legal_actions()]:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "seed", "draw"), DRAWS)
def test_the_keep_after_a_draw_is_named_by_rank_below_the_root(
    game: str, seed: int, draw: str
) -> None:
    state = _before_draw(game, seed, draw)
    merged = search(state, SearchConfig(iterations=2000, seed=1, merge_draws=1))
    apart = search(state, SearchConfig(iterations=2000, seed=1))
    assert merged.text == apart.text == draw
    # The card kept has no name in the merged tree: it is the heuristic's first, or second.
    assert merged.principal_variation[:2] == (draw, "(hidden)")
    assert apart.principal_variation[1].startswith("keep ")
    assert {m.action for m in merged.moves} == set(state.legal_actions())


@pytest.mark.parametrize(("game", "seed", "draw"), DRAWS)
def test_the_root_names_the_keep_by_its_cards(game: str, seed: int, draw: str) -> None:
    state = _before_draw(game, seed, draw)
    state.apply_action(state.string_to_action(draw))
    assert len(state.legal_actions()) == 2  # two cards of two kinds drawn
    result = search(state, SearchConfig(iterations=1000, seed=1, merge_draws=1))
    assert {m.action for m in result.moves} == set(state.legal_actions())
    assert all(m.text.startswith("keep ") for m in result.moves)


@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts"])
@pytest.mark.parametrize(("game", "seed", "draw"), DRAWS)
def test_a_kept_tree_whose_next_moves_are_ranks_is_not_reused(
    algorithm: str, game: str, seed: int, draw: str
) -> None:
    state = _before_draw(game, seed, draw)
    config = SearchConfig(algorithm=algorithm, iterations=2000, seed=1, merge_draws=1)
    first = Search(state, config)
    first.advance()
    move = state.string_to_action(draw)
    after = state.clone()
    after.apply_action(move)
    kept = Search(after, replace(config, iterations=300), previous=first, played=move)
    assert sum(m.visits for m in kept.result().moves) == 0  # started afresh
    kept.advance()
    result = kept.result()
    assert sum(m.visits for m in result.moves) == 300
    assert {m.action for m in result.moves} == set(after.legal_actions())


@pytest.mark.parametrize("game", ["citadels", "royal_cities"])
def test_merged_searches_never_peek(game: str) -> None:
    check_searches(game, 12, seed=5, iterations=300, merge_draws=1)
