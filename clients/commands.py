"""The service's subcommands of `regent`: `serve`, `web`, `hint`, `play`, `watch` and `games`.

Each takes the parsed arguments (see clients/cli.py) and returns the exit status: 0 when
done, 2 for bad input (the message names the field), 1 when the service fails.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import random
import socket
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

import engine
from clients.client import RegentClient, RegentError, Stream
from clients.text import GameText, player_name, text_module, text_of
from clients.web.gateway import beside_server, serve_web
from clients.web.guard import WebOptions
from convert import converter, observation_from_proto, observer_of
from engine.heuristics import load_weights
from regent.v1 import advisor_pb2, common_pb2, matches_pb2
from search.bots import (
    BudgetClashError,
    advice_config,
    budget_from_spec,
    is_level,
    make_bot,
    search_config,
)
from search.search import search
from server.advisor import bot_report, report
from server.app import BackgroundServer
from server.app import serve as run_server
from server.config import Config, ConfigError, load_keys, server_limits
from server.config import load as load_config
from server.limits import ServerLimits
from server.logs import configure as configure_logs
from server.store import default_db

_FINISHED = matches_pb2.MATCH_STATUS_FINISHED
#: Codes that blame what the user gave (exit status 2), not the service (1).
_BAD_REQUEST = (
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
)


class BadInput(Exception):
    """Input the command refuses; its message names what is wrong."""


#: The start of gRPC's message when nothing answers at the address (connection refused, no
#: route to the host); its last words say which.
_NOT_CONNECTED = "failed to connect to all addresses"


def report_failure(
    command: str, error: Exception, address: str | None = None, instead: str = ""
) -> int:
    """Print one line about `error` and return the exit status it calls for. When no server
    answers at `address`, the line says to start one there, or to do `instead` (say,
    "use --local"), if the command can do without one."""
    if isinstance(error, RegentError):
        message = error.message
        if error.code == grpc.StatusCode.UNAVAILABLE and address:
            if message.startswith(_NOT_CONNECTED):
                why = message.rsplit(": ", 1)[-1]
                message = (
                    f"no Regent server at {address} ({why}): start one with "
                    f"`regent serve --address {address}`" + (f", or {instead}" if instead else "")
                )
            else:
                message = f"cannot reach a Regent server at {address}: {message}"
        print(f"regent {command}: {message}", file=sys.stderr)
        return 2 if error.code in _BAD_REQUEST else 1
    print(f"regent {command}: {error}", file=sys.stderr)
    return 2


def refuse_busy_addresses(args: argparse.Namespace) -> int:
    """`regent serve`'s addresses checked before anything starts: 1 after one line naming
    an address it cannot listen on and the option that sets it, else 0."""
    web_address = None if args.no_web else args.web_address
    for address, flag in ((args.address, "--address"), (web_address, "--web-address")):
        refused = address and cannot_listen(address)
        if refused:
            print(f"regent serve: {refused}; pick another with {flag}", file=sys.stderr)
            return 1
    return 0


def cannot_listen(address: str) -> str:
    """Why `address` (HOST:PORT) cannot be listened on, or "" if it can as far as a trial
    bind tells: checked before the server starts, since gRPC reports a busy port only in a
    raw log line of its own. An address that does not resolve is left to the server."""
    host, _, port = address.rpartition(":")
    try:
        found = socket.getaddrinfo(host.strip("[]") or None, int(port), type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)  # fmt: skip
    except (OSError, ValueError):
        return ""
    family, kind, proto, _, where = found[0]
    with socket.socket(family, kind, proto) as trial:
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind
        try:
            trial.bind(where)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                return f"{address} is in use: another program (another regent serve?) listens"
            return f"cannot listen on {address}: {err.strerror or err}"
    return ""


# -- serve ---------------------------------------------------------------------


def serve(args: argparse.Namespace) -> int:
    """Run the service until SIGINT or SIGTERM; the server logs one line per call."""
    configure_logs(args.log_level, args.log_format)
    try:
        config = load_config(args.config) if args.config else Config()
        limits = server_limits(args, config)
        keys = load_keys(args.api_keys) if args.api_keys else config.keys
    except ConfigError as err:
        print(f"regent serve: {err}", file=sys.stderr)
        return 2
    for path in args.heuristic_weights:
        try:
            game = load_weights(path)
        except ValueError as err:
            print(f"regent serve: --heuristic-weights {err}", file=sys.stderr)
            return 2
        logging.getLogger("regent.server").info("%s's heuristic weights from %s", game, path)
    db = args.db or default_db()
    try:
        page = None if args.no_web else beside_server(args.web_address, _web_options(args))
        asyncio.run(
            run_server(args.address, limits, args.grace, page, db, keys, args.metrics_address)
        )
    except (OSError, RuntimeError, ValueError) as err:  # an address cannot be bound
        print(f"regent serve: {err}", file=sys.stderr)
        return 1
    return 0


# -- web -------------------------------------------------------------------------


def web(args: argparse.Namespace) -> int:
    """Serve the hint page against the service at `--server` until SIGINT or SIGTERM."""
    logging.basicConfig(level="INFO", stream=sys.stderr, format="%(asctime)s %(message)s")
    try:
        asyncio.run(serve_web(args.web_address, args.server, _web_options(args)))
    except (OSError, ValueError) as err:
        print(f"regent web: {err}", file=sys.stderr)
        return 1
    return 0


def _web_options(args: argparse.Namespace) -> WebOptions:
    """The hint page's access options of `regent serve` and `regent web`."""
    return WebOptions(token=args.web_token, hosts=tuple(args.web_host))


