"""Small tournaments end to end, in real worker processes and on a local Ray instance: the
same config gives the same games and results whatever the backend and the worker count."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from clients.tournament.backends import LocalBackend, RayBackend
from clients.tournament.config import Sprt, TournamentConfig
from clients.tournament.report import table, to_json, write_all
from clients.tournament.results import wilson
from clients.tournament.runner import RECORD_NAME, run_tournament
from clients.tournament.sprt import elo_of_share
from tests.commands import regent

BOTS = (("random", "random"), ("heuristic", "heuristic"), ("pimc", "pimc:iterations=20"))


def records(out: Path) -> list[str]:
    """The record's game lines, in index order."""
    lines = (out / RECORD_NAME).read_text().splitlines()[1:]
    return sorted(lines, key=lambda line: json.loads(line)["index"])


def test_results_do_not_depend_on_the_worker_count(tmp_path: Path) -> None:
    config = TournamentConfig("royal_cities", 2, BOTS, games=12, seed=7)
    one = run_tournament(config, tmp_path / "one", backend=LocalBackend(1))
    two = run_tournament(config, tmp_path / "two", backend=LocalBackend(2))
    assert to_json(one) == to_json(two)
    assert records(tmp_path / "one") == records(tmp_path / "two")
    assert one.games == 12 and [b.games for b in one.bots] == [8, 8, 8]
    assert one.rating_kind == "Elo" and len(one.ratings) == 3
    game = json.loads(records(tmp_path / "one")[0])
    assert game["specs"] == ["random", "heuristic"] and game["engine"]
    assert len(game["moves"]) > 10 and len(game["scores"]) == 2
    assert game["rules"]["crown_through_white"] is False


@pytest.mark.slow
def test_ray_plays_the_same_games(tmp_path: Path) -> None:
    """`regent tournament --backend ray` in a process of its own, as users run it. Started
    in the test process after the rest of the suite, the local Ray instance's raylet twice
    missed Ray's fixed start-up wait (that process keeps gRPC's poller thread for good)."""
    config = TournamentConfig("royal_cities", 2, BOTS, games=12, seed=7)
    local = run_tournament(config, tmp_path / "local", backend=LocalBackend(1))
    bots = [f"--bot={name}={spec}" for name, spec in BOTS]
    ray = regent("tournament", *bots, "--games", "12", "--seed", "7", "--backend", "ray",
                 "--workers", "2", "--out", str(tmp_path / "ray"), timeout=300)  # fmt: skip
    assert ray.returncode == 0, ray.stderr
    assert json.loads((tmp_path / "ray" / "results.json").read_text()) == json.loads(
        json.dumps(to_json(local))
    )
    assert records(tmp_path / "ray") == records(tmp_path / "local")


@pytest.mark.parametrize(
    "message",
    ["The current node timed out during startup.", "Timed out waiting for file /tmp/ray/x/gcs"],
)
def test_a_local_ray_start_that_times_out_gets_one_more_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    """Ray's fixed start-up waits (the raylet's, the GCS server's) can pass on a loaded
    machine: a local instance is started once more, a cluster is not, nor another error."""
    import ray

    calls: list[str] = []
    failures: list[str] = []

    def init(*, address: str, **kwargs: object) -> None:
        calls.append(address)
        raise Exception(failures.pop(0))  # what Ray raises

    monkeypatch.setattr(ray, "init", init)
    config = TournamentConfig("royal_cities", 2, BOTS[:2], games=2, seed=7)
    cases = [
        (RayBackend(), [message, "the next failure"], ["local", "local"]),
        (RayBackend("ray://x:1"), [message], ["ray://x:1"]),
        (RayBackend(), ["another failure"], ["local"]),
    ]
    for i, (backend, errors, tried) in enumerate(cases):
        calls.clear()
        failures[:] = errors
        with pytest.raises(Exception, match=re.escape(errors[-1])):
            run_tournament(config, tmp_path / str(i), backend=backend)
        assert calls == tried


