"""Bots behind the service's API: the spec `grpc://host:port` asks that address's
AdvisorService.Recommend for every move, from the observation of the player to act, so any
bot that implements our proto can enter a tournament."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from engine.interface import State
from search.bots import Bot, is_level, make_bot
from search.ismcts import CancelToken

if TYPE_CHECKING:
    from clients.client import RegentClient, RegentError

#: The longest a remote bot may take over one move, in seconds.
MOVE_TIMEOUT = 300.0
#: The first and the longest pause before asking a busy server again, in seconds.
BUSY_PAUSE = (0.05, 2.0)


@dataclass(frozen=True)
class RemoteSpec:
    """Where the bot is, and what to ask it: an empty bot and a zero budget leave the choice
    to the server (`seconds` is wall-clock time per move, for equal-time matches)."""

    address: str
    bot: str = ""
    iterations: int = 0
    seconds: float = 0.0
    threads: int = 0


USAGE = "a remote bot is grpc://host:port[?bot=SPEC&iterations=N&seconds=S&threads=T]"
_NUMBERS = {"iterations": int, "seconds": float, "threads": int}


def parse_address(spec: str) -> RemoteSpec:
    """`grpc://host:port[?bot=SPEC&iterations=N&seconds=S&threads=T]` -> RemoteSpec;
    ValueError if malformed, or a budget beside a level (`bot=level:N`: the level's own)."""
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
    if is_level(bot) and any(numbers.values()):
        raise ValueError(f"bad remote bot {spec!r}: {bot} has its own budget, so give none")
    return RemoteSpec(url.netloc, bot, **numbers)  # type: ignore[arg-type]


@functools.cache
def _client(address: str) -> RegentClient:
    """One client (one channel) per address and process; gRPC is loaded only when needed."""
    from clients.client import RegentClient

    return RegentClient(address)


class RemoteBot:
    """Plays the move the service at `spec` recommends for the player to act, who is the
    observer: the service never sees another player's hidden cards."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.remote = parse_address(spec)

    def choose(self, state: State, seed: int, cancel: CancelToken | None = None) -> int:
        """The server's move; a server busy with its limit of searches is asked again after
        a growing pause, until `MOVE_TIMEOUT` (its other refusals end the game's play)."""
        from clients.client import RegentError

        deadline = time.monotonic() + MOVE_TIMEOUT
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
                    timeout=max(1.0, deadline - time.monotonic()),
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


def bot_for(spec: str, game: str, players: int) -> Bot:
    """A remote bot for `grpc://...`, else the bot of `search.bots.make_bot` (a level's
    for `game` with `players` players)."""
    return RemoteBot(spec) if spec.startswith("grpc://") else make_bot(spec, game, players)
