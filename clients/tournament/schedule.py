"""Which games a tournament plays, in a fixed order that depends on nothing but its config.

A table is a set of bots for one game: every combination of `players` bots (round robin), or
the gauntlet bot with one other bot in all the other seats. Deals are played in rounds: in
round d every table plays deal d (the same seed at every table) once per rotation of its bots
over the seats (duplicate deals: each bot meets the same luck from every seat). Successive
rounds take the table's seat arrangements in turn, so every arrangement comes up.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass

from clients.tournament.config import TournamentConfig


@dataclass(frozen=True)
class ScheduledGame:
    """One game: its place in the schedule, its deal, the deal's seed and who sits where."""

    index: int
    deal: int
    seed: int
    seats: tuple[str, ...]


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The seed of a deal: a hash of the tournament seed and the deal number (32 bits)."""
    digest = hashlib.blake2b(f"regent-tournament:{tournament_seed}:{deal}".encode(), digest_size=4)
    return int.from_bytes(digest.digest(), "big")


def tables(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The tables, each a tuple of bot names in seat order before rotation."""
    names = config.names
    if config.gauntlet is not None:
        field = [name for name in names if name != config.gauntlet]
        return [(config.gauntlet, *(other,) * (config.players - 1)) for other in field]
    return list(itertools.combinations(names, config.players))


def arrangements(table: tuple[str, ...]) -> list[list[tuple[str, ...]]]:
    """The table's distinct seatings, grouped by rotation: each group is the rotations of one
    seating (starting with it), and the groups cover every seating once."""
    groups: list[list[tuple[str, ...]]] = []
    seen: set[tuple[str, ...]] = set()
    for order in itertools.permutations(range(len(table))):
        seating = tuple(table[i] for i in order)
        if seating in seen:
            continue
        rotations = list(dict.fromkeys(seating[r:] + seating[:r] for r in range(len(seating))))
        seen.update(rotations)
        groups.append(rotations)
    return groups


def schedule(config: TournamentConfig) -> list[ScheduledGame]:
    """Every game of the tournament, indexed in order: whole rounds, until at least
    `config.games` games."""
    groups = [arrangements(table) for table in tables(config)]
    games: list[ScheduledGame] = []
    deal = 0
    while len(games) < config.games:
        seed = deal_seed(config.seed, deal)
        for table_groups in groups:
            for seats in table_groups[deal % len(table_groups)]:
                games.append(ScheduledGame(len(games), deal, seed, seats))
        deal += 1
    return games