#: What a command that starts its own service without `--server` can do instead of one.
_IN_PROCESS = "leave out --server to use one in this process"


@contextmanager
def service_at(address: str | None) -> Iterator[str]:
    """The address of the server to use: `address`, or an in-process one started for the
    duration of the block."""
    if address:
        yield address
        return
    with BackgroundServer() as local:
        yield local.address


# -- hint ----------------------------------------------------------------------


def hint(args: argparse.Namespace) -> int:
    """Print the recommended move of an observation in protobuf JSON, from a server or
    from a search in this process (`--local`)."""
    try:
        observation = read_observation(args.file)
        if args.local:
            result = _local_report(observation, args)
        else:
            with RegentClient(args.server) as client:
                result = client.recommend(
                    observation,
                    iterations=args.iterations,
                    seconds=args.seconds,
                    threads=args.threads,
                    seed=args.seed,
                    bot=args.bot,
                )
    except (BadInput, RegentError) as err:
        return report_failure("hint", err, None if args.local else args.server, "use --local")
    print(format_report(result, observation))
    return 0


def read_observation(path: str) -> advisor_pb2.Observation:
    """A `regent.v1.Observation` in protobuf's JSON mapping, from a file or `-` (stdin)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise BadInput(f"cannot read {path}: {err}") from None
    try:
        return json_format.Parse(text, advisor_pb2.Observation())
    except json_format.ParseError as err:
        raise BadInput(f"{path}: not a regent.v1.Observation in JSON: {err}") from None


def _local_report(
    observation: advisor_pb2.Observation, args: argparse.Namespace
) -> common_pb2.SearchReport:
    """Search in this process with the checks and defaults the server applies."""
    try:
        obs = observation_from_proto(observation)  # its paths name the game's field
    except engine.InvalidObservationError as err:
        raise BadInput(f"observation.{err.field}: {err.reason}") from None
    try:
        state = engine.state_from_observation(obs, args.seed)
    except engine.InvalidObservationError as err:  # the engine's paths start inside the game
        game = observation.WhichOneof("game")
        raise BadInput(f"observation.{game}.{err.field}: {err.reason}") from None
    if state.is_terminal():
        raise BadInput("the game is over: there is no move to advise")
    game, observer = observer_of(observation)
    if state.current_player != observer:
        raise BadInput(
            f"observation.{game}.observer: the observer is player {observer}, but player "
            f"{state.current_player} is to act: advice is for the player to act"
        )
    spec = args.bot or ServerLimits().bot_for(game, state.num_players)
    budget = {"iterations": args.iterations, "seconds": args.seconds, "threads": args.threads}
    try:  # the bot's own budget parts (a level's all), the flags' elsewhere, else the defaults
        budget |= budget_from_spec(
            spec, args.iterations, args.seconds, args.threads, game, state.num_players,
            named=bool(args.bot),
        )  # fmt: skip
        if is_level(spec) and search_config(spec, game, state.num_players) is None:
            return bot_report(state, make_bot(spec, game, state.num_players), args.seed)
        if not budget["iterations"] and not budget["seconds"]:
            budget["iterations"] = ServerLimits.default_iterations
        budget["threads"] = budget["threads"] or ServerLimits.default_threads
        config = advice_config(spec, game, state.num_players, seed=args.seed, **budget)
    except BudgetClashError as err:
        raise BadInput(f"budget.{err.option}: {err}") from None
    except (ValueError, TypeError) as err:
        raise BadInput(f"bot: {err}") from None
    return report(search(state, config))


def format_report(result: common_pb2.SearchReport, observation: advisor_pb2.Observation) -> str:
    """The recommended move, a table of the alternatives and the principal variation."""
    text, obs = _text(observation)
    width = max([len("move"), *(len(m.move.text) for m in result.moves)])
    lines = [
        f"Recommended move: {result.move.text}",
        f"  for p{obs.observer}, {text.context(obs)}; {result.iterations} iterations in "
        f"{result.elapsed_seconds:.2f} s",
        "",
        f"  {'move':<{width}}  {'visits':>7}  {'win %':>6}  {'reward':>6}",
    ]
    lines.extend(
        f"  {m.move.text:<{width}}  {m.visits:>7}  {100 * m.win_chance:>6.1f}  "
        f"{m.mean_reward:>6.3f}"
        for m in result.moves
    )
    lines += ["", "Principal variation: " + (", ".join(result.principal_variation) or "-")]
    return "\n".join(lines)


# -- reading observations --------------------------------------------------------


def _event_text(event: matches_pb2.MatchEvent, me: int | None) -> str:
    """`p1: play hand red-3`, `p2: (secret choice made)` or `p0 resigned`."""
    if event.HasField("resigned_seat"):
        return f"{player_name(event.resigned_seat, me)} resigned"
    actor = player_name(event.seat, me) if event.HasField("seat") else "game"
    return f"{actor}: {event.move.text}"


def _text(observation: advisor_pb2.Observation) -> tuple[GameText, Any]:
    """(the game's text module, the oneof's message) of an observation."""
    found = text_of(observation)
    if found is None:
        raise BadInput("the observation sets no game that has a terminal text")
    return found


def board(observation: advisor_pb2.Observation, me: int | None = None) -> str:
    """The position as `me` sees it, in the game's own terms."""
    text, obs = _text(observation)
    return text.board(obs, me)


