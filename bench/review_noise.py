"""How noisy a review's value of a move is, per game and budget: the figure behind its
mistakes' threshold (`search.review`: a loss is a mistake above `NOISE_Z` standard errors).

A seeded game of heuristic bots gives seat 0's decisions; at `--positions` of them, spread
over the game, the played move is valued from the position after it as a review's check
values it (`Reviewer.value_after`: `SAMPLES` searches, each from its own world), with
`--repeats` review seeds. Per game and budget the table gives the spread of one search's value
(its standard deviation over every sample), the standard error a review reads from its own
samples (their spread over the square root of their number, the mean of it), and the spread
of the review's value itself from seed to seed (the standard deviation of the mean over the
repeats): the last two agree when the standard error the review uses is honest.

    python -m bench.review_noise --budgets 500 2000 4000 --positions 6 --repeats 4
"""

from __future__ import annotations

import argparse
import statistics
import sys

import engine
from bench.games import bench_players
from clients.tournament.play import play_game
from search.bots import make_bot
from search.review import SAMPLES, ReviewConfig, Reviewer, decisions_of_game


def default_games() -> list[tuple[str, int]]:
    """Every game offered, at the first player count its search benchmark measures."""
    found = [(spec.name, bench_players(spec.name, "search")) for spec in engine.games()]
    return [(name, counts[0]) for name, counts in found if counts]


def noise(
    game: str, players: int, budget: int, positions: int, repeats: int, seed: int
) -> tuple[float, float, float]:
    """(one search's spread, the review's own standard error, its seed-to-seed spread), each
    the mean over `positions` decisions of seat 0 in the game dealt from `seed`."""
    played = play_game(game, ["heuristic"] * players, seed, None, players, make_bot)
    decisions = decisions_of_game(engine.new_game(game, players, seed=seed), played.moves, 0)
    moments = Reviewer(decisions, ReviewConfig()).moments
    chosen = moments[:: max(1, len(moments) // positions)][:positions]
    spread, own, between = [], [], []
    for moment in chosen:
        values, means, errors = [], [], []
        for repeat in range(repeats):
            config = ReviewConfig(iterations=budget, deep_iterations=budget, seed=repeat)
            reviewer = Reviewer([moment.decision], config)
            (again,) = reviewer.moments
            found = [reviewer.value_after(again, again.action, k) for k in range(SAMPLES)]
            samples = [v for v in found if v is not None]
            values += samples
            means.append(statistics.fmean(samples))
            errors.append(statistics.stdev(samples) / len(samples) ** 0.5)
        spread.append(statistics.stdev(values))
        own.append(statistics.fmean(errors))
        between.append(statistics.stdev(means))
    return statistics.fmean(spread), statistics.fmean(own), statistics.fmean(between)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review_noise", description=__doc__)
    parser.add_argument("--game", help="one game (default: every game offered)")
    parser.add_argument("--players", type=int, default=2, help="with --game (default 2)")
    parser.add_argument("--budgets", type=int, nargs="+", default=[500, 2000, 4000])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=4, help="review seeds per position")
    parser.add_argument("--seed", type=int, default=11, help="the game's deal")
    args = parser.parse_args(argv)
    games = [(args.game, args.players)] if args.game else default_games()
    print(f"Values of the played move, {SAMPLES} searches each, win chance in points")
    print("| game | players | iterations | one search's spread | review's standard error "
          "| review's spread over seeds |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- |")
    for game, players in games:
        for budget in args.budgets:
            one, own, between = noise(
                game, players, budget, args.positions, args.repeats, args.seed
            )
            print(f"| {game} | {players} | {budget} | {100 * one:.1f} | {100 * own:.1f} "
                  f"| {100 * between:.1f} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
