"""Inference (`infer=K`): each world draws the hidden information from K deals weighed once a
search by the game's model of the others' choices. Citadels reads the draft with its pick
model (engine/citadels/models/, fitted by bench/citadels_fit_picks.py): the posterior of a known
position is checked against one enumerated by hand, the worlds stay consistent with the
observer's information, and the search still never peeks and is reproducible by its seed."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

import engine
from engine.citadels import belief
from engine.interface import State
from search.ismcts import heuristic_action, sample_worlds
from search.search import ALGORITHMS, SearchConfig, search
from tests.search.test_never_peeks import rebuilt, summary
from tests.search.test_reuse import _play
from tests.support.random_games import random_positions

ROOT = Path(__file__).resolve().parents[2]
MODEL = json.loads((ROOT / "engine" / "citadels" / "models" / "picks-4p.json").read_text())
CHARACTERS = ("assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")


def positions(count: int, seed: int, players: int = 4) -> list[State]:
    """Citadels positions from seeded random games stopped at random steps."""
    return random_positions("citadels", players, count, seed, max_moves=200)


def last_pick(seed: int) -> State:
    """Round one of a 4-player game at its fourth pick: the first three picks made by the
    heuristic, so they say something of who took what."""
    state = engine.new_game("citadels", 4, seed=seed)
    while state.phase == "pick" and state.observation(0).draft.step < 3:
        state.apply_action(heuristic_action(state, seed))
    assert state.phase == "pick" and state.round == 1
    return state


def pick_probability(state: State, player: int, shown: set[int], chosen: int) -> float:
    """P(player picks `chosen` when shown `shown`) from the model's file, computed here."""
    x, income = belief.pick_inputs(state, player, sum(1 << c for c in shown))
    logit = {
        c: sum(w * v for w, v in zip(MODEL["table"][c], x, strict=True))
        + MODEL["income"] * income[c]
        for c in shown
    }
    total = sum(math.exp(v) for v in logit.values())
    return math.exp(logit[chosen]) / total


