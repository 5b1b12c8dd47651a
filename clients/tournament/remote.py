"""Bots behind the service's API: the spec `grpc://host:port` asks that address's
AdvisorService.Recommend for every move, from the observation of the player to act, so any
bot that implements our proto can enter a tournament. A remote bot fails as servers do: it
errs, times out or loses its server (`failure_reason`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from clients.tournament.own_bot import OwnBot, is_own
from engine.interface import State
from search.bots import Bot, BudgetClashError, check_budget, make_bot
from search.ismcts import CancelToken

if TYPE_CHECKING:
    from clients.client import RegentClient, RegentError

#: The longest a remote bot may take over one move unless its spec says, in seconds.
MOVE_TIMEOUT = 300.0
#: The first and the longest pause before asking a busy server again, in seconds.
BUSY_PAUSE = (0.05, 2.0)


@dataclass(frozen=True)
class RemoteSpec:
    """Where the bot is, and what to ask it: an empty bot and a zero budget leave the choice
    to the server (`seconds` is wall-clock time per move, for equal-time matches); `timeout`
    is the longest a move may take, the call's deadline (zero: `MOVE_TIMEOUT`)."""

    address: str
    bot: str = ""
    iterations: int = 0
    seconds: float = 0.0
    threads: int = 0
    timeout: float = 0.0


USAGE = "a remote bot is grpc://host:port[?bot=SPEC&iterations=N&seconds=S&threads=T&timeout=S]"
_BUDGET = {"iterations": int, "seconds": float, "threads": int}
_NUMBERS = {**_BUDGET, "timeout": float}


def parse_address(spec: str) -> RemoteSpec:
    """`grpc://host:port[?bot=SPEC&iterations=N&seconds=S&threads=T&timeout=S]` -> RemoteSpec;
    ValueError if malformed, or a budget part beside a bot that sets it (a level sets all)."""
    url = urlsplit(spec)
    try:
        port = url.port
    except ValueError:
        port = None
    if url.scheme != "grpc" or not url.hostname or port is None or url.path not in ("", "/"):
        raise ValueError(f"bad remote bot {spec!r}: {USAGE}")
    query = parse_qs(url.query, keep_blank_values=True)
    if set(query) - {"bot", *_NUMBERS} or any(len(v) > 1 for v in query.values()):
        raise ValueError(f"bad remote bot {spec!r}: {USAGE}")
    numbers: dict[str, float] = {}
    for name, kind in _NUMBERS.items():
        if name in query:
            try:
                numbers[name] = kind(query[name][0])
            except ValueError:
                raise ValueError(f"bad remote bot {spec!r}: {name} must be a number") from None
            if not 0 <= numbers[name] < float("inf"):
                raise ValueError(f"bad remote bot {spec!r}: {name} must be 0 or more")
    bot = query.get("bot", [""])[0]
    iterations, seconds, threads = (numbers.get(name, 0) for name in _BUDGET)
    try:  # the parts the bot sets itself (a level all) take no budget, as at the server
        check_budget(bot, int(iterations), seconds, int(threads))
    except BudgetClashError as err:
        raise ValueError(f"bad remote bot {spec!r}: {err}") from None
    except ValueError:  # a spec this side does not know (or none): the server judges it
        pass
    return RemoteSpec(url.netloc, bot, **numbers)  # type: ignore[arg-type]


#: One client (one channel) per address and process.
_CLIENTS: dict[str, RegentClient] = {}


def _client(address: str) -> RegentClient:
    """The process's client of `address`; gRPC is loaded only when needed."""
    if address not in _CLIENTS:
        from clients.client import RegentClient

        _CLIENTS[address] = RegentClient(address)
    return _CLIENTS[address]


def forget_clients() -> None:
    """Close every client, so that the next call connects afresh: a channel to a server that
    was down waits out gRPC's growing reconnection backoff (up to two minutes) first."""
    while _CLIENTS:
        _CLIENTS.popitem()[1].close()


class RemoteBot:
    """Plays the move the service at `spec` recommends for the player to act, who is the
    observer: the service never sees another player's hidden cards."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.remote = parse_address(spec)

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        """The server's move; a server busy with its limit of searches is asked again after
        a growing pause, until the move's timeout (its other refusals end the game's play)."""
        from clients.client import RegentError

        deadline = time.monotonic() + (self.remote.timeout or MOVE_TIMEOUT)
        pause = BUSY_PAUSE[0]
        while True:
            try:
                report = _client(self.remote.address).recommend(
                    state.observation(state.current_player),
                    iterations=self.remote.iterations,
                    seconds=self.remote.seconds,
                    threads=self.remote.threads,
                    seed=seed,
                    bot=self.remote.bot,
                    timeout=max(0.001, deadline - time.monotonic()),
                )
                break
            except RegentError as err:
                if not _busy(err) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(BUSY_PAUSE[1], 2 * pause)
        return state.string_to_action(report.move.text) if report.move.text else report.move.id


def _busy(error: RegentError) -> bool:
    """Whether the server refused because all its search slots were taken: RESOURCE_EXHAUSTED
    blaming the whole `budget` (a budget past its limits blames `budget.seconds` and the like)."""
    import grpc

    blamed = [violation.field for violation in error.field_violations]
    return error.code == grpc.StatusCode.RESOURCE_EXHAUSTED and blamed == ["budget"]


def failure_reason(error: Exception) -> str:
    """Why a bot failed, as a tournament records it: `disconnected` (its server is gone or
    unreachable: UNAVAILABLE), `timeout` (its move's deadline passed, or its server stayed
    busy until then) or `error` (anything else it raised or answered)."""
    from clients.client import RegentError

    if isinstance(error, RegentError):
        import grpc

        if error.code == grpc.StatusCode.UNAVAILABLE:
            return "disconnected"
        if error.code == grpc.StatusCode.DEADLINE_EXCEEDED or _busy(error):
            return "timeout"
    return "error"


def bot_for(spec: str, game: str, players: int) -> Bot:
    """A remote bot for `grpc://...`, a bot of your own for `python:...`, else the bot of
    `search.bots.make_bot` (a level's for `game` with `players` players)."""
    if spec.startswith("grpc://"):
        return RemoteBot(spec)
    if is_own(spec):
        return OwnBot(spec, game, players)
    return make_bot(spec, game, players)
