"""bench/regret.py: the heuristic set beside a search at every decision of a game."""

from __future__ import annotations

import engine
from bench.regret import judge, main, tally
from search.bots import HeuristicBot


def test_every_decision_with_a_choice_is_judged_once() -> None:
    kinds = tally("royal_cities", 2, 1, 4, "heuristic", 50)
    state = engine.game("royal_cities").new_game(2, 4)
    choices = move = 0
    while not state.is_terminal():
        choices += len(state.legal_actions()) > 1
        state.apply_action(HeuristicBot().choose(state, 4 * 1_000_003 + move))
        move += 1
    assert sum(t.decisions for t in kinds.values()) == choices
    assert all(0 <= t.agreed <= t.decisions and t.regret >= 0.0 for t in kinds.values())


def test_agreeing_costs_nothing() -> None:
    state = engine.game("royal_cities").new_game(2, 9)
    for seed in range(6):
        while len(state.legal_actions()) < 2:
            state.apply_action(state.legal_actions()[0])
        mine, theirs, regret = judge(state, seed, 200)
        assert {mine, theirs} <= set(state.legal_actions())
        assert regret >= 0.0 and (mine != theirs or regret == 0.0)
        state.apply_action(theirs)


def test_the_table_names_each_kind_of_decision(capsys) -> None:
    args = ["--game", "citadels", "--players", "4", "--bot", "heuristic", "--iterations", "30",
            "--seed", "2"]  # fmt: skip
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| phase | heuristic's move | decisions | agreed |")
    assert len(lines) > 3 and all(line.count("|") == 7 for line in lines)
