"""Inference in Royal Cities (`infer=K`): each world draws the others' hands from K deals
weighed by the hand model (engine/royal_cities/models/, fitted by
bench/royal_cities_fit_hands.py). A deal's weight is the sum of its unseen cards' logits,
checked here against the model's file; the worlds keep the observer's information, in the
secret choices too; a model that favours a kind puts it in the others' hands more often;
and the search still never peeks and is reproducible by its seed."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import engine
from engine.interface import State
from engine.royal_cities import belief
from search.ismcts import sample_worlds
from search.search import ALGORITHMS, SearchConfig, search
from tests.search.test_never_peeks import rebuilt, summary
from tests.support.random_games import random_positions

MODELS = Path(__file__).resolve().parents[2] / "engine" / "royal_cities" / "models"
SIXES = [6 * 7 + 6, *(c * 7 + 6 for c in range(6))]  # the kinds of value 6, white first


def positions(count: int, seed: int, players: int) -> list[State]:
    """Royal Cities positions from seeded random games stopped at random steps, secret
    choices (the passes, first builds and constructions) among them."""
    return random_positions("royal_cities", players, count, seed, max_moves=150)


@contextmanager
def model(path: Path) -> Iterator[None]:
    """The model of `path` in force for 2 players, the shipped one again afterwards."""
    belief.load_model(path)
    try:
        yield
    finally:
        belief.load_model(MODELS / "hands-2p.json")


def unseen_kinds(state: State, observer: int) -> Counter[int]:
    """The kinds of the cards observer cannot see in the others' hands."""
    _, others = belief.hand_inputs(state, observer)
    return Counter(kind for _, held in others for kind in held)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deals_weight_is_the_sum_of_its_unseen_cards_logits(players: int) -> None:
    weights = json.loads((MODELS / f"hands-{players}p.json").read_text())["weights"]
    for state in positions(10, seed=players, players=players):
        observer = state.current_player
        _, others = belief.hand_inputs(state, observer)
        expected = sum(
            sum(w * x for w, x in zip(weights, table[kind], strict=True))
            for table, held in others
            for kind in held
        )
        assert belief.hands_loglik(state, observer) == pytest.approx(expected)


@pytest.mark.parametrize(("players", "count"), [(2, 60), (3, 30), (4, 30)])
def test_weighed_worlds_keep_the_players_information(players: int, count: int) -> None:
    """Each world drawn with inference gives the player to move its own observation, and a
    game rebuilt from that observation draws the same worlds."""
    phases = set()
    for k, state in enumerate(positions(count, seed=1, players=players)):
        player = state.current_player
        phases.add(state.phase)
        config = SearchConfig(infer=64, seed=k)
        worlds = sample_worlds(state, config, 3)
        again = sample_worlds(rebuilt(state, player, k), config, 3)
        for world, other in zip(worlds, again, strict=True):
            assert world.observation(player) == state.observation(player), k
            assert all(world.observation(q) == other.observation(q) for q in range(players)), k
    assert {"construct", "turn"} <= phases


def test_a_model_that_favours_a_kind_deals_it_more_often(tmp_path: Path) -> None:
    """With every six weighed e^3 times any other card, the worlds put sixes in the others'
    hands far more often than uniform deals do."""
    favour = json.loads((MODELS / "hands-2p.json").read_text())
    favour["weights"] = [3.0 if f == "value_6" else 0.0 for f in belief.FEATURES]
    path = tmp_path / "sixes.json"
    path.write_text(json.dumps(favour))
    states = positions(20, seed=4, players=2)

    def sixes(infer: int) -> int:
        total = 0
        for k, state in enumerate(states):
            player = state.current_player
            for world in sample_worlds(state, SearchConfig(infer=infer, seed=k), 10):
                counts = unseen_kinds(world, player)
                total += sum(counts[kind] for kind in SIXES)
        return total

    uniform = sixes(0)
    with model(path):
        favoured = sixes(256)
    assert favoured > 2 * uniform + 10


@pytest.mark.parametrize("players", [2, 4])
def test_a_search_with_inference_never_peeks(players: int) -> None:
    """Every algorithm returns the same statistics from the true state and from the game
    rebuilt from the mover's observation."""
    for k, state in enumerate(positions(15, seed=2, players=players)):
        again = rebuilt(state, state.current_player, k)
        for algorithm in ALGORITHMS:
            config = SearchConfig(algorithm=algorithm, iterations=60, seed=k, worlds=4, infer=32)
            assert summary(search(state, config)) == summary(search(again, config)), (k, algorithm)


def test_a_search_with_inference_is_reproducible_by_its_seed() -> None:
    state = positions(1, seed=3, players=2)[0]
    config = SearchConfig(iterations=300, seed=5, infer=256, threads=2)
    assert summary(search(state, config)) == summary(search(state, config))


def test_solo_has_no_model_and_is_refused() -> None:
    state = engine.new_game("royal_cities", 1, seed=1)
    with pytest.raises(ValueError, match="no model of the players' choices at 1 players"):
        search(state, SearchConfig(iterations=10, infer=8))
    with pytest.raises(ValueError, match="infer must be within"):
        SearchConfig(infer=-1)


def test_a_bad_model_file_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    state = positions(1, seed=5, players=2)[0]
    before = belief.hands_loglik(state, state.current_player)
    good = json.loads((MODELS / "hands-2p.json").read_text())
    for change, reason in [({"features": ["white"]}, "features"),
                           ({"players": [1]}, "players must be counts"),
                           ({"weights": good["weights"][:15]}, "16 finite numbers"),
                           ({"weights": [float("nan")] * 16}, "16 finite numbers"),
                           ({"game": "citadels"}, "not a Royal Cities hand model")]:  # fmt: skip
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**good, **change}))
        with pytest.raises(ValueError, match=reason):
            belief.load_model(path)
    with pytest.raises(ValueError, match="not a hand model"):
        belief.load_model(tmp_path / "missing.json")
    assert belief.model_players() == (2, 3, 4)
    assert belief.hands_loglik(state, state.current_player) == before
    with pytest.raises(ValueError, match="observer"):
        belief.hand_inputs(state, 2)
