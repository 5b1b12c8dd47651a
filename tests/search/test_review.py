"""The review of one seat's game (`search.review`): a deliberately bad move is flagged, the
chart has one point per decision, and only the seat's information counts (the review from
the true game equals the review from the same observations, sent through JSON)."""

from __future__ import annotations

import threading

import pytest

import engine
from clients.tournament.play import play_game
from search.bots import make_bot, resolve, search_config
from search.games import default_bot
from search.review import (
    Decision,
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
    assert worst.loss > 0.9 and worst.win_chance == 0.0
    assert {a.move for a in worst.alternatives} == {"fold", "call"}
    assert worst.observation == decisions[1].observation.to_json()


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
    full = review(decisions_of_game(state, moves, seat=0), FAST)
    assert result.points == full.points[:3]


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
    assert expected.complete and expected.mistakes
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
