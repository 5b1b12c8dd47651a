"""Search and bots: legal moves only, reproducible, budgets and cancellation honoured."""

from __future__ import annotations

import random
import threading
import time

import pytest

import engine
from search.bots import SearchBot, make_bot
from search.ismcts import CancelToken
from search.search import Search, SearchConfig, search
from tests.royal_cities.positions import position
from tests.timing import SLACK, thread_cpu

SPECS = [
    "random",
    "heuristic",
    "mo-ismcts:iterations=40",
    "so-ismcts:iterations=40",
    "pimc:iterations=40,worlds=4",
    "mo-ismcts:iterations=40,playout=heuristic,epsilon=0.2,margin_weight=0.5",
]


#: Every game at every player count it offers.
TABLES = [("royal_cities", n) for n in (1, 2, 3, 4)] + [("citadels", n) for n in range(2, 8)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_bots_play_only_legal_moves(game: str, players: int) -> None:
    """Every bot kind, in every game and player count, chooses a legal action at every
    decision."""
    for g, spec in enumerate(SPECS):
        bot = make_bot(spec)
        state = engine.new_game(game, players, seed=100 + g)
        rng = random.Random(g)
        moves = 0
        while not state.is_terminal() and moves < 120:
            legal = state.legal_actions()
            action = bot.choose(state, rng.randrange(1 << 30))
            assert action in legal, (spec, state.phase, action, legal)
            state.apply_action(action)
            moves += 1


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_bots_play_legal_moves_for_thousands_of_decisions(game: str, players: int) -> None:
    """Over a thousand decisions per game and player count, whole games, every bot kind."""
    decisions = games = 0
    while decisions < 1000:
        specs = [SPECS[(games + i) % len(SPECS)] for i in range(players)]
        bots = [make_bot(spec) for spec in specs]
        state = engine.new_game(game, players, seed=500 + games)
        while not state.is_terminal():
            action = bots[state.current_player].choose(state, decisions)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        games += 1


@pytest.mark.parametrize("game", ["royal_cities", "citadels"])
@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts", "pimc"])
def test_same_seed_same_move(algorithm: str, game: str) -> None:
    """One thread and an iteration budget: the same seed gives the same statistics."""
    state = engine.new_game(game, 3, seed=11)
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    config = SearchConfig(algorithm=algorithm, iterations=800, seed=5)
    first, second = search(state, config), search(state, config)
    assert first.action == second.action
    assert [(m.action, m.visits, m.mean_reward) for m in first.moves] == [
        (m.action, m.visits, m.mean_reward) for m in second.moves
    ]


@pytest.mark.parametrize("game", ["royal_cities", "citadels"])
@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts", "pimc"])
def test_visits_add_up_to_iterations(algorithm: str, game: str) -> None:
    """Every iteration passes through exactly one move of the player to act."""
    state = engine.new_game(game, 2, seed=4)
    result = search(state, SearchConfig(algorithm=algorithm, iterations=1500, seed=2))
    assert result.iterations == 1500
    assert sum(m.visits for m in result.moves) == 1500


def test_search_leaves_the_state_unchanged() -> None:
    state = engine.new_game("royal_cities", 4, seed=8)
    before = [state.observation(p) for p in range(4)]
    search(state, SearchConfig(iterations=300, threads=2))
    assert [state.observation(p) for p in range(4)] == before


@pytest.mark.timing
@pytest.mark.parametrize("seconds", [0.05, 0.3])
def test_time_budget_is_honoured(seconds: float) -> None:
    """A time budget is spent whole and the search ends at it: never before, and within a
    loaded host's slack after (ten times 0.3 s fails; a search that ignored its budget would
    run on, and is cancelled past the slack to fail). How close to the budget a search ends
    on an idle machine is `regent bench search`'s "over ms" figure."""
    state = engine.new_game("royal_cities", 4, seed=3)
    guard = CancelToken()
    timer = threading.Timer(seconds + 2 * SLACK, guard.cancel)
    timer.start()
    start = time.perf_counter()
    result = search(state, SearchConfig(iterations=0, seconds=seconds, threads=2), guard)
    elapsed = time.perf_counter() - start
    timer.cancel()
    assert seconds <= result.elapsed <= elapsed < seconds + SLACK, elapsed
    assert result.iterations > 0


@pytest.mark.timing
def test_stop_within_caps_what_is_left_of_any_budget() -> None:
    """`stop_within` (a caller's deadline) shortens a time or an iteration budget from now
    and never lengthens one."""
    state = engine.new_game("royal_cities", 2, seed=9)
    timed = Search(state, SearchConfig(iterations=0, seconds=60))
    assert not timed.advance(0.02)
    timed.stop_within(0.03)
    assert timed.advance()  # to the end of the budget: 0.03 s more, not 60 s
    assert 0.05 <= timed.result().elapsed < 0.05 + SLACK
    counted = Search(state, SearchConfig(iterations=10**9))
    counted.stop_within(0.03)
    assert counted.advance()
    assert 0 < counted.result().iterations < 10**9
    short = Search(state, SearchConfig(iterations=0, seconds=0.03))
    short.stop_within(30.0)
    assert short.advance()
    assert 0.03 <= short.result().elapsed < 0.03 + SLACK  # not 30 s
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="positive"):
            short.stop_within(bad)


