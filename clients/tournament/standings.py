"""The results of a tournament from its counted games (in schedule order): per-bot lines, the
win matrix, ratings, the SPRT's state and, for two bots, the Elo difference between them. A
game whose worker died counts for none of them, only in `crashed`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clients.tournament.config import TournamentConfig
from clients.tournament.ratings import Rating, elo_difference, elo_ratings, openskill_ratings
from clients.tournament.results import BotResult, bot_results, decided, pairwise, win_matrix
from clients.tournament.schedule import ScheduledGame
from clients.tournament.sprt import SprtState, elo_of_share, sprt_state


@dataclass(frozen=True)
class Standings:
    config: TournamentConfig
    games: int
    bots: list[BotResult]
    #: matrix[i][j]: the share of meetings bot i finished ahead of bot j (None: never met).
    matrix: list[list[float | None]]
    #: "Elo" (2 players), "OpenSkill" (more) or "" (solo: bots never meet).
    rating_kind: str
    ratings: list[Rating]
    sprt: SprtState | None
    #: For two bots in 2-player games: the first's Elo over the second's, with its interval.
    elo_difference: tuple[float, float, float] | None
    #: For a gauntlet of two bots at more players: the gauntlet bot's Elo over each bot of its
    #: field in the SPRT's model (`sprt.expected_score`), from its share of the wins and the
    #: share's interval.
    elo_over_field: tuple[float, float, float] | None = None
    #: Games finished after the SPRT stopped: recorded, not counted.
    uncounted: int = 0
    #: Games whose worker process died: recorded without a result, counted for no bot.
    crashed: int = 0
    #: For a gauntlet: its bot's (games, wins) in each seat, from seat 0.
    by_seat: tuple[tuple[int, float], ...] = ()


def shares(games: Sequence[dict[str, Any]], bot: str) -> Counter[float]:
    """How many of `games` gave `bot` each share of the win (0, 1/k shared by k, 1); a game
    whose worker died gave none."""
    return Counter(float(game["returns"][game["seats"].index(bot)]) for game in decided(games))


def wdl(games: Sequence[dict[str, Any]], first: str) -> tuple[float, float, float]:
    """(losses, draws, wins) of `first` in 2-player games; a shared win is a draw."""
    counts = shares(games, first)
    losses, wins = counts[0.0], counts[1.0]
    return losses, len(games) - losses - wins, wins


class SprtWatch:
    """Follows an SPRT of the tested bot's results over the games in schedule order, looking
    only at whole deals (every seating), so that where it stops does not depend on which games
    finished first."""

    def __init__(self, config: TournamentConfig, games: Sequence[ScheduledGame]) -> None:
        assert config.sprt is not None
        self.config = config
        self.games = games
        self.counted = 0  # games of the schedule's prefix taken into account
        self.state: SprtState | None = None
        self._results: Counter[float] = Counter()

    @property
    def stopped(self) -> bool:
        return self.state is not None and self.state.verdict is not None

    def advance(self, finished: dict[int, dict[str, Any]]) -> bool:
        """Take in every whole deal that continues the counted prefix; True once the test has
        reached a bound (then nothing more is counted)."""
        sprt, tested, games = self.config.sprt, self.config.sprt_bot, self.games
        assert sprt is not None
        while not self.stopped and self.counted < len(games):
            end = self.counted
            while end < len(games) and games[end].deal == games[self.counted].deal:
                end += 1
            if any(i not in finished for i in range(self.counted, end)):
                break
            deal = [finished[i] for i in range(self.counted, end)]
            self._results += shares(deal, tested)
            self.counted = end
            self.state = sprt_state(
                self._results, sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, self.config.players
            )
        return self.stopped


def standings(
    config: TournamentConfig,
    games: Sequence[dict[str, Any]],
    sprt: SprtState | None = None,
    uncounted: int = 0,
) -> Standings:
    """Everything the report shows, from the counted games sorted by index."""
    names = config.names
    crashed = len(games) - len(decided(games))
    games = decided(games)
    deals = sorted({g["deal"] for g in games})
    points = pairwise(names, games, deals)
    if config.players == 1 or not games:
        kind, ratings = "", []
    elif config.players == 2:
        kind, ratings = "Elo", elo_ratings(names, points, config.seed)
    else:
        kind, ratings = "OpenSkill", openskill_ratings(names, games)
    difference = over_field = None
    if config.players == 2 and len(names) == 2 and games:
        losses, draws, wins = wdl(games, names[0])
        difference = elo_difference(wins, draws, losses)
    results = bot_results(config.specs, games)
    if config.players > 2 and len(names) == 2 and config.gauntlet is not None and games:
        tested = next(b for b in results if b.name == config.gauntlet)
        low, high = tested.interval
        over_field = (
            elo_of_share(tested.win_rate, config.players),
            elo_of_share(low, config.players),
            elo_of_share(high, config.players),
        )
    by_seat = seat_results(games, config.gauntlet, config.players) if config.gauntlet else ()
    return Standings(
        config, len(games), results, win_matrix(points), kind, ratings, sprt, difference,
        over_field, uncounted, crashed, by_seat,
    )  # fmt: skip


def seat_results(
    games: Sequence[dict[str, Any]], bot: str, players: int
) -> tuple[tuple[int, float], ...]:
    """`bot`'s (games, wins) in each seat it played (a shared win by its share)."""
    played, won = [0] * players, [0.0] * players
    for game in games:
        seat = game["seats"].index(bot)
        played[seat] += 1
        won[seat] += float(game["returns"][seat])
    return tuple(zip(played, won, strict=True))
