"""How well the search's worlds guess Citadels' characters, with and without inference.

At the first decision after each draft of recorded games, the player to move deals worlds as
a search would (`search.ismcts.sample_worlds`, `infer=K` for each K given, 0 dealing
uniformly); the figure is the share of (world, opponent) pairs in which the world gives the
opponent the characters it truly holds. It prints one row per K:

    python -m bench.citadels_inference docs/lab/records/sprt-ct4-combo.jsonl.gz --games 120 \\
        --worlds 20 --infer 0 256 4096
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import engine
from bench.worlds import print_rates
from clients.tournament.record import read_finished
from engine.interface import State
from search.ismcts import sample_worlds
from search.search import SearchConfig

DRAFT = ("pick", "discard")


def after_drafts(path: Path, games: int) -> Iterator[State]:
    """The position at the first decision after each draft of the record's first games
    played to their end (the others' count said on stderr)."""
    _, records = read_finished(path)
    spec = engine.game("citadels")
    for record in records[:games]:
        state = spec.new_game(len(record["seats"]), seed=record["seed"],
                              rules=spec.rules_class(**record["rules"]))  # fmt: skip
        drafting = True
        for move in record["moves"]:
            if drafting and state.phase not in DRAFT:
                yield state.clone()
            drafting = state.phase in DRAFT
            state.apply_action(state.string_to_action(move))


def characters(state: State, player: int) -> tuple[str, ...]:
    return state.observation(player).players[player].characters


def hit_rate(positions: list[State], infer: int, worlds: int) -> float:
    """The share of (world, opponent) pairs that give the opponent its true characters."""
    hits = total = 0
    for k, state in enumerate(positions):
        mover = state.current_player
        for world in sample_worlds(state, SearchConfig(infer=infer, seed=k), worlds):
            for q in range(state.num_players):
                if q != mover:
                    hits += characters(world, q) == characters(state, q)
                    total += 1
    return hits / total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", type=Path, help="a Citadels tournament record (.jsonl[.gz])")
    parser.add_argument("--games", type=int, default=120, help="the record's first finished games")
    parser.add_argument("--worlds", type=int, default=20, help="worlds per position")
    parser.add_argument("--infer", type=int, nargs="+", default=[0, 256], help="deals weighed")
    args = parser.parse_args(argv)
    positions = list(after_drafts(args.record, args.games))
    print_rates(positions, args.infer, args.worlds, hit_rate,
                "the opponents dealt their true characters")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