@pytest.mark.timing
def test_cancellation_stops_within_milliseconds() -> None:
    """A cancel flag raised from another thread stops an unlimited search of two threads
    within milliseconds of their work (CPU time: a loaded host's waits for a core do not
    count), and the search returns its best move so far."""
    state = engine.new_game("royal_cities", 2, seed=9)
    token = CancelToken()
    outcome = {}

    def work() -> None:
        outcome["result"] = search(state, SearchConfig(iterations=0, seconds=60, threads=2), token)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.2)
    cpu = time.process_time()
    token.cancel()
    worker.join(SLACK)
    assert not worker.is_alive()
    assert time.process_time() - cpu < 0.1
    assert outcome["result"].action in state.legal_actions()
    assert outcome["result"].iterations > 0


def _last_season_construction():
    """Season 4, both at 10 VP, only a red majority left: p0 holds red-5, p1's red City
    holds red-4. Building red-5 wins 11-10; keeping it loses 10-11."""
    return position(
        2,
        phase="construct",
        player=0,
        season=4,
        hands={0: ["red-5"]},
        cities={1: {"red": ["red-4"]}},
        vp=[10, 10],
        purchased=(0, 1),
    )


@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts", "pimc"])
def test_finds_the_construction_that_decides_the_game(algorithm: str) -> None:
    state = _last_season_construction()
    result = search(state, SearchConfig(algorithm=algorithm, iterations=400, seed=1))
    assert result.text == "build red-5 red"
    assert result.moves[0].mean_reward > 0.9


@pytest.mark.parametrize("algorithm", ["mo-ismcts", "so-ismcts"])
def test_finds_the_purchase_that_enables_the_winning_build(algorithm: str) -> None:
    """Season 4, p1 has purchased; the purple majority is tied. p0 can buy the red-5
    it needs and end the Season at once (it is the last to purchase), then build it
    to win the red majority and the game."""
    state = position(
        2,
        phase="turn",
        player=0,
        season=4,
        hands={0: []},
        cities={0: {"purple": ["purple-6"]}, 1: {"purple": ["purple-6"], "red": ["red-4"]}},
        market=["red-5", "purple-1", "purple-2", "purple-3"],
        vp=[10, 10],
        purchased=(1,),
    )
    # A purchase played out at random often wastes it, so a search may lock onto "add"
    # early: the purchase must be the choice of most seeds, not of one chosen seed.
    seeds = range(3, 8)
    first = [
        search(state, SearchConfig(algorithm=algorithm, iterations=3000, seed=s)) for s in seeds
    ]
    assert sum(r.text == "purchase" for r in first) > len(seeds) // 2, [r.text for r in first]
    state.apply_action(state.string_to_action("purchase"))
    while state.phase == "purchase":
        result = search(state, SearchConfig(algorithm=algorithm, iterations=3000, seed=4))
        state.apply_action(result.action)
    assert "red-5" in state.observation(0).players[0].hand


