"""Duplicate-deal scheduling: every table plays every deal once per rotation of its bots, the
rounds take every seating in turn, and the schedule depends on the config alone."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from clients.tournament.config import ConfigError, Sprt, TournamentConfig, parse_rule
from clients.tournament.schedule import arrangements, deal_seed, schedule


def config(names: str, players: int = 2, games: int = 1, **extra: object) -> TournamentConfig:
    bots = tuple((name, "random") for name in names)
    return TournamentConfig("royal_cities", players, bots, games, seed=5, **extra)  # type: ignore[arg-type]


def test_two_player_round_robin_plays_each_deal_from_both_seats() -> None:
    games = schedule(config("abc", games=12))
    assert len(games) == 12 and [g.index for g in games] == list(range(12))
    for deal in range(2):
        ours = [g for g in games if g.deal == deal]
        assert {g.seed for g in ours} == {deal_seed(5, deal)}
        assert sorted(g.seats for g in ours) == sorted(itertools.permutations("abc", 2))


def test_games_are_rounded_up_to_whole_rounds() -> None:
    assert len(schedule(config("abc", games=7))) == 12
    assert len(schedule(config("abc", games=1))) == 6


def test_four_players_rotate_each_deal_and_cover_every_seating() -> None:
    games = schedule(config("abcd", players=4, games=24))
    assert len(games) == 24  # one table, 6 seatings up to rotation, 4 rotations each
    for deal in range(6):
        seatings = [g.seats for g in games if g.deal == deal]
        first = seatings[0]
        assert seatings == [first[r:] + first[:r] for r in range(4)]
    assert Counter(g.seats for g in games) == Counter(itertools.permutations("abcd"))


def test_a_gauntlet_puts_the_bot_in_every_seat_against_each_other_bot() -> None:
    games = schedule(config("hxy", players=3, games=6, gauntlet="h"))
    assert [g.seats for g in games] == [
        ("h", "x", "x"), ("x", "x", "h"), ("x", "h", "x"),
        ("h", "y", "y"), ("y", "y", "h"), ("y", "h", "y"),
    ]  # fmt: skip


def test_arrangements_skip_repeated_seatings() -> None:
    """abab has two rotations, not four; the other four seatings are one rotation group."""
    assert arrangements(("a", "b", "a", "b")) == [
        [("a", "b", "a", "b"), ("b", "a", "b", "a")],
        [("a", "b", "b", "a"), ("b", "b", "a", "a"), ("b", "a", "a", "b"), ("a", "a", "b", "b")],
    ]


def test_solo_plays_each_bot_on_every_deal() -> None:
    games = schedule(config("ab", players=1, games=4))
    assert [(g.deal, g.seats[0]) for g in games] == [(0, "a"), (0, "b"), (1, "a"), (1, "b")]


def test_seeds_depend_on_the_tournament_seed_and_deal_only() -> None:
    seeds = {deal_seed(1, d) for d in range(1000)}
    assert len(seeds) == 1000 and all(0 <= s < 2**32 for s in seeds)
    assert deal_seed(1, 3) == deal_seed(1, 3) != deal_seed(2, 3)
    assert schedule(config("abc", games=30)) == schedule(config("abc", games=30))
    longer = schedule(config("abc", games=60))
    assert longer[:30] == schedule(config("abc", games=30))  # more games extend the schedule


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 5}, "players"),
        ({"bots": (("a", "random"), ("a", "heuristic"))}, "distinct"),
        ({"bots": (("a", "nonsense"), ("b", "random"))}, "unknown bot"),
        ({"bots": (("a", "grpc://nowhere"), ("b", "random"))}, "grpc://host:port"),
        ({"players": 3}, "--gauntlet"),
        ({"gauntlet": "z"}, "not among"),
        ({"rules": {"no_such_rule": True}}, "no_such_rule"),
        ({"game": "chess"}, "unknown game"),
        ({"players": 4, "sprt": Sprt(0, 50)}, "--gauntlet"),
        ({"players": 1, "sprt": Sprt(0, 50)}, "2 players or more"),
        (
            {"bots": (("a", "random"), ("b", "random"), ("c", "random")), "sprt": Sprt(0, 50)},
            "two bots",
        ),
        ({"sprt": Sprt(50, 0)}, "elo0 must be below"),
    ],
)
def test_bad_configs_are_refused_with_the_reason(changes: dict, message: str) -> None:
    fields = {"game": "royal_cities", "players": 2, "bots": (("a", "random"), ("b", "random")),
              "games": 10, "seed": 1} | changes  # fmt: skip
    with pytest.raises(ConfigError, match=message):
        TournamentConfig(**fields)


def test_a_rule_names_an_option_of_the_game() -> None:
    """`--rule name=value` reaches the game's rules object (Citadels' newest option too)."""
    rule = parse_rule("powers_before_resources=true", "citadels")
    assert rule == ("powers_before_resources", True)
    chosen = TournamentConfig("citadels", 2, (("a", "random"), ("b", "random")), 2, seed=1,
                              rules=dict([rule]))  # fmt: skip
    assert chosen.rules_config().powers_before_resources
    with pytest.raises(ConfigError, match="powers_before_resources"):
        parse_rule("powers_before_resources=true", "royal_cities")
