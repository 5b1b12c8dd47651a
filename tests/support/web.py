"""The hint page's gateway on a real socket for the tests: `GatewayThread` runs one on its own
event loop in a background thread, in front of a server's address, and `http` sends it one
request with the standard library; `ANSWERED` is the page's mark that its legal moves are
the answer for the position drawn last, and `set_up_by_hand` goes past its first screen (for
the browser tests)."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from typing import Any

from clients.web.gateway import Gateway
from clients.web.guard import WebOptions

#: True once the legal moves shown are the answer for the position drawn last (the page marks
#: which render its answer is for, so a slow answer to an earlier position is not taken).
ANSWERED = (
    "document.getElementById('legal').dataset.checked"
    " === document.getElementById('legal').dataset.rendered"
)


def set_up_by_hand(page: Any, game: str | None = None, players: int | None = None) -> None:
    """Past the page's first screen (it shows on a first visit) as a person who sets the
    position up by hand: the game and the players chosen there, then "Set up a position by
    hand"."""
    page.wait_for_selector("#start-dialog[open]")
    if game is not None:
        page.check(f"#start-game-{game}")
    if players is not None:
        page.select_option("#start-players", str(players))
    page.click("#start-blank")
    page.wait_for_selector("#start-dialog:not([open])", state="attached")


class GatewayThread:
    """A Gateway on its own event loop in a background thread, in front of `target`;
    `url` reaches it over loopback."""

    def __init__(
        self, target: str, options: WebOptions | None = None, address: str = "127.0.0.1:0"
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.gateway = self.make(target, options)
        self._run(self.gateway.start(address))
        self.port = int(self.gateway.address.rpartition(":")[2])
        self.url = f"http://127.0.0.1:{self.port}"

    def make(self, target: str, options: WebOptions | None) -> Gateway:
        """The gateway to run (a test may run one with a route of its own)."""
        return Gateway(target, options)

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def stop(self) -> None:
        self._run(self.gateway.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


class Answer:
    """An HTTP answer: status, headers and the body (parsed when it is JSON)."""

    def __init__(self, status: int, headers: Any, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.raw = body
        try:
            self.json = json.loads(body)
        except ValueError:
            self.json = None


def http(
    url: str,
    body: Any = None,
    method: str | None = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request with the standard library: a dict body goes as JSON, `raw` as it is;
    `headers` add to (or replace) the JSON Content-Type."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as err:
        return Answer(err.code, err.headers, err.read())
