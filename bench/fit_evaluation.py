"""Fit the weights of each game's position evaluation (`engine/<game>/evaluation.pyx`).

Seeded self-play games by the playout policy (the game's heuristic, a uniformly random
move with probability `epsilon`) give positions, each labelled by how the game ended
(its returns). A conditional logit (softmax over the players of weights . features)
is fitted by maximum likelihood with a little L2 and every weight at least 0, and
the weights are printed in the order the .pyx lists them, to be pasted there:

    python -m bench.fit_evaluation --game GAME --games 1000 --seed 1
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
from collections.abc import Callable

import numpy as np
from scipy.optimize import minimize

import engine
from engine.interface import State
from search.ismcts import heuristic_action

L2 = 1e-3
Sample = tuple[list[list[float]], list[float]]


def fitted_games() -> list[str]:
    """The games whose evaluation has fitted weights: those with `engine.<game>.evaluation`."""
    return [spec.name for spec in engine.games()
            if importlib.util.find_spec(f"engine.{spec.name}.evaluation") is not None]  # fmt: skip


def feature_reader(game: str) -> Callable[[State], list[list[float]]]:
    """The game's `features(state)`, one row per owner."""
    return importlib.import_module(f"engine.{game}.evaluation").features


def labels(state: State, owners: int) -> list[float]:
    """The result per owner: the returns, and in solo mode the Regent's as the rest."""
    result = state.returns()
    return [*result, 1.0 - sum(result)] if owners > len(result) else result


def positions(
    game: str, players: int, games: int, seed: int, rate: float, epsilon: float
) -> list[Sample]:
    """(features per owner, result per owner) of positions sampled at `rate` from
    seeded self-play games by the playout policy."""
    spec = engine.game(game)
    features = feature_reader(game)
    rng = random.Random(seed)
    out: list[Sample] = []
    for g in range(games):
        state = spec.new_game(players, seed=seed * 1_000_003 + g)
        sampled = []
        while not state.is_terminal():
            if rng.random() < rate:
                sampled.append(features(state))
            if rng.random() < epsilon:
                action = rng.choice(state.legal_actions())
            else:
                action = heuristic_action(state, rng.getrandbits(64))
            state.apply_action(action)
        out.extend((rows, labels(state, len(rows))) for rows in sampled)
    return out


Arrays = list[tuple[np.ndarray, np.ndarray]]


def grouped(data: list[Sample]) -> Arrays:
    """The samples as (features, results) arrays, one pair per number of owners."""
    groups: dict[int, tuple[list[list[list[float]]], list[list[float]]]] = {}
    for rows, result in data:
        xs, ys = groups.setdefault(len(rows), ([], []))
        xs.append(rows)
        ys.append(result)
    return [(np.array(xs), np.array(ys)) for xs, ys in groups.values()]


def log_loss(w: np.ndarray, arrays: Arrays) -> tuple[float, np.ndarray]:
    """The mean log loss of weights `w` over the samples, and its gradient."""
    total, grad, count = 0.0, np.zeros(len(w)), 0
    for x, y in arrays:
        u = x @ w
        u -= u.max(axis=1, keepdims=True)
        logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
        p = np.exp(logp)
        total -= (y * logp).sum()
        # d/dw of -sum y log p = sum_o (p_o - y_o) x_o (the y of a position sum to 1).
        grad += np.einsum("no,now->w", p - y, x)
        count += len(x)
    return total / count, grad / count


def fit(data: list[Sample]) -> tuple[np.ndarray, float, float]:
    """The weights of the conditional logit, its mean log loss and the uniform guess's."""
    width = len(data[0][0][0])
    arrays = grouped(data)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = log_loss(w, arrays)
        return value + L2 * w @ w, grad + 2 * L2 * w

    bounds = [(0.0, None)] * width  # more of a feature never lowers a player's share
    result = minimize(loss, np.zeros(width), jac=True, method="L-BFGS-B", bounds=bounds)
    uniform = loss(np.zeros(width))[0]
    return result.x, float(result.fun), uniform


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", type=lambda name: name.replace("-", "_"),
                        choices=fitted_games(), required=True)  # fmt: skip
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.1, help="share of positions kept")
    parser.add_argument("--epsilon", type=float, default=0.2, help="the playouts' epsilon")
    parser.add_argument("--players", type=int, nargs="+", help="player counts (default: all)")
    parser.add_argument("--held-out", type=float, default=0.0, metavar="SHARE",
                        help="this share of the positions is not fitted: its log loss is "
                        "reported")  # fmt: skip
    args = parser.parse_args()
    data: list[Sample] = []
    for players in args.players or engine.game(args.game).player_counts:
        data += positions(args.game, players, args.games, args.seed + players, args.rate,
                          args.epsilon)  # fmt: skip
    held: list[Sample] = []
    if args.held_out:
        random.Random(args.seed).shuffle(data)
        held = data[: int(len(data) * args.held_out)]
    weights, fitted, uniform = fit(data[len(held) :])
    print(f"{len(data) - len(held)} positions; mean log loss {fitted:.4f} "
          f"(uniform guess {uniform:.4f})")  # fmt: skip
    if held:
        print(f"{len(held)} held out; mean log loss {log_loss(weights, grouped(held))[0]:.4f}")
    print("[" + ", ".join(f"{w:.6g}" for w in weights) + "]")


if __name__ == "__main__":
    main()
