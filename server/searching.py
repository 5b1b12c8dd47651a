"""Searches for the service: at most `max_searches` at once, each off the event
loop on threads that release the GIL, stopped when their call is cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from engine.interface import State
from search.search import Search, SearchConfig, SearchResult


class SearchSlots:
    """A count of running searches: `try_acquire` never waits (calls beyond the
    limit are refused), `acquire` waits (for the hosted bots)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.running = 0
        self._free = asyncio.Condition()

    def try_acquire(self) -> bool:
        if self.running >= self.limit:
            return False
        self.running += 1
        return True

    async def acquire(self) -> None:
        async with self._free:
            await self._free.wait_for(lambda: self.running < self.limit)
            self.running += 1

    async def release(self) -> None:
        async with self._free:
            self.running -= 1
            self._free.notify_all()


async def run_to_end(state: State, config: SearchConfig) -> SearchResult:
    """Run a whole search in a worker thread; a cancelled caller cancels it."""
    search = Search(state, config)
    try:
        await asyncio.to_thread(search.advance)
    except asyncio.CancelledError:
        search.cancel()
        raise
    return search.result()


async def run_in_slices(
    state: State, config: SearchConfig, interval: float
) -> AsyncIterator[tuple[SearchResult, bool]]:
    """Yield (result so far, finished) every `interval` seconds until the budget
    is spent; closing or cancelling the iterator stops the search."""
    search = Search(state, config)
    try:
        while True:
            finished = await asyncio.to_thread(search.advance, interval)
            yield search.result(), finished
            if finished:
                return
    finally:
        search.cancel()
