"""Hint quality: are the win chances a hint shows estimates of their moves, and how much does
its move lose? At positions of seeded games of heuristic bots, the game's default bot
searches at the hint page's normal budget as the service's hints do (`show`: its top moves
get their share of the budget; `--show 0` searches without) and shows its most visited
moves with their win chances; each shown move is then valued on its own, as the review
checks a decision (`Reviewer.value_after`: in `--samples` worlds of the seat's information,
the others reply by the playout policy up to the seat's next choice, which a search at
`--deep` iterations values; with `--replies SPEC`, they reply by that bot instead, e.g. a
search, as the hint's own search models them). Regret is the best shown move's value less
the chosen one's, by that measure.

    python -m bench.hint_quality --game GAME --players 2 --positions 50

prints the mean and largest regret, and how many shown win chances lie within 0.05 of their
move's own value (the search issue's goals: mean regret at most 0.01, max 0.10, all within
0.05). That value is itself an estimate: the spread of its `--samples` searches gives its
standard error, printed beside, so that an error the measure cannot tell from its own noise
(within twice it) is counted apart."""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, replace

import engine
from search.bots import HINT_SHOW, HeuristicBot, make_bot
from search.review import ReviewConfig, Reviewer, decisions_of_game
from search.search import SearchConfig, search

#: Within this of its move's own value, a shown win chance is right.
CLOSE = 0.05


@dataclass(frozen=True)
class Position:
    """One position's figures: the chosen move's regret, each shown move's error and the
    standard error of that move's value (the spread of its samples)."""

    regret: float
    errors: tuple[float, ...]
    noise: tuple[float, ...]


def _game_moves(game: str, players: int, seed: int) -> list[str]:
    state = engine.new_game(game, players, seed)
    bot = HeuristicBot()
    moves: list[str] = []
    while not state.is_terminal():
        action = bot.choose(state, seed * 10_000 + len(moves))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


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
            reply = make_bot(replies, game, players)
            value, noise = {}, {}
            for move in moves:
                worth = [
                    reviewer.value_after(moment, move.action, s, reply) for s in range(samples)
                ]
                known = [w for w in worth if w is not None]
                value[move.action] = statistics.fmean(known)
                spread = statistics.stdev(known) if len(known) > 1 else 0.0
                noise[move.action] = spread / len(known) ** 0.5
            regret = max(value.values()) - value[result.action]
            errors = tuple(abs(m.win_chance - value[m.action]) for m in moves)
            found.append(Position(regret, errors, tuple(noise[m.action] for m in moves)))
            print(f"  game {game_seed} decision {moment.number}: regret {regret:.3f}, "
                  f"errors {' '.join(f'{e:.2f}' for e in errors)}", flush=True)  # fmt: skip
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
    parser.add_argument("--replies", default="heuristic",
                        help="the bot the others reply by when a move is valued")  # fmt: skip
    args = parser.parse_args(argv)
    found = measure(args.game, args.players, args.positions, args.iterations, args.deep,
                    args.samples, args.shown, args.seed, args.show, args.show_share,
                    args.replies)  # fmt: skip
    regrets = [p.regret for p in found]
    errors = [e for p in found for e in p.errors]
    noise = [n for p in found for n in p.noise]
    close = sum(e <= CLOSE for e in errors)
    within_noise = sum(e > CLOSE and e <= 2 * n for e, n in zip(errors, noise, strict=True))
    print(f"{args.game} {args.players}p, {len(found)} positions, hint {args.iterations} "
          f"iterations (show={args.show}, show_share={args.show_share:g}), each move valued "
          f"by {args.samples} searches of {args.deep}, the others replying by "
          f"{args.replies}:")  # fmt: skip
    print(f"  regret mean {statistics.fmean(regrets):.4f}, max {max(regrets):.3f}")
    print(f"  shown win chances within {CLOSE} of their move's value: {close} of {len(errors)} "
          f"({close / len(errors):.0%}); mean error {statistics.fmean(errors):.3f}, "
          f"max {max(errors):.3f}")  # fmt: skip
    print(f"  the values' own standard error: mean {statistics.fmean(noise):.3f}, max "
          f"{max(noise):.3f}; of the errors past {CLOSE}, {within_noise} lie within twice "
          f"their value's standard error")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