def _summary(observation: advisor_pb2.Observation) -> str:
    """One line: where the game is and who decides what."""
    text, obs = _text(observation)
    return text.summary(obs)


def result_line(scores: Sequence[int], returns: Sequence[float], me: int | None = None) -> str:
    """Final scores and who won; in the solo mode the last score is the Regent's."""
    names = [player_name(i, me) for i in range(len(returns))]
    if len(scores) > len(returns):
        names.append("the Regent")
    shown = " · ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
    if len(returns) == 1:
        outcome = {1.0: f"{names[0]} beat the Regent", 0.0: "the Regent wins"}
        verdict = outcome.get(returns[0], "a tie with the Regent")
    else:
        best = max(returns)
        winners = [n for n, r in zip(names, returns, strict=True) if r == best and r > 0]
        verdict = (
            f"{winners[0]} won" if len(winners) == 1 else " and ".join(winners) + " share victory"
        )
    return f"Final scores: {shown}; {verdict}."


# -- play ------------------------------------------------------------------------


def play(args: argparse.Namespace) -> int:
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
    except BrokenPipeError:  # the reader of our output is gone: `regent.cli.main` ends quietly
        raise
    except (RegentError, OSError, RuntimeError) as err:
        return report_failure("play", err, args.server, _IN_PROCESS)
    except KeyboardInterrupt:  # while the bots think; at the prompt, Ctrl-C resigns
        return 130


