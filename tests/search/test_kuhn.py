"""The search on a game small enough to solve exactly: Kuhn poker (`tests.kuhn_poker.exact`).

Known best replies, the exploitability of what each algorithm plays as its budget
grows, and MO-ISMCTS's handling of information sets, all checked against enumeration.
Every search here maximises chips: margin weight 1 over a scale of 2 chips makes its
reward 1/2 + chips/4 (the game's returns alone count a win of 1 chip as one of 2).

What enumeration shows of these searches: they draw the other card uniformly, and the
opponent's moves in their trees are learnt in those worlds only, so they search the
game in which the root player's card is known to both players (`exact.fused_values`).
ISMCTS's play converges to that game's best moves, a pure strategy that a best reply
exploits by 1/6 of a chip a hand, whatever ties it breaks: from near-random play at
1 iteration (uniform play: 11/24) its exploitability falls to 1/6 within about 50
iterations and stays there. PIMC's eight fixed worlds differ from seed to seed, which
mixes its play: it ends lower (about 0.1).

Smooth UCT (`selection="smooth"`) from the position changes none of that: the game it searches
is the same. Over the whole game (`whole_game=1`: every world a new deal, each player's tree
branching first on its own card) it approaches an equilibrium: its average strategy, read at
each information set, is exploitable by about 0.012 at 50,000 iterations.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

import engine
from bench.exploitability import SMOOTH_C
from engine.kuhn_poker import SPEC, KuhnPokerState, state_from_observation
from engine.kuhn_poker.cards import CARDS
from search.bots import SEARCH_BOTS, make_bot
from search.games import default_bot
from search.search import SearchConfig, SearchResult, search
from tests.kuhn_poker.exact import (
    Infoset,
    Strategy,
    best_response,
    child,
    equilibrium,
    exploitability,
    fused_values,
    heuristic,
    infosets,
    position,
    uniform,
)

ALGORITHMS = ("mo-ismcts", "so-ismcts", "pimc")
#: Fixed strategies the best replies are computed against.
FIXED = {
    "uniform": uniform(),
    "heuristic": heuristic(),
    "equilibrium a=0": equilibrium(0.0),
    "equilibrium a=1/6": equilibrium(1 / 6),
    "equilibrium a=1/3": equilibrium(1 / 3),
}
#: Budgets of the exploitability sweeps (iterations) and the seeds per information set.
BUDGETS, SEEDS = (1, 10, 50, 200, 1000, 5000), 6
SLOW_BUDGETS, SLOW_SEEDS = (1, 10, 50, 200, 1000, 5000, 20000, 50000), 20


def chips_config(algorithm: str, iterations: int, seed: int) -> SearchConfig:
    return SearchConfig(
        algorithm=algorithm,
        iterations=iterations,
        seed=seed,
        margin_weight=1.0,
        margin_scale=2.0,
    )


def others(info: Infoset) -> list[str]:
    return [c for c in CARDS if c != info[1]]


def played(algorithm: str, iterations: int, seeds: int) -> Strategy:
    """The behaviour strategy a search plays: at every information set, how often
    each action is its choice over `seeds` seeded searches (their seeds differ from
    one information set to the next, so that the choices are independent)."""
    strategy = {}
    for k, info in enumerate(infosets()):
        state = position(info, others(info)[0])
        counts = Counter(
            search(state, chips_config(algorithm, iterations, 1000 * k + seed)).text
            for seed in range(seeds)
        )
        strategy[info] = {text: n / seeds for text, n in counts.items()}
    return strategy


def test_every_bot_plays_whole_hands_legally() -> None:
    """Every bot kind, and the game's default bot, over hands from every deal."""
    specs = ["random", "heuristic", *(f"{kind}:iterations=200" for kind in SEARCH_BOTS)]
    for spec in [*specs, default_bot(SPEC.name, 2)]:
        bot = make_bot(spec)
        for seed in range(12):
            state = SPEC.new_game(2, seed)
            while not state.is_terminal():
                action = bot.choose(state, seed)
                assert action in state.legal_actions(), (spec, seed)
                state.apply_action(action)
            assert sorted(state.returns()) == [0.0, 1.0]


