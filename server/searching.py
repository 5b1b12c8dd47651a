"""Searches for the service: at most `max_searches` at once, each off the event
loop on threads that release the GIL, the slots' own (never asyncio's default executor,
so that searches and the service's other work cannot starve each other). A search holds
its slot until its thread ends: at its budget, or within milliseconds of its call being
cancelled, whether or not anybody reads what it reports. Reviews, which run long, may
take at most half the slots, so that advice is never refused for their sake alone."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypeVar

from engine.interface import State
from search.search import Search, SearchConfig, SearchResult
from server.limits import MIN_SEARCH_SECONDS


class Stoppable(Protocol):
    """Work running in a slot: a search, or a review's searches."""

    def cancel(self) -> None: ...


T = TypeVar("T")


class SearchSlots:
    """The advisor's running searches: `try_acquire` never waits (a call beyond
    the limit is refused as busy). Each slot has its thread."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.running = 0
        #: Reviews running (each in a slot counted in `running`).
        self.reviews = 0
        self._searches: set[Stoppable] = set()
        #: Set by `stop_all`: no search starts after the drain has cut the running ones short.
        self.stopped = False
        self._threads = ThreadPoolExecutor(max(1, limit), thread_name_prefix="regent-search")

    @property
    def review_limit(self) -> int:
        """Reviews that may run at once: half the slots (one at least)."""
        return max(1, self.limit // 2)

    def try_acquire_review(self) -> bool:
        """A slot for a review, if one is free and fewer than `review_limit` reviews run;
        `review_ended` gives the review's place back (the slot goes back by `ended`)."""
        if self.reviews >= self.review_limit or not self.try_acquire():
            return False
        self.reviews += 1
        return True

    def review_ended(self) -> None:
        self.reviews -= 1

    async def run(self, call: Callable[..., T], *args: object) -> T:
        """`call(*args)` on a slot's thread (the caller holds the slot)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, functools.partial(call, *args))

    @property
    def full(self) -> bool:
        """Every slot is taken: a call now would be refused."""
        return self.running >= self.limit

    def try_acquire(self) -> bool:
        if self.full or self.stopped:
            return False
        self.running += 1
        return True

    def release(self) -> None:
        self.running -= 1

    def stop_all(self) -> None:
        """Cut every running search short: each answers with its best so far (at shutdown).
        No slot is given after this."""
        self.stopped = True
        for search in self._searches:
            search.cancel()

    def track(self, search: Stoppable) -> None:
        """A search now running in a slot taken for it."""
        self._searches.add(search)

    def ended(self, search: Stoppable) -> None:
        """The search's thread has ended: its slot is free."""
        self._searches.discard(search)
        self.release()


S = TypeVar("S", bound=Stoppable)


def start_in_slot(slots: SearchSlots, make: Callable[[], S]) -> S:
    """The search `make` sets up, tracked in the slot the caller has taken (the slot is
    given back if it cannot start)."""
    try:
        search = make()
    except BaseException:
        slots.release()
        raise
    slots.track(search)
    return search


async def _finish(search: Search, worker: Awaitable[object]) -> None:
    """Stop a search and wait for its thread to end (milliseconds: the core looks
    at the cancel flag every few hundred simulated actions)."""
    search.cancel()
    await asyncio.shield(worker)


def advance_until(search: Search, stop_by: float | None, seconds: float = 0.0) -> bool:
    """`search.advance(seconds)`, stopping by the monotonic time `stop_by` (if any) however
    long the thread waited to start: a call's deadline counts from the call, not the thread."""
    if stop_by is not None:
        search.stop_within(max(MIN_SEARCH_SECONDS, stop_by - time.monotonic()))
    return search.advance(seconds)


async def run_to_end(
    state: State, config: SearchConfig, slots: SearchSlots, stop_by: float | None = None
) -> SearchResult:
    """Run a whole search in a worker thread, in a slot the caller has taken, to its budget
    or the monotonic time `stop_by`; a cancelled caller cancels it. The slot is given back
    once the thread has ended."""
    search = start_in_slot(slots, lambda: Search(state, config))
    worker = asyncio.ensure_future(slots.run(advance_until, search, stop_by))
    try:
        await asyncio.shield(worker)
    except asyncio.CancelledError:
        await _finish(search, worker)
        raise
    finally:
        slots.ended(search)
    return search.result()


async def run_in_slices(
    state: State,
    config: SearchConfig,
    interval: float,
    slots: SearchSlots,
    stop_by: float | None = None,
) -> AsyncIterator[tuple[SearchResult, bool]]:
    """Yield (result so far, finished) about every `interval` seconds until the
    budget is spent or the monotonic time `stop_by`. The search runs on by itself: a
    reader that falls behind gets the newest report only (the ones it missed are
    dropped), and one that never reads holds nothing past the budget. The slot the
    caller has taken is given back when the search ends; closing or cancelling the
    iterator stops it."""
    search = start_in_slot(slots, lambda: Search(state, config))
    newest: list[tuple[SearchResult, bool]] = []
    news = asyncio.Event()

    async def drive() -> None:
        try:
            while True:
                finished = await slots.run(advance_until, search, stop_by, interval)
                newest[:] = [(search.result(), finished)]
                news.set()
                if finished:
                    return
        except asyncio.CancelledError:
            search.cancel()
            raise
        finally:
            slots.ended(search)

    driver = asyncio.create_task(drive())
    try:
        while True:
            await news.wait()
            news.clear()
            item = newest.pop()
            yield item
            if item[1]:
                return
    finally:
        if not driver.done():
            search.cancel()
            await asyncio.shield(driver)
