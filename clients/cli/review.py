"""`regent review`: one seat's game reviewed from that seat's information (see
`search.review`), from a tournament record or a hosted match; prints the table and the worst
moments, and writes the chart of the win chance as a PNG: the table's figures, point for
point (`chart_points`).

The searches run on a background thread behind a progress bar; Ctrl-C stops them and prints
what is done.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

import engine
from clients.cli.shared import report_failure
from clients.client import RegentClient, RegentError
from clients.text import text_of
from convert import converter, observation_from_proto, observation_to_proto
from regent.v1 import matches_pb2
from search.bots import BudgetClashError, budget_parts
from search.review import (
    Decision,
    Progress,
    Review,
    ReviewConfig,
    Reviewer,
    decisions_of_game,
)

#: How long to wait for the rest of an unfinished match's events (the last ones may be
#: another seat's unseen steps, which never come).
WATCH_TIMEOUT = 10.0


class SourceError(Exception):
    """A record or match that cannot be reviewed; the message says why."""


def add_review(commands: argparse._SubParsersAction) -> None:
    """The `review` subcommand."""
    parser = commands.add_parser(
        "review", help="review one seat's game: win chance per decision, the worst moments"
    )
    defaults = ReviewConfig()
    parser.add_argument(
        "source", help="a tournament record (record.jsonl), or a match id with --token"
    )
    parser.add_argument("--token", help="a hosted match: the reviewed seat's token")
    parser.add_argument(
        "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the match's service"
    )
    parser.add_argument(
        "--index", type=int, default=0, metavar="N", help="a record: the game's index (default 0)"
    )
    parser.add_argument(
        "--seat", type=int, default=0, metavar="S", help="a record: the seat (default 0)"
    )
    budget = parser.add_argument_group(
        "budgets (seeded: the same ones give the same review; a --bot that sets a part of its "
        "budget, as a level sets all, takes no flag for it)"
    )
    for flag, kind, default, text in (
        ("--iterations", int, defaults.iterations, "per decision"),
        ("--seconds", float, defaults.seconds, "per decision (0: no limit)"),
        ("--deep-iterations", int, defaults.deep_iterations, "per search of a checked decision"),
        ("--deep-seconds", float, defaults.deep_seconds, "per check search (0: no limit)"),
        ("--mistakes", int, defaults.mistakes, "decisions checked (the first look's worst)"),
        ("--threads", int, defaults.threads, "search threads"),
        ("--seed", int, defaults.seed, "the review's seed"),
    ):
        # No default here: a budget flag left out is told from one given (see review_config).
        budget.add_argument(flag, type=kind, help=f"{text} (default {default})")
    budget.add_argument(
        "--bot",
        help="the search, or a level (level:3) with its own budget (default: the game's "
        "default bot, as the service's Review)",
    )
    parser.add_argument(
        "--chart", type=Path, default=Path("review.png"), help="the PNG (default review.png)"
    )
    parser.add_argument(
        "--save-game",
        type=Path,
        metavar="PATH",
        help="also write the seat's observations and moves as JSON (the hint page's review "
        "imports it)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = review_config(args)
        if args.token:
            decisions = match_decisions(args.server, args.source, args.token)
        else:
            decisions = record_decisions(Path(args.source), args.index, args.seat)
        reviewer = Reviewer(decisions, config)
    except RegentError as err:
        return report_failure("review", err, args.server)
    except (SourceError, ValueError) as err:
        print(f"regent review: {err}", file=sys.stderr)
        return 2
    if args.save_game:
        args.save_game.write_text(json.dumps(game_json(decisions), indent=1) + "\n")
    print(
        f"Reviewing seat {reviewer.seat}: {len(reviewer.moments)} decisions "
        "(Ctrl-C stops and prints what is done)",
        file=sys.stderr,
        flush=True,
    )
    result = run_in_background(reviewer)
    print(format_review(result, decisions))
    write_chart(result, args.chart)
    print(f"\nChart: {args.chart}")
    return 0 if result.complete else 130


#: The review's flags, by the budget part each gives (see `search.bots.BUDGET_OPTIONS`).
BUDGET_FLAGS = {
    "iterations": "iterations",
    "seconds": "seconds",
    "deep_iterations": "iterations",
    "deep_seconds": "seconds",
    "threads": "threads",
}


def review_config(args: argparse.Namespace) -> ReviewConfig:
    """The review's configuration from the flags given, the review's defaults for the others.
    A bot that sets a part of its budget itself (a level every part) searches with its own
    in every search, as the service's Review: a flag given for that part is a ValueError
    naming it, and a bot that sets its seconds but not its iterations has no default
    iteration cap beside them. Other flags left out are the review's defaults."""
    bot = args.bot or ""
    parts = budget_parts(bot) if bot else ()
    given = {name: getattr(args, name) for name in (*BUDGET_FLAGS, "mistakes", "seed")}
    given = {name: value for name, value in given.items() if value is not None}
    for name, part in BUDGET_FLAGS.items():
        if name in given and part in parts:
            raise ValueError(f"--{name.replace('_', '-')}: {BudgetClashError(bot, part)}")
    if "seconds" in parts and "iterations" not in parts:
        given = {"iterations": 0, "deep_iterations": 0} | given
    return ReviewConfig(bot=bot, **given)


