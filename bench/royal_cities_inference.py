"""How well the search's worlds guess the others' hands in Royal Cities, with and without
inference.

At every `--every`th position of recorded games, the player to move deals worlds as a search
would (`search.ismcts.sample_worlds`, `infer=K` for each K given, 0 dealing uniformly); the
figure is the share of the cards it cannot see in the others' hands whose kind the world puts
in the right hand (a hand's kinds matched as multisets). It prints one row per K:

    python -m bench.royal_cities_inference docs/lab/records/rc4-fit-est.jsonl.gz --games 40 \\
        --worlds 20 --infer 0 256
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import engine
from bench.worlds import print_rates
from clients.tournament.record import read_finished
from engine.interface import State
from engine.royal_cities.belief import hand_inputs
from search.ismcts import sample_worlds
from search.search import SearchConfig


def sampled(path: Path, games: int, every: int) -> Iterator[State]:
    """Every `every`th position of the record's first games played to their end where the
    player to move cannot see some card of another's hand (the others' count on stderr)."""
    _, records = read_finished(path)
    spec = engine.game("royal_cities")
    for record in records[:games]:
        state = spec.new_game(len(record["seats"]), seed=record["seed"],
                              rules=spec.rules_class(**record["rules"]))  # fmt: skip
        for step, move in enumerate(record["moves"]):
            if step % every == 0 and any(held for _, held in unseen(state)):
                yield state.clone()
            state.apply_action(state.string_to_action(move))


def unseen(state: State) -> list[tuple[list[list[float]], list[int]]]:
    return hand_inputs(state, state.current_player)[1]


def hit_rate(positions: list[State], infer: int, worlds: int) -> float:
    """The share of the unseen cards in the others' hands that the worlds deal right."""
    hits = total = 0
    for k, state in enumerate(positions):
        truth = [Counter(held) for _, held in unseen(state)]
        for world in sample_worlds(state, SearchConfig(infer=infer, seed=k), worlds):
            for true, (_, dealt) in zip(truth, unseen(world), strict=True):
                hits += sum((true & Counter(dealt)).values())
                total += sum(true.values())
    return hits / total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", type=Path, help="a Royal Cities record (.jsonl[.gz])")
    parser.add_argument("--games", type=int, default=40, help="the record's first finished games")
    parser.add_argument("--every", type=int, default=10, help="read every Nth position")
    parser.add_argument("--worlds", type=int, default=20, help="worlds per position")
    parser.add_argument("--infer", type=int, nargs="+", default=[0, 256], help="deals weighed")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be at least 1")
    positions = list(sampled(args.record, args.games, args.every))
    print_rates(positions, args.infer, args.worlds, hit_rate,
                "the others' unseen cards dealt to the right hand")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
