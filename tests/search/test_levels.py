"""Difficulty levels and the move-choice temperature: `level:N` parses and resolves in every
game, bad levels are named, every level builds at every count and plays legal games, and the
temperature draws a move reproducibly from the seed (0 plays the most visited move, as before
the option existed)."""

from __future__ import annotations

import pytest

import engine
from clients.tournament.play import play_game
from search.bots import make_bot, parse_spec, resolve, search_config
from search.games import default_bot, own_levels
from search.levels import LEVELS, TOP_SECONDS
from search.search import SearchConfig, search
from search.spec import with_options

TOP = LEVELS[-1].number


@pytest.mark.parametrize(
    ("spec", "options", "expected"),
    [
        ("mo-ismcts", ("iterations=100",), "mo-ismcts:iterations=100"),
        (
            "mo-ismcts:c=0.5",
            ("iterations=100", "threads=1"),
            "mo-ismcts:c=0.5,iterations=100,threads=1",
        ),
        (" so-ismcts ", (), "so-ismcts"),
    ],
)
def test_options_are_appended_after_a_colon_or_a_comma(
    spec: str, options: tuple[str, ...], expected: str
) -> None:
    assert with_options(spec, *options) == expected
    kind, values = parse_spec(expected)
    assert kind == spec.strip().partition(":")[0] and len(values) == expected.count("=")


def test_the_levels_are_numbered_from_1_and_described() -> None:
    assert [level.number for level in LEVELS] == list(range(1, 11))
    assert all(level.description for level in LEVELS)
    assert len({level.description for level in LEVELS}) == len(LEVELS)


