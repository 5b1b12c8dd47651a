"""The review of one seat's game (`search.review`): a deliberately bad move is flagged, a move
as good as the best (within the noise) is not, nor is the move the review's own first search
plays at the hint's budget; the flagged figures are the table's; the chart has one point per
decision, and only the seat's information counts (the review from the true game equals the
review from the same observations, sent through JSON)."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

import engine
from clients.tournament.play import play_game
from search.bots import make_bot, resolve, search_config
from search.games import default_bot
from search.review import (
    Decision,
    Review,
    ReviewConfig,
    Reviewer,
    ReviewError,
    decisions_of_game,
    review,
)

FAST = ReviewConfig(iterations=150, deep_iterations=600, mistakes=3, seed=4)


def kuhn_fold_with_the_king() -> tuple[engine.State, list[str]]:
    """Kuhn poker, seed 1: player 0 holds the King, checks, faces a bet and folds it (the
    worst move there is: calling always wins)."""
    state = engine.new_game("kuhn_poker", 2, seed=1)
    assert state.observation(0).card == "K"
    return state, ["check", "bet", "fold"]


def test_a_deliberately_bad_move_is_flagged() -> None:
    state, moves = kuhn_fold_with_the_king()
    decisions = decisions_of_game(state, moves, seat=0)
    assert [d.move for d in decisions] == ["check", "fold"]
    result = review(decisions, FAST)
    assert result.complete and result.seat == 0
    assert [p.number for p in result.points] == [1, 2]
    worst = result.mistakes[0]
    assert (worst.number, worst.move, worst.best) == (2, "fold", "call")
    assert worst.loss > 0.9 and worst.win_chance == 0.0 and worst.loss > worst.noise
    assert {a.move for a in worst.alternatives} == {"fold", "call"}
    assert [(e.move, e.win_chance) for e in worst.estimates] == [("call", 1.0), ("fold", 0.0)]
    assert worst.observation == decisions[1].observation.to_json()
    assert_flags_are_the_tables(result)


def assert_flags_are_the_tables(result: Review) -> None:
    """Every worst moment is a checked decision whose loss exceeds its noise, with its row's
    figures; every other checked row is within its noise."""
    rows = {p.number: p for p in result.points}
    flagged = {m.number for m in result.mistakes}
    for m in result.mistakes:
        row = rows[m.number]
        assert row.checked and m.loss > m.noise >= 0.0
        assert (m.move, m.best, m.win_chance, m.loss, m.noise) == (
            row.move, row.best, row.win_chance, row.loss, row.noise
        )  # fmt: skip
        assert m.estimates[0].move == m.best
        assert m.estimates[0].win_chance == pytest.approx(m.win_chance + m.loss)
    for row in result.points:
        if row.checked and row.number not in flagged:
            assert row.loss <= row.noise


def test_a_move_as_good_as_the_best_is_not_flagged() -> None:
    """The King's check wins as surely as its bet (Kuhn poker's win chance), but a search of
    20 iterations that settles on the bet rates the check lower from its root: the check
    makes the decision a candidate, and valued from the position after each move the two are
    equal, so nothing is flagged."""
    state, _ = kuhn_fold_with_the_king()
    decisions = decisions_of_game(state, ["check", "bet", "call"], seat=0)
    config = ReviewConfig(bot="mo-ismcts", iterations=20, deep_iterations=200, seed=0)
    first_look = review(decisions, ReviewConfig(bot="mo-ismcts", iterations=20, mistakes=0))
    assert first_look.points[0].loss > 0  # the root statistics' underrating, as before
    result = review(decisions, config)
    check = result.points[0]
    assert check.checked and (check.win_chance, check.loss) == (1.0, 0.0)
    assert result.mistakes == ()


def test_the_first_searchs_own_move_is_not_flagged_at_equal_budget() -> None:
    """Both seats play every Kuhn deal by the hint (the review's bot at its first budget);
    reviewed at that budget, no move is flagged unless a deeper search prefers another, and
    then the mistake says so."""
    bot = make_bot("mo-ismcts:iterations=300", "kuhn_poker", 2)
    for seed in range(6):
        state = engine.new_game("kuhn_poker", 2, seed=seed)
        moves, game = [], state.clone()
        while not game.is_terminal():
            moves.append(game.action_to_string(bot.choose(game, seed + len(moves))))
            game.apply_action(game.string_to_action(moves[-1]))
        for seat in (0, 1):
            config = ReviewConfig(bot="mo-ismcts", iterations=300, deep_iterations=1200, seed=seed)
            result = review(decisions_of_game(state, moves, seat), config)
            assert_flags_are_the_tables(result)
            for mistake in result.mistakes:
                assert mistake.default_plays == 0 or "a deeper search prefers" in (
                    mistake.deeper_search_prefers
                )
            assert not [m for m in result.mistakes if m.default_plays], (seed, seat, moves)


@pytest.fixture(scope="module", params=[("royal_cities", 2), ("citadels", 4)])
def played(request: pytest.FixtureRequest) -> tuple[engine.State, list[str]]:
    """A seeded game of heuristic bots, from its deal."""
    game, players = request.param
    result = play_game(game, ["heuristic"] * players, 11, None, players, make_bot)
    return engine.new_game(game, players, seed=11), list(result.moves)


def test_one_point_per_decision(played: tuple[engine.State, list[str]]) -> None:
    state, moves = played
    decisions = decisions_of_game(state, moves, seat=1)
    replay = state.clone()
    choices = 0
    for text in moves:
        if replay.current_player == 1 and len(replay.legal_actions()) > 1:
            choices += 1
        replay.apply_action(replay.string_to_action(text))
    result = review(decisions, FAST)
    assert len(result.points) == choices
    assert [p.number for p in result.points] == list(range(1, choices + 1))
    assert all(0.0 <= p.win_chance <= 1.0 and p.loss >= 0.0 for p in result.points)
    assert len(result.mistakes) <= FAST.mistakes
    assert [m.loss for m in result.mistakes] == sorted((m.loss for m in result.mistakes),
                                                       reverse=True)  # fmt: skip
    assert sum(p.checked for p in result.points) == min(FAST.mistakes, choices)
    assert_flags_are_the_tables(result)


def test_only_the_seats_information_counts(played: tuple[engine.State, list[str]]) -> None:
    """The same review from the true game and from its observations sent through JSON, and
    twice from the same input (seeded)."""
    state, moves = played
    from_game = review(decisions_of_game(state, moves, seat=0), FAST)
    observation_class = engine.game(state.observation(0).game).observation_class
    sent = [
        Decision(observation_class.from_json(d.observation.to_json()), d.move)
        for d in decisions_of_game(state, moves, seat=0)
    ]
    assert review(sent, FAST) == from_game
    assert review(sent, FAST) == from_game


def test_stopping_keeps_what_is_done(played: tuple[engine.State, list[str]]) -> None:
    state, moves = played
    reviewer = Reviewer(decisions_of_game(state, moves, seat=0), FAST)
    seen: list[int] = []

    def stop_after_three(progress) -> None:
        seen.append(progress.done)
        if progress.done == 3:
            reviewer.cancel()

    result = reviewer.run(stop_after_three)
    assert not result.complete
    assert [p.number for p in result.points] == [1, 2, 3]
    first_looks = review(decisions_of_game(state, moves, seat=0), replace(FAST, mistakes=0))
    assert result.points == first_looks.points[:3]


def test_a_review_can_be_stopped_from_another_thread(
    played: tuple[engine.State, list[str]],
) -> None:
    state, moves = played
    slow = ReviewConfig(iterations=10**9, deep_iterations=10**9)
    reviewer = Reviewer(decisions_of_game(state, moves, seat=0), slow)
    threading.Timer(0.2, reviewer.cancel).start()
    result = reviewer.run()
    assert not result.complete and result.points == ()


def test_bad_decisions_name_the_field() -> None:
    state, moves = kuhn_fold_with_the_king()
    decisions = decisions_of_game(state, moves, seat=0)
    with pytest.raises(ReviewError) as caught:
        Reviewer([decisions[0], Decision(decisions[1].observation, "raise")], FAST)
    assert caught.value.field == "decisions[1].move"
    with pytest.raises(ReviewError) as caught:
        Reviewer([decisions[0], Decision(decisions[0].observation, "fold")], FAST)
    assert caught.value.field == "decisions[1].move"
    other = engine.new_game("kuhn_poker", 2, seed=1)
    other.apply_action(other.string_to_action("check"))
    with pytest.raises(ReviewError) as caught:
        Reviewer([decisions[0], Decision(other.observation(1), "bet")], FAST)
    assert caught.value.field == "decisions[1].observation"
    with pytest.raises(ValueError, match="unknown bot"):
        Reviewer(decisions, ReviewConfig(bot="nobody"))


def test_with_no_bot_named_the_review_searches_with_the_games_default(
    played: tuple[engine.State, list[str]],
) -> None:
    state, moves = played
    decisions = decisions_of_game(state, moves, seat=0)
    default = default_bot(decisions[0].observation.game, state.num_players)
    assert Reviewer(decisions, FAST).config.bot == default
    assert Reviewer(decisions, ReviewConfig(bot="pimc")).config.bot == "pimc"
    assert Reviewer([], FAST).config.bot == "mo-ismcts"  # nothing to search


def test_a_level_is_the_reviewed_games_level_with_its_own_budget(
    played: tuple[engine.State, list[str]],
) -> None:
    """`level:1` is resolved for the reviewed game and player count, and its budget (10
    iterations, one thread) replaces the review's in every search, the deeper ones too: the
    review equals the one of the level's spec at that budget, whatever budget it is given."""
    state, moves = played
    decisions = decisions_of_game(state, moves, seat=0)[:8]
    game, players = decisions[0].observation.game, state.num_players
    level = search_config("level:1", game, players)
    assert level is not None
    spec = ReviewConfig(
        bot=resolve("level:1", game, players),
        iterations=level.iterations,
        deep_iterations=level.iterations,
        mistakes=2,
        seed=4,
    )
    expected = review(decisions, spec)
    assert expected.complete and any(p.checked for p in expected.points)
    for mistake in expected.mistakes:
        assert sum(a.visits for a in mistake.alternatives) == level.iterations
    for given in ({}, {"iterations": 999, "deep_iterations": 999, "seconds": 60, "threads": 2}):
        config = ReviewConfig(bot="level:1", mistakes=2, seed=4, **given)
        assert review(decisions, config) == expected


def test_a_specs_own_budget_replaces_the_reviews() -> None:
    """A search bot's spec that names its iterations searches with them; a level that does
    not search (Royal Cities' level 4, its heuristic) or a bad level is refused."""
    state = engine.new_game("royal_cities", 2, seed=11)
    result = play_game("royal_cities", ["heuristic"] * 2, 11, None, 2, make_bot)
    decisions = decisions_of_game(state, list(result.moves), seat=1)[:6]
    config = ReviewConfig(bot="mo-ismcts:iterations=20", deep_iterations=4000, seed=1)
    found = review(decisions, config)
    assert found.mistakes
    assert all(sum(a.visits for a in m.alternatives) == 20 for m in found.mistakes)
    with pytest.raises(ValueError, match="a level that searches"):
        Reviewer(decisions, ReviewConfig(bot="level:4"))
    with pytest.raises(ValueError, match="level must be within"):
        Reviewer(decisions, ReviewConfig(bot="level:11"))
