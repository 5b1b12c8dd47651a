"""Where a game's hand-written policy parts from a deeper search, to show which of its
decisions to improve (the policy drives the search's playouts). Bots play whole seeded
games; at every decision with a choice, the heuristic's move is set beside a search's, and
per kind of decision (the phase and the first word of the heuristic's move) the table gives
how often they agree and what the heuristic's moves lose by the search's own mean rewards.

    python -m bench.regret --game GAME --players 2 --games 3 --seed 5 --iterations 3000
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass

import engine
from engine.interface import State
from search.bots import HeuristicBot, make_bot
from search.search import Search, SearchConfig


@dataclass
class Tally:
    """One kind of decision: how many, how many the two agreed on, the regret summed."""

    decisions: int = 0
    agreed: int = 0
    regret: float = 0.0


def judge(state: State, seed: int, iterations: int) -> tuple[int, int, float]:
    """The heuristic's move, the search's, and how much lower the search rates the heuristic's
    (its best move's mean reward less the heuristic move's; an unvisited move counts as 0)."""
    mine = HeuristicBot().choose(state, seed)
    run = Search(state, SearchConfig(iterations=iterations, seed=seed))
    run.advance()
    result = run.result()
    reward = {m.action: m.mean_reward for m in result.moves}
    return mine, result.action, max(reward[result.action] - reward[mine], 0.0)


def tally(game: str, players: int, games: int, seed: int, bot: str, iterations: int) -> dict:
    """Per kind of decision, a `Tally` over `games` games played by `bot` from `seed` on."""
    spec = engine.game(game)
    player = make_bot(bot, game, players)
    kinds: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for g in range(games):
        state = spec.new_game(players, seed + g)
        move = 0
        while not state.is_terminal():
            move_seed = (seed + g) * 1_000_003 + move
            if len(state.legal_actions()) > 1:
                mine, theirs, regret = judge(state, move_seed, iterations)
                kind = (state.phase, state.action_to_string(mine).split()[0])
                entry = kinds[kind]
                entry.decisions += 1
                entry.agreed += mine == theirs
                entry.regret += regret
            state.apply_action(player.choose(state, move_seed))
            move += 1
    return dict(kinds)


def table(kinds: dict) -> str:
    """A Markdown table, the costliest kind of decision first."""
    lines = [
        "| phase | heuristic's move | decisions | agreed | regret, total | regret, mean |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for (phase, word), t in sorted(kinds.items(), key=lambda kv: (-kv[1].regret, kv[0])):
        lines.append(
            f"| {phase} | {word} | {t.decisions} | {t.agreed / t.decisions:.0%} "
            f"| {t.regret:.2f} | {t.regret / t.decisions:.3f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.regret", description=__doc__)
    primary = engine.primary_game().name
    parser.add_argument("--game", default=primary, help=f"the game (default: {primary})")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="game g is dealt from seed + g")
    parser.add_argument(
        "--bot", default="mo-ismcts:iterations=2000", help="who plays the games' moves"
    )
    parser.add_argument(
        "--iterations", type=int, default=3000, help="the judging search's budget a decision"
    )
    args = parser.parse_args(argv)
    kinds = tally(args.game, args.players, args.games, args.seed, args.bot, args.iterations)
    print(table(kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
