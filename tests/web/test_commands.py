"""`regent serve` with its hint page, `--no-web`, and `regent web --server`, as processes;
beyond loopback, the warning and the address with the access token."""

from __future__ import annotations

import re
import subprocess
from urllib.parse import parse_qs, urlsplit

from tests.clients.test_cli import Serve
from tests.commands import ENV, REGENT, ROOT, regent
from tests.support.server import RunningServer
from tests.support.web import http


def test_serve_serves_the_page_too() -> None:
    served = Serve()
    try:
        url = served.wait_for(r"hint page on (http://\S+)/").group(1)
        assert http(url + "/").status == 200
        games = http(url + "/api/games")
        assert games.status == 200 and "royal_cities" in [g["name"] for g in games.json["games"]]
    finally:
        assert served.stop() == 0, "\n".join(served.log)


def test_serve_without_the_page() -> None:
    process = subprocess.Popen(
        [*REGENT, "serve", "--address", "127.0.0.1:0", "--no-web",
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
        [*REGENT, "web", "--server", service.address,
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


def test_serve_beyond_loopback_warns_and_prints_the_address_with_its_token() -> None:
    served = Serve("--web-address", "0.0.0.0:0", "--web-host", "table.lan")
    try:
        url = urlsplit(served.wait_for(r"hint page with its token: (http://\S+)").group(1))
        token = parse_qs(url.query)["token"][0]
        assert url.hostname == "table.lan" and len(token) >= 32
        assert any("WARNING" in line and "beyond this machine" in line for line in served.log)
        local = f"http://127.0.0.1:{url.port}"
        assert http(local + "/api/games").status == 401
        # As the phone would ask: the printed host, and the token the page took from it.
        asked = {"Host": url.netloc, "Authorization": f"Bearer {token}"}
        answer = http(local + "/api/games", headers=asked)
        assert answer.status == 200 and answer.json["games"]
        assert http(local + "/api/games", headers={**asked, "Host": "evil.example"}).status == 403
    finally:
        assert served.stop() == 0, "\n".join(served.log)
    assert sum(token in line for line in served.log) == 1, "the token is printed once"


def test_web_takes_a_token_and_host_names(service: RunningServer) -> None:
    process = subprocess.Popen(
        [*REGENT, "web", "--server", service.address,
         "--web-address", "127.0.0.1:0", "--web-token", "table-token-42",
         "--web-host", "Table.LAN", "--web-host", "10.1.2.3"],
        cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline(), process.stderr.readline()]
        found = re.search(r"hint page with its token: (http://\S+)", "".join(lines))
        assert found, lines
        url = urlsplit(found.group(1))
        assert url.hostname == "table.lan" and url.query == "token=table-token-42"
        local = f"http://127.0.0.1:{url.port}/api/games"
        bearer = {"Authorization": "Bearer table-token-42"}
        assert http(local).status == 401, "on loopback too, once a token is given"
        for host in (url.netloc, f"10.1.2.3:{url.port}", f"localhost:{url.port}"):
            assert http(local, headers={**bearer, "Host": host}).status == 200, host
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=20)
    assert process.returncode == 0
    assert "WARNING" not in "".join(lines) + rest


def test_web_refuses_a_bad_token_or_host_name() -> None:
    result = regent("web", "--web-token", "short")
    assert result.returncode == 2 and "8 to 200" in result.stderr
    result = regent("serve", "--web-host", "table.lan:8080")
    assert result.returncode == 2 and "without a port" in result.stderr
