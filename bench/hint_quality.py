"""Hint quality: are the win chances a hint shows estimates of their moves, and how much does
its move lose? At positions of seeded games of heuristic bots, the game's default bot
searches at the hint page's normal budget as the service's hints do (`show`: its top moves
get their share of the budget; `--show 0` searches without) and shows its most visited
moves with their win chances; each shown move is then valued on its own, as the review
checks a decision (`Reviewer.value_after`: in `--samples` worlds of the seat's information,
the others reply by the playout policy up to the seat's next choice, which a search at
`--deep` iterations values; with `--replies SPEC`, they reply by that bot instead, e.g. a
search, as the hint's own search models them; `--replies default`, by the game's default
bot at `--deep` iterations, as strong as the search that values the move). `--replies tree`
values each move as the search issue asks, by searches from the position right after it
(`Reviewer.value_searched`: a search for the seat whoever is to move, the others searched
in its own trees as the hint's search models them). Regret is the
best shown move's value less the chosen one's, by that measure.

    python -m bench.hint_quality --game GAME --players 2 --positions 50

prints the mean and largest regret, and how many shown win chances lie within 0.05 of their
move's own value (the search issue's goals: mean regret at most 0.01, max 0.10, all within
0.05). That value is itself an estimate, from `--samples` searches whose spread gives its
standard error, and the measure's noise shows in both figures, so the bench reads each once
more without it:
- regret: picking the best move by the same noisy values that score it reads high (the
  largest of several noisy values is biased up); picked on one half of the samples and
  scored on the other, it reads low (the half's pick may not be the best). The two bracket
  the regret by an exact measure. The largest regret is printed with its standard error,
  and the regrets past 0.10 are counted with how many pass it by more than twice theirs.
- errors: a squared error less its value's variance estimates the squared error against the
  exact value, so the root-mean-square error is printed with the measure's noise taken out;
  and since not even two unbiased estimates always agree within 0.05, the bench prints how
  many shown win chances would, if the only errors were the noise of the hint's own visits
  (a binomial share at the move's value) and of the measure (its standard error): the
  ceiling a hint of this budget can reach by this measure; and, as a yardstick, how often
  one valuing search alone lies within 0.05 of the mean of the move's other samples."""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import engine
from search.bots import HINT_SHOW, HeuristicBot, make_bot
from search.games import default_bot
from search.review import ReviewConfig, Reviewer, decisions_of_game
from search.search import SearchConfig, search
from search.spec import with_options

#: Within this of its move's own value, a shown win chance is right.
CLOSE = 0.05
#: The search issue's goal for a hint's largest regret.
MAX_REGRET = 0.10
#: `--replies` for valuing a move by a search from the position right after it.
TREE = "tree"


def within_by_noise(value: float, visits: int, noise: float) -> float:
    """The chance that a win chance read from `visits` playouts of a move worth `value` lies
    within CLOSE of a measure of it with standard error `noise`, were both unbiased: the
    playouts counted as independent draws (they are not, so the true chance is lower)."""
    share = min(max(value, 0.0), 1.0)
    spread = math.sqrt(share * (1.0 - share) / max(visits, 1) + noise * noise)
    if spread == 0.0:
        return 1.0
    return math.erf(CLOSE / (spread * math.sqrt(2.0)))


def _rms(errors: list[float]) -> float:
    return math.sqrt(statistics.fmean(e * e for e in errors))


def true_error(found: list[Position]) -> float:
    """The shown win chances' root-mean-square error with the measure's own noise taken out:
    a squared error less its value's variance estimates the squared error against the
    move's exact value by this measure."""
    squares = [e * e - n * n for p in found for e, n in zip(p.errors, p.noise, strict=True)]
    return math.sqrt(max(0.0, statistics.fmean(squares)))


