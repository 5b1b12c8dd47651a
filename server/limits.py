"""What one call may ask of the server, and how a request's budget is capped."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import grpc

import search.games
from engine.errors import Wording, around, worded
from server.status import invalid_argument, resource_exhausted

#: The shortest search worth starting: a call whose deadline leaves less is refused.
MIN_SEARCH_SECONDS = 0.001


def too_late(time_remaining: float | None) -> bool:
    """The call's deadline leaves no time for the shortest search: gRPC rounds a tiny
    timeout up to a millisecond, which a 1 ms search and its answer would overrun."""
    return time_remaining is not None and time_remaining < MIN_SEARCH_SECONDS


def stop_time(time_remaining: float | None, margin: float) -> float | None:
    """The monotonic time by which a search must stop for its answer, `margin` seconds to
    send, to make a call's deadline (None: the call has none)."""
    return None if time_remaining is None else time.monotonic() + time_remaining - margin


@dataclass(frozen=True)
class ServerLimits:
    """Server-wide limits. `regent serve` makes one flag of each field (`--max-searches` for
    `max_searches`) and reads the same names from its config file (server/config.py); the
    `#:` comment above a field is its flag's help, so every field has one."""

    #: Most iterations one request may ask.
    max_iterations: int = 1_000_000
    #: Longest search one request may ask, in seconds.
    max_seconds: float = 60.0
    #: Searches running at once; a call beyond that gets RESOURCE_EXHAUSTED.
    max_searches: int = 4
    #: Most threads one search may ask.
    max_threads: int = 2
    #: Threads of a search that asks none (at most max_threads).
    default_threads: int = 1
    #: The budget of a request that sets none, in iterations.
    default_iterations: int = 5000
    #: Analyze reports every this many milliseconds unless asked otherwise.
    default_interval_ms: int = 250
    #: Analyze never reports more often than this, whatever is asked.
    min_interval_ms: int = 20
    #: The most tree nodes one search may keep (about 60 bytes each).
    max_nodes: int = 4_000_000
    #: The largest request the service reads, in bytes; an observation is a few kilobytes.
    max_request_bytes: int = 1 << 20
    #: Time kept back from a call's deadline to send the answer (a search's time counts from
    #: the call's arrival); a loaded host, whose threads wait for a core, needs more.
    deadline_margin: float = 0.03
    #: Time kept back from a Review's deadline to stop its search and send the review.
    review_deadline_margin: float = 0.5
    #: Most iterations of a Review's searches together, planned from its budgets and decisions.
    max_review_iterations: int = 20_000_000
    #: Longest a Review's searches may take together, in seconds: a review holds one search
    #: slot that long at most (and reviews at most half the slots).
    max_review_seconds: float = 300.0
    #: The spec used when a request names no bot; empty: each game's strongest measured bot
    #: for its player count (its `search/<game>.py`'s `DEFAULT_BOTS`).
    default_bot: str = ""
    #: Worker processes for the advisor's slow position work (ApplyObservedMove, LegalMoves
    #: and ApplyMove deal worlds, tens of milliseconds a call), so that it never holds the
    #: server's GIL; each costs a process's memory (about 75 MB).
    conversion_processes: int = 2
    #: Live (unfinished) hosted matches on the database, every caller's together.
    max_matches: int = 1000

    # -- hosted matches (server/matches.py) --
    #: Hosted bots' searches at once, in their own pool apart from max_searches.
    max_bot_searches: int = 2
    #: An unfinished match with no move for this many seconds is cancelled (expired).
    match_ttl: float = 7 * 24 * 3600.0
    #: How long a replica's lease on driving a match's bots lasts unless renewed; a
    #: replica that dies hands its matches over after at most this long.
    bot_lease_seconds: float = 10.0
    #: Watch streams open on one match at once; one more gets RESOURCE_EXHAUSTED.
    max_match_watchers: int = 500
    #: Watch streams open on this server at once, every match's together.
    max_watchers: int = 10_000
    #: Moves a Watch stream may fall behind its match before it is ended (to watch again).
    watch_backlog: int = 256

    # -- quotas of callers without an API key (server/quotas.py) --
    #: Live matches that one anonymous peer address may have created.
    anonymous_matches: int = 20
    #: Live matches that anonymous callers may have created together, so that callers with
    #: an API key always find room.
    max_anonymous_matches: int = 500
    #: Searches (Recommend, Analyze, Review) one anonymous peer address may start per second.
    anonymous_searches_per_second: float = 4.0
    #: Hold callers on this machine (loopback addresses) to the anonymous quotas too; off,
    #: they are trusted: local tools, and the hint page's gateway, which calls from loopback.
    quota_loopback: bool = False

    def bot_for(self, game: str, num_players: int) -> str:
        """The bot spec of a request that names none, for `game` at `num_players`."""
        return self.default_bot or search.games.default_bot(game, num_players)