def test_bad_configurations_are_refused() -> None:
    for bad in ("nope", "mo-ismcts:iterations=x", "mo-ismcts:depth=3", "random:iterations=5"):
        with pytest.raises(ValueError):
            make_bot(bad)
    with pytest.raises(ValueError):
        SearchConfig(iterations=0, seconds=0)
    with pytest.raises(ValueError):
        SearchConfig(iterations=-1)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("c", float("nan")),
        ("c", float("inf")),
        ("margin_scale", float("nan")),
        ("margin_scale", 0.0),
        ("rank_weight", 1.5),
        ("epsilon", float("nan")),
        ("pv_length", 10**12),
        ("max_nodes", 10**20),
        ("iterations", 10**20),
        ("seconds", float("inf")),
        ("max_steps", 0),
        ("threads", 1.5),
        ("shape_others", 2),
    ],
)
def test_out_of_range_options_name_themselves(option: str, value: object) -> None:
    with pytest.raises(ValueError) as info:
        SearchConfig(**{option: value})
    assert str(info.value).startswith(option)


@pytest.mark.parametrize("game", ["royal_cities", "citadels"])
def test_a_playout_past_the_step_cap_is_scored_from_its_position(game: str) -> None:
    """With a cap of 3 actions no playout from the opening reaches the end: every iteration
    is counted as capped, and the statistics stay whole (a reward per visit within [0, 1])."""
    state = engine.new_game(game, 3, seed=5)
    result = search(state, SearchConfig(iterations=300, max_steps=3, seed=1))
    assert result.capped == result.iterations == 300
    assert sum(m.visits for m in result.moves) == 300
    assert all(0.0 <= m.mean_reward <= 1.0 for m in result.moves)
    assert search(state, SearchConfig(iterations=300, seed=1)).capped == 0


def test_the_reward_blends_the_result_the_margin_and_the_place() -> None:
    """A 4-player Citadels draft on points 2, 6, 4 and 5, the player on 5 to pick: with a cap
    of one action every iteration is scored where it stands (the pick changes no points), so
    each move's reward is the blend for that player: no win, a margin of -1 (of 20) and
    ahead of two of the three others."""
    state = engine.new_game("citadels", 4, seed=3)
    rng = random.Random(3)
    while state.scores() != [2, 6, 4, 5] or state.phase != "pick":
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player == 3
    place, margin = 2 / 3, 0.5 - 0.5 / 20
    for margin_weight, rank_weight in ((0.0, 1.0), (0.5, 0.5), (0.2, 0.3)):
        for shape_others in (1, 0):  # the searching player's reward is shaped either way
            config = SearchConfig(
                iterations=len(state.legal_actions()),
                max_steps=1,
                margin_weight=margin_weight,
                rank_weight=rank_weight,
                shape_others=shape_others,
            )
            blend = margin_weight * margin + rank_weight * place
            moves = search(state, config).moves
            assert all(m.mean_reward == pytest.approx(blend) for m in moves)
    with pytest.raises(ValueError, match="add up to at most 1"):
        SearchConfig(margin_weight=0.5, rank_weight=0.6)


@pytest.mark.timing
def test_a_long_playout_sees_the_cancel_flag() -> None:
    """Uniformly random playouts of 7-player Citadels (hundreds of actions each) under a cap
    of a million: a cancel stops the search within milliseconds of its thread's CPU time
    (which a loaded host's waits for a core do not inflate)."""
    state = engine.new_game("citadels", 7, seed=2)
    token = CancelToken()
    config = SearchConfig(iterations=0, seconds=60, max_steps=1_000_000, epsilon=1.0)
    ended = {}

    def work() -> None:
        search(state, config, token)
        ended["cpu"] = time.thread_time()

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.2)
    cpu = thread_cpu(worker)
    token.cancel()
    worker.join(SLACK)
    assert not worker.is_alive()
    assert ended["cpu"] - cpu < 0.1


def test_a_time_budget_alone_is_the_whole_budget() -> None:
    """`seconds=S` alone means S seconds, never S seconds or a default iteration cap."""
    assert SearchConfig().iterations == 2000
    assert SearchConfig(seconds=0.5).iterations == 0
    assert SearchConfig(seconds=0.5, iterations=300).iterations == 300
    timed = make_bot("mo-ismcts:seconds=0.25")
    assert isinstance(timed, SearchBot) and timed.config.iterations == 0
