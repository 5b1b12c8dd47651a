"""Fit a game's playout heuristic to what real games came to (simulation balancing).

The search judges a move by the mean result of playouts (the heuristic, a uniformly random
move with probability `epsilon`), so the heuristic is best when that mean predicts how a
game goes on, not when it wins most: Silver & Tesauro (2009), "Monte-Carlo simulation
balancing". Positions come from recorded games (`regent tournament` records), one every
`--every` actions; each is labelled by the returns of its game. For each, `--playouts`
playouts from worlds dealt again from the mover's view (as the search deals them) give a
mean per seat, and the loss is the squared gap to the label less the mean's own sampling
variance (an unbiased estimate of the squared error of the exact mean). SPSA fits the
weights of `engine.<game>.heuristic.TABLE` at the records' player count (one count a fit),
each perturbation pair playing the same positions with the same seeds; the games of every
third deal are held out and scored at the start and the end. A fit starts from the hand-set
weights (or an earlier fit's, `--start`).

With `--target moves` the heuristic is fitted instead to the moves the recorded seats chose
(`--seats`, all when absent; the first step of expert iteration): every decision with a
choice, in a world dealt once from the mover's view (seeded), and the loss is the share of
them where the playouts' heuristic would choose otherwise.

The fitted weights are written as JSON with their player count, to be served (`regent serve
--heuristic-weights`), made the playouts' default (a game's `fits/` folder), or started from
by a longer fit:

    python -m bench.balance_heuristic RECORD.jsonl... --steps 300 --seed 1 --out fit.json
    python -m bench.balance_heuristic RECORD.jsonl... --target moves --seats base --out fit.json
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import engine
from clients.tournament.record import read_finished
from engine.heuristics import weight_table
from engine.interface import State
from engine.weights import WeightTable, read_fit
from search.ismcts import heuristic_action, playout_results

HELD_OUT_EVERY = 3  # the games of deals 0, 3, 6... are held out


@dataclass(frozen=True)
class Position:
    """A recorded position and how its game ended; `deal` ties the seatings of one deal. For
    `--target moves`, a world dealt from the mover's view and the move recorded there."""

    state: State
    returns: tuple[float, ...]
    deal: int
    move: int = -1


def positions(paths: list[Path], every: int) -> tuple[str, list[Position]]:
    """(the game, every `every`-th position before the end of each recorded game). All
    records must be of one game; a record of another raises ValueError."""
    return replay(paths, lambda i, state, action, seat: i % every == 0, world_seed=None)


def decisions(paths: list[Path], seats: set[str] | None, seed: int) -> tuple[str, list[Position]]:
    """(the game, every decision with a choice made by the seats named, all when None), each
    in a world dealt from the mover's view, the worlds seeded in turn from `seed`."""
    return replay(
        paths,
        lambda i, state, action, seat: (
            len(state.legal_actions()) > 1 and (not seats or seat in seats)
        ),
        world_seed=seed,
    )


def replay(
    paths: list[Path], keep: Callable[[int, State, int, str], bool], world_seed: int | None
) -> tuple[str, list[Position]]:
    """(the game, the positions of the recorded games that `keep(index, state, action, seat)`
    takes): the state itself, or with `world_seed` a world dealt from the mover's view and the
    move made. Games that did not finish are skipped, and their count said on stderr. All
    records must be of one game; a record of another raises ValueError."""
    dice = random.Random(world_seed)
    game = ""
    out: list[Position] = []
    for path in paths:
        header, games = read_finished(path)
        config = header["config"]
        if game and config["game"] != game:
            raise ValueError(f"{path} records {config['game']}, the others {game}")
        game = config["game"]
        spec = engine.game(game)
        for record in games:
            rules = spec.rules_class(**record["rules"])
            state = engine.new_game(game, len(record["seats"]), seed=record["seed"], rules=rules)
            returns = tuple(record["returns"])
            for i, move in enumerate(record["moves"]):
                action = state.string_to_action(move)
                mover = state.current_player
                if keep(i, state, action, record["seats"][mover]):
                    if world_seed is None:
                        out.append(Position(state.clone(), returns, record["deal"]))
                    else:
                        world = state.resample(mover, dice.getrandbits(32))
                        out.append(Position(world, returns, record["deal"], action))
                state.apply_action(action)
    if not game:
        raise ValueError("no records given")
    return game, out


def loss(sample: list[Position], playouts: int, epsilon: float, seed: int) -> float:
    """The mean over `sample` and seats of the squared gap between the playouts' mean and
    the game's returns, less the mean's sampling variance; position i's playouts are
    seeded by `seed` and i, so two calls with one seed compare weights on the same dice."""
    total = 0.0
    for i, position in enumerate(sample):
        means, variances = playout_results(position.state, playouts, epsilon, seed * 1_000_003 + i)
        gaps = [
            (m - r) ** 2 - v for m, r, v in zip(means, position.returns, variances, strict=True)
        ]
        total += sum(gaps) / len(gaps)
    return total / len(sample)


def disagreement(sample: list[Position], seed: int) -> float:
    """The share of `sample` where the playouts' heuristic would not make the recorded move;
    position i's heuristic is seeded by `seed` and i, as `loss` seeds its playouts."""
    differ = sum(
        heuristic_action(p.state, seed * 1_000_003 + i, True) != p.move
        for i, p in enumerate(sample)
    )
    return differ / len(sample)


#: A loss of the weights in force: (positions, seed) -> the loss.
Measure = Callable[[list[Position], int], float]