def enumerated_posterior(state: State) -> dict[int, list[float]]:
    """P(each earlier picker holds each character) for the fourth picker, by enumerating the
    deals: the four characters it has not seen go to the face-down discard and the three
    picks in every order, each deal weighed by the three picks' probabilities."""
    observer = state.current_player
    draft = state.observation(observer).draft
    seen = {CHARACTERS.index(c) for c in (*draft.face_up, *draft.shown[0])}
    shown4 = {CHARACTERS.index(c) for c in draft.shown[0]}
    unseen = sorted(set(range(8)) - seen)
    pickers = [(observer + k) % 4 for k in (1, 2, 3)]  # the first, second and third pickers
    posterior = {p: [0.0] * 8 for p in pickers}
    total = 0.0
    for _down, *picks in itertools.permutations(unseen):
        weight = 1.0
        for k, (player, chosen) in enumerate(zip(pickers, picks, strict=True)):
            shown = {*picks[k:], *shown4}
            weight *= pick_probability(state, player, shown, chosen)
        total += weight
        for player, chosen in zip(pickers, picks, strict=True):
            posterior[player][chosen] += weight
    return {p: [v / total for v in row] for p, row in posterior.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_posterior_of_the_last_pick_is_the_enumerated_one(seed: int) -> None:
    """At the fourth pick, the 24 deals of the four unseen characters enumerated by hand: the
    weighed deals (`holders`) and the worlds a search draws (`sample_worlds`) give each
    earlier picker its characters as often as the enumeration says."""
    state = last_pick(seed)
    exact = enumerated_posterior(state)
    observer = state.current_player
    weighed = belief.holders(state, observer, 20_000, seed)
    worlds = sample_worlds(state, SearchConfig(infer=8192, seed=seed), 4000)
    for player, row in exact.items():
        assert weighed[player] == pytest.approx(row, abs=0.02), player
        drawn = [0.0] * 8
        for world in worlds:
            (held,) = world.observation(player).players[player].characters
            drawn[CHARACTERS.index(held)] += 1 / len(worlds)
        assert drawn == pytest.approx(row, abs=0.035), player
    assert max(max(row) for row in exact.values()) > 0.4  # the picks do say something


def test_the_true_deals_log_likelihood_is_the_product_of_its_picks() -> None:
    state = last_pick(4)
    observer = state.current_player
    draft = state.observation(observer).draft
    shown4 = {CHARACTERS.index(c) for c in draft.shown[0]}
    picks = [
        CHARACTERS.index(state.observation(p).draft.picks[0])
        for p in ((observer + k) % 4 for k in (1, 2, 3))
    ]
    expected = sum(
        math.log(pick_probability(state, (observer + 1 + k) % 4, {*picks[k:], *shown4}, picks[k]))
        for k in range(3)
    )
    assert belief.draft_loglik(state, observer) == pytest.approx(expected)


@pytest.mark.parametrize(("players", "count"), [(4, 100), (6, 50)])
def test_weighed_worlds_keep_the_players_information(players: int, count: int) -> None:
    """Each world drawn with inference gives the player to move its own observation, and a
    game rebuilt from that observation draws the same worlds (at each count of a model)."""
    for k, state in enumerate(positions(count, seed=1, players=players)):
        player = state.current_player
        config = SearchConfig(infer=64, seed=k)
        worlds = sample_worlds(state, config, 3)
        again = sample_worlds(rebuilt(state, player, k), config, 3)
        for world, other in zip(worlds, again, strict=True):
            assert world.observation(player) == state.observation(player), k
            assert all(world.observation(q) == other.observation(q) for q in range(players)), k


@pytest.mark.parametrize(("players", "count"), [(4, 40), (6, 20)])
def test_a_search_with_inference_never_peeks(players: int, count: int) -> None:
    """Every algorithm returns the same statistics from the true state and from the game
    rebuilt from the mover's observation."""
    for k, state in enumerate(positions(count, seed=2, players=players)):
        again = rebuilt(state, state.current_player, k)
        for algorithm in ALGORITHMS:
            config = SearchConfig(algorithm=algorithm, iterations=60, seed=k, worlds=4, infer=32)
            assert summary(search(state, config)) == summary(search(again, config)), (k, algorithm)


def test_a_search_with_inference_is_reproducible_by_its_seed() -> None:
    state = positions(1, seed=3)[0]
    config = SearchConfig(iterations=300, seed=5, infer=256, threads=2)
    assert summary(search(state, config)) == summary(search(state, config))
    uniform = SearchConfig(iterations=300, seed=5, threads=2)
    assert summary(search(state, config)) != summary(search(state, uniform))


def test_a_bad_model_file_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    state = last_pick(1)
    before = belief.draft_loglik(state, state.current_player)
    good = {**MODEL, "players": [4]}
    for change, reason in [({"features": ["bias"]}, "features"),
                           ({"players": [9]}, "players must be counts"),
                           ({"table": MODEL["table"][:7]}, "8 rows"),
                           ({"income": float("nan")}, "finite"),
                           ({"game": "royal_cities"}, "not a Citadels pick model")]:  # fmt: skip
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**good, **change}))
        with pytest.raises(ValueError, match=reason):
            belief.load_model(path)
    with pytest.raises(ValueError, match="not a pick model"):
        belief.load_model(tmp_path / "missing.json")
    assert belief.model_players() == (2, 3, 4, 5, 6, 7)
    assert belief.draft_loglik(state, state.current_player) == before


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("royal_cities", 2)])
def test_a_reusing_bot_with_inference_never_peeks(game: str, players: int) -> None:
    """A bot that keeps its trees weighs the deals again for each new root: bots given the
    true state and bots given the state typed in from their observation play the same game
    (Royal Cities' hand model too)."""
    spec = "mo-ismcts:iterations=100,reuse=1,infer=32"
    from_truth, reused = _play(game, players, lambda s, seat: s.clone(), spec, seed=3)
    typed_in, reused_typed = _play(
        game, players, lambda s, seat: engine.state_from_observation(s.observation(seat), seed=9),
        spec, seed=3,
    )  # fmt: skip
    assert typed_in == from_truth and reused == reused_typed and sum(reused) > 0
