"""The difficulty levels' calibration ladder: each level plays the one below it (level 1 plays
random) in 2-player duplicate deals through the tournament runner; the gaps add up to an Elo per
level, random at 0, printed as a table and drawn as a chart (docs/strength.md shows it).

    nice -n 5 python -m bench.levels --game GAME --games 40 --games-at 10=12 --workers 1 \\
        --out levels-GAME-2p --chart docs/ladders/levels-GAME-2p.png

Each pair's record is kept in OUT/l<N>; a rerun continues it, or plays it again from the start
when the level's spec (or the one below) has changed since.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import engine
from clients.tournament.backends import LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.record import RecordError
from clients.tournament.runner import RECORD_NAME, run_tournament
from clients.tournament.standings import Standings
from search.bots import resolve
from search.levels import LEVELS

PLAYERS = 2


@dataclass(frozen=True)
class Step:
    """One level against the one below: its Elo over it with a 95% interval."""

    level: int
    spec: str
    below: str
    games: int
    win_rate: float
    gap: float
    low: float
    high: float


def play_step(game: str, level: int, games: int, seed: int, workers: int, out: Path) -> Step:
    """Level `level` against the level below (random below level 1), `games` games."""
    spec = resolve(f"level:{level}", game, PLAYERS)
    below = resolve(f"level:{level - 1}", game, PLAYERS) if level > 1 else "random"
    names = (f"level-{level}", f"level-{level - 1}" if level > 1 else "random")
    config = TournamentConfig(game, PLAYERS, ((names[0], spec), (names[1], below)), games, seed)
    where = out / f"l{level}"
    try:
        result = run_tournament(config, where, (where / RECORD_NAME).exists(),
                                LocalBackend(workers), sys.stderr.isatty())  # fmt: skip
    except RecordError:  # the record of other specs: play this pair again
        print(f"{where}: the levels changed since its record; playing it again", file=sys.stderr)
        (where / RECORD_NAME).unlink()
        result = run_tournament(config, where, False, LocalBackend(workers), sys.stderr.isatty())
    return _step(level, result)


def _step(level: int, s: Standings) -> Step:
    """The gap from the pair's Bradley-Terry fit: the ratings of two bots are +gap/2 and
    -gap/2, so the gap's interval is twice the first bot's."""
    first, below = s.ratings
    assert first.name == s.bots[0].name
    return Step(
        level, s.bots[0].spec, s.bots[1].spec, s.games, s.bots[0].win_rate,
        first.value - below.value, 2 * first.low, 2 * first.high,
    )  # fmt: skip


def ladder(steps: list[Step]) -> list[tuple[Step, float, float]]:
    """Each step with its level's Elo (random at 0, when the steps start at level 1) and that
    sum's 95% half-width (the gaps' half-widths added in quadrature: the pairs independent)."""
    total, variance, out = 0.0, 0.0, []
    for step in steps:
        total += step.gap
        variance += ((step.high - step.low) / 2) ** 2
        out.append((step, total, math.sqrt(variance)))
    return out


def table(rows: list[tuple[Step, float, float]]) -> str:
    """The ladder as a Markdown table."""
    lines = [
        "| level | spec | games | win rate vs the one below | gap, Elo [95%] | Elo (random = 0) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for step, elo, half in rows:
        lines.append(
            f"| {step.level} | `{step.spec}` | {step.games} | {100 * step.win_rate:.1f}% "
            f"| {step.gap:+.0f} [{step.low:+.0f}, {step.high:+.0f}] | {elo:+.0f} ± {half:.0f} |"
        )
    return "\n".join(lines)


def chart(rows: list[tuple[Step, float, float]], title: str, path: Path) -> None:
    """A PNG of Elo by level with 95% intervals, each gap written beside its step."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    levels = [0] + [step.level for step, _, _ in rows]
    elos = [0.0] + [elo for _, elo, _ in rows]
    halves = [0.0] + [half for _, _, half in rows]
    figure, axes = plt.subplots(figsize=(7, 4.2))
    axes.errorbar(levels, elos, yerr=halves, fmt="o-", capsize=4)
    for step, elo, _ in rows:
        axes.annotate(f"+{step.gap:.0f}", (step.level, elo), textcoords="offset points",
                      xytext=(6, -12), fontsize=8)  # fmt: skip
    axes.set_xticks(levels, ["random", *map(str, levels[1:])])
    axes.set_xlabel("level")
    axes.set_ylabel("Elo over random (95% interval)")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _games_at(text: str) -> tuple[int, int]:
    level, _, games = text.partition("=")
    return int(level), int(games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.levels", description=__doc__)
    primary = engine.primary_game().name
    parser.add_argument("--game", default=primary, help=f"the game (default: {primary})")
    parser.add_argument("--games", type=int, default=40, help="games per pair (default: 40)")
    parser.add_argument(
        "--games-at",
        action="append",
        default=[],
        metavar="LEVEL=N",
        help="N games for LEVEL against the one below, instead of --games (repeat)",
    )
    parser.add_argument("--bottom", type=int, default=1, help="the lowest level played")
    parser.add_argument("--top", type=int, default=len(LEVELS), help="the highest level played")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("levels"))
    parser.add_argument("--chart", type=Path, help="where to write the PNG")
    args = parser.parse_args(argv)
    game = args.game.replace("-", "_")
    steps = []
    for level in range(args.bottom, args.top + 1):
        games = dict(_games_at(text) for text in args.games_at).get(level, args.games)
        steps.append(play_step(game, level, games, args.seed, args.workers, args.out))
        print(table(ladder(steps)).splitlines()[-1], file=sys.stderr, flush=True)
    rows = ladder(steps)
    print(table(rows))
    (args.out / "levels.json").write_text(
        json.dumps(
            [step.__dict__ | {"elo": elo, "half": half} for step, elo, half in rows], indent=1
        )
    )
    if args.chart:
        title = f"Difficulty levels, {engine.game(game).title}, {PLAYERS} players"
        chart(rows, title, args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