@dataclass(frozen=True)
class Position:
    """One hint and its shown moves valued: each shown move's win chance and visits as the
    hint shows them, each move's values in the measure's samples (the same worlds for every
    move), and which shown move the hint chose."""

    win_chances: tuple[float, ...]
    visits: tuple[int, ...]
    samples: tuple[tuple[float, ...], ...]
    chosen: int

    @property
    def values(self) -> tuple[float, ...]:
        """Each shown move's value: the mean of its samples."""
        return tuple(statistics.fmean(s) for s in self.samples)

    @property
    def noise(self) -> tuple[float, ...]:
        """Each value's standard error, from the spread of its samples."""
        return tuple(
            statistics.stdev(s) / len(s) ** 0.5 if len(s) > 1 else 0.0 for s in self.samples
        )

    @property
    def errors(self) -> tuple[float, ...]:
        """How far each shown win chance lies from its move's value."""
        return tuple(abs(w - v) for w, v in zip(self.win_chances, self.values, strict=True))

    @property
    def single_errors(self) -> tuple[float, ...]:
        """How far each sample lies from the mean of the move's other samples: the error of
        one valuing search, a yardstick for the hint's (with `--replies tree` and `--deep`
        the hint's budget, a search of the hint's whole budget from the position after the
        move, as if each shown move had a budget of its own)."""
        return tuple(
            abs(x - statistics.fmean(s[:i] + s[i + 1 :]))
            for s in self.samples
            if len(s) > 1
            for i, x in enumerate(s)
        )

    @property
    def regret(self) -> float:
        """The best shown move's value less the chosen one's. The best is picked by the same
        noisy values it is scored by, so this reads high: it counts the measure's noise."""
        values = self.values
        return max(values) - values[self.chosen]

    @property
    def regret_noise(self) -> float:
        """The regret's standard error: from the spread of the best move's samples less the
        chosen one's, paired world by world (every move is valued in the same worlds), or as
        two independent means where a sample could not be valued for one of them."""
        values = self.values
        best = max(range(len(values)), key=values.__getitem__)
        ahead, chosen = self.samples[best], self.samples[self.chosen]
        if len(ahead) != len(chosen) or len(ahead) < 2:
            return math.hypot(self.noise[best], self.noise[self.chosen])
        diffs = [b - c for b, c in zip(ahead, chosen, strict=True)]
        return statistics.stdev(diffs) / len(diffs) ** 0.5

    @property
    def split_regret(self) -> float:
        """The regret with the best move picked on one half of the samples and scored on the
        other (both ways, averaged): free of that selection's noise, it reads low, since the
        move a half picks may not be the best. The two regrets bracket the true one."""
        halves = len(self.samples[0]) // 2
        if halves == 0:
            return self.regret
        found = []
        for pick, score in ((slice(None, halves), slice(halves, None)),
                            (slice(halves, None), slice(None, halves))):  # fmt: skip
            picked = [statistics.fmean(s[pick]) for s in self.samples]
            scored = [statistics.fmean(s[score]) for s in self.samples]
            best = max(range(len(picked)), key=picked.__getitem__)
            found.append(scored[best] - scored[self.chosen])
        return statistics.fmean(found)

    @property
    def ceiling(self) -> tuple[float, ...]:
        """Each shown move's chance of an error within CLOSE were both estimates unbiased."""
        figures = zip(self.values, self.visits, self.noise, strict=True)
        return tuple(within_by_noise(value, visits, noise) for value, visits, noise in figures)


def _game_moves(game: str, players: int, seed: int) -> list[str]:
    state = engine.new_game(game, players, seed)
    bot = HeuristicBot()
    moves: list[str] = []
    while not state.is_terminal():
        action = bot.choose(state, seed * 10_000 + len(moves))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


def reply_spec(replies: str, game: str, players: int, deep: int) -> str:
    """The bot the others reply by: `replies`, or for "default" the game's default bot at
    `deep` iterations; for "tree", in words (they are searched in the valuing search's trees)."""
    if replies == TREE:
        return "the valuing search's own trees (a search from the position after the move)"
    if replies != "default":
        return replies
    return with_options(default_bot(game, players), f"iterations={deep}")


def _valuer(
    reviewer: Reviewer, replies: str, game: str, players: int, deep: int
) -> Callable[[Any, int, int], float | None]:
    """How a shown move is valued in one sample: `Reviewer.value_searched` for "tree", else
    `Reviewer.value_after` with the others replying by `reply_spec`'s bot."""
    if replies == TREE:
        return reviewer.value_searched
    reply = make_bot(reply_spec(replies, game, players, deep), game, players)
    return lambda moment, action, sample: reviewer.value_after(moment, action, sample, reply)