# -- known best replies ----------------------------------------------------------------


def strict_best_replies() -> dict[Infoset, str]:
    """The information sets where the best reply is strict and the same action against
    every fixed strategy of FIXED that reaches them, with that action."""
    choices: dict[Infoset, set[str]] = {info: set() for info in infosets()}
    strict = set(infosets())
    for strategy in FIXED.values():
        for player in (0, 1):
            reply = best_response(player, strategy)
            for info, values in reply.action_values.items():
                first, second = sorted(values.values(), reverse=True)
                if first - second < 1e-9:
                    strict.discard(info)
                choices[info].add(reply.choice[info])
    return {info: choices[info].pop() for info in strict if len(choices[info]) == 1}


def test_the_strict_best_replies_are_what_poker_players_know() -> None:
    """Fold J and call with K facing a bet; bet K after a check. Nothing else is a
    strict best reply against all of uniform play, the heuristic and the equilibria."""
    assert strict_best_replies() == {
        (0, "J", ("check", "bet")): "fold",
        (0, "K", ("check", "bet")): "call",
        (1, "J", ("bet",)): "fold",
        (1, "K", ("bet",)): "call",
        (1, "K", ("check",)): "bet",
    }


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_each_search_plays_the_strict_best_replies(algorithm: str) -> None:
    """At 1000 iterations, every seed, whichever card the other player really holds."""
    for info, action in strict_best_replies().items():
        for other in others(info):
            for seed in range(4):
                result = search(position(info, other), chips_config(algorithm, 1000, seed))
                assert result.text == action, (info, other, seed, result.moves)


def root_errors(iterations: int, seeds: int = 3) -> tuple[float, float]:
    """MO-ISMCTS's root statistics against the exact values of the game it searches,
    over every information set and `seeds` seeds: the mean of the largest error over
    the moves, and the largest error of the most visited move."""
    worst, best_move = [], []
    for info in infosets():
        want = fused_values(info)
        state = position(info, others(info)[0])
        for seed in range(seeds):
            result = search(state, chips_config("mo-ismcts", iterations, seed))
            errors = [abs(m.mean_reward - (0.5 + want[m.text] / 4)) for m in result.moves]
            worst.append(max(errors))
            best_move.append(errors[0])
    return sum(worst) / len(worst), max(best_move)


def test_mo_ismcts_root_values_approach_the_exact_values() -> None:
    """The mean reward of each root move converges to its exact value as the budget
    grows (facing a bet these are the true values: the hand ends after the reply)."""
    small, large = root_errors(50), root_errors(5000)
    print(f"\nMO-ISMCTS root value error: 50 it. {small}, 5000 it. {large}")
    assert large[0] < small[0] / 2
    assert large[1] < 0.03
    for info in [i for i in infosets() if i[2][-1:] == ("bet",)]:
        result = search(position(info, others(info)[0]), chips_config("mo-ismcts", 5000, 1))
        facing = best_response(info[0], uniform()).action_values[info]
        assert fused_values(info) == facing
        for move in result.moves:
            if move.visits > 1000:
                assert move.mean_reward == pytest.approx(0.5 + facing[move.text] / 4, abs=0.02)


# -- exploitability as the budget grows --------------------------------------------------


def fused_limit() -> set[float]:
    """The exploitability of every pure strategy that plays the searched game's best
    moves (one value per way of breaking its ties)."""
    values = {info: fused_values(info) for info in infosets()}
    ties = [info for info, v in values.items() if len(set(v.values())) == 1]
    limits = set()
    for choice in itertools.product(*(sorted(values[info]) for info in ties)):
        strategy = {info: {max(v, key=v.__getitem__): 1.0} for info, v in values.items()}
        strategy.update({info: {action: 1.0} for info, action in zip(ties, choice, strict=True)})
        limits.add(round(exploitability(strategy), 12))
    return limits


