"""The gateway on a network: other sites' requests (CSRF), foreign Host headers (DNS
rebinding), the security headers, the access token, hostile bodies, failures that stay in the
log, and slow clients cut off while others are served. A real gateway in front of a real
server, raw HTTP where a client library would be too polite."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp import web as aioweb

from clients.web.gateway import DRAIN_SECONDS, LINGER, Gateway, static_folder
from clients.web.guard import WebOptions
from tests.support.server import RunningServer
from tests.support.web import GatewayThread, http
from tests.timing import SLACK

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "examples/royal-cities-2p.json").read_text()
)
RECOMMEND = {"observation": EXAMPLE, "budget": {"iterations": 300, "threads": 1}}
TOKEN = "a-test-token-0123456789"
EVIL = "http://evil.example"


def _code(answer) -> str:
    return answer.json["error"]["code"]


# -- other sites --------------------------------------------------------------------------


def test_other_sites_cannot_post(web: GatewayThread, service: RunningServer) -> None:
    """A page elsewhere can send a text/plain POST without asking (a "simple" request) and a
    JSON POST after a preflight: both are refused, and the service hears of neither."""
    received = service.server.calls.received
    before = received.copy()
    body = json.dumps(RECOMMEND).encode()
    for route in ("/api/recommend", "/api/apply-move"):
        plain = http(
            web.url + route, raw=body, headers={"Content-Type": "text/plain", "Origin": EVIL}
        )
        assert plain.status == 403 and _code(plain) == "FORBIDDEN_ORIGIN"
        posted = http(web.url + route, raw=body, headers={"Origin": EVIL})
        assert posted.status == 403 and _code(posted) == "FORBIDDEN_ORIGIN"
        assert "evil" not in plain.raw.decode() + posted.raw.decode()
    # An old browser that sends no Origin: the body must still be JSON.
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        answer = http(web.url + "/api/recommend", raw=body, headers={"Content-Type": kind})
        assert answer.status == 415 and _code(answer) == "UNSUPPORTED_MEDIA_TYPE"
        assert answer.json["error"]["fields"] == []
    preflight = http(web.url + "/api/recommend", method="OPTIONS", headers={"Origin": EVIL})
    assert preflight.status == 403 and "Access-Control-Allow-Origin" not in preflight.headers
    recommend, apply_move = (f"/regent.v1.AdvisorService/{m}" for m in ("Recommend", "ApplyMove"))
    assert received[recommend] == before[recommend]
    assert received[apply_move] == before[apply_move]
    assert http(web.url + "/api/recommend", RECOMMEND).status == 200  # what the count would show
    assert received[recommend] == before[recommend] + 1


def test_the_page_itself_may_post(web: GatewayThread) -> None:
    """Its own origin, and JSON with parameters in its Content-Type."""
    own = {"Origin": web.url, "Content-Type": "application/json; charset=utf-8"}
    answer = http(web.url + "/api/legal-moves", {"observation": EXAMPLE}, headers=own)
    assert answer.status == 200 and answer.json["moves"]
    https = http(web.url + "/api/games", headers={"Origin": web.url.replace("http", "https")})
    assert https.status == 403


# -- Host headers ---------------------------------------------------------------------------


def test_a_foreign_host_is_refused(web: GatewayThread) -> None:
    """A name that an attacker's DNS points at 127.0.0.1 is not this page's name."""
    for host in (f"evil.example:{web.port}", "evil.example", f"127.0.0.1:{web.port + 1}", ""):
        answer = http(web.url + "/api/games", headers={"Host": host})
        assert answer.status == 403, host
        assert _code(answer) == "FORBIDDEN_HOST"
        assert "evil" not in answer.raw.decode()
    page = http(web.url + "/", headers={"Host": f"evil.example:{web.port}"})
    assert page.status == 403 and b"<html" not in page.raw
    for host in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]"):
        answer = http(web.url + "/api/games", headers={"Host": f"{host}:{web.port}"})
        assert answer.status == 200, host


def test_on_all_addresses_this_machines_names_and_the_operators(service: RunningServer) -> None:
    options = WebOptions(hosts=("table.lan", "192.168.7.7"))
    gateway = GatewayThread(service.address, options, address="0.0.0.0:0")
    try:
        token = {"Authorization": f"Bearer {gateway.gateway.access.token}"}
        for host in ("table.lan", "TABLE.LAN", "192.168.7.7", "localhost", "127.0.0.1"):
            headers = {**token, "Host": f"{host}:{gateway.port}"}
            assert http(gateway.url + "/api/games", headers=headers).status == 200, host
        headers = {**token, "Host": f"other.lan:{gateway.port}"}
        assert http(gateway.url + "/api/games", headers=headers).status == 403
        assert urlsplit(gateway.gateway.access.url).hostname == "table.lan"
    finally:
        gateway.stop()


# -- headers on every answer ------------------------------------------------------------------


def test_every_answer_carries_the_security_headers(web: GatewayThread) -> None:
    answers = {
        "page": http(web.url + "/"),
        "script": http(web.url + "/static/js/app.js"),
        "api": http(web.url + "/api/games"),
        "api error": http(web.url + "/api/nothing", {}),
        "refusal": http(web.url + "/api/games", headers={"Origin": EVIL}),
    }
    for name, answer in answers.items():
        headers = answer.headers
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, name
        assert "script-src 'self';" in csp and "style-src 'self';" in csp, name
        assert "unsafe" not in csp, name
        assert headers["X-Frame-Options"] == "DENY", name
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert headers["Referrer-Policy"] == "no-referrer", name
        api = name.startswith("api") or name == "refusal"
        assert (headers.get("Cache-Control") == "no-store") == api, name


def test_the_page_has_no_inline_script_or_style() -> None:
    """The CSP refuses them: every script and style is a file of its own."""
    html = (static_folder() / "index.html").read_text()
    assert "<style" not in html and " style=" not in html
    assert all('src="' in tag for tag in re.findall(r"<script[^>]*>", html))
    assert not re.search(r"<script[^>]*>[^<]", html)
    assert not re.search(r"\son[a-z]+=", html)  # no onclick="..." handlers
    for module in (static_folder() / "js").rglob("*.js"):
        text = module.read_text()
        assert not re.search(r"""["']?style["']?\s*:""", text), module  # el(..., {style})
        assert 'setAttribute("style"' not in text and "innerHTML" not in text, module


# -- the access token -------------------------------------------------------------------------


def test_a_token_on_loopback(service: RunningServer) -> None:
    gateway = GatewayThread(service.address, WebOptions(token=TOKEN))
    try:
        assert gateway.gateway.access.url == f"http://127.0.0.1:{gateway.port}/?token={TOKEN}"
        wrong = ("", "Bearer wrong-token", TOKEN, f"Basic {TOKEN}", "Bearer é", "Bearer")
        for headers in [{"Authorization": given} if given else {} for given in wrong]:
            answer = http(gateway.url + "/api/games", headers=headers)
            assert answer.status == 401, headers
            assert _code(answer) == "UNAUTHENTICATED"
            assert answer.headers["WWW-Authenticate"] == "Bearer"
            assert TOKEN not in answer.raw.decode()
        answer = http(gateway.url + "/api/games", headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status == 200
        bearer = {"Authorization": f"bearer {TOKEN}"}
        posted = http(gateway.url + "/api/legal-moves", {"observation": EXAMPLE}, headers=bearer)
        assert posted.status == 200
        # The page's files are no secret: the page reads the token from its address.
        assert http(gateway.url + "/").status == 200
        assert http(gateway.url + "/static/js/api.js").status == 200
    finally:
        gateway.stop()


def test_beyond_loopback_a_token_is_made(service: RunningServer) -> None:
    gateway = GatewayThread(service.address, address="0.0.0.0:0")
    try:
        access = gateway.gateway.access
        assert access.exposed and len(access.token) >= 32
        url = urlsplit(access.url)
        assert url.port == gateway.port and parse_qs(url.query) == {"token": [access.token]}
        assert http(gateway.url + "/api/games").status == 401
        # The printed address names a host the gateway accepts.
        headers = {"Host": url.netloc, "Authorization": f"Bearer {access.token}"}
        assert http(gateway.url + "/api/games", headers=headers).status == 200
    finally:
        gateway.stop()


def test_loopback_needs_no_token(web: GatewayThread) -> None:
    assert web.gateway.access.token is None and not web.gateway.access.exposed
    assert http(web.url + "/api/games").status == 200


# -- hostile bodies and failures ---------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [b"[" * 100_000, b'{"observation": ' * 5_000 + b"{}" + b"}" * 5_000,
     b'{"a": ' + b"[" * 500 + b"]" * 500 + b"}"],
    ids=["100k-lists", "5k-objects", "500-levels"],
)  # fmt: skip
def test_deeply_nested_json_is_400(web: GatewayThread, raw: bytes) -> None:
    answer = http(web.url + "/api/legal-moves", raw=raw, method="POST")
    assert answer.status == 400
    assert answer.json["error"]["code"] == "INVALID_ARGUMENT"
    assert answer.json["error"]["fields"][0]["field"] == "body"
    assert "deeper than" in answer.json["error"]["message"]