def _followed(match: str, token: str, server: str) -> str:
    """How to follow a hosted match from another terminal: its id and the seat's token."""
    where = f"--token {token} --server {server}"
    return (
        f"Match {match}: watch it with `regent watch {match} {where}`\n"
        f"Your seat's token: {token} (after the game: `regent review {match} {where}`)"
    )


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
            print("  " + _event_text(event, self.me))
            if event.HasField("seat") and event.seat == self.me and event.HasField("move"):
                unseen -= 1
            decision = _text(event.observation)[1].decision
            ours = decision.HasField("player") and decision.player == self.me
            if unseen <= 0 and (ours or event.status == _FINISHED):
                break
        return self.client.get_view(self.match_id, self.token)

    def _ask(self, view: matches_pb2.GetViewResponse) -> matches_pb2.GetViewResponse | None:
        """Read moves from stdin until one is legal; None to resign (`quit`, end of input
        or Ctrl-C)."""
        moves = list(view.legal_moves)
        print("Your moves:")
        for i, move in enumerate(moves, 1):
            print(f"  {i:>2}. {move.text}")
        while True:
            print(f"Move (1-{len(moves)}, its text, or quit): ", end="", flush=True)
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


# -- watch -----------------------------------------------------------------------


def watch(args: argparse.Namespace) -> int:
    """Print a match's events as they come, each with a one-line summary, until it ends."""
    try:
        with RegentClient(args.server) as client, client.watch(args.match, args.token) as events:
            for event in events:
                print(f"{event.sequence:>4}  {_event_text(event, None):<32}  "
                      f"{_summary(event.observation)}", flush=True)  # fmt: skip
                if event.status == _FINISHED:
                    print(result_line(event.scores, event.returns), flush=True)
    except RegentError as err:
        return report_failure("watch", err, args.server)
    except KeyboardInterrupt:
        return 130
    return 0


# -- games ---------------------------------------------------------------------


def games(args: argparse.Namespace) -> int:
    """Print the games the service offers, their player counts and difficulty levels."""
    try:
        with service_at(args.server) as address, RegentClient(address) as client:
            response = client.list_games()
    except RegentError as err:
        return report_failure("games", err, args.server, _IN_PROCESS)
    print(format_games(response))
    return 0


def format_games(response: advisor_pb2.ListGamesResponse) -> str:
    """Each game's title, command-line name and player counts, then its levels: number,
    description and spec (one spec, or the spec per player count where they differ)."""
    lines = []
    for info in response.games:
        counts = ", ".join(map(str, info.player_counts))
        lines.append(f"{info.title} ({info.name.replace('_', '-')}): {counts} players")
        rows = [("default", "the strongest measured", info.default_bots)]
        rows += [(f"level:{lv.level}", lv.description, lv.bots) for lv in info.levels]
        lines += [f"  {name:<9} {text:<52} {_per_count(specs)}" for name, text, specs in rows]
    return "\n".join(lines)


def _per_count(specs: Mapping[int, str]) -> str:
    """One spec, or the spec per player count where they differ."""
    ordered = sorted(specs.items())
    if len({spec for _, spec in ordered}) == 1:
        return ordered[0][1]
    return "; ".join(f"{n}p: {spec}" for n, spec in ordered)
