"""News of moves stored by any replica, from PostgreSQL's LISTEN/NOTIFY: each stored move
notifies its match's id (server/store.py), and one connection per replica listens, on a
thread of its own, so that watchers hear of moves made elsewhere without polling."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from server.store import NEWS_CHANNEL, Store

log = logging.getLogger("regent.server")

#: How often the listening thread looks whether it is to stop (seconds).
_STOP_CHECK = 0.5
#: The wait before listening again after the connection failed.
_RETRY = 1.0


class News:
    """Calls `heard(match_id)` from its thread for each move stored, and `heard(None)`
    once listening (again): news may have been missed before."""

    def __init__(self, store: Store, heard: Callable[[str | None], None]) -> None:
        self.store = store
        self.heard = heard
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="regent-news", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """The thread ends within `_STOP_CHECK` seconds (it is a daemon: nothing waits)."""
        self._stopping.set()

    def _run(self) -> None:
        import psycopg  # PostgreSQL's driver, the postgresql extra: SQLite serves without it

        while not self._stopping.is_set():
            try:
                with self.store.listener() as conn:
                    conn.execute(f"LISTEN {NEWS_CHANNEL}")
                    self.heard(None)
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=_STOP_CHECK):
                            if not self._stopping.is_set():
                                self.heard(note.payload)
            except (psycopg.Error, OSError) as err:
                log.warning("hosted matches: news from the database lost: %s", type(err).__name__)
                self._stopping.wait(_RETRY)
