"""`regent play GAME`: a whole game in the terminal against bots, on a hosted match (of the
service at `--server`, or of one in this process): seat 0 is the human, the other seats the
bot; with `--server`, the match id and the seat's token to watch and review it."""

from __future__ import annotations

import argparse
import random
import sys

import grpc

import engine
from clients.cli.printing import board, event_text, game_text, result_line
from clients.cli.shared import (
    IN_PROCESS,
    count,
    game_names,
    most_players,
    player_counts,
    report_failure,
    service_at,
)
from clients.client import RegentClient, RegentError, Stream
from clients.text import text_module
from convert import converter, served_games
from regent.v1 import common_pb2, matches_pb2

_FINISHED = matches_pb2.MATCH_STATUS_FINISHED


def add_play(commands: argparse._SubParsersAction) -> None:
    """The `play` subcommand: the served games that have a terminal text."""
    playable = [spec for spec in served_games() if text_module(spec.name) is not None]
    play = commands.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("game", choices=game_names(playable))
    play.add_argument(
        "--players",
        type=int,
        default=2,
        choices=range(1, most_players(playable) + 1),
        metavar="N",
        help=f"players, you included: {player_counts(playable)} (default: 2)",
    )
    play.add_argument(
        "--bot",
        default="mo-ismcts:iterations=2000",
        metavar="SPEC",
        help="the other seats' bot (default: mo-ismcts:iterations=2000)",
    )
    play.add_argument(
        "--server", metavar="HOST:PORT", help="the service (default: one in this process)"
    )
    play.add_argument("--seed", metavar="N", type=count, help="the deal (default: a random one)")
    play.add_argument("--hint", action="store_true", help="show the advisor's move before yours")
    play.add_argument(
        "--hint-iterations",
        metavar="N",
        type=count,
        default=2000,
        help="the advisor's iterations (default: 2000)",
    )
    play.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A whole game in the terminal: seat 0 is the human, the other seats the bot."""
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    seats = ["human:you", *[args.bot] * (args.players - 1)]
    spec = engine.game(args.game)
    game, counts, title = spec.name, spec.player_counts, spec.title
    if converter(game) is None or text_module(game) is None:
        print(f"regent play: {title} cannot be played in the terminal", file=sys.stderr)
        return 2
    if args.players not in counts:
        print(f"regent play: {title} is for {counts[0]} to {counts[-1]} players", file=sys.stderr)
        return 2
    try:
        with service_at(args.server) as address, RegentClient(address) as client:
            created = client.create_match(game, seats, seed=seed)
            others = (
                f"the others play {args.bot}" if args.players > 1 else "solo, against the Regent"
            )
            print(f"{title}, {args.players} players, seed {seed}: you are p0; {others}.")
            seat = created.tokens[0]
            if args.server:
                print(_followed(created.match_id, seat.token, args.server), flush=True)
            hosted = _Game(client, created.match_id, seat.seat, seat.token, args)
            with hosted.events:
                return hosted.run()
    except BrokenPipeError:  # the reader of our output is gone: clients.cli.main ends quietly
        raise
    except (RegentError, OSError, RuntimeError) as err:
        return report_failure("play", err, args.server, IN_PROCESS)
    except KeyboardInterrupt:  # while the bots think; at the prompt, Ctrl-C resigns
        return 130


def _followed(match: str, token: str, server: str) -> str:
    """How to follow a hosted match from another terminal: its id and the seat's token."""
    where = f"--token {token} --server {server}"
    return (
        f"Match {match}: watch it with `regent watch {match} {where}`\n"
        f"Your seat's token: {token} (after the game: `regent review {match} {where}`)"
    )


_HELP = (
    "Type a move's number or its text (as listed), `quit` to resign; "
    "Ctrl-C or the end of input resigns too."
)


def _list_moves(moves: list[common_pb2.Move]) -> None:
    """The seat's legal moves, numbered from 1 as the prompt reads them."""
    print("Your moves:")
    for i, move in enumerate(moves, 1):
        print(f"  {i:>2}. {move.text}")


class _Game:
    """One human seat's side of a hosted match, driven by its Watch stream: before each
    prompt every event up to the one that gave the seat the move has been printed."""

    def __init__(
        self, client: RegentClient, match_id: str, seat: int, token: str, args: argparse.Namespace
    ) -> None:
        self.client = client
        self.match_id = match_id
        self.me = seat
        self.token = token
        self.args = args
        self.events: Stream[matches_pb2.MatchEvent] = client.watch(match_id, token)

    def run(self) -> int:
        view = self.client.get_view(self.match_id, self.token)
        #: Our moves played whose events the stream has not delivered yet.
        unseen = 0
        while True:
            if not view.legal_moves and view.status != _FINISHED:
                view = self._wait(unseen)
                unseen = 0
            if view.status == _FINISHED:
                print(result_line(view.scores, view.returns, self.me))
                return 0
            print()
            print(board(view.observation, self.me))
            if self.args.hint:
                advice = self.client.recommend(
                    view.observation, iterations=self.args.hint_iterations
                )
                chances = [m.win_chance for m in advice.moves if m.move.id == advice.move.id]
                odds = f" (win chance {chances[0]:.0%})" if chances else ""
                print(f"Hint: {advice.move.text}{odds}")
            played = self._ask(view)
            if played is None:
                view = self.client.resign(self.match_id, self.token)
                print("You resigned.")
                print(result_line(view.scores, view.returns, self.me))
                return 0
            view, unseen = played, unseen + 1

    def _wait(self, unseen: int) -> matches_pb2.GetViewResponse:
        """Print events until our `unseen` moves have come back and it is our move again
        (or the match is over); then our view."""
        for event in self.events:
            print("  " + event_text(event, self.me))
            if event.HasField("seat") and event.seat == self.me and event.HasField("move"):
                unseen -= 1
            decision = game_text(event.observation)[1].decision
            ours = decision.HasField("player") and decision.player == self.me
            if unseen <= 0 and (ours or event.status == _FINISHED):
                break
        return self.client.get_view(self.match_id, self.token)

    def _ask(self, view: matches_pb2.GetViewResponse) -> matches_pb2.GetViewResponse | None:
        """Read moves from stdin until one is legal; None to resign (`quit`, end of input
        or Ctrl-C). `?` or `help` lists the moves again."""
        moves = list(view.legal_moves)
        _list_moves(moves)
        while True:
            print(f"Move (1-{len(moves)}, its text, ? for help, or quit): ", end="", flush=True)
            try:
                line = sys.stdin.readline()
            except KeyboardInterrupt:
                line = ""
            if not line:
                print()
                return None
            answer = line.strip()
            if not sys.stdin.isatty():  # show piped input, so the transcript reads well
                print(answer)
            if not answer:
                continue
            if answer.lower() in ("quit", "resign"):
                return None
            if answer.lower() in ("?", "help"):
                print(_HELP)
                _list_moves(moves)
                continue
            if answer.isdigit():
                if not 1 <= int(answer) <= len(moves):
                    print(f"No move {answer}: choose 1 to {len(moves)}.")
                    continue
                answer = moves[int(answer) - 1].text
            try:
                return self.client.play(
                    self.match_id, self.token, answer, expected_move=view.moves_played
                )
            except RegentError as err:
                if err.code != grpc.StatusCode.INVALID_ARGUMENT:
                    raise
                print(f"Not a legal move: {err.message}")
