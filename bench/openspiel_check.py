"""The test games' exploitability checked by OpenSpiel (not a dependency of the package:
`pip install open_spiel`): the policy our searches play, read at every information set of
ours as `bench.exploitability` reads it, mapped onto OpenSpiel's game by the cards and the
betting (`bench/<game>_openspiel.py`) and scored by OpenSpiel's own `exploitability`; beside
it OpenSpiel's CFR and outcome-sampling MCCFR (OOS) at the same iteration counts.

    python -m bench.openspiel_check [--budgets 1000,10000,50000] [--searches "smooth whole"]

prints, per game, the exploitability (chips a hand) of each search by ours and by OpenSpiel,
CFR's and OOS's average policy. A CFR iteration walks the whole tree, an OOS or search
iteration one path of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING

import engine
from bench.exploitability import SEARCHES, _config, exact_games, searched_policy
from engine.interface import State
from engine.registry import layer_module

if TYPE_CHECKING:  # OpenSpiel is imported where it is used: the module loads without it
    import pyspiel
    from open_spiel.python import policy as os_policy

BUDGETS = (1000, 10000, 50000)
DEFAULT_SEARCHES = ("mo-ismcts", "smooth whole", "regret whole")


def _history(state: pyspiel.State) -> list[tuple[int, int]]:
    return [(step.player, step.action) for step in state.full_history()]


def position_after(ours: ModuleType, history: list[tuple[int, int]]) -> State:
    """Our position after OpenSpiel's `history` in the game of `ours` (its module): its deal,
    then each player's action replayed."""
    state: State = ours.deal(history)
    for player, action in history:
        if player >= 0:
            state.apply_action(action_of(ours, state, action))
    return state


def action_of(ours: ModuleType, state: State, action: int) -> int:
    """Our action for OpenSpiel's `action` at `state`: the first of its texts that is legal."""
    legal = {state.action_to_string(a): a for a in state.legal_actions()}
    return next(legal[text] for text in ours.TEXTS[action] if text in legal)


def mapped(
    game: pyspiel.Game, ours: ModuleType, policy: dict[object, dict[str, float]]
) -> os_policy.TabularPolicy:
    """Our `policy` (by our information sets and move texts) as OpenSpiel's tabular policy:
    each of its information states takes the policy of ours at the position it maps to."""
    from open_spiel.python import policy as os_policy

    table = os_policy.TabularPolicy(game)
    done: set[str] = set()

    def visit(state: pyspiel.State) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            key = state.information_state_string()
            if key not in done:
                done.add(key)
                position = position_after(ours, _history(state))
                mine = policy[position.observation(position.current_player)]
                row = table.policy_for_key(key)
                row[:] = 0.0
                for action in state.legal_actions():
                    row[action] = mine[position.action_to_string(action_of(ours, position, action))]
        for action in state.legal_actions():
            visit(state.child(action))

    visit(game.new_initial_state())
    return table


def cfr(game: pyspiel.Game, iterations: int) -> float:
    """OpenSpiel's CFR (its C++ solver): its average policy's exploitability."""
    import pyspiel

    solver = pyspiel.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return pyspiel.exploitability(game, solver.average_policy())


def oos(game: pyspiel.Game, iterations: int, seed: int) -> float:
    """OpenSpiel's outcome-sampling MCCFR (Python): its average policy's exploitability."""
    import numpy as np
    from open_spiel.python.algorithms import exploitability, outcome_sampling_mccfr

    np.random.seed(seed)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(iterations):
        solver.iteration()
    return exploitability.exploitability(game, solver.average_policy())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    parser.add_argument("--searches", default=",".join(DEFAULT_SEARCHES))
    parser.add_argument("--cfr", type=int, default=10000, help="the most CFR iterations")
    args = parser.parse_args(argv)
    import pyspiel
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import exploitability

    budgets = [int(b) for b in args.budgets.split(",")]
    names = args.searches.split(",")
    solved = exact_games()
    for spec in engine.games():
        ours = layer_module("bench", spec.name, "_openspiel") if spec.testing else None
        if ours is None or spec.name not in solved:
            continue
        exact, chips = solved[spec.name]
        game = pyspiel.load_game(ours.NAME)
        uniform = exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))
        print(f"\n{spec.name}: exploitability (chips a hand) by OpenSpiel; uniform {uniform:.4f}")
        columns = [f"{n} (ours/OS)" for n in names] + ["CFR", "OOS"]
        print("budget  " + "  ".join(f"{c:>26}" for c in columns))
        for budget in budgets:
            row = []
            for name in names:
                policy = searched_policy(exact, partial(_config, chips, budget, SEARCHES[name]), 1)
                theirs = exploitability.exploitability(game, mapped(game, ours, policy))
                row.append(f"{exact.exploitability(policy):.4f} / {theirs:.4f}")
            row.append(f"{cfr(game, budget):.4f}" if budget <= args.cfr else "-")
            row.append(f"{oos(game, budget, seed=0):.4f}")
            print(f"{budget:>6}  " + "  ".join(f"{c:>26}" for c in row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