class BudgetError(Exception):
    """A budget the server will not run: `negative` ones are invalid arguments,
    the others exceed a limit. `wording` says why, for the field `field`."""

    def __init__(
        self, field: str, reason: str | Wording, *, negative: bool, **params: object
    ) -> None:
        self.wording = worded(reason, **params)
        super().__init__(f"{field}: {self.wording}")
        self.field = field
        self.negative = negative

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled (see engine.errors)."""
        rebuild = functools.partial(type(self), negative=self.negative)
        return rebuild, (self.field, self.wording), self.__dict__

    def status(self, field: str, reason: str | None = None, **params: object) -> grpc.Status:
        """The status refusing it under `field`: INVALID_ARGUMENT for a negative budget,
        else RESOURCE_EXHAUSTED; its wording, or `reason` with `params` whose `{reason}`
        is its wording."""
        make = invalid_argument if self.negative else resource_exhausted
        return make(
            field, self.wording if reason is None else around(reason, self.wording, **params)
        )


def check_tree(limits: ServerLimits, max_nodes: int) -> None:
    """BudgetError when a bot asks for a larger search tree than the server keeps."""
    if max_nodes > limits.max_nodes:
        raise BudgetError(
            "max_nodes",
            "{value} exceeds the server's limit of {limit}",
            negative=False,
            value=max_nodes,
            limit=limits.max_nodes,
        )


def effective_budget(
    limits: ServerLimits,
    iterations: int,
    seconds: float,
    threads: int,
    time_remaining: float | None,
) -> tuple[int, float, int]:
    """(iterations, seconds, threads) to search with: the request's budget, the
    server's defaults where it sets none, and never past the call's deadline."""
    for name, value in (("iterations", iterations), ("seconds", seconds), ("threads", threads)):
        if value < 0:
            raise BudgetError(f"budget.{name}", "cannot be negative", negative=True)
    if seconds != seconds:  # NaN
        raise BudgetError("budget.seconds", "is not a number", negative=True)
    if iterations > limits.max_iterations:
        raise BudgetError(
            "budget.iterations",
            "{value} exceeds the server's limit of {limit}",
            negative=False,
            value=iterations,
            limit=limits.max_iterations,
        )
    if seconds > limits.max_seconds:
        raise BudgetError(
            "budget.seconds",
            "{value} exceeds the server's limit of {limit} s",
            negative=False,
            value=f"{seconds:g}",
            limit=f"{limits.max_seconds:g}",
        )
    if threads > limits.max_threads:
        raise BudgetError(
            "budget.threads",
            "{value} exceeds the server's limit of {limit}",
            negative=False,
            value=threads,
            limit=limits.max_threads,
        )
    if iterations == 0 and seconds == 0:
        iterations = limits.default_iterations
    if time_remaining is not None:
        cap = max(MIN_SEARCH_SECONDS, time_remaining - limits.deadline_margin)
        seconds = cap if seconds == 0 else min(seconds, cap)
    return iterations, seconds, threads or limits.default_threads
