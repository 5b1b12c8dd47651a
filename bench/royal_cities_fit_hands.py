"""Fit Royal Cities' hand model (engine.royal_cities.belief) to the hands of recorded games.

The search reads the others' hands through this model (`infer`): a deal of the cards a
player cannot see is worth as much as it makes the others' hands likely. The model gives each
card unseen in another player's hand a logit linear in the public features `FEATURES` of its
kind and that player (what their passes, purchases, plays and builds left in public); a deal's
weight is the sum of its hands' logits. It is fitted by maximum likelihood, each unseen card
in a hand being one of the kinds its observer cannot see with odds of the copies unseen
times its weight, at every `--every`th position of `regent tournament` records of one player
count, from the view of the player to move. The games of every third deal are held out; the
file written is what `engine/royal_cities/models/` holds:

    python -m bench.royal_cities_fit_hands docs/lab/records/rc2-fit-400.jsonl.gz \\
        docs/lab/records/rc2-eps01-400.jsonl.gz --out engine/royal_cities/models/hands-2p.json
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

import engine
from clients.tournament.record import read_finished
from engine.royal_cities.belief import FEATURES, hand_inputs

HELD_OUT_EVERY = 3  # the games of deals 0, 3, 6... are held out


@dataclass(frozen=True)
class Hands:
    """Every (position, other player) with unseen cards in that player's hand: a row each."""

    players: int
    x: np.ndarray  # [row, kind, feature]: the features of each kind in that hand
    log_pool: np.ndarray  # [row, kind]: log of the copies the observer cannot see (-inf: none)
    held: np.ndarray  # [row, kind]: the unseen cards of each kind the hand holds
    deal: np.ndarray  # the game's deal, which ties its seatings

    def split(self, where: np.ndarray) -> tuple[Hands, Hands]:
        """(the rows where `where` holds, the others)."""
        return self._rows(where), self._rows(~where)

    def _rows(self, where: np.ndarray) -> Hands:
        return Hands(self.players, self.x[where], self.log_pool[where], self.held[where],
                     self.deal[where])  # fmt: skip


def hands(paths: list[Path], every: int) -> Hands:
    """The rows of every `every`th position of the records' games played to their end (the
    others' count said on stderr); ValueError for records of another game or of several
    player counts."""
    x, log_pool, held, deal = [], [], [], []
    counts = set()
    spec = engine.game("royal_cities")
    for path in paths:
        header, games = read_finished(path)
        if header["config"]["game"] != "royal_cities":
            raise ValueError(f"{path} records {header['config']['game']}, not royal_cities")
        for record in games:
            counts.add(len(record["seats"]))
            rules = spec.rules_class(**record["rules"])
            state = spec.new_game(len(record["seats"]), seed=record["seed"], rules=rules)
            for step, move in enumerate(record["moves"]):
                if step % every == 0:
                    pool, others = hand_inputs(state, state.current_player)
                    with np.errstate(divide="ignore"):
                        logs = np.log(np.array(pool, dtype=np.float64))
                    for table, kinds in others:
                        if kinds:
                            x.append(np.array(table, dtype=np.float32))
                            log_pool.append(logs)
                            held.append(np.bincount(kinds, minlength=len(pool)))
                            deal.append(record["deal"])
                state.apply_action(state.string_to_action(move))
    if len(counts) != 1:
        raise ValueError(f"records of {sorted(counts)} players: one count a fit")
    if not x:
        raise ValueError("no hand with unseen cards in the records")
    return Hands(counts.pop(), np.stack(x), np.stack(log_pool), np.stack(held), np.array(deal))


def loss(w: np.ndarray, data: Hands, l2: float) -> tuple[float, np.ndarray]:
    """(mean negative log-likelihood an unseen card, plus l2 · |w|², and its gradient)."""
    logits = data.x @ w + data.log_pool
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    n_held = data.held.sum(axis=1)
    cards = n_held.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        log_p = np.where(data.held > 0, np.log(p), 0.0)
    nll = -float((data.held * log_p).sum()) / cards
    observed = np.einsum("rk,rkf->f", data.held, data.x)
    expected = np.einsum("r,rk,rkf->f", n_held, p, data.x)
    return nll + l2 * float(w @ w), (expected - observed) / cards + 2 * l2 * w


def fit(data: Hands, l2: float) -> np.ndarray:
    """The weights of the highest likelihood (L-BFGS; the problem is convex)."""
    result = minimize(loss, np.zeros(data.x.shape[2]), args=(data, l2), jac=True,
                      method="L-BFGS-B")  # fmt: skip
    return result.x


def held_out(w: np.ndarray, held: Hands, label: str) -> tuple[float, float]:
    """(uniform's and the model's mean log-likelihood a held-out unseen card), printed."""
    uniform = -loss(np.zeros_like(w), held, 0.0)[0]
    fitted = -loss(w, held, 0.0)[0]
    print(f"held out, log-likelihood an unseen card: uniform {uniform:.4f}, {label} "
          f"{fitted:.4f} (+{fitted - uniform:.4f} nats a card)")  # fmt: skip
    return uniform, fitted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="tournament records (.jsonl[.gz])")
    parser.add_argument("--every", type=int, default=6, help="read every Nth position")
    parser.add_argument("--l2", type=float, default=1e-4, help="weight decay")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", type=Path, help="the fitted model (JSON)")
    target.add_argument("--score", type=Path, metavar="MODEL",
                        help="score a model's file on the held-out hands; fit nothing")  # fmt: skip
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be at least 1")
    try:
        data = hands(args.records, args.every)
    except ValueError as err:
        parser.error(str(err))
    held, train = data.split(data.deal % HELD_OUT_EVERY == 0)
    print(f"royal_cities, {data.players} players: {int(train.held.sum())} unseen cards "
          f"({len(train.x)} hands) to fit, {int(held.held.sum())} held out")  # fmt: skip
    if args.score:
        scored = json.loads(args.score.read_text())
        if data.players not in scored["players"]:
            parser.error(f"--score {args.score}: a model of {scored['players']} players, "
                         f"the records' {data.players}")  # fmt: skip
        held_out(np.array(scored["weights"]), held, "scored")
        return 0
    w = fit(train, args.l2)
    uniform, fitted = held_out(w, held, "fitted")
    model = {
        "game": "royal_cities",
        "players": [data.players],
        "features": list(FEATURES),
        "weights": w.tolist(),
        "cards": {"fit": int(train.held.sum()), "held_out": int(held.held.sum())},
        "held_out_loglik": {"uniform": uniform, "fitted": fitted},
        "args": json.loads(json.dumps(vars(args), default=str)),
    }
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