def test_four_players_with_a_rules_option_get_openskill_ratings(tmp_path: Path) -> None:
    bots = (*BOTS, ("mo", "mo-ismcts:iterations=10"))
    config = TournamentConfig("royal_cities", 4, bots, games=4, seed=2,
                              rules={"crown_through_white": True})  # fmt: skip
    result = run_tournament(config, tmp_path, backend=LocalBackend(1))
    assert result.rating_kind == "OpenSkill" and result.games == 4
    assert all(r.low < r.value < r.high for r in result.ratings)
    assert all(json.loads(line)["rules"]["crown_through_white"] for line in records(tmp_path))
    assert "crown_through_white=True" in table(result)
    paths = write_all(result, tmp_path)
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "results.csv").read_text().splitlines()[0].startswith("name,spec,games")


def test_a_gauntlet_and_the_solo_mode(tmp_path: Path) -> None:
    gauntlet = TournamentConfig("royal_cities", 3, BOTS, games=6, seed=1, gauntlet="heuristic")
    result = run_tournament(gauntlet, tmp_path / "g", backend=LocalBackend(1))
    games = {b.name: b.games for b in result.bots}
    assert games == {"random": 6, "heuristic": 6, "pimc": 6}  # two field seats per game
    solo = TournamentConfig("royal_cities", 1, BOTS[:2], games=4, seed=1)
    result = run_tournament(solo, tmp_path / "s", backend=LocalBackend(1))
    assert result.rating_kind == "" and [b.games for b in result.bots] == [2, 2]
    assert "Win matrix" not in table(result)
    perfect = [replace(b, games=100, wins=100.0, interval=wilson(100, 100)) for b in result.bots]
    write_all(replace(result, bots=perfect), tmp_path / "s")  # the chart of a 100% win rate


def test_an_sprt_stops_at_the_same_deal_whatever_the_workers(tmp_path: Path) -> None:
    bots = (("heuristic", "heuristic"), ("random", "random"))
    config = TournamentConfig("royal_cities", 2, bots, games=400, seed=1, sprt=Sprt(0, 200))
    one = run_tournament(config, tmp_path / "one", backend=LocalBackend(1))
    two = run_tournament(config, tmp_path / "two", backend=LocalBackend(2))
    assert one.sprt is not None and one.sprt.verdict == "H1" and one.games % 2 == 0
    assert one.games < 40 and one.uncounted == 0
    assert (one.games, one.sprt) == (two.games, two.sprt)
    assert one.elo_difference is not None and one.elo_difference[0] > 200
    assert "H1 accepted" in table(one)


def test_a_multiplayer_sprt_tests_the_gauntlet_bot_against_its_field(tmp_path: Path) -> None:
    """At 4 players the SPRT follows the gauntlet bot's share of the wins over whole deals."""
    bots = (("random", "random"), ("heuristic", "heuristic"))
    config = TournamentConfig("royal_cities", 4, bots, games=400, seed=1, gauntlet="heuristic",
                              sprt=Sprt(0, 200))  # fmt: skip
    result = run_tournament(config, tmp_path / "g", backend=LocalBackend(2))
    assert result.sprt is not None and result.sprt.verdict == "H1"
    # Games the workers finished past the verdict are recorded but not counted (how many
    # depends on scheduling): the counted ones are whole deals, few, and with the uncounted
    # ones they are the record.
    assert result.games % 4 == 0 and result.games < 40
    assert result.games + result.uncounted == len(records(tmp_path / "g"))
    assert "SPRT [0, 200] of heuristic" in table(result) and "H1 accepted" in table(result)
    # Its Elo over each random bot in the SPRT's model: the share and its interval mapped
    # (a sweep is an infinite Elo, null in JSON).
    tested = next(b for b in result.bots if b.name == "heuristic")
    shares = (tested.win_rate, *tested.interval)
    assert result.elo_over_field == tuple(elo_of_share(x, 4) for x in shares)
    assert "Elo of heuristic over each random, from its share of the wins: " in table(result)
    assert to_json(result)["elo_over_field"] == [
        x if math.isfinite(x) else None for x in result.elo_over_field
    ]
    # Its games and wins by seat: every seat once a deal.
    assert [played for played, _ in result.by_seat] == [result.games // 4] * 4
    assert sum(won for _, won in result.by_seat) == tested.wins
    assert "heuristic by seat: games, wins, win rate [95%]" in table(result)
    assert [seat["games"] for seat in to_json(result)["by_seat"]] == [result.games // 4] * 4