def sweep(budgets: tuple[int, ...], seeds: int) -> dict[str, dict[int, float]]:
    table = {a: {b: exploitability(played(a, b, seeds)) for b in budgets} for a in ALGORITHMS}
    print(f"\nexploitability (chips a hand) over {seeds} seeds per information set")
    print("budget  " + "  ".join(f"{a:>9}" for a in ALGORITHMS))
    for b in budgets:
        print(f"{b:>6}  " + "  ".join(f"{table[a][b]:9.4f}" for a in ALGORITHMS))
    return table


def check_trend(table: dict[str, dict[int, float]], budgets: tuple[int, ...]) -> None:
    """Every algorithm ends far below its near-uniform play at 1 iteration and never
    above the searched game's limit (with a margin) from 200 iterations on; the two
    ISMCTS end on that limit (PIMC's play, mixed by its worlds, may end below it)."""
    (limit,) = fused_limit()
    for algorithm, row in table.items():
        smallest, largest = row[budgets[0]], row[budgets[-1]]
        assert smallest > largest + 0.15, (algorithm, row)
        assert max(row[b] for b in budgets if b >= 200) < limit + 0.02, (algorithm, row)
        if algorithm != "pimc":
            assert largest == pytest.approx(limit, abs=0.01), (algorithm, row)


def test_the_searched_game_s_best_play_is_exploitable_by_one_sixth() -> None:
    assert fused_limit() == {round(1 / 6, 12)}


def test_exploitability_falls_as_the_budget_grows() -> None:
    """From near-uniform play at 1 iteration to the searches' limit (1/6)."""
    check_trend(sweep(BUDGETS, SEEDS), BUDGETS)


@pytest.mark.slow
def test_exploitability_over_a_larger_sweep() -> None:
    check_trend(sweep(SLOW_BUDGETS, SLOW_SEEDS), SLOW_BUDGETS)


# -- MO-ISMCTS's information sets ----------------------------------------------------------


def worlds(state: KuhnPokerState) -> list[KuhnPokerState]:
    """Every world consistent with what the player to act knows."""
    view = state.observation(state.current_player)
    cards = [view.shown] if view.shown else [c for c in CARDS if c != view.card]
    return [state_from_observation(view, draws=(card,)) for card in cards]


def tree_sizes(state: KuhnPokerState) -> tuple[list[int], int]:
    """Nodes that searches from `state` grow once they have seen every world: per
    player, MO-ISMCTS's tree over moves as that player observes them; and the tree
    over the moves themselves (SO-ISMCTS, and each world of PIMC)."""
    observed: list[set[tuple[int, ...]]] = [set(), set()]
    actual: set[tuple[int, ...]] = set()

    def walk(s: KuhnPokerState, labels: list[tuple[int, ...]], moves: tuple[int, ...]) -> None:
        for a in s.legal_actions():
            mover = s.current_player
            after = [
                (*path, a if t == mover else s.observed_action(a, t))
                for t, path in enumerate(labels)
            ]
            for t in (0, 1):
                observed[t].add(after[t])
            actual.add((*moves, a))
            walk(child(s, a), after, (*moves, a))

    for world in worlds(state):
        walk(world, [(), ()], ())
    return [1 + len(paths) for paths in observed], 1 + len(actual)


@pytest.mark.parametrize("info", infosets())
def test_the_trees_have_one_node_per_observed_sequence(info: Infoset) -> None:
    """MO-ISMCTS grows exactly one node per sequence of moves as each player observes
    them, the same whichever card the other holds (after its own card and its bet the
    root player's tree holds the opponent's two replies, not one per hidden card);
    SO-ISMCTS one tree over moves; PIMC one per world."""
    for other in others(info):
        state = position(info, other)
        per_player, moves = tree_sizes(state)
        assert per_player[0] == per_player[1] == moves  # every Kuhn bet is public
        assert search(state, chips_config("mo-ismcts", 3000, 1)).nodes == sum(per_player)
        assert search(state, chips_config("so-ismcts", 3000, 1)).nodes == moves
        pimc = SearchConfig(algorithm="pimc", iterations=3000, worlds=8, seed=1)
        assert search(state, pimc).nodes == 8 * moves


