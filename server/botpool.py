"""The hosted bots' own searches, apart from the advisor's: at most `size` at once, granted
first come first served so that matches take turns, each stoppable at shutdown. They run on
the pool's own `size` threads, never asyncio's default executor, so that they cannot hold
up the service's other work, nor it them."""

from __future__ import annotations

import asyncio
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from engine.interface import State
from search.bots import Bot, forced_move
from search.ismcts import CancelToken


class BotPool:
    """A FIFO of bot moves waiting for one of `size` slots."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._tokens: set[CancelToken] = set()
        self._threads = ThreadPoolExecutor(max(1, size), thread_name_prefix="regent-bot")

    @property
    def queued(self) -> int:
        """Bot moves waiting for a slot."""
        return len(self._waiting)

    async def choose(self, bot: Bot, state: State, seed: int) -> int:
        """The bot's move, searched in a worker thread once a slot is free; cancelling the
        caller stops the search. A move with no choice takes no slot and no search."""
        loop = asyncio.get_running_loop()
        forced = forced_move(state)
        if forced is not None:
            return forced
        await self._acquire()
        token = CancelToken()
        self._tokens.add(token)
        try:
            return await loop.run_in_executor(self._threads, bot.choose, state, seed, token)
        finally:
            token.cancel()  # a no-op once the search is over; stops it if we were cancelled
            self._tokens.discard(token)
            self._release()

    def stop(self) -> None:
        """Raise the tokens of every running search: each answers within milliseconds."""
        for token in self._tokens:
            token.cancel()

    def shutdown(self) -> None:
        """Let the pool's threads end once their searches have (after `stop`)."""
        self._threads.shutdown(wait=False)

    async def _acquire(self) -> None:
        if self.running < self.size and not self._waiting:
            self.running += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot came with the cancellation: pass it on
            elif turn in self._waiting:
                self._waiting.remove(turn)
            raise

    def _release(self) -> None:
        """Hand the slot to the first waiter, or free it."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.running -= 1
