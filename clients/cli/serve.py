"""`regent serve` (the gRPC service and the hint page) and `regent web` (the hint page
against a running service). The service's modules are imported when one starts, not for
`regent --help`."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import socket
import sys
from pathlib import Path

from clients.cli.shared import seconds
from clients.web import guard
from server.config import add_limit_flags

#: Where the hint page listens by default.
WEB_ADDRESS = "127.0.0.1:8080"


def add_serve(commands: argparse._SubParsersAction) -> None:
    """The `serve` subcommand."""
    serve = commands.add_parser(
        "serve", help="run the gRPC service (Advisor and Match) and the hint page"
    )
    serve.add_argument(
        "--address", default="127.0.0.1:50051", metavar="HOST:PORT", help="where to listen"
    )
    serve.add_argument(
        "--config",
        metavar="FILE",
        type=Path,
        help="a TOML file of [limits] and [api_keys.NAME] tables; the flags override it "
        "(docs/operating.md)",
    )
    serve.add_argument(
        "--api-keys",
        metavar="FILE",
        type=Path,
        help="a TOML file of [api_keys.NAME] tables: the callers' keys (metadata x-api-key) "
        "and quotas, in place of the config file's",
    )
    serve.add_argument(
        "--metrics-address",
        metavar="HOST:PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics (default: none)",
    )
    serve.add_argument(
        "--grace",
        metavar="S",
        type=seconds,
        default=5.0,
        help="seconds running calls get to finish at shutdown (default: 5)",
    )
    # Hosted matches: where they are kept, how long an idle one lasts, their bots' share.
    serve.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the matches' database: a SQLite file, sqlite:///PATH, :memory:, or "
        "postgresql://USER:PASSWORD@HOST/DB (default: matches.sqlite3 in the user's data "
        "directory)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="info logs one line per call (default: info)",
    )
    serve.add_argument(
        "--log-format",
        default="text",
        choices=["text", "json"],
        help="json: one JSON object a line, for a log collector (default: text)",
    )
    serve.add_argument(
        "--web-address",
        default=WEB_ADDRESS,
        metavar="HOST:PORT",
        help=f"where the hint page listens (default: {WEB_ADDRESS})",
    )
    serve.add_argument("--no-web", action="store_true", help="do not serve the hint page")
    serve.add_argument(
        "--heuristic-weights",
        metavar="FILE",
        type=Path,
        action="append",
        default=[],
        help="the playouts' heuristic weights of a fit by bench/balance_heuristic.py (JSON), "
        "for the searches of its game at the player counts it names; repeat for each game",
    )
    _web_access_options(serve)
    add_limit_flags(serve)
    serve.set_defaults(func=run_serve)


def add_web(commands: argparse._SubParsersAction) -> None:
    """The `web` subcommand."""
    web = commands.add_parser("web", help="serve the hint page against a running service")
    web.add_argument("--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service")
    web.add_argument(
        "--web-address",
        default=WEB_ADDRESS,
        metavar="HOST:PORT",
        help=f"where the hint page listens (default: {WEB_ADDRESS})",
    )
    _web_access_options(web)
    web.set_defaults(func=run_web)


def _web_access_options(parser: argparse.ArgumentParser) -> None:
    """Who may use the hint page: `regent serve` and `regent web` take the same options."""

    def web_host(text: str) -> str:
        try:
            return guard.host_name(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    def web_token(text: str) -> str:
        try:
            return guard.check_token(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parser.add_argument(
        "--web-host",
        action="append",
        default=[],
        type=web_host,
        metavar="NAME",
        help="one more host name or address the page may be opened with (repeatable); on "
        "0.0.0.0 or :: this machine's name and addresses are accepted without it",
    )
    parser.add_argument(
        "--web-token",
        type=web_token,
        metavar="TOKEN",
        help="the page's access token (default: none on loopback; beyond it, a new one "
        "each start, printed in the page's address)",
    )


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


def run_serve(args: argparse.Namespace) -> int:
    """Run the service until SIGINT or SIGTERM, once its addresses are found free; the
    server logs one line per call."""
    if refused := refuse_busy_addresses(args):
        return refused
    from clients.web.gateway import beside_server
    from engine.heuristics import load_weights
    from server.app import serve
    from server.config import Config, ConfigError, load_keys, server_limits
    from server.config import load as load_config
    from server.logs import configure as configure_logs
    from server.store import default_db

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
        asyncio.run(serve(args.address, limits, args.grace, page, db, keys, args.metrics_address))
    except (OSError, RuntimeError, ValueError) as err:  # an address cannot be bound
        print(f"regent serve: {err}", file=sys.stderr)
        return 1
    return 0


def run_web(args: argparse.Namespace) -> int:
    """Serve the hint page against the service at `--server` until SIGINT or SIGTERM."""
    from clients.web.gateway import serve_web

    logging.basicConfig(level="INFO", stream=sys.stderr, format="%(asctime)s %(message)s")
    try:
        asyncio.run(serve_web(args.web_address, args.server, _web_options(args)))
    except (OSError, ValueError) as err:
        print(f"regent web: {err}", file=sys.stderr)
        return 1
    return 0


def _web_options(args: argparse.Namespace) -> guard.WebOptions:
    """The hint page's access options of `regent serve` and `regent web`."""
    return guard.WebOptions(token=args.web_token, hosts=tuple(args.web_host))