def test_the_tree_under_my_bet_holds_the_two_replies() -> None:
    """Holding J, player 0's tree: the root, check and bet, the two replies to each,
    and the two answers to check-bet: 9 nodes, and as many in player 1's tree."""
    state = position((0, "J", ()), "Q")
    assert tree_sizes(state) == ([9, 9], 9)
    result = search(state, chips_config("mo-ismcts", 3000, 2))
    assert result.nodes == 18
    assert result.principal_variation[:1] == ("check",)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_search_never_peeks(algorithm: str) -> None:
    """Searches from the two worlds a player cannot tell apart give the same statistics."""
    for info in infosets():
        results = [
            search(position(info, other), chips_config(algorithm, 500, 3)) for other in others(info)
        ]
        stats = [[(m.action, m.visits, m.mean_reward) for m in r.moves] for r in results]
        assert stats[0] == stats[1], info


def test_every_resampled_world_is_consistent_with_the_root_player_s_view() -> None:
    """The worlds the searches deal (resample for the player to act): 100% of thousands
    give that player the same observation, and both unseen cards come up."""
    for info in infosets():
        state = position(info, others(info)[0])
        view = state.observation(info[0])
        dealt = Counter()
        for seed in range(3000):
            world = state.resample(info[0], seed)
            assert world.observation(info[0]) == view
            dealt[world.hands()[1 - info[0]]] += 1
        assert set(dealt) == set(others(info))


@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts"])
def test_others_who_play_only_to_win_are_searched_as_such(algorithm: str) -> None:
    """The first player holds the King, so the other loses whatever it does. Searched for
    chips (`shape_others=1`), the other loses as little as it can: it checks behind and folds
    to a bet, and either first move wins 1 chip (a reward of 3/4). Searched for its game
    result alone (`shape_others=0`), it is indifferent between its moves and sometimes calls
    or bets into the King, so the first player's moves are worth more to it."""
    state = position((0, "K", ()), "J")
    best = {}
    for shape_others in (1, 0):
        config = SearchConfig(
            algorithm=algorithm,
            iterations=4000,
            seed=1,
            margin_weight=1.0,
            margin_scale=2.0,
            shape_others=shape_others,
        )
        best[shape_others] = max(m.mean_reward for m in search(state, config).moves)
    assert best[1] < 0.8 < 0.84 < best[0]


# -- Smooth UCT over the whole game ------------------------------------------------------


def smooth_config(iterations: int, seed: int, **options: object) -> SearchConfig:
    return SearchConfig(
        iterations=iterations,
        seed=seed,
        margin_weight=1.0,
        margin_scale=2.0,
        **{"selection": "smooth", "c": SMOOTH_C, "whole_game": 1, **options},  # type: ignore[arg-type]
    )


def searched(iterations: int, seed: int, **options: object) -> Strategy:
    """The policy the search plays (`MoveStats.policy`) at every information set, each
    searched from its own position with the same seed."""
    strategy = {}
    for info in infosets():
        result = search(position(info, others(info)[0]), smooth_config(iterations, seed, **options))
        strategy[info] = {m.text: m.policy for m in result.moves}
    return strategy


def test_smooth_uct_over_the_whole_game_approaches_an_equilibrium() -> None:
    """Its exploitability falls from 1,000 to 50,000 iterations, to at most 0.02 (the
    searches above stay at 1/6); the selection alone, from the position, stays there too."""
    table = {b: exploitability(searched(b, 0)) for b in (1000, 10000, 50000)}
    alone = exploitability(searched(5000, 0, whole_game=0))
    print(f"\nSmooth UCT, whole game: {table}; from the position, 5000 it.: {alone:.4f}")
    assert table[50000] <= 0.02 < table[10000] < table[1000]
    assert alone > 0.15


