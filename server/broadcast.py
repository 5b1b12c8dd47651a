"""One broadcaster for the hosted matches' watchers: a move is stored, then published once;
each watcher has a bounded backlog of moves published and not yet sent. Publishing never
waits: a watcher whose backlog is full is dropped (its stream ends, to watch again), so a
slow or stuck client never holds up its match. No lock is held while a watcher waits, so
a stream cancelled at any moment leaves nothing behind; a watcher costs nothing while its
match is quiet (no polling: moves made by another replica arrive as news, see
server/news.py)."""

from __future__ import annotations

import asyncio

from server.match import Match
from server.status import Rejected, resource_exhausted


class Watcher:
    """One Watch stream's place in its match: how far it has sent, and a wake-up."""

    def __init__(self, match: Match, backlog: int) -> None:
        self.match = match
        self.backlog = backlog
        #: Events sent (or passed over as unseen) so far.
        self.sent = 0
        #: Events the match had when the stream began: its history, not its backlog.
        self.joined = len(match.events)
        self.dropped = False
        self._wake = asyncio.Event()

    def offer(self) -> None:
        """The match has a new event (or ended, or the server drains): wake the stream,
        or drop it if it is too far behind."""
        if len(self.match.events) - max(self.sent, self.joined) > self.backlog:
            self.dropped = True
        self._wake.set()

    async def wait(self) -> None:
        """Until something is offered (cancellation-safe: no lock is held)."""
        await self._wake.wait()
        self._wake.clear()


class Watchers:
    """Every watcher of this server, by match, within the caps of `per_match` and `total`."""

    def __init__(self, per_match: int, total: int, backlog: int) -> None:
        self.per_match = per_match
        self.total = total
        self.backlog = backlog
        self.count = 0
        self._by_match: dict[str, set[Watcher]] = {}

    def join(self, match: Match) -> Watcher:
        """A new watcher of `match`; RESOURCE_EXHAUSTED past a cap."""
        watching = self._by_match.get(match.id, set())
        if len(watching) >= self.per_match:
            reason = "this match has its limit of {count} watchers; retry later"
            raise Rejected(resource_exhausted("match_id", reason, count=self.per_match))
        if self.count >= self.total:
            reason = "the server has its limit of {count} watchers; retry later"
            raise Rejected(resource_exhausted("match_id", reason, count=self.total))
        watcher = Watcher(match, self.backlog)
        self._by_match.setdefault(match.id, watching).add(watcher)
        self.count += 1
        return watcher

    def leave(self, watcher: Watcher) -> None:
        watching = self._by_match.get(watcher.match.id)
        if watching is None or watcher not in watching:
            return
        watching.discard(watcher)
        self.count -= 1
        if not watching:
            del self._by_match[watcher.match.id]

    def watched(self, match_id: str) -> bool:
        return match_id in self._by_match

    def watched_ids(self) -> list[str]:
        return list(self._by_match)

    def publish(self, match: Match) -> None:
        """Tell the match's watchers it has changed: constant work each, never a wait."""
        for watcher in self._by_match.get(match.id, ()):
            watcher.offer()

    def wake_all(self) -> None:
        """Wake every watcher (at a drain: each sees it and ends)."""
        for watching in self._by_match.values():
            for watcher in watching:
                watcher.offer()