# -- sources ---------------------------------------------------------------------


def record_decisions(path: Path, index: int, seat: int) -> list[Decision]:
    """The seat's decisions in game `index` of a tournament record, replayed from its deal;
    a game a bot's failure or its worker's death ended is refused: its moves stop short,
    and its result is a forfeit's (or none), not what the board came to."""
    from clients.tournament.record import RecordError, read, unfinished

    try:
        _, games, _ = read(path)
    except (OSError, RecordError) as err:
        raise SourceError(str(err)) from None
    found = next((g for g in games if g["index"] == index), None)
    if found is None:
        raise SourceError(f"{path} has no game {index} (indices: 0 to {len(games) - 1})")
    if (why := unfinished(found)) is not None:
        raise SourceError(f"{path}: game {index} did not finish ({why})")
    if not 0 <= seat < len(found["seats"]):
        raise SourceError(f"game {index} has seats 0 to {len(found['seats']) - 1}, not {seat}")
    spec = engine.game(found["game"])
    rules = spec.rules_class(**found["rules"])
    state = spec.new_game(len(found["seats"]), seed=found["seed"], rules=rules)
    try:
        return decisions_of_game(state, found["moves"], seat)
    except ValueError as err:
        raise SourceError(f"{path}, game {index}: {err}") from None


def match_decisions(server: str, match_id: str, token: str) -> list[Decision]:
    """The token's seat's decisions in a hosted match: its moves from `Watch`, and what it
    saw before each from `GetView` at that move."""
    with RegentClient(server) as client:
        now = client.get_view(match_id, token)
        seat, played = now.seat, now.moves_played
        timeout = None if now.status != matches_pb2.MATCH_STATUS_PLAYING else WATCH_TIMEOUT
        moves: list[tuple[int, str]] = []
        try:
            with client.watch(match_id, token, timeout=timeout) as events:
                for event in events:
                    if event.sequence >= played:
                        break
                    mine = event.HasField("seat") and event.seat == seat
                    if mine and event.HasField("move") and not event.HasField("resigned_seat"):
                        moves.append((event.sequence, event.move.text))
                    if event.sequence == played - 1:
                        break
        except RegentError as err:
            if err.code != grpc.StatusCode.DEADLINE_EXCEEDED:
                raise
        decisions = []
        for number, text in moves:
            view = client.get_view(match_id, token, at_move=number)
            decisions.append(Decision(observation_from_proto(view.observation), text))
    return decisions


def game_json(decisions: list[Decision]) -> dict[str, Any]:
    """The decisions as the Review call's `observations` and `moves`, in protobuf's JSON."""
    return {
        "observations": [
            json_format.MessageToDict(observation_to_proto(d.observation)) for d in decisions
        ],
        "moves": [{"text": d.move} for d in decisions],
    }


# -- running ---------------------------------------------------------------------


def run_in_background(reviewer: Reviewer) -> Review:
    """Run the review on a thread behind a progress bar; Ctrl-C stops it cleanly and the
    review of what was done is returned."""
    from tqdm import tqdm

    news: queue.Queue[Progress] = queue.Queue()
    done: list[Review] = []
    worker = threading.Thread(target=lambda: done.append(reviewer.run(news.put)), daemon=True)
    bar = tqdm(total=reviewer.total, unit="search", file=sys.stderr, disable=None)
    worker.start()
    try:
        while worker.is_alive() or not news.empty():
            try:
                progress = news.get(timeout=0.1)
            except queue.Empty:
                continue
            bar.total = progress.total
            bar.n = progress.done
            bar.refresh()
    except KeyboardInterrupt:
        reviewer.cancel()
        print("\nStopped: the review of what was done follows.", file=sys.stderr)
        worker.join()
    finally:
        bar.close()
    worker.join()
    return done[0]


