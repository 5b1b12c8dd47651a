"""The hosted matches of one replica: loaded from the database and kept in memory while
they are played, every move stored before it is applied and then published once to the
match's watchers, and the bot seats driven while this replica holds the match's lease.

Work is kept off the event loop on pools that cannot starve each other: database calls and
rebuilding a match on `db_pool`; lease renewal on a thread and a timer of its own, so that
no search and no burst of requests delays it; bot searches on the bots' pool
(server/botpool.py)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError

from server import metrics
from server.botpool import BotPool
from server.broadcast import Watchers
from server.limits import ServerLimits
from server.match import Match, rebuild
from server.news import News
from server.status import Rejected, failed_precondition, unavailable
from server.store import EXPIRE, EXPIRED, MOVE, LoggedMove, Progress, Store, StoreError

log = logging.getLogger("regent.server")
T = TypeVar("T")

#: Threads for database calls and rebuilding matches (SQLite serializes its own).
DB_THREADS = 4


class Hosting:
    """The matches this replica serves; `await start()` opens the database, `await close()`
    stops every bot."""

    def __init__(self, limits: ServerLimits, db: str) -> None:
        self.limits = limits
        self.db = db
        self.store: Store | None = None
        #: Unfinished matches this process has loaded; finished ones leave.
        self.live: dict[str, Match] = {}
        self.pool = BotPool(limits.max_bot_searches)
        self.watchers = Watchers(
            limits.max_match_watchers, limits.max_watchers, limits.watch_backlog
        )
        #: This replica, in the bot leases of the database.
        self.owner = secrets.token_hex(8)
        self.db_pool = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="regent-db")
        self._lease_pool = ThreadPoolExecutor(1, thread_name_prefix="regent-lease")
        self._tasks: list[asyncio.Task] = []
        self._news: News | None = None
        #: Matches whose moves made elsewhere are being read in (one read at a time each), and
        #: those of them with news heard during the read, which may have missed that move.
        self._reading: set[str] = set()
        self._heard_again: set[str] = set()
        self._closing = False
        self._draining = False

    @property
    def opened(self) -> Store:
        """The match database, once `start` has opened it."""
        if self.store is None:
            raise RuntimeError("the match database is not open: await start() first")
        return self.store

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.store = await loop.run_in_executor(self.db_pool, Store, self.db)
        log.info("hosted matches kept in %s (replica %s)", self.store.url, self.owner)
        self._tasks = [loop.create_task(self._renew()), loop.create_task(self._supervise())]
        if not self.store.sqlite:  # a lone SQLite server has no other replica to hear

            def heard(match_id: str | None) -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped
                    loop.call_soon_threadsafe(self._heard, match_id)

            self._news = News(self.store, heard)
            self._news.start()

    def drain(self) -> None:
        """At the start of a shutdown: every Watch stream ends at once with UNAVAILABLE
        (watch again after the restart, or on another replica)."""
        self._draining = True
        self.watchers.wake_all()

    async def close(self) -> None:
        """Stop every hosted bot at once (at shutdown) and give up their leases."""
        self._closing = True
        self.watchers.wake_all()
        self.pool.stop()
        if self._news is not None:
            self._news.stop()
        tasks = [m.bot_task for m in self.live.values() if m.bot_task and not m.bot_task.done()]
        tasks += self._tasks
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.store is not None:
            with contextlib.suppress(Rejected):
                await self._db(self.store.release_leases, self.owner)
            self.store.close()
        self.pool.shutdown()
        for executor in (self.db_pool, self._lease_pool):
            executor.shutdown(wait=False, cancel_futures=True)

    async def load(self, match_id: str) -> Match | None:
        """The match, up to date with the database: from memory, or rebuilt from its log."""
        match = self.live.get(match_id)
        if match is not None:
            await self._catch_up(match)
            return match
        record = await self._db(self.opened.load, match_id)
        if record is None:
            return None
        match = await self.off_loop(rebuild, record)
        if match.finished:
            return match
        match = self.live.setdefault(match_id, match)
        await self._catch_up(match)
        return match

    # -- helpers ---------------------------------------------------------------

    async def off_loop(self, call: Callable[..., T], *args: object) -> T:
        """CPU work (a match rebuilt, a big conversion) on the database pool's threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, functools.partial(call, *args))

    async def _db(self, call: Callable[..., T], *args: object) -> T:
        """A database call, on the database pool."""
        try:
            return await self.off_loop(call, *args)
        except SQLAlchemyError as err:
            metrics.DATABASE_ERRORS.inc()
            log.warning("the match database failed: %s", type(err).__name__)
            raise Rejected(unavailable("the match database is unavailable; try again")) from None

    async def _catch_up(self, match: Match) -> None:
        async with match.lock:
            await self._catch_up_locked(match)

    async def _catch_up_locked(self, match: Match) -> None:
        """Apply the moves another replica made (a no-op in a lone server)."""
        if match.finished:
            return
        logged = await self._db(self.opened.log_since, match.id, len(match.events))
        for move in logged:
            match.push(match.next_event(move))
        if logged:
            self._published(match)

    async def _commit(self, match: Match, move: LoggedMove) -> bool:
        """Store a move at the next number, then apply and publish it (the match's lock is
        held); True if stored. When another replica took that number first, the match is
        brought up to date and False returned: the caller tells whether the move stored
        there is its own (a duplicate call) or another."""
        event = match.next_event(move)
        if not await self._db(self.opened.append, match.id, move, match.progress(event)):
            await self._catch_up_locked(match)
            return False
        match.push(event)
        self._published(match)
        return True

    def _published(self, match: Match) -> None:
        """Wake the match's watchers; a finished match leaves memory."""
        self.watchers.publish(match)
        if match.finished:
            self.live.pop(match.id, None)

    def _heard(self, match_id: str | None) -> None:
        """News from the database: a move stored in `match_id` (None: news may have been
        missed, so every watched match). Watched matches here read it in, once at a time."""
        ids = self.watchers.watched_ids() if match_id is None else [match_id]
        for found in ids:
            match = self.live.get(found)
            if match is None or not self.watchers.watched(found):
                continue
            if found in self._reading:
                self._heard_again.add(found)  # the read under way may be past that move
                continue
            self._reading.add(found)
            asyncio.get_running_loop().create_task(self._read_news(match))

    async def _read_news(self, match: Match) -> None:
        """Read the match's moves in, and again while news of it came during the read."""
        try:
            while True:
                self._heard_again.discard(match.id)
                await self._catch_up(match)
                if match.id not in self._heard_again:
                    return
        except Rejected:
            pass  # the database is away: the news comes again when it is back
        finally:
            self._reading.discard(match.id)
            self._heard_again.discard(match.id)

    # -- hosted bots -------------------------------------------------------------

    def _wake(self, match: Match) -> bool:
        """Drive the match's bots if one is to move and nothing drives them here yet;
        whether that starts now."""
        if self._closing or not match.bot_turn:
            return False
        if match.bot_task is None or match.bot_task.done():
            match.bot_task = asyncio.get_running_loop().create_task(self._drive(match))
            return True
        return False

    async def _drive(self, match: Match) -> None:
        """Bot seats move, each from its own view, while this replica holds the match's lease."""
        try:
            while await self._bot_move(match):
                pass
            await self._db(self.opened.release_lease, match.id, self.owner)
        except Rejected:
            pass  # the database failed: the supervisor tries again later

    async def _bot_move(self, match: Match) -> bool:
        """One bot move; False when it is no bot's turn or another replica drives."""
        async with match.lock:
            await self._catch_up_locked(match)
            if self._closing or not match.bot_turn:
                return False
            lease = self.limits.bot_lease_seconds
            if not await self._db(self.opened.take_lease, match.id, self.owner, lease):
                return False
            seat, number, snapshot = match.state.current_player, len(match.events), match.state
        seed = (match.seed * 1_000_003 + number) & 0xFFFFFFFF
        action = await self.pool.choose(match.bots[seat], snapshot.clone(), seed)
        if self._closing:
            return False  # a search cut short by the shutdown: searched again after it
        async with match.lock:
            if len(match.events) == number:  # else made elsewhere first: look again
                with contextlib.suppress(Rejected):  # the database is away: look again
                    await self._commit(match, LoggedMove(number, MOVE, seat, action))
        return True

    async def _renew(self) -> None:
        """Renew this replica's leases every fifth of their term, on a thread of its own."""
        loop = asyncio.get_running_loop()
        seconds = self.limits.bot_lease_seconds
        while True:
            try:
                await loop.run_in_executor(
                    self._lease_pool, self.opened.renew_leases, self.owner, seconds
                )
            except SQLAlchemyError as err:
                metrics.DATABASE_ERRORS.inc()
                log.warning("hosted matches: leases not renewed: %s", type(err).__name__)
            await asyncio.sleep(seconds / 5)

    async def _supervise(self) -> None:
        """Expire idle matches, and drive the bots of live matches nobody drives (after a
        restart, or when a replica died)."""
        interval = self.limits.bot_lease_seconds / 5
        while True:
            try:
                await self._expire_idle()
                for match_id in await self._db(self.opened.undriven, self.owner):
                    match = await self.load(match_id)
                    if match is not None and self._wake(match):
                        metrics.LEASE_TAKEOVERS.inc()
            except (Rejected, StoreError) as err:
                log.warning("hosted matches: %s", err)
            await asyncio.sleep(interval)

    async def _expire_idle(self) -> None:
        """Cancel the live matches with no move for `match_ttl` seconds."""
        before = time.time() - self.limits.match_ttl
        for match_id, number in await self._db(self.opened.idle, before):
            expiry = LoggedMove(number, EXPIRE)
            if await self._db(self.opened.append, match_id, expiry, Progress(EXPIRED, None, False)):
                match = self.live.get(match_id)
                if match is not None:
                    await self._catch_up(match)


def another_came_first(match: Match) -> Rejected:
    """The refusal of a move whose number another move took."""
    return Rejected(
        failed_precondition(
            "another move came first: the match is at move {number}", number=len(match.events)
        )
    )
