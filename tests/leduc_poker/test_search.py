"""The search on Leduc poker, solved exactly (`bench.exploitability`): the policy each search
plays at every one of the 288 information sets, each searched from its own position, and what
a best reply gains against it.

MO-ISMCTS plays as it does on Kuhn poker: a pure strategy of the game in which the others know
the root player's card, exploitable by about 1 chip a hand from 1,000 to 100,000 iterations.
Smooth UCT over the whole game (`selection="smooth"`, `whole_game=1`) starts worse than
uniform play (its average strategy at a thousand iterations is mostly exploration) and falls
below it as the budget grows: 0.31 at 50,000 and 0.25 at 100,000 iterations.
Regret matching over the whole game (`selection="regret"`) falls likewise, more slowly: about
0.58 at 50,000 iterations.
"""

from __future__ import annotations

import pytest

from bench.exploitability import SEARCHES, ExactGame, chips_config, searched_policy, uniform
from bench.leduc_poker_exact import CHIPS, deals
from engine.leduc_poker import SPEC, Observation, RulesConfig, state_from_observation
from search.bots import make_bot
from search.games import default_bot
from search.search import search

GAME = ExactGame(deals())


def exploitability(name: str, iterations: int) -> float:
    """Of the policy the search called `name` in `bench.exploitability.SEARCHES` plays."""
    options = SEARCHES[name]
    policy = searched_policy(GAME, lambda seed: chips_config(CHIPS, iterations, seed, **options), 1)
    return GAME.exploitability(policy)


def test_every_bot_plays_whole_hands_legally() -> None:
    """The default bot, the heuristic and Smooth UCT over the whole game, from every kind of
    deal."""
    specs = [
        default_bot(SPEC.name, 2),
        "heuristic",
        "mo-ismcts:iterations=300,selection=smooth,whole_game=1,margin_weight=1,margin_scale=13",
    ]
    for spec in specs:
        bot = make_bot(spec)
        for seed in range(12):
            state = SPEC.new_game(2, seed)
            while not state.is_terminal():
                action = bot.choose(state, seed)
                assert action in state.legal_actions(), (spec, seed)
                state.apply_action(action)
            state.check()


def test_the_search_never_peeks() -> None:
    """Searches from worlds the player to act cannot tell apart give the same statistics."""
    for history, mover in ((("bet",), 1), (("check", "check", "bet", "raise"), 0)):
        for name, options in SEARCHES.items():
            stats = []
            for other in ("J", "Q", "K"):
                view = Observation(mover, 2, RulesConfig(), "K", None, (), None)
                state = state_from_observation(view, draws=(other, "Q"))
                for text in history:
                    state.apply_action(state.string_to_action(text))
                assert state.current_player == mover
                result = search(state, chips_config(CHIPS, 400, 5, **options))
                stats.append([(m.action, m.visits, m.mean_reward) for m in result.moves])
            assert stats[0] == stats[1] == stats[2], (history, name)


def test_smooth_uct_over_the_whole_game_falls_with_the_budget() -> None:
    small, large = exploitability("smooth whole", 1000), exploitability("smooth whole", 5000)
    print(f"\nSmooth UCT, whole game: 1000 it. {small:.4f}, 5000 it. {large:.4f}")
    assert large < small - 0.5
    assert GAME.exploitability(uniform(GAME)) == pytest.approx(2.3736, abs=1e-4)


def test_regret_matching_over_the_whole_game_falls_with_the_budget() -> None:
    small, large = exploitability("regret whole", 1000), exploitability("regret whole", 10000)
    print(f"\nRegret matching, whole game: 1000 it. {small:.4f}, 10000 it. {large:.4f}")
    assert large < small - 0.5


@pytest.mark.slow
def test_at_50000_iterations_smooth_uct_is_far_less_exploitable_than_mo_ismcts() -> None:
    """The issue's goal: a third of MO-ISMCTS's; Smooth UCT comes to 0.31 of it."""
    mo, smooth = exploitability("mo-ismcts", 50000), exploitability("smooth whole", 50000)
    print(f"\n50,000 iterations: MO-ISMCTS {mo:.4f}, Smooth UCT over the whole game {smooth:.4f}")
    assert mo > 0.9
    assert smooth <= mo / 3
    regret = exploitability("regret whole", 50000)
    print(f"regret matching over the whole game {regret:.4f}")
    assert regret < 0.7 * mo