class FailingGateway(GatewayThread):
    """A gateway with one more route, which fails the way a bug would."""

    def make(self, target: str, options: WebOptions | None) -> Gateway:
        gateway = Gateway(target, options)
        build = gateway.app

        def app() -> aioweb.Application:
            made = build()
            made.router.add_post("/api/fail", self.fail)
            return made

        gateway.app = app  # type: ignore[method-assign]
        return gateway

    async def fail(self, request: aioweb.Request) -> aioweb.Response:
        body = await request.text()
        raise RuntimeError(f"a bug that quotes the request: {body}")


def test_an_unexpected_failure_is_a_json_500_without_details(
    service: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    gateway = FailingGateway(service.address)
    try:
        answer = http(gateway.url + "/api/fail", raw=b'{"secret": "the hand"}', method="POST")
    finally:
        gateway.stop()
    assert answer.status == 500
    assert answer.json["error"]["code"] == "INTERNAL"
    text = answer.raw.decode()
    assert "secret" not in text and "Traceback" not in text and "RuntimeError" not in text
    assert any("POST /api/fail failed" in r.getMessage() for r in caplog.records)


# -- slow clients --------------------------------------------------------------------------------

#: The test gateway's limits: a second for the headers, a second for the body.
SLOW = WebOptions(header_timeout=1.0, body_timeout=1.0)


async def _slowly(writer: asyncio.StreamWriter, data: bytes, pause: float) -> None:
    for i in range(len(data)):
        writer.write(data[i : i + 1])
        await writer.drain()
        await asyncio.sleep(pause)


async def _cut_off_after(
    port: int, head: bytes, slow: bytes, connected: threading.Event, read_after: float = 0.0
) -> tuple[float, bytes]:
    """Connect (then set `connected`), send `head` at once, then `slow` a byte every 0.1 s,
    reading from `read_after` seconds on (a loaded client reads late); the seconds until the
    gateway closes the connection, and what it answered before. A reset counts as the close:
    a client too slow to read the gateway's close (a loaded host) sends it more bytes, which
    the closed socket answers with a reset."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    start = time.monotonic()
    connected.set()
    writer.write(head)
    trickle = asyncio.create_task(_slowly(writer, slow, 0.1))
    await asyncio.sleep(read_after)
    answer = bytearray()
    try:
        while chunk := await asyncio.wait_for(reader.read(1 << 16), timeout=10):
            answer += chunk
    except ConnectionResetError:
        pass
    finally:
        trickle.cancel()
        writer.close()
    return time.monotonic() - start, bytes(answer)


def _served_meanwhile(url: str, connected: threading.Event) -> int:
    """Requests answered in the 0.8 s after a slow client connected, while it held its
    connection (the gateway gives it a second)."""
    assert connected.wait(SLACK), "the slow client did not connect"
    served, deadline = 0, time.monotonic() + 0.8
    while time.monotonic() < deadline:
        assert http(url + "/api/games").status == 200
        served += time.monotonic() < deadline
        time.sleep(0.05)
    return served


@pytest.fixture(scope="module")
def strict(service: RunningServer) -> Iterator[GatewayThread]:
    gateway = GatewayThread(service.address, SLOW)
    yield gateway
    gateway.stop()


@pytest.mark.timing
def test_headers_sent_byte_by_byte_are_cut_off(strict: GatewayThread) -> None:
    """A client that never finishes its headers is dropped after header_timeout, counted
    from the connection (give or take a loaded host's waits); others are served meanwhile."""
    head = f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{strict.port}\r\nX-Wait: ".encode()
    connected = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        trickle = head + b"a" * 50
        slow = pool.submit(asyncio.run, _cut_off_after(strict.port, b"", trickle, connected))
        served = _served_meanwhile(strict.url, connected)
        seconds, answer = slow.result()
    assert served >= 1
    assert answer == b""
    assert SLOW.header_timeout - 0.25 < seconds < SLOW.header_timeout + SLACK


@pytest.mark.timing
def test_a_body_sent_byte_by_byte_is_cut_off(strict: GatewayThread) -> None:
    """A client whose body trickles in gets 408 after body_timeout, and the connection ends;
    others are served meanwhile."""
    head = (
        f"POST /api/legal-moves HTTP/1.1\r\nHost: 127.0.0.1:{strict.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n"
    ).encode()
    connected = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        slow = pool.submit(asyncio.run, _cut_off_after(strict.port, head, b" " * 200, connected))
        served = _served_meanwhile(strict.url, connected)
        seconds, answer = slow.result()
    assert served >= 1
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout"
    error = json.loads(rest.partition(b"\r\n\r\n")[2])["error"]
    assert error["code"] == "REQUEST_TIMEOUT" and "1 s" in error["message"]
    assert SLOW.body_timeout - 0.25 < seconds < SLOW.body_timeout + SLACK


@pytest.mark.timing
def test_a_client_that_reads_its_408_late_still_gets_it(strict: GatewayThread) -> None:
    """A loaded client reads long after the gateway answered 408 (past aiohttp's LINGER),
    its body still trickling in meanwhile: it gets the answer and the connection's end, not
    a reset that would discard the answer (the gateway ends its side of the stream first,
    and reads and drops what still comes, DRAIN_SECONDS at most, until the client closes)."""
    head = (
        f"POST /api/legal-moves HTTP/1.1\r\nHost: 127.0.0.1:{strict.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n"
    ).encode()
    late = SLOW.body_timeout + LINGER + 1.0
    assert late + 2.0 < SLOW.body_timeout + DRAIN_SECONDS  # room for a loaded host's waits
    cut_off = _cut_off_after(strict.port, head, b" " * 200, threading.Event(), read_after=late)
    with ThreadPoolExecutor(1) as pool:  # a loop of its own: a browser test's may run here
        _, answer = pool.submit(asyncio.run, cut_off).result()
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout"
    assert json.loads(rest.partition(b"\r\n\r\n")[2])["error"]["code"] == "REQUEST_TIMEOUT"