def spsa(
    table: WeightTable,
    fit: list[Position],
    args: argparse.Namespace,
    players: int,
    measure: Measure,
) -> dict[str, float]:
    """Weights at `players` fitted by SPSA from the table's current ones there (Spall's gains:
    a/(k+1+A)^0.602, c/(k+1)^0.101), in units of each weight's scale, max(1, |weight| / 4)."""
    names = list(table.names)
    start = table.get(players)
    scale = [max(1.0, abs(start[n]) / 4) for n in names]
    x = [start[n] / s for n, s in zip(names, scale, strict=True)]
    rng = random.Random(args.seed)
    big_a = args.steps / 10

    def at(point: list[float]) -> dict[str, float]:
        return {n: v * s for n, v, s in zip(names, point, scale, strict=True)}

    def difference(k: int) -> tuple[list[int], float]:
        delta = [rng.choice((-1, 1)) for _ in names]
        c_k = args.c / (k + 1) ** 0.101
        sample = rng.sample(fit, min(args.batch, len(fit)))
        dice = rng.getrandbits(32)
        table.set(at([v + c_k * d for v, d in zip(x, delta, strict=True)]), players)
        plus = measure(sample, dice)
        table.set(at([v - c_k * d for v, d in zip(x, delta, strict=True)]), players)
        minus = measure(sample, dice)
        return delta, (plus - minus) / (2 * c_k)

    # The gain a: the first step moves each weight by about `move` scales on average.
    probes = [abs(difference(0)[1]) for _ in range(4)]
    a = args.move * (big_a + 1) ** 0.602 / max(1e-12, sum(probes) / len(probes))
    for k in range(args.steps):
        delta, slope = difference(k)
        a_k = a / (k + 1 + big_a) ** 0.602
        x = [v - a_k * slope * d for v, d in zip(x, delta, strict=True)]
        if k % 25 == 0 or k == args.steps - 1:
            print(f"step {k + 1}/{args.steps}: " + json.dumps({n: round(w, 3)
                  for n, w in at(x).items()}), flush=True)  # fmt: skip
    table.set(at(x), players)
    return at(x)


def start(
    table: WeightTable, path: Path, game: str, players: int, parser: argparse.ArgumentParser
) -> None:
    """Put an earlier fit's weights in force at the records' player count, whatever counts
    the fit was made for (a 3-player fit may start from the 4-player one)."""
    try:
        start_game, values, _ = read_fit(path)
    except ValueError as err:
        parser.error(f"--start {err}")  # read_fit's error starts with the file
    if start_game != game:
        parser.error(f"--start {path}: a fit of another game than {game}")
    try:
        table.set(values, players)
    except ValueError as err:
        parser.error(f"--start {path}: {err}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="tournament records (record.jsonl)")
    parser.add_argument("--target", choices=("results", "moves"), default="results",
                        help="fit the playouts' mean to the games' results (simulation "
                        "balancing), or the heuristic to the recorded moves")  # fmt: skip
    parser.add_argument("--seats", help="--target moves: the seats whose moves, comma-separated")
    parser.add_argument("--every", type=int, default=12,
                        help="one position per this many actions (--target results)")  # fmt: skip
    parser.add_argument("--steps", type=int, default=300, help="SPSA steps")
    parser.add_argument("--batch", type=int, default=3000, help="positions per loss")
    parser.add_argument("--playouts", type=int, default=8, help="playouts per position")
    parser.add_argument("--held-playouts", type=int, default=32,
                        help="playouts per held-out position")  # fmt: skip
    parser.add_argument("--epsilon", type=float, default=0.2, help="the playouts' epsilon")
    parser.add_argument("--c", type=float, default=0.5, help="SPSA perturbation, in scales")
    parser.add_argument("--move", type=float, default=0.2, help="SPSA first step, in scales")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=Path,
                        help="start from an earlier fit's weights (whatever counts it names), "
                        "not the hand-set")  # fmt: skip
    parser.add_argument("--out", type=Path, required=True, help="the fitted weights (JSON)")
    args = parser.parse_args(argv)
    if args.target == "moves":
        seats = set(args.seats.split(",")) if args.seats else None
        game, data = decisions(args.records, seats, args.seed)
        measure: Measure = disagreement
        held_measure = disagreement
    else:
        game, data = positions(args.records, args.every)

        def measure(sample: list[Position], seed: int) -> float:
            return loss(sample, args.playouts, args.epsilon, seed)

        def held_measure(sample: list[Position], seed: int) -> float:
            return loss(sample, args.held_playouts, args.epsilon, seed)

    table = weight_table(game)
    fit = [p for p in data if p.deal % HELD_OUT_EVERY]
    held = [p for p in data if not p.deal % HELD_OUT_EVERY]
    if not fit or not held:
        parser.error(f"{len(data)} positions from too few deals: some to fit, some held out")
    counts = sorted({len(p.returns) for p in data})
    if len(counts) > 1:
        parser.error(f"records of {' and '.join(map(str, counts))} players: one count a fit")
    players = counts[0]
    print(f"{game}, {players} players: {len(fit)} positions to fit, {len(held)} held out",
          flush=True)  # fmt: skip
    try:
        table.set(table.hand_set, players)  # from the hand-set weights, not a default fit
        if args.start:
            start(table, args.start, game, players, parser)
        before = held_measure(held, args.seed)
        fitted = spsa(table, fit, args, players, measure)
        after = held_measure(held, args.seed)
    finally:
        table.reset()
    print(f"held-out loss: at the start {before:.4f}, fitted {after:.4f}")
    result = {"game": game, "players": [players],
              "positions": {"fit": len(fit), "held_out": len(held)},
              "held_out_loss": {"start": before, "fitted": after}, "weights": fitted,
              "args": json.loads(json.dumps(vars(args), default=str))}  # fmt: skip
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
