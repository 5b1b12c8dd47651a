"""Fit Citadels' pick model (engine.citadels.belief) to the picks of recorded games.

The search reads the draft through this model (`infer`): a deal of the characters is worth
as much as it makes the others' picks likely. The model is a softmax over the characters a
picker is shown, each character's logit linear in the public features `FEATURES` and its
colour income; fitted by maximum likelihood (Adam, a little L2), on every pick with a choice
made by the seats named (`--seats`, all when absent) in `regent tournament` records of one
player count. The games of every third deal are held out; the file written is what
`engine/citadels/models/` holds:

    python -m bench.citadels_fit_picks docs/lab/records/sprt-ct4-fit.jsonl.gz \\
        docs/lab/records/sprt-ct4-rank.jsonl.gz docs/lab/records/sprt-ct4-d40-eval.jsonl.gz \\
        --seats base --out engine/citadels/models/picks-4p.json

With `--score MODEL` nothing is fitted: the model's file is scored on the same held-out picks
(how well a model fitted to some seats reads others' picks).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import engine
from clients.tournament.record import read_finished
from engine.citadels.belief import FEATURES, pick_inputs

HELD_OUT_EVERY = 3  # the games of deals 0, 3, 6... are held out
CHARACTERS = 8


@dataclass(frozen=True)
class Picks:
    """Every pick with a choice by the seats named, one row a pick."""

    players: int
    x: np.ndarray  # the features
    income: np.ndarray  # each character's income
    shown: np.ndarray  # the characters shown, as a mask
    chosen: np.ndarray  # the character picked
    deal: np.ndarray  # the game's deal, which ties its seatings

    def split(self, where: np.ndarray) -> tuple[Picks, Picks]:
        """(the picks where `where` holds, the others)."""
        return self._rows(where), self._rows(~where)

    def _rows(self, where: np.ndarray) -> Picks:
        return Picks(self.players, self.x[where], self.income[where], self.shown[where],
                     self.chosen[where], self.deal[where])  # fmt: skip


def picks(paths: list[Path], seats: set[str] | None) -> Picks:
    """The picks with a choice by the seats named (all when None) in the records' games
    played to their end (the others' count said on stderr); ValueError for records of
    another game or of several player counts."""
    rows: list[tuple[list[float], list[int], list[bool], int, int]] = []
    counts = set()
    for path in paths:
        header, games = read_finished(path)
        if header["config"]["game"] != "citadels":
            raise ValueError(f"{path} records {header['config']['game']}, not citadels")
        spec = engine.game("citadels")
        for record in games:
            counts.add(len(record["seats"]))
            rules = spec.rules_class(**record["rules"])
            state = spec.new_game(len(record["seats"]), seed=record["seed"], rules=rules)
            for move in record["moves"]:
                action = state.string_to_action(move)
                player = state.current_player
                options = state.legal_actions()
                chosen_by = record["seats"][player]
                if state.phase == "pick" and len(options) > 1 and (not seats or chosen_by in seats):
                    shown = sum(1 << option for option in options)  # a pick's id is its character
                    x, income = pick_inputs(state, player, shown)
                    mask = [bool(shown >> c & 1) for c in range(CHARACTERS)]
                    rows.append((x, income, mask, action, record["deal"]))
                state.apply_action(action)
    if len(counts) != 1:
        raise ValueError(f"records of {sorted(counts)} players: one count a fit")
    if not rows:
        raise ValueError("no picks with a choice by those seats")
    columns = [np.array(column) for column in zip(*rows, strict=True)]
    return Picks(counts.pop(), *columns)


def log_likelihoods(table: np.ndarray, beta: float, data: Picks) -> tuple[float, np.ndarray]:
    """(mean log-likelihood of the picks made, each pick's probabilities) under the model."""
    logits = np.where(data.shown, data.x @ table.T + beta * data.income, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return float(log_p[np.arange(len(data.x)), data.chosen].mean()), np.exp(log_p)


def fit(data: Picks, steps: int, l2: float, rate: float) -> tuple[np.ndarray, float]:
    """(table [character][feature], income weight) of the highest likelihood (Adam)."""
    table = np.zeros((CHARACTERS, data.x.shape[1]))
    beta = 0.0
    m_t, v_t, m_b, v_b = np.zeros_like(table), np.zeros_like(table), 0.0, 0.0
    n = len(data.x)
    for step in range(1, steps + 1):
        _, p = log_likelihoods(table, beta, data)
        p[np.arange(n), data.chosen] -= 1.0  # the gradient of -log p: predicted less observed
        grad_t = p.T @ data.x / n + l2 * table
        grad_b = float((p * data.income).sum() / n)
        m_t, v_t = 0.9 * m_t + 0.1 * grad_t, 0.999 * v_t + 0.001 * grad_t**2
        m_b, v_b = 0.9 * m_b + 0.1 * grad_b, 0.999 * v_b + 0.001 * grad_b**2
        fix1, fix2 = 1 - 0.9**step, 1 - 0.999**step
        table -= rate * (m_t / fix1) / (np.sqrt(v_t / fix2) + 1e-8)
        beta -= rate * (m_b / fix1) / ((v_b / fix2) ** 0.5 + 1e-8)
    return table, beta


def held_out(table: np.ndarray, beta: float, held: Picks, label: str) -> tuple[float, float, float]:
    """(uniform's and the model's mean log-likelihood a held-out pick, the share where the
    model's likeliest is the pick), printed."""
    uniform = -float(np.log(held.shown.sum(axis=1)).mean())
    fitted, p = log_likelihoods(table, beta, held)
    top = float((p.argmax(axis=1) == held.chosen).mean())
    print(f"held out, log-likelihood a pick: uniform {uniform:.4f}, {label} {fitted:.4f} "
          f"(the model's likeliest is the pick {top:.1%})")  # fmt: skip
    return uniform, fitted, top


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="tournament records (.jsonl[.gz])")
    parser.add_argument("--seats", help="the seats whose picks to fit, comma-separated")
    parser.add_argument("--steps", type=int, default=4000, help="Adam steps")
    parser.add_argument("--rate", type=float, default=0.02, help="Adam's step size")
    parser.add_argument("--l2", type=float, default=1e-3, help="weight decay")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", type=Path, help="the fitted model (JSON)")
    target.add_argument("--score", type=Path, metavar="MODEL",
                        help="score a model's file on the held-out picks; fit nothing")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        data = picks(args.records, set(args.seats.split(",")) if args.seats else None)
    except ValueError as err:
        parser.error(str(err))
    held, train = data.split(data.deal % HELD_OUT_EVERY == 0)
    print(f"citadels, {data.players} players: {len(train.x)} picks to fit, "
          f"{len(held.x)} held out")  # fmt: skip
    if args.score:
        scored = json.loads(args.score.read_text())
        if data.players not in scored["players"]:
            parser.error(f"--score {args.score}: a model of {scored['players']} players, "
                         f"the records' {data.players}")  # fmt: skip
        held_out(np.array(scored["table"]), scored["income"], held, "scored")
        return 0
    table, beta = fit(train, args.steps, args.l2, args.rate)
    uniform, fitted, top = held_out(table, beta, held, "fitted")
    model = {
        "game": "citadels",
        "players": [data.players],
        "features": list(FEATURES),
        "table": table.tolist(),
        "income": beta,
        "picks": {"fit": len(train.x), "held_out": len(held.x)},
        "held_out_loglik": {"uniform": uniform, "fitted": fitted, "likeliest_picked": top},
        "args": json.loads(json.dumps(vars(args), default=str)),
    }
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
