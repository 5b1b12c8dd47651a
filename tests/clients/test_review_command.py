"""`regent review` as a user runs it (subprocesses): on a tournament record made by a short
tournament here, and on a match hosted by a real `regent serve` over a socket; the table,
the worst moments and the PNG, whose points are the table's. The match's review equals the
review of the observations the seat itself saw while playing."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

import engine
from clients.cli.review import chart_points, format_review
from clients.client import RegentClient, RegentError
from convert import observation_from_proto
from regent.v1 import matches_pb2
from search.bots import HeuristicBot
from search.games import default_bot
from search.review import Decision, ReviewConfig, decisions_of_game, review
from tests.clients.test_cli import Serve
from tests.commands import ENV, REGENT_AT_A_TERMINAL, ROOT, regent

BUDGET = ("--iterations", "120", "--deep-iterations", "400", "--mistakes", "2", "--seed", "5")
#: The command's review: with no --bot, the game's default bot, as the service's.
CONFIG = ReviewConfig(
    bot=default_bot("royal_cities", 2),
    iterations=120,
    deep_iterations=400,
    mistakes=2,
    seed=5,
)
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short tournament's record: 2 games of Royal Cities, heuristic against random."""
    out = tmp_path_factory.mktemp("tournament") / "t"
    result = regent("tournament", "--game", "royal-cities", "--players", "2", "--games", "2",
                    "--seed", "3", "--bot", "h=heuristic", "--bot", "r=random", "--out", str(out),
                    "--workers", "1", timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out / "record.jsonl"


def table_rows(output: str) -> list[list[str]]:
    """The table's rows: number, move words..., win after, loss, noise, and * when flagged."""
    lines = output.split("\n\n")[1].splitlines()[1:]
    return [line.split() for line in lines]


def worst_moments(output: str) -> list[tuple[int, float, float]]:
    """(decision, win after %, points lost) of the printed worst moments."""
    found = []
    for line in output.splitlines():
        if line.startswith("Decision "):
            number = int(line.split()[1].rstrip(":"))
            win = float(line.split("(", 1)[1].split("%")[0])
            lost = float(line.rsplit(": ", 1)[1].split()[0])
            found.append((number, win, lost))
    return found


def recorded_decisions(record: Path, index: int, seat: int) -> list[Decision]:
    """The seat's decisions in game `index` of the record, replayed here."""
    from clients.tournament.record import read

    game = next(g for g in read(record)[1] if g["index"] == index)
    state = engine.new_game("royal_cities", 2, seed=game["seed"])
    return decisions_of_game(state, game["moves"], seat)


def test_review_of_a_tournament_record(record: Path, tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    result = regent("review", str(record), "--index", "1", "--seat", "1", *BUDGET,
                    "--chart", str(chart), timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert chart.read_bytes().startswith(PNG)
    decisions = recorded_decisions(record, 1, 1)
    expected = review(decisions, CONFIG)
    assert result.stdout.startswith(format_review(expected, decisions))
    rows = table_rows(result.stdout)
    assert len(rows) == len(expected.points) > 0
    assert "Worst moments" in result.stdout or "No checked move lost" in result.stdout
    # The chart plots the table's figures, and marks the table's flagged rows, whose figures
    # are the worst moments' own.
    every, marked = chart_points(expected)
    assert [(int(r[0]), r[-4 if r[-1] == "*" else -3]) for r in rows] == [
        (n, f"{chance:.1f}%") for n, chance in every
    ]
    flagged = [(int(r[0]), float(r[-4][:-1]), float(r[-3])) for r in rows if r[-1] == "*"]
    assert [n for n, _, _ in flagged] == [n for n, _ in marked]
    assert sorted(worst_moments(result.stdout)) == flagged


def test_review_refuses_what_is_not_there(record: Path, tmp_path: Path) -> None:
    for args, words in [
        (("--index", "7"), "no game 7"),
        (("--seat", "2"), "seats 0 to 1"),
        (("--bot", "nobody"), "unknown bot"),
    ]:
        result = regent("review", str(record), *args, "--chart", str(tmp_path / "c.png"))
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert result.stdout == ""
    missing = regent("review", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "none.jsonl" in missing.stderr


def test_review_with_a_level(record: Path, tmp_path: Path) -> None:
    """`--bot level:1` is the level of the recorded game and player count at its own budget:
    the library's review with that level. A budget flag beside it, even one given its
    default value, is refused in one line naming the flag, as the service refuses it."""
    chart = str(tmp_path / "level.png")
    result = regent("review", str(record), "--index", "1", "--bot", "level:1", "--mistakes",
                    "2", "--seed", "5", "--chart", chart, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    decisions = recorded_decisions(record, 1, 0)
    expected = review(decisions, ReviewConfig(bot="level:1", mistakes=2, seed=5))
    assert expected.points and result.stdout.startswith(format_review(expected, decisions))
    for bot, flag, value, words in [
        ("level:1", "--iterations", "500", "level:1 has its own budget"),
        ("level:1", "--deep-seconds", "0", "level:1 has its own budget"),
        ("level:1", "--threads", "1", "level:1 has its own budget"),
        ("mo-ismcts:iterations=20", "--deep-iterations", "400", "sets its own iterations"),
    ]:
        refused = regent("review", str(record), "--bot", bot, flag, value, "--chart", chart)
        assert refused.returncode == 2 and refused.stdout == "", refused.stderr
        (line,) = refused.stderr.splitlines()
        assert f"{flag}: " in line and words in line


@pytest.fixture(scope="module")
def served() -> Iterator[Serve]:
    server = Serve()
    yield server
    assert server.stop() == 0, "\n".join(server.log)


def test_review_of_a_hosted_match(served: Serve, tmp_path: Path) -> None:
    """Seat 0 plays a whole match by the heuristic from its own views; the review read back
    with its token is the review of exactly those views and moves."""
    seen: list[Decision] = []
    with RegentClient(served.address) as client:
        created = client.create_match("royal_cities", ["human:ann", "heuristic"], seed=8)
        match, token = created.match_id, created.tokens[0].token
        deadline = time.monotonic() + 60
        while (view := client.get_view(match, token)).status != matches_pb2.MATCH_STATUS_FINISHED:
            assert time.monotonic() < deadline
            if not view.legal_moves:
                time.sleep(0.002)
                continue
            observation = observation_from_proto(view.observation)
            state = engine.state_from_observation(observation, seed=len(seen))
            move = state.action_to_string(HeuristicBot().choose(state, seed=len(seen)))
            seen.append(Decision(observation, move))
            client.play(match, token, move, expected_move=view.moves_played)
        with pytest.raises(RegentError) as caught:
            client.get_view(match, token, at_move=view.moves_played + 1)
        assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.field_violations[0].field == "at_move"
    chart = tmp_path / "match.png"
    result = regent("review", match, "--token", token, "--server", served.address, *BUDGET,
                    "--chart", str(chart), timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert chart.read_bytes().startswith(PNG)
    assert result.stdout.startswith(format_review(review(seen, CONFIG), seen))


def test_review_of_a_match_with_a_wrong_token(served: Serve) -> None:
    with RegentClient(served.address) as client:
        match = client.create_match("royal_cities", ["human:ann", "heuristic"], seed=8).match_id
    result = regent("review", match, "--token", "nope", "--server", served.address)
    assert result.returncode == 2 and result.stdout == ""
    assert "token" in result.stderr.lower()


def test_ctrl_c_stops_and_prints_what_is_done(record: Path, tmp_path: Path) -> None:
    chart = tmp_path / "stopped.png"
    process = subprocess.Popen(
        [*REGENT_AT_A_TERMINAL, "review", str(record), "--iterations", "200000",
         "--chart", str(chart)],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    assert "Reviewing seat 0" in process.stderr.readline()
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Stopped" in err and "Traceback" not in err
    assert "(stopped before the end)" in out
    assert chart.read_bytes().startswith(PNG)
