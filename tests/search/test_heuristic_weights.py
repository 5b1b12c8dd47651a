"""Each heuristic's table of weights: the heuristic player plays by the hand-set weights,
exactly as the constants in code did; the playouts by a row per player count, the hand-set
weights or a default fit's, and setting them changes the playouts for the whole process, at one
player count or all, all or nothing, and never the player."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from engine.heuristics import load_weights, weight_table, weighted_games
from engine.weights import WeightTable
from search.ismcts import heuristic_action

ROOT = Path(__file__).resolve().parents[2]

# The digests of heuristic games played before the weights became tables (constants in
# code), and two weights each whose change alters play.
GAMES = {
    "citadels": ("587e985d93457142", {"base_king": 0.0, "income": 3.0}),
    "royal_cities": ("6e0f39e65e454d76", {"purchase_rich": -2.0, "use_new": 0.0}),
}


def digest(game: str, deals: int = 50, playout: bool = False, counts: tuple[int, ...] = ()) -> str:
    """A digest of every action of heuristic self-play games (by the player's weights or the
    playouts') at the given player counts, every count when none."""
    h = hashlib.sha256()
    for players in counts or engine.game(game).player_counts:
        for d in range(deals):
            state = engine.new_game(game, players, seed=1000 + d)
            k = 0
            while not state.is_terminal():
                action = heuristic_action(state, d * 7919 + k, playout)
                k += 1
                h.update(action.to_bytes(2, "little"))
                state.apply_action(action)
    return h.hexdigest()[:16]


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> Iterator[str]:
    """A game whose heuristic has weights, hand-set before and after the test."""
    weight_table(request.param).reset()
    yield request.param
    weight_table(request.param).reset()


#: Every player count of the weighted games.
COUNTS = sorted({n for g in GAMES for n in engine.game(g).player_counts} | {1})


#: The default fits of the playouts: game -> the player counts they are for.
FITTED = {"citadels": (2, 3, 4, 5, 6, 7), "royal_cities": (2, 3, 4)}


def at_defaults(table: WeightTable) -> bool:
    return all(table.get(p) == table.defaults(p) for p in COUNTS)


def test_the_heuristic_player_plays_exactly_as_the_hand_set_constants(game: str) -> None:
    assert at_defaults(weight_table(game))
    assert digest(game) == GAMES[game][0]


def test_the_playouts_play_by_the_default_fits_and_else_as_the_player(game: str) -> None:
    table = weight_table(game)
    for players in engine.game(game).player_counts:
        fitted = players in FITTED[game]
        assert (table.defaults(players) != table.hand_set) == fitted
        same = digest(game, 10, True, (players,)) == digest(game, 10, False, (players,))
        assert same != fitted, players
    fits = [json.loads(f.read_text()) for f in (ROOT / "engine" / game / "fits").glob("*.json")]
    for players in FITTED[game]:
        (fit,) = [fit for fit in fits if players in fit["players"]]
        assert table.defaults(players) == fit["weights"]


def test_other_weights_change_the_playouts_and_reset_puts_them_back(game: str) -> None:
    table, changes = weight_table(game), GAMES[game][1]
    before = digest(game, 10, True)
    table.set(changes)
    assert all({name: table.get(p)[name] for name in changes} == changes for p in (1, 2, 4))
    changed = digest(game, 10, True)
    assert changed != before
    assert digest(game) == GAMES[game][0]  # the heuristic player plays as it did
    table.reset()
    assert digest(game, 10, True) == before
    assert at_defaults(table)


def test_weights_set_at_one_player_count_change_only_its_games(game: str) -> None:
    table, changes = weight_table(game), GAMES[game][1]
    table.set(changes, 3)
    assert table.get(3) == {**table.defaults(3), **changes}
    assert all(table.get(p) == table.defaults(p) for p in (1, 2, 4))


def test_bad_weights_are_refused_and_nothing_changes(game: str) -> None:
    table = weight_table(game)
    first, second = list(GAMES[game][1])
    for values, reason in [({first: 1.0, "bogus": 1.0}, "no heuristic weight 'bogus'"),
                           ({first: 1.0, second: math.nan}, f"'{second}' must be finite"),
                           ({first: math.inf}, f"'{first}' must be finite"),
                           ({first: "1"}, f"'{first}' must be a number")]:  # fmt: skip
        with pytest.raises(ValueError, match=reason):
            table.set(values)
        assert at_defaults(table)
    for players in (0, 99, True, "2", 2.0):
        with pytest.raises(ValueError, match="players must be a whole number"):
            table.set({first: 1.0}, players)  # type: ignore[arg-type]
        assert at_defaults(table)


def test_only_games_whose_heuristic_has_weights_are_fitted() -> None:
    assert sorted(weighted_games()) == sorted(GAMES)
    with pytest.raises(ValueError, match="has no weights to fit"):
        weight_table("kuhn_poker")


def test_a_weight_table_refuses_names_given_twice() -> None:
    with pytest.raises(ValueError, match="unique"):
        WeightTable([("a", 1.0), ("a", 2.0)])
    table = WeightTable([("a", 1.0), ("b", 2.0)])
    table.set({"b": 5.0})
    assert table.get(2) == {"a": 1.0, "b": 5.0} and table.names == ("a", "b")
    table.reset()
    assert table.get(2) == {"a": 1.0, "b": 2.0}
    with pytest.raises(TypeError, match="cannot be made again"):  # the policy holds its values
        table.__init__([("c", 3.0)])
    assert table.names == ("a", "b")


@pytest.mark.parametrize(
    ("text", "reason"),
    [("not json", "not a fit of heuristic weights"),
     ('{"weights": {}}', "not a fit of heuristic weights"),
     ('{"game": "citadels", "weights": [1]}', "'weights' an object"),
     ('{"game": "kuhn_poker", "weights": {}}', "has no weights to fit"),
     ('{"game": "citadels", "weights": {"income": 2, "bogus": 1}}', "no heuristic weight 'bogus'"),
     ('{"game": "citadels", "weights": {"income": "x"}}', "must be a number"),
     ('{"game": "citadels", "weights": {"income": true}}', "must be a number"),
     ('{"game": "citadels", "weights": {"income": 2}, "players": 4}', "'players' must be a list"),
     ('{"game": "citadels", "weights": {"income": 2}, "players": [4, 9]}', "players must be")],
)  # fmt: skip
def test_a_bad_weights_file_is_refused_and_nothing_changes(
    tmp_path: Path, text: str, reason: str
) -> None:
    path = tmp_path / "fit.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=reason) as err:
        load_weights(path)
    assert str(path) in str(err.value)
    assert at_defaults(weight_table("citadels"))


def test_a_weights_file_is_put_in_force(game: str, tmp_path: Path) -> None:
    path = tmp_path / "fit.json"
    changes = GAMES[game][1]
    path.write_text(json.dumps({"game": game, "weights": changes}))
    assert load_weights(path) == game
    table = weight_table(game)
    assert all(table.get(p) == {**table.defaults(p), **changes} for p in (1, 2, 4))
    table.reset()
    path.write_text(json.dumps({"game": game, "weights": changes, "players": [4]}))
    assert load_weights(path) == game
    assert table.get(4) == {**table.defaults(4), **changes}
    assert all(table.get(p) == table.defaults(p) for p in (1, 2, 3))


FITS = sorted([*(ROOT / "docs" / "fits").glob("*.json"), *ROOT.glob("engine/*/fits/*.json")])


@pytest.mark.parametrize("path", FITS, ids=lambda path: path.name)
def test_the_documented_fits_name_every_weight_of_their_game(path: Path) -> None:
    """A fit in docs/fits (served in docs/lab/sprt-log.md's SPRTs) or a default fit in its game's
    package still fits its table."""
    game = json.loads(path.read_text())["game"]
    try:
        assert load_weights(path) == game
        assert set(json.loads(path.read_text())["weights"]) == set(weight_table(game).names)
    finally:
        weight_table(game).reset()


def test_a_default_fit_names_its_counts_and_every_weight(tmp_path: Path) -> None:
    weights = [("a", 1.0), ("b", 2.0)]
    (tmp_path / "2p.json").write_text(json.dumps({"game": "g", "players": [2, 3],
                                                  "weights": {"a": 5.0, "b": 6.0}}))  # fmt: skip
    table = WeightTable(weights, fits=tmp_path)
    assert table.hand_set == table.get(1) == table.defaults(4) == {"a": 1.0, "b": 2.0}
    assert table.get(2) == table.defaults(3) == {"a": 5.0, "b": 6.0}
    table.set({"a": 9.0}, 2)
    table.reset()
    assert table.get(2) == {"a": 5.0, "b": 6.0}
    with pytest.raises(FileNotFoundError, match="no folder of default fits"):
        WeightTable(weights, fits=tmp_path / "missing")
    for name, fit, reason in [
        ("3p.json", {"players": [3], "weights": {"a": 0.0, "b": 0.0}}, "a second default fit"),
        ("4p.json", {"players": [4], "weights": {"a": 0.0}}, "every weight"),
        ("4p.json", {"weights": {"a": 0.0, "b": 0.0}}, "its player counts"),
        ("4p.json", {"players": [9], "weights": {"a": 0.0, "b": 0.0}}, "players must be"),
    ]:
        bad = tmp_path / "bad"
        bad.mkdir(exist_ok=True)
        for path in bad.glob("*.json"):
            path.unlink()
        (bad / "2p.json").write_text((tmp_path / "2p.json").read_text())
        (bad / name).write_text(json.dumps({"game": "g", **fit}))
        with pytest.raises(ValueError, match=reason) as err:
            WeightTable(weights, fits=bad)
        assert name in str(err.value)
