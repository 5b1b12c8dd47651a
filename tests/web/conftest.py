"""The hint page's gateway on a real socket, in front of a real Regent server, and a real
headless Chromium (Debian's /usr/bin/chromium driven by Playwright) for the page itself.

Screenshots of the browser tests go to tests/artifacts/web/ (git-ignored).
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.web.gateway import Gateway
from clients.web.guard import WebOptions
from server.limits import ServerLimits
from tests.support.server import RunningServer

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
#: Without these, Chromium in a closed network waits on connections it cannot make.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Two searches at once: enough for the tests, and a busy server is easy to provoke.
LIMITS = ServerLimits(max_searches=2, max_threads=1, max_iterations=200_000)
#: True once the legal moves shown are the answer for the position drawn last (the page marks
#: which render its answer is for, so a slow answer to an earlier position is not taken).
ANSWERED = (
    "document.getElementById('legal').dataset.checked"
    " === document.getElementById('legal').dataset.rendered"
)


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


@pytest.fixture(scope="session")
def service() -> Iterator[RunningServer]:
    with RunningServer(limits=LIMITS) as running:
        yield running


@pytest.fixture(scope="session")
def web(service: RunningServer) -> Iterator[GatewayThread]:
    gateway = GatewayThread(service.address)
    yield gateway
    gateway.stop()


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


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {ARTIFACTS}")
    return ARTIFACTS


__all__ = ["CHROMIUM", "Answer", "GatewayThread", "http"]
