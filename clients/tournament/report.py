"""The standings as a printed table, as JSON and CSV, and as a PNG chart of the ratings with
their intervals. Bots are listed best first: by rating, else by win rate, then margin; their
names are never cut. The games that failures ended are counted apart: per bot, those it lost
by failing (by reason), and the games whose worker died."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from clients.tournament.results import BotResult, wilson
from clients.tournament.standings import Standings


def _order(s: Standings) -> list[int]:
    """Bot positions, best first."""
    if s.ratings:
        return sorted(range(len(s.bots)), key=lambda i: -s.ratings[i].value)
    return sorted(range(len(s.bots)), key=lambda i: (-s.bots[i].win_rate, -s.bots[i].mean_margin))


def _format_name(s: Standings) -> str:
    c = s.config
    if c.sprt is not None:
        return f"SPRT [{c.sprt.elo0:g}, {c.sprt.elo1:g}] of {c.sprt_bot}"
    return f"gauntlet of {c.gauntlet}" if c.gauntlet else "round robin"


def _title(s: Standings) -> str:
    players = "solo" if s.config.players == 1 else f"{s.config.players} players"
    return f"{s.config.game}, {players}, {s.games} games"


def _signed(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def table(s: Standings) -> str:
    """The printed report: the bots' lines, the win matrix, the Elo difference (or a gauntlet
    bot's Elo over its field) and the SPRT."""
    c = s.config
    rules = ", ".join(f"{k}={v}" for k, v in c.rules.items()) or "default rules"
    lines = [f"{_title(s)}, {_format_name(s)}, seed {c.seed}, "
             f"{rules}", ""]  # fmt: skip
    order = _order(s)
    width = max(3, *(len(b.name) for b in s.bots))
    rating = f"  {s.rating_kind} [95%]" if s.rating_kind else ""
    lines.append(f"{'bot':<{width}}  games     wins  win rate [95%]         score  margin{rating}")
    for i in order:
        b = s.bots[i]
        low, high = b.interval
        score, margin = f"{b.mean_score:>5.1f}", f"{b.mean_margin:>+6.1f}"
        if not b.finished:  # no game of its was played to the end: it has no scores
            score, margin = "-", "-"
        line = (
            f"{b.name:<{width}}  {b.games:>5}  {b.wins:>7g}  {b.win_rate:>6.1%} "
            f"[{low:>5.1%}-{high:>6.1%}]  {score:>5}  {margin:>6}"
        )
        if s.ratings:
            r = s.ratings[i]
            digits = 0 if s.rating_kind == "Elo" else 1
            line += f"  {r.value:>+7.{digits}f} [{r.low:+.{digits}f}, {r.high:+.{digits}f}]"
        lines.append(line)
    lines += _failures(s, order)
    if len(s.bots) > 1 and c.players > 1:
        lines += ["", "Win matrix: how often the row finished ahead of the column"]
        column = max(6, *(len(b.name) for b in s.bots))
        lines.append(" " * width + "".join(f"  {s.bots[j].name:>{column}}" for j in order))
        for i in order:
            cells = [s.matrix[i][j] for j in order]
            text = "".join(f"  {'-' if v is None else f'{v:.1%}':>{column}}" for v in cells)
            lines.append(f"{s.bots[i].name:<{width}}{text}")
    sweeps = sum(v == 0.0 for row in s.matrix for v in row)
    if s.rating_kind == "Elo" and sweeps:
        lines += ["", f"In {sweeps} pairs one bot won every meeting: their Elo gap rests on the "
                      "prior (one virtual draw) and is a lower bound."]  # fmt: skip
    if s.elo_difference is not None:
        elo, low, high = s.elo_difference
        first, second = c.names
        lines += ["", f"Elo difference {first} - {second}: {_signed(elo)} "
                      f"[95% {_signed(low)}, {_signed(high)}]"]  # fmt: skip
    if s.elo_over_field is not None:
        elo, low, high = s.elo_over_field
        tested = s.config.gauntlet
        field = next(name for name in s.config.names if name != tested)
        lines += ["", f"Elo of {tested} over each {field}, from its share of the wins: "
                      f"{_signed(elo)} [95% {_signed(low)}, {_signed(high)}]"]  # fmt: skip
    if any(played for played, _ in s.by_seat):
        lines += ["", f"{c.gauntlet} by seat: games, wins, win rate [95%]"]
        for seat, (played, won) in enumerate(s.by_seat):
            if played:
                low, high = wilson(won, played)
                lines.append(f"  seat {seat}: {played:>5}  {won:>7g}  {won / played:>6.1%} "
                             f"[{low:>5.1%}-{high:>6.1%}]")  # fmt: skip
    if s.sprt is not None:
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision yet"}
        lines.append(f"SPRT: LLR {s.sprt.llr:.2f} (bounds {s.sprt.lower:.2f}, "
                     f"{s.sprt.upper:.2f}): {verdict[s.sprt.verdict]}")  # fmt: skip
    if s.uncounted:
        lines.append(f"({s.uncounted} recorded games lie beyond the counted ones: after the "
                     "SPRT's decision, or past --games)")  # fmt: skip
    return "\n".join(lines)


