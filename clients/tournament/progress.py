"""How far a tournament is, on stderr: a tqdm bar (games, rate, ETA) on a terminal; elsewhere
(a log file, CI, `nohup`) a line at every tenth of the games and at least every
`LINE_SECONDS`, so a long run shows it is alive without filling its log. Either way a game
that a failure ended gets a line of its own as it is recorded."""

from __future__ import annotations

import math
import time
from typing import Any, TextIO

from tqdm import tqdm

#: The longest a log goes without a progress line while games end, in seconds.
LINE_SECONDS = 30.0


def failure_line(game: dict[str, Any]) -> str:
    """One line about a game a failure ended: which, whose, why, and what it counts for."""
    failure = game["failure"]
    if failure["bot"] is None:
        return f"game {game['index']}: {failure['message']}; it counts for no bot"
    return (f"game {game['index']}: {failure['bot']} (seat {failure['seat']}) "
            f"{failure['reason']}: {failure['message']}; a loss for {failure['bot']}")  # fmt: skip


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


class Progress:
    """Progress of `total` games of which `done` were recorded before, written to `stream`
    (nothing when None); a bar when the stream is a terminal."""

    def __init__(self, total: int, done: int, stream: TextIO | None) -> None:
        self.total, self.done, self.stream = total, done, stream
        self.failed = 0
        self._start = time.monotonic()
        self._first = done
        self._last_line = self._start
        self._step = max(1, math.ceil(total / 10))
        self._bar = None
        if stream is not None and stream.isatty():
            self._bar = tqdm(total=total, initial=done, unit="game", file=stream,
                             dynamic_ncols=True)  # fmt: skip

    def game(self, game: dict[str, Any]) -> None:
        """Count a recorded game."""
        self.done += 1
        if "failure" in game:
            self.failed += 1
            self._write(f"regent tournament: {failure_line(game)}")
        if self._bar is not None:
            self._bar.update()
            return
        now = time.monotonic()
        due = self.done % self._step == 0 or self.done == self.total
        if due or now - self._last_line >= LINE_SECONDS:
            self._last_line = now
            self._write(self.line(now))

    def line(self, now: float) -> str:
        """`40/400 games (10%), 1.3 games/s, about 4m37s left`, and the failures so far."""
        text = f"regent tournament: {self.done}/{self.total} games ({self.done / self.total:.0%})"
        played, elapsed = self.done - self._first, now - self._start
        if played and elapsed > 0:
            rate = played / elapsed
            text += f", {rate:.2g} games/s"
            if self.done < self.total:
                text += f", about {_duration((self.total - self.done) / rate)} left"
        if self.failed:
            text += f"; {self.failed} ended by a failure"
        return text

    def _write(self, text: str) -> None:
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        elif self.stream is not None:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