def test_the_smooth_search_plays_its_average_strategy() -> None:
    """The policy is the shares of UCB's choices at the root (not the visit shares, which hold
    the average strategy's own draws too), the move is drawn from it by the seed; the UCB
    search's policy is its one move."""
    state = position((0, "J", ()), "Q")
    drawn = Counter()
    for seed in range(40):
        result = search(state, smooth_config(2000, seed))
        visits = sum(m.visits for m in result.moves)
        assert sum(m.policy for m in result.moves) == pytest.approx(1.0)
        assert [m.policy for m in result.moves] != [m.visits / visits for m in result.moves]
        assert search(state, smooth_config(2000, seed)).action == result.action
        drawn[result.text] += 1
    assert set(drawn) == {"check", "bet"}, drawn  # J bluffs now and then
    ucb = search(state, chips_config("mo-ismcts", 2000, 1))
    assert [m.policy for m in ucb.moves] == [1.0, 0.0] and ucb.action == ucb.moves[0].action


def test_regret_matching_over_the_whole_game_approaches_an_equilibrium() -> None:
    """Regret matching (`selection="regret"`) at every information set: its exploitability
    falls with the budget, far below the UCB searches' 1/6."""
    table = {b: exploitability(searched(b, 0, selection="regret")) for b in (1000, 10000)}
    print(f"\nRegret matching, whole game: {table}")
    assert table[10000] < table[1000] and table[10000] < 0.08


def test_the_regret_search_plays_its_average_strategy() -> None:
    """Its policy is regret matching's average strategy at the root (not the visit shares,
    which hold its exploration too); the move is drawn from it by the seed."""
    state = position((0, "J", ()), "Q")
    drawn = Counter()
    for seed in range(30):
        result = search(state, smooth_config(2000, seed, selection="regret"))
        visits = sum(m.visits for m in result.moves)
        assert sum(m.policy for m in result.moves) == pytest.approx(1.0)
        assert [m.policy for m in result.moves] != [m.visits / visits for m in result.moves]
        assert search(state, smooth_config(2000, seed, selection="regret")).action == result.action
        drawn[result.text] += 1
    assert set(drawn) == {"check", "bet"}, drawn  # J bluffs now and then


def test_a_whole_game_search_reads_the_root_player_s_information_set() -> None:
    """Of its iterations, those that deal the root player its card reach its information set
    (a third at the first move); threads share the budget and their statistics add up."""
    state = position((0, "J", ()), "Q")
    result: SearchResult = search(state, smooth_config(6000, 3, threads=2))
    reached = sum(m.visits for m in result.moves)
    assert result.iterations == 6000 and 1500 < reached < 2500, reached
    assert result.principal_variation[:1] == (result.moves[0].text,)
    later = position((1, "Q", ("bet",)), "K")
    assert {m.text for m in search(later, smooth_config(3000, 3)).moves} == {"fold", "call"}


@pytest.mark.parametrize(
    "options",
    [
        {"algorithm": "so-ismcts", "whole_game": 1},
        {"whole_game": 1, "reuse": 1},
        {"whole_game": 1, "infer": 10},
        {"selection": "smooth", "temperature": 1.0},
        {"selection": "regret", "temperature": 1.0},
        {"selection": "regret", "gamma": 0.0},
        {"selection": "regret", "gamma": 1.5},
        {"selection": "regrets"},
    ],
)
def test_options_that_do_not_go_together_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SearchConfig(**options)  # type: ignore[arg-type]


def test_a_game_that_cannot_start_again_has_no_whole_game_search() -> None:
    state = engine.primary_game().new_game(2, seed=1)
    with pytest.raises(ValueError, match="whole_game"):
        search(state, SearchConfig(iterations=10, whole_game=1))
    assert search(state, SearchConfig(iterations=50, selection="smooth")).iterations == 50
