"""`regent serve` with its hint page, `--no-web`, and `regent web --server`, as processes."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.clients.test_cli import ENV, ROOT, Serve, regent
from tests.server.conftest import RunningServer
from tests.web.conftest import http


def test_serve_serves_the_page_too() -> None:
    served = Serve()
    try:
        url = served.wait_for(r"hint page on (http://\S+)/").group(1)
        assert http(url + "/").status == 200
        games = http(url + "/api/games")
        assert games.status == 200 and games.json["games"][0]["name"] == "royal_cities"
    finally:
        assert served.stop() == 0, "\n".join(served.log)


def test_serve_without_the_page() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "serve", "--address", "127.0.0.1:0", "--no-web",
         "--db", ":memory:"],
        cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        # The first lines: where hosted matches are kept, then the address.
        line = process.stderr.readline() + process.stderr.readline()
        assert "serving on" in line
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=20)
    assert process.returncode == 0
    assert "hint page" not in line + rest


def test_web_against_a_running_service(service: RunningServer) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "web", "--server", service.address,
         "--web-address", "127.0.0.1:0"],
        cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        found = re.search(r"hint page on (http://\S+)/", process.stderr.readline())
        assert found, "regent web logs where the page is"
        answer = http(found.group(1) + "/api/legal-moves", {"observation": {}})
        assert answer.status == 400, "the service behind answered"
    finally:
        process.terminate()
        process.communicate(timeout=20)
    assert process.returncode == 0


def test_web_refuses_a_bad_address() -> None:
    result = regent("web", "--web-address", "nowhere")
    assert result.returncode == 1
    assert "HOST:PORT" in result.stderr