@pytest.mark.parametrize("number", range(1, 11))
def test_every_level_parses(number: int) -> None:
    assert parse_spec(f"level:{number}") == ("level", {"level": number})
    assert parse_spec(f" level: {number} ") == ("level", {"level": number})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("level:0", r"level must be within \[1, 10\], got 0"),
        ("level:11", r"level must be within \[1, 10\], got 11"),
        ("level:-3", r"level must be within \[1, 10\], got -3"),
        ("level:x", r"level must be a whole number from 1 to 10, got 'x'"),
        ("level:2.5", r"level must be a whole number from 1 to 10, got '2.5'"),
        ("level", r"level must be a whole number from 1 to 10, got ''"),
        ("level:3,seconds=1", r"a level takes no options, only its number: level:1 to level:10"),
        ("level:seconds=1", r"a level takes no options"),
    ],
)
def test_bad_levels_are_named(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_spec(spec)
    with pytest.raises(ValueError, match=message):
        make_bot(spec, "royal_cities", 2)


@pytest.mark.parametrize("spec", engine.games(), ids=lambda spec: spec.name)
def test_levels_resolve_in_every_game(spec: engine.GameSpec) -> None:
    """Below the top, a level is the shared table's spec or the game's own, with an iteration
    budget and no time budget (as strong on any machine); the top is the game's default bot at
    1 s a move. Every level builds a bot at every count, not only the 2 players its ladder
    plays (Citadels' levels 7-9 read the draft, which needs a pick model for the count)."""
    for players in spec.player_counts:
        for level in LEVELS[:-1]:
            own = own_levels(spec.name).get(level.number) or level.spec
            assert resolve(f"level:{level.number}", spec.name, players) == own
            assert make_bot(f"level:{level.number}", spec.name, players).spec == own
            config = search_config(own)
            assert config is None or (config.iterations > 0 and config.seconds == 0)
        top = resolve(f"level:{TOP}", spec.name, players)
        assert top.startswith(default_bot(spec.name, players))
        assert make_bot(f"level:{TOP}", spec.name, players).spec
        config = search_config(f"level:{TOP}", spec.name, players)
        assert config is not None
        assert (config.iterations, config.seconds) == (0, TOP_SECONDS)
        default = search_config(default_bot(spec.name, players))
        assert default is not None
        assert (config.algorithm, config.c, config.playout) == (
            default.algorithm, default.c, default.playout
        )  # fmt: skip


@pytest.mark.parametrize("number", [1, 5, TOP])
def test_a_level_needs_the_game(number: int) -> None:
    with pytest.raises(ValueError, match=f"level {number} is a bot of one game: it needs the game"):
        make_bot(f"level:{number}")
    assert resolve("mo-ismcts:iterations=5") == "mo-ismcts:iterations=5"


@pytest.mark.parametrize("spec", engine.games(), ids=lambda spec: spec.name)
def test_a_games_own_levels_are_below_the_top_and_ordered_by_budget(spec: engine.GameSpec) -> None:
    """A game's own levels replace levels 1 to 9 only, each a bot spec; and in every game the
    searches that take no temperature grow in budget from level to level."""
    assert set(own_levels(spec.name)) <= {level.number for level in LEVELS[:-1]}
    budgets = []
    for level in LEVELS[:-1]:
        config = search_config(f"level:{level.number}", spec.name, spec.player_counts[0])
        if config is not None and config.temperature == 0:
            budgets.append(config.iterations)
    assert budgets == sorted(set(budgets))


def test_citadels_places_its_heuristic_above_the_smallest_searches() -> None:
    """Citadels' heuristic beats a 50-iteration search (docs/strength.md), so its ladder has
    its own levels: the heuristic stands higher than in the shared table."""
    heuristic = [n for n in range(1, TOP) if resolve(f"level:{n}", "citadels", 4) == "heuristic"]
    shared = [level.number for level in LEVELS if level.spec == "heuristic"]
    assert own_levels("citadels") and heuristic and heuristic[0] > shared[0]


@pytest.mark.parametrize(("game", "players"), [("royal_cities", 2), ("citadels", 4)])
@pytest.mark.parametrize("number", [1, 3, 4, 5])
def test_a_level_plays_a_legal_game(game: str, players: int, number: int) -> None:
    specs = [f"level:{number}", "random", *["heuristic"] * (players - 2)]
    result = play_game(game, specs, 40 + number, None, players, make_bot)
    assert sorted(result.returns)[-1] > 0 and len(result.moves) > 20


# -- the temperature ---------------------------------------------------------------------


def _mid_game() -> engine.State:
    state = engine.new_game("royal_cities", 2, seed=7)
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    return state


def test_temperature_zero_plays_the_most_visited_move_as_before() -> None:
    state = _mid_game()
    for seed in range(4):
        before = search(state, SearchConfig(iterations=300, seed=seed))
        cold = search(state, SearchConfig(iterations=300, seed=seed, temperature=0.0))
        assert (cold.action, cold.moves) == (before.action, before.moves)
        assert cold.action == cold.moves[0].action


def test_temperature_draws_reproducibly_from_the_seed() -> None:
    state = _mid_game()
    chosen = []
    for seed in range(12):
        config = SearchConfig(iterations=200, seed=seed, temperature=2.0)
        first, second = search(state, config), search(state, config)
        assert (first.action, first.text) == (second.action, second.text)
        assert first.action in [m.action for m in first.moves if m.visits > 0]
        chosen.append(first.action != first.moves[0].action)
    assert any(chosen)  # a hot draw does not always play the most visited move
    bot = make_bot("mo-ismcts:iterations=200,temperature=2")
    assert [bot.choose(state, s) for s in range(6)] == [bot.choose(state, s) for s in range(6)]


def test_a_tiny_temperature_plays_the_most_visited_move() -> None:
    state = _mid_game()
    result = search(state, SearchConfig(iterations=300, seed=3, temperature=0.01))
    top = result.moves[0]
    if result.moves[1].visits < top.visits:  # a tie may be drawn either way
        assert result.action == top.action


@pytest.mark.parametrize("value", [-0.5, 100.5, float("nan"), float("inf")])
def test_temperature_out_of_range_is_refused(value: float) -> None:
    with pytest.raises(ValueError, match="temperature must be"):
        SearchConfig(temperature=value)
    with pytest.raises(ValueError, match="temperature must be"):
        make_bot(f"mo-ismcts:temperature={value}")