def measure(
    game: str,
    players: int,
    positions: int,
    iterations: int,
    deep: int,
    samples: int,
    shown: int,
    seed: int,
    show: int = HINT_SHOW,
    show_share: float = SearchConfig.show_share,
    replies: str = "heuristic",
) -> list[Position]:
    """The figures of `positions` positions, a few from each seeded game, every seat in turn."""
    found: list[Position] = []
    game_seed = seed
    while len(found) < positions:
        seat = game_seed % players
        deal = engine.new_game(game, players, game_seed)
        decisions = decisions_of_game(deal, _game_moves(game, players, game_seed), seat)
        config = ReviewConfig(iterations=iterations, deep_iterations=deep, samples=samples,
                              seed=game_seed)  # fmt: skip
        reviewer = Reviewer(decisions, config)
        moments = reviewer.moments[:: max(1, len(reviewer.moments) // 4)][:4]
        for moment in moments:
            if len(found) == positions:
                break
            first = reviewer.config.search_config(moment.number, False, game, players)
            hint = replace(first, show=show, show_share=show_share)
            result = search(moment.state, hint)
            moves = result.moves[:shown]
            value = _valuer(reviewer, replies, game, players, deep)
            # Every move is valued in the same worlds: `samples` of the seat's information.
            worth = ((value(moment, m.action, s) for s in range(samples)) for m in moves)
            valued = tuple(tuple(w for w in ws if w is not None) for ws in worth)
            chosen = [m.action for m in moves].index(result.action)
            position = Position(tuple(m.win_chance for m in moves), tuple(m.visits for m in moves),
                                valued, chosen)  # fmt: skip
            found.append(position)
            print(f"  game {game_seed} decision {moment.number}: regret {position.regret:.3f} "
                  f"(split {position.split_regret:.3f}), errors "
                  f"{' '.join(f'{e:.2f}' for e in position.errors)}", flush=True)  # fmt: skip
        game_seed += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--iterations", type=int, default=6000, help="the hint's budget")
    parser.add_argument("--deep", type=int, default=6000, help="each valuing search's budget")
    parser.add_argument("--samples", type=int, default=4, help="worlds per move valued")
    parser.add_argument("--shown", type=int, default=HINT_SHOW, help="moves shown per hint")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=HINT_SHOW,
                        help="the hint search's show (0: without the final phase)")  # fmt: skip
    parser.add_argument("--show-share", type=float, default=SearchConfig.show_share)
    parser.add_argument(
        "--replies",
        default="heuristic",
        help="the bot the others reply by when a move is valued ('default': "
        "the game's default bot at --deep iterations; 'tree': searched in "
        "the valuing search's trees, from the position after the move)",
    )
    args = parser.parse_args(argv)
    found = measure(args.game, args.players, args.positions, args.iterations, args.deep,
                    args.samples, args.shown, args.seed, args.show, args.show_share,
                    args.replies)  # fmt: skip
    regrets = [p.regret for p in found]
    split = [p.split_regret for p in found]
    errors = [e for p in found for e in p.errors]
    noise = [n for p in found for n in p.noise]
    ceiling = sum(c for p in found for c in p.ceiling)
    close = sum(e <= CLOSE for e in errors)
    within_noise = sum(e > CLOSE and e <= 2 * n for e, n in zip(errors, noise, strict=True))
    print(f"{args.game} {args.players}p, {len(found)} positions, hint {args.iterations} "
          f"iterations (show={args.show}, show_share={args.show_share:g}), each move valued "
          f"by {args.samples} searches of {args.deep}, the others replying by "
          f"{reply_spec(args.replies, args.game, args.players, args.deep)}:")  # fmt: skip
    print(f"  regret mean {statistics.fmean(regrets):.4f}, max {max(regrets):.3f}; the best "
          f"picked and scored on separate halves of the samples: mean "
          f"{statistics.fmean(split):.4f}, max {max(split):.3f}")  # fmt: skip
    past = [p for p in found if p.regret > MAX_REGRET]
    clearly = sum(p.regret - 2 * p.regret_noise > MAX_REGRET for p in past)
    worst = max(found, key=lambda p: p.regret)
    print(f"  the largest regret's standard error {worst.regret_noise:.3f}; regrets past "
          f"{MAX_REGRET}: {len(past)}, of which {clearly} by more than twice their standard "
          f"error")  # fmt: skip
    print(f"  shown win chances within {CLOSE} of their move's value: {close} of {len(errors)} "
          f"({close / len(errors):.0%}); mean error {statistics.fmean(errors):.3f}, "
          f"max {max(errors):.3f}; root-mean-square error {_rms(errors):.3f}, "
          f"{true_error(found):.3f} with the values' noise taken out")  # fmt: skip
    single = [e for p in found for e in p.single_errors]
    print(f"  one valuing search against the mean of the move's other samples: "
          f"{sum(e <= CLOSE for e in single)} of {len(single)} "
          f"({sum(e <= CLOSE for e in single) / len(single):.0%}) within {CLOSE}, "
          f"root-mean-square error {_rms(single):.3f}")  # fmt: skip
    print(f"  the values' own standard error: mean {statistics.fmean(noise):.3f}, max "
          f"{max(noise):.3f}; of the errors past {CLOSE}, {within_noise} lie within twice "
          f"their value's standard error")  # fmt: skip
    print(f"  were both estimates unbiased, their noise alone would leave {ceiling:.0f} of "
          f"{len(errors)} ({ceiling / len(errors):.0%}) within {CLOSE}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