def _failures(s: Standings, order: list[int]) -> list[str]:
    """The lines counting the games failures ended, if any did."""
    lines = []
    failed = [s.bots[i] for i in order if s.bots[i].failures]
    if failed:
        each = [f"{b.name} {sum(b.failures.values())} ("
                + ", ".join(f"{n} {reason}" for reason, n in b.failures.items()) + ")"
                for b in failed]  # fmt: skip
        lines += ["", "Games lost by a bot's failure, each a loss above: " + "; ".join(each)]
    if s.crashed:
        if not lines:
            lines.append("")
        lines.append(f"Games whose worker process died, counted for no bot: {s.crashed}")
    return lines


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _bot_json(b: BotResult) -> dict[str, Any]:
    return {"name": b.name, "spec": b.spec, "games": b.games, "wins": b.wins,
            "win_rate": b.win_rate, "win_rate_low": b.interval[0],
            "win_rate_high": b.interval[1], "mean_score": b.mean_score,
            "mean_margin": b.mean_margin, "finished": b.finished,
            "failures": sum(b.failures.values())}  # fmt: skip


def to_json(s: Standings) -> dict[str, Any]:
    """Everything in the report, JSON-ready (an infinite Elo is null)."""
    bots = []
    for i, b in enumerate(s.bots):
        line = _bot_json(b) | {"failures_by_reason": b.failures}
        if s.ratings:
            r = s.ratings[i]
            line |= {"rating": r.value, "rating_low": r.low, "rating_high": r.high}
        bots.append(line)
    data: dict[str, Any] = {
        "config": s.config.to_json(),
        "games": s.games,
        "rating": s.rating_kind,
        "bots": bots,
        "win_matrix": {"bots": list(s.config.names), "rows": s.matrix},
    }
    if s.elo_difference is not None:
        data["elo_difference"] = [_finite(x) for x in s.elo_difference]
    if s.elo_over_field is not None:
        data["elo_over_field"] = [_finite(x) for x in s.elo_over_field]
    if s.sprt is not None:
        data["sprt"] = {"llr": s.sprt.llr, "lower": s.sprt.lower, "upper": s.sprt.upper,
                        "verdict": s.sprt.verdict}  # fmt: skip
    if s.by_seat:
        data["by_seat"] = [
            {"seat": seat, "games": played, "wins": won,
             "win_rate": won / played if played else None}
            for seat, (played, won) in enumerate(s.by_seat)
        ]  # fmt: skip
    data["uncounted_games"] = s.uncounted
    data["crashed_games"] = s.crashed
    return data


def write_json(s: Standings, path: Path) -> None:
    path.write_text(json.dumps(to_json(s), indent=2) + "\n")


def write_csv(s: Standings, path: Path) -> None:
    """One row per bot, best first."""
    rows = to_json(s)["bots"]
    columns = list(_bot_json(s.bots[0])) + (["rating", "rating_low", "rating_high"]
                                            if s.ratings else [])  # fmt: skip
    with path.open("w", newline="") as file:
        writer = csv.DictWriter(file, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows[i] for i in _order(s))


def write_chart(s: Standings, path: Path) -> None:
    """A PNG of the ratings, best at the top, each with its 95% interval (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    order = _order(s)[::-1]
    names = [s.bots[i].name for i in order]
    if s.ratings:
        values = [s.ratings[i].value for i in order]
        lows = [s.ratings[i].low for i in order]
        highs = [s.ratings[i].high for i in order]
        label = f"{s.rating_kind} rating (95% interval)"
    else:
        values = [100 * s.bots[i].win_rate for i in order]
        lows = [100 * s.bots[i].interval[0] for i in order]
        highs = [100 * s.bots[i].interval[1] for i in order]
        label = "win rate, % (95% interval)"
    # max(0, ...): a Wilson bound equal to the rate may come out a rounding error past it
    errors = [[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
              [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]]  # fmt: skip
    figure, axes = plt.subplots(figsize=(7, 1.2 + 0.45 * len(names)))
    axes.errorbar(values, range(len(names)), xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel(label)
    axes.set_title(_title(s))
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def write_all(s: Standings, out: Path) -> list[Path]:
    """results.json, results.csv and ratings.png in `out`; their paths."""
    paths = [out / "results.json", out / "results.csv", out / "ratings.png"]
    write_json(s, paths[0])
    write_csv(s, paths[1])
    write_chart(s, paths[2])
    return paths
