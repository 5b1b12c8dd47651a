"""The web tests' fixtures: the hint page's gateway on a real socket (tests/support/web.py), in
front of a real Regent server (tests/support/server.py), and a real headless Chromium
(Debian's /usr/bin/chromium driven by Playwright) for the page itself.

Screenshots of the browser tests go to tests/artifacts/web/ (git-ignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.limits import ServerLimits
from tests.support.server import RunningServer, serving
from tests.support.web import GatewayThread

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


@pytest.fixture(scope="session")
def service() -> Iterator[RunningServer]:
    with serving(LIMITS) as running:
        yield running


@pytest.fixture(scope="session")
def web(service: RunningServer) -> Iterator[GatewayThread]:
    gateway = GatewayThread(service.address)
    yield gateway
    gateway.stop()


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
