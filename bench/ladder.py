"""A ladder of 2-player bots, each played against the one below it in duplicate deals through
the tournament runner; the gaps add up to an Elo per rung (the bottom at 0), printed as a
table and drawn as a chart. `bench.levels` climbs the difficulty levels, `bench.scaling` the
time a move."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import engine
from clients.tournament.backends import LocalBackend
from clients.tournament.config import TournamentConfig
from clients.tournament.record import RecordError
from clients.tournament.runner import RECORD_NAME, run_tournament
from clients.tournament.standings import Standings

PLAYERS = 2


@dataclass(frozen=True)
class Rung:
    """A bot on the ladder: its name (a table's first column, a chart's tick) and its spec."""

    name: str
    spec: str


@dataclass(frozen=True)
class Step:
    """One rung against the one below: its Elo over it with a 95% interval."""

    name: str
    spec: str
    below: str
    games: int
    win_rate: float
    gap: float
    low: float
    high: float


def play_step(
    game: str, rung: Rung, below: Rung, games: int, seed: int, workers: int, where: Path
) -> Step:
    """`rung` against `below`, `games` games; the record in `where` is continued, or played
    again from the start when it holds other specs."""
    bots = ((rung.name, rung.spec), (below.name, below.spec))
    config = TournamentConfig(game, PLAYERS, bots, games, seed)
    try:
        result = run_tournament(config, where, (where / RECORD_NAME).exists(),
                                LocalBackend(workers), sys.stderr.isatty())  # fmt: skip
    except RecordError:  # the record of other specs: play this pair again
        print(f"{where}: the specs changed since its record; playing it again", file=sys.stderr)
        (where / RECORD_NAME).unlink()
        result = run_tournament(config, where, False, LocalBackend(workers), sys.stderr.isatty())
    return _step(rung.name, result)


def add_arguments(parser: argparse.ArgumentParser, out: str) -> None:
    """The options every ladder takes: the game, seeds, workers, where records and chart go."""
    primary = engine.primary_game().name
    parser.add_argument("--game", default=primary, help=f"the game (default: {primary})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(out), help="where the records go")
    parser.add_argument("--chart", type=Path, help="where to write the PNG")


def run_ladder(
    game: str,
    pairs: Sequence[tuple[Rung, Rung, int]],
    args: argparse.Namespace,
    column: str,
    bottom: str,
) -> list[tuple[Step, float, float]]:
    """Play each (rung, the one below, games) pair in turn, its record in OUT/<rung's name>,
    printing each step as it ends; print the table and write it as OUT/ladder.json."""
    steps = []
    for upper, below, games in pairs:
        where = args.out / upper.name.replace(" ", "")
        steps.append(play_step(game, upper, below, games, args.seed, args.workers, where))
        print(table(climb(steps), column, bottom).splitlines()[-1], file=sys.stderr, flush=True)
    rows = climb(steps)
    print(table(rows, column, bottom))
    (args.out / "ladder.json").write_text(
        json.dumps(
            [step.__dict__ | {"elo": elo, "half": half} for step, elo, half in rows], indent=1
        )
    )
    return rows


def _step(name: str, s: Standings) -> Step:
    """The gap from the pair's Bradley-Terry fit: the ratings of two bots are +gap/2 and
    -gap/2, so the gap's interval is twice the first bot's."""
    first, below = s.ratings
    assert first.name == s.bots[0].name
    return Step(
        name, s.bots[0].spec, s.bots[1].spec, s.games, s.bots[0].win_rate,
        first.value - below.value, 2 * first.low, 2 * first.high,
    )  # fmt: skip


def climb(steps: Sequence[Step]) -> list[tuple[Step, float, float]]:
    """Each step with its rung's Elo over the bottom and that sum's 95% half-width (the gaps'
    half-widths added in quadrature: the pairs are independent)."""
    total, variance, out = 0.0, 0.0, []
    for step in steps:
        total += step.gap
        variance += ((step.high - step.low) / 2) ** 2
        out.append((step, total, math.sqrt(variance)))
    return out


def table(rows: Sequence[tuple[Step, float, float]], column: str, bottom: str) -> str:
    """The ladder as a Markdown table: `column` heads the rungs' names, `bottom` names the
    rung at 0."""
    lines = [
        f"| {column} | spec | games | win rate vs the one below | gap, Elo [95%] "
        f"| Elo ({bottom} = 0) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for step, elo, half in rows:
        lines.append(
            f"| {step.name} | `{step.spec}` | {step.games} | {100 * step.win_rate:.1f}% "
            f"| {step.gap:+.0f} [{step.low:+.0f}, {step.high:+.0f}] | {elo:+.0f} ± {half:.0f} |"
        )
    return "\n".join(lines)


def chart(
    rows: Sequence[tuple[Step, float, float]],
    xs: Sequence[float],
    labels: Sequence[str],
    axes_names: tuple[str, str],
    title: str,
    path: Path,
    log_x: bool = False,
) -> None:
    """A PNG of Elo by rung with 95% intervals, each gap written beside its step; `xs` and
    `labels` place the bottom rung and then every step's."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    elos = [0.0] + [elo for _, elo, _ in rows]
    halves = [0.0] + [half for _, _, half in rows]
    figure, axes = plt.subplots(figsize=(7, 4.2))
    axes.errorbar(xs, elos, yerr=halves, fmt="o-", capsize=4)
    for (step, elo, _), x in zip(rows, xs[1:], strict=True):
        axes.annotate(f"{step.gap:+.0f}", (x, elo), textcoords="offset points",
                      xytext=(6, -12), fontsize=8)  # fmt: skip
    if log_x:
        axes.set_xscale("log", base=2)
    axes.set_xticks(list(xs), list(labels))
    axes.set_xlabel(axes_names[0])
    axes.set_ylabel(axes_names[1])
    axes.set_title(title)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
