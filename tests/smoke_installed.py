"""A smoke test of an installed regent, run by tests/test_packaging.py with a fresh virtual
environment's Python from an empty directory: nothing here comes from a checkout.

`python smoke_installed.py EXAMPLES_DIR`: each game's default bot at each player count chooses
a move in process; the installed `regent serve` (matches in SQLite, PostgreSQL's driver not
installed) answers Recommend for every observation file in EXAMPLES_DIR, serves the hint page,
and plays two hosted matches with bot seats to their end; `regent serve --db postgresql://...`,
`regent tournament` and `regent match` (the tournament extra not installed) say in one line
what to install. Exits non-zero, saying what failed, on the first failure.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import grpc
from google.protobuf import json_format

import engine
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2, matches_pb2, matches_pb2_grpc
from search.bots import make_bot
from search.games import default_bot

REGENT = str(Path(sys.executable).with_name("regent"))
#: Seconds any one step may take: a loaded machine is slow, a stuck one never ends.
PATIENCE = 300.0
#: The hosted matches' bots: level 1 searches ten iterations a move.
MATCH_BOT = "level:1"
#: A PostgreSQL database (none listens there: the driver's absence is found first).
POSTGRESQL = "postgresql://regent@127.0.0.1:9/regent"


def default_bots_move() -> None:
    for spec in engine.games():
        for players in spec.player_counts:
            state = spec.new_game(players, seed=1)
            bot = make_bot(default_bot(spec.name, players), spec.name, players)
            action = bot.choose(state, seed=1)
            assert action in state.legal_actions(), (spec.name, players, action)
            print(f"{spec.name} at {players}: {default_bot(spec.name, players)} chose", flush=True)


def serve(*flags: str) -> list[str]:
    """The command line of `regent serve` on a free port."""
    return [REGENT, "serve", "--address", "127.0.0.1:0", *flags]


class Server:
    """`regent serve` on free ports, its SQLite file in the working directory."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            serve("--web-address", "127.0.0.1:0", "--db", "matches.sqlite3"),
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.address = self.wait_for(r"regent serving on (\S+)")
        self.page = self.wait_for(r"hint page on (http://\S+/)")

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line.rstrip("\n"))

    def wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline and self.process.poll() is None:
            for line in list(self.log):
                if found := re.search(pattern, line):
                    return found.group(1)
            time.sleep(0.05)
        raise AssertionError(f"regent serve logged no {pattern!r}:\n" + "\n".join(self.log))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


def recommend_every_example(channel: grpc.Channel, examples: list[Path]) -> None:
    """The default bot's advice (reading Citadels' draft with the installed pick models), on
    a small budget."""
    stub = advisor_pb2_grpc.AdvisorServiceStub(channel)
    for path in examples:
        observation = json_format.Parse(path.read_text(), advisor_pb2.Observation())
        request = advisor_pb2.RecommendRequest(
            observation=observation, budget=common_pb2.SearchBudget(iterations=200), seed=1
        )
        report = stub.Recommend(request, timeout=PATIENCE).report
        assert report.move.text and report.iterations > 0, (path.name, report)
        print(f"Recommend {path.name}: {report.move.text}", flush=True)


def page_is_served(page: str) -> None:
    for path in ("", "static/js/app.js", "static/css/app.css"):
        with urllib.request.urlopen(page + path, timeout=PATIENCE) as answer:
            assert answer.status == 200 and answer.read(), path
    print("the hint page is served", flush=True)


def play_hosted_matches(channel: grpc.Channel) -> None:
    """Royal Cities, a human seat (the first legal move each turn, by GetView and Play)
    against a bot, then the whole match watched; Citadels, four bots, followed in the list
    of public matches."""
    stub = matches_pb2_grpc.MatchServiceStub(channel)
    human = matches_pb2.SeatSpec(human_name="smoke")
    bot = matches_pb2.SeatSpec(bot=MATCH_BOT)
    citadels = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(
            game=common_pb2.GAME_CITADELS, seats=[bot] * 4, seed=2, public=True
        ),
        timeout=PATIENCE,
    ).match_id
    created = stub.CreateMatch(
        matches_pb2.CreateMatchRequest(game=common_pb2.GAME_ROYAL_CITIES, seats=[human, bot]),
        timeout=PATIENCE,
    )
    match_id, token = created.match_id, created.tokens[0].token
    deadline = time.monotonic() + PATIENCE
    look = matches_pb2.GetViewRequest(match_id=match_id, token=token)
    view = stub.GetView(look, timeout=PATIENCE)
    while view.status == matches_pb2.MATCH_STATUS_PLAYING:
        assert time.monotonic() < deadline, "the Royal Cities match did not end"
        if view.legal_moves:
            request = matches_pb2.PlayRequest(
                match_id=match_id,
                token=token,
                move=view.legal_moves[0],
                expected_move=view.moves_played,
            )
            view = stub.Play(request, timeout=PATIENCE).view
        else:
            time.sleep(0.02)  # the bot's turn
            view = stub.GetView(look, timeout=PATIENCE)
    watch = matches_pb2.WatchRequest(match_id=match_id, token=token)
    events = list(stub.Watch(watch, timeout=PATIENCE))
    assert events[-1].event.status == matches_pb2.MATCH_STATUS_FINISHED, events[-1]
    print(f"Royal Cities hosted: {view.moves_played} moves, scores {list(view.scores)}")
    while True:
        listed = stub.ListMatches(matches_pb2.ListMatchesRequest(), timeout=PATIENCE).matches
        (summary,) = [m for m in listed if m.match_id == citadels]
        if summary.status == matches_pb2.MATCH_STATUS_FINISHED:
            break
        assert time.monotonic() < deadline, "the Citadels match did not end"
        time.sleep(0.2)
    print(f"Citadels hosted, four bots: {summary.moves_played} moves", flush=True)


def postgresql_without_its_driver() -> None:
    ran = subprocess.run(
        serve("--no-web", "--db", POSTGRESQL),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    said = [line for line in ran.stderr.splitlines() if line.startswith("regent serve:")]
    assert ran.returncode == 1 and "Traceback" not in ran.stderr, ran.stderr
    assert len(said) == 1 and 'pip install "regent[postgresql]"' in said[0], ran.stderr
    print(said[0], flush=True)


def tournaments_without_their_extra() -> None:
    """`regent tournament` and `regent match` say what to install, not a traceback."""
    for command in (["tournament", "--bot", "a=random", "--bot", "b=random", "--games", "1"],
                    ["match", "--bot", "random", "--games", "1"]):  # fmt: skip
        ran = subprocess.run([REGENT, *command], capture_output=True, text=True, timeout=PATIENCE)
        said = [line for line in ran.stderr.splitlines() if line.startswith("regent ")]
        assert ran.returncode == 1 and "Traceback" not in ran.stderr, ran.stderr
        assert len(said) == 1 and 'pip install "regent[tournament]"' in said[0], ran.stderr
        print(said[0], flush=True)


def main(examples_dir: str) -> None:
    examples = sorted(Path(examples_dir).glob("*.json"))
    assert examples, f"no observation files in {examples_dir}"
    default_bots_move()
    server = Server()
    try:
        with grpc.insecure_channel(server.address) as channel:
            recommend_every_example(channel, examples)
            page_is_served(server.page)
            play_hosted_matches(channel)
    finally:
        server.stop()
    postgresql_without_its_driver()
    tournaments_without_their_extra()


if __name__ == "__main__":
    main(sys.argv[1])