# -- output ----------------------------------------------------------------------


#: Under the table: what its columns mean.
TABLE_KEY = (
    "loss: win chance lost to the best move; noise: its uncertainty where the decision was "
    "checked (each move valued from the position after it), a loss above it is a mistake (*); "
    "'-': a first look only, whose root statistics underrate the moves its search did not "
    "settle on."
)


def format_review(review: Review, decisions: list[Decision]) -> str:
    """The table of decisions and the worst moments with the moves valued and the deeper
    search's root statistics. A flagged row's figures are its worst moment's."""
    width = max([len("move"), *(len(p.move) for p in review.points)])
    flagged = {m.number for m in review.mistakes}
    lines = [
        f"Review of seat {review.seat}: {len(review.points)} decisions"
        + ("" if review.complete else " (stopped before the end)"),
        "",
        f"  {'#':>3}  {'move':<{width}}  {'win after':>9}  {'loss':>6}  {'noise':>6}",
    ]
    lines += [
        f"  {p.number:>3}  {p.move:<{width}}  {100 * p.win_chance:>8.1f}%  "
        f"{100 * p.loss:>6.1f}  {f'{100 * p.noise:.1f}' if p.checked else '-':>6}"
        + ("  *" if p.number in flagged else "")
        for p in review.points
    ]
    lines += ["", TABLE_KEY, ""]
    lines += ["Worst moments (checked: each move valued from the position after it):"
              if review.mistakes else "No checked move lost more than the noise."]  # fmt: skip
    for mistake in review.mistakes:
        lines += [
            "",
            f"Decision {mistake.number}: played {mistake.move} ({100 * mistake.win_chance:.1f}%); "
            f"best {mistake.best}: {100 * mistake.loss:.1f} points of win chance lost "
            f"(noise {100 * mistake.noise:.1f})",
        ]
        if mistake.deeper_search_prefers:
            lines.append(mistake.deeper_search_prefers)
        lines += [
            _position(mistake.observation, review.seat),
            f"    {'move':<{width}}  {'win after':>9}  {'±':>5}  (from the position after it; ± 1 "
            "standard error)",
        ]
        lines += [
            f"    {e.move:<{width}}  {100 * e.win_chance:>8.1f}%  {100 * e.noise:>5.1f}"
            for e in mistake.estimates
        ]
        lines.append(f"    {'move':<{width}}  {'win %':>6}  {'visits':>7}  (the deeper search)")
        lines += [
            f"    {a.move:<{width}}  {100 * a.win_chance:>6.1f}  {a.visits:>7}"
            for a in mistake.alternatives
        ]
    return "\n".join(lines)


def _position(observation: dict[str, Any], seat: int) -> str:
    """The position as the seat saw it, in the game's terminal text when it has one."""
    spec = engine.game(observation["game"])
    if converter(spec.name) is None:
        return json.dumps(observation)
    found = text_of(observation_to_proto(spec.observation_class.from_json(observation)))
    if found is None:
        return json.dumps(observation)
    text, obs = found
    return text.board(obs, seat)


def chart_points(review: Review) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """The chart's points, (decision, win chance after in %): every decision's, as the table
    gives it, and the worst moments'."""
    flagged = {m.number for m in review.mistakes}
    every = [(p.number, 100 * p.win_chance) for p in review.points]
    return every, [(n, chance) for n, chance in every if n in flagged]


def write_chart(review: Review, path: Path) -> None:
    """A PNG of the win chance after each decision, the worst moments marked (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    every, marked = chart_points(review)
    figure, axes = plt.subplots(figsize=(8, 3.5))
    axes.plot([n for n, _ in every], [c for _, c in every], marker="o", markersize=3,
              label="win chance after the move")  # fmt: skip
    axes.plot([n for n, _ in marked], [c for _, c in marked], "o",
              color="#d55e00", label="worst moments")  # fmt: skip
    axes.set_ylim(0, 100)
    axes.set_xlabel("decision")
    axes.set_ylabel("win chance, %")
    axes.set_title(f"Seat {review.seat}: estimated win chance over the game")
    axes.grid(alpha=0.3)
    axes.legend(loc="best")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


__all__ = [
    "BUDGET_FLAGS",
    "TABLE_KEY",
    "SourceError",
    "add_review",
    "chart_points",
    "format_review",
    "game_json",
    "match_decisions",
    "record_decisions",
    "review_config",
    "run",
    "run_in_background",
    "write_chart",
]
