"""The hint page's HTTP/JSON gateway: the page's files, and one POST route per AdvisorService
call, forwarded over a grpc.aio channel.

Bodies are the calls' request messages in protobuf's JSON mapping, answers their responses
(field names as in the .proto files, enums by name). `/api/analyze` streams one JSON line per
report, `/api/review` one per progress message and then the review; a browser that stops
reading (aborts the fetch) cancels the gRPC call, which frees the search. Errors are
`{"error": {"code", "message", "fields": [{"field", "description"}]}}` with the HTTP status
of the gRPC code: the fields of an INVALID_ARGUMENT come from its google.rpc.BadRequest, so
the page can say what is wrong and where. The refusal's wording (the service's ErrorInfo:
an English `template` and its `params`, see engine.errors) comes with it, in the one field
it blames or, when it blames none, beside the message, so that the page words it in its
own language. `/api/observation` calls nothing: it reads an
observation in either form of protobuf's JSON mapping (the .proto field names or
lowerCamelCase, enums by name or number) and answers it in the page's form, so the page
imports any file a protobuf library wrote. `/api/deal` calls nothing either: a new game's
observation at the deal for the page's first screen (clients/web/deal.py).

Before a handler runs, `guard.refusal` checks the Host, the Origin, the access token and the
Content-Type; every answer carries `guard.SECURITY_HEADERS`. A client gets
`WebOptions.header_timeout` seconds from connecting (or from its last answer) to send a
request's headers, and `body_timeout` to send its body; an answer given before the body has
all arrived ends the connection without a reset (`_hang_up`), so the client reads it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import json
import logging
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import grpc
from aiohttp import StreamReader, web
from google.protobuf import json_format, message_factory
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from clients.web import guard
from clients.web.deal import BadDeal, deal
from clients.web.guard import Access, Refused, WebOptions
from engine.errors import WORDING_DOMAIN, Wording, worded
from engine.resources import package_folder
from regent.v1 import advisor_pb2, advisor_pb2_grpc

log = logging.getLogger("regent.web")

#: The page's files (HTML, CSS, JavaScript modules), found through importlib.resources.
STATIC = package_folder("clients.web", "static")
#: Keeps the page's files on disk while the process lives (see static_folder).
_ON_DISK = contextlib.ExitStack()
#: The longest request body accepted: an observation is a few kilobytes.
MAX_BODY = 256 * 1024
#: Seconds a connection whose body went unread is drained before it closes. Closed at once,
#: the client's next bytes make the kernel reset it, which can discard the answer (a 408)
#: before the client reads it; short, so that a slow client is still cut off.
LINGER = 0.5
#: An answer given before its request's body had all arrived ends the connection politely
#: (`_hang_up`): what the client still sends is read and dropped, up to these many bytes and
#: seconds, while it reads the answer and closes.
DRAIN_BYTES = MAX_BODY
DRAIN_SECONDS = 5.0
#: HTTP status for each gRPC code the service returns; anything else is 502.
HTTP_STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}
#: Unary POST routes: path -> (request message, the stub's method name); GET /api/games too.
UNARY = {
    "/api/legal-moves": (advisor_pb2.LegalMovesRequest, "LegalMoves"),
    "/api/recommend": (advisor_pb2.RecommendRequest, "Recommend"),
    "/api/apply-move": (advisor_pb2.ApplyMoveRequest, "ApplyMove"),
    "/api/apply-observed-move": (advisor_pb2.ApplyObservedMoveRequest, "ApplyObservedMove"),
}
#: Streaming POST routes (JSON lines): path -> (request message, method name, timeout).
STREAMING = {
    "/api/analyze": (advisor_pb2.AnalyzeRequest, "Analyze", 120.0),
    "/api/review": (advisor_pb2.ReviewRequest, "Review", 1800.0),
}
#: How long a unary call may take (a Recommend's search included).
CALL_TIMEOUT = 120.0
#: The deepest nesting of arrays and objects a body may have: an observation needs about 8.
MAX_DEPTH = 32


class BadBody(Refused):
    """A request body that is no request message; `field` is its JSON path."""

    def __init__(self, field: str, reason: str | Wording) -> None:
        fields = [{"field": field, "description": str(reason), **_wording_json(reason)}]
        super().__init__(400, "INVALID_ARGUMENT", f"{field}: {reason}", fields)
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled (see engine.errors)."""
        return type(self), (self.field, self.reason), self.__dict__


def error_response(
    status: int,
    code: str,
    message: str,
    fields: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
    wording: Wording | None = None,
) -> web.Response:
    """The gateway's one error shape."""
    error = {"code": code, "message": message, "fields": fields or []}
    body = {"error": {**error, **_wording_json(wording)}}
    return web.json_response(body, status=status, headers=headers)


def grpc_error(err: grpc.aio.AioRpcError, target: str) -> web.Response:
    """A failed call as an HTTP error, with the BadRequest field violations and the wording
    it carries."""
    code = err.code()
    message = err.details() or code.name
    fields, wording = _details(err)
    if code == grpc.StatusCode.UNAVAILABLE:
        message = f"the Regent service at {target} cannot be reached: {message}"
        wording = None
    if code not in HTTP_STATUS:  # a failure (UNKNOWN, INTERNAL): its text is the server's own
        message = "the Regent service failed on this request; its log says why"
        wording = None
    if len(fields) == 1 and wording is not None:
        fields[0].update(_wording_json(wording))
        wording = None
    return error_response(HTTP_STATUS.get(code, 502), code.name, message, fields, None, wording)


def _details(err: grpc.aio.AioRpcError) -> tuple[list[dict[str, Any]], Wording | None]:
    """The field violations of a failed call's status, and its wording (ErrorInfo)."""
    fields: list[dict[str, Any]] = []
    wording = None
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    fields += [
                        {"field": v.field, "description": v.description}
                        for v in bad.field_violations
                    ]
                elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    if info.domain == WORDING_DOMAIN and "template" in info.metadata:
                        params = dict(info.metadata)
                        wording = Wording(params.pop("template"), params)
    return fields, wording


def _wording_json(wording: str | Wording | None) -> dict[str, Any]:
    """A refusal's wording as the page reads it: its template and params, if it has one."""
    if not isinstance(wording, Wording):
        return {}
    return {"template": wording.template, "params": dict(wording.params)}


async def read_request(
    request: web.Request, message_type: type[Message], timeout: float
) -> Message:
    """The body as a request message; BadBody names the first field that is wrong, Refused
    says the body took longer than `timeout` seconds to arrive."""
    return parse(await read_json(request, timeout), message_type)


async def read_json(request: web.Request, timeout: float) -> dict[str, Any]:
    """The body, a JSON object (an empty one when there is none); BadBody when it is not
    one or nests too deep, Refused when it took longer than `timeout` seconds to arrive."""
    if not request.can_read_body:
        return {}
    try:
        # wait_for, not asyncio.timeout: Python 3.10 has no asyncio.timeout (3.11+).
        body = await asyncio.wait_for(request.read(), timeout)
    except asyncio.TimeoutError:
        message = f"the body did not arrive within {timeout:g} s"
        raise Refused(408, "REQUEST_TIMEOUT", message, headers={"Connection": "close"}) from None
    too_deep = BadBody(
        "body", worded("nests arrays and objects deeper than {levels} levels", levels=MAX_DEPTH)
    )
    try:
        data = json.loads(body.decode())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise BadBody("body", worded("is not JSON: {detail}", detail=err)) from None
    except RecursionError:
        raise too_deep from None
    if not isinstance(data, dict):
        raise BadBody("body", "must be a JSON object")
    if _deeper_than(data, MAX_DEPTH):
        raise too_deep
    return data


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether `data` nests lists and dicts more than `limit` levels deep (no recursion)."""
    level = [data]
    for _ in range(limit):
        level = [
            child
            for value in level
            for child in (value.values() if isinstance(value, dict) else value)
            if isinstance(child, (dict, list))
        ]
        if not level:
            return False
    return True


def parse(data: dict[str, Any], message_type: type[Message]) -> Message:
    """`data` in protobuf's JSON mapping as a message; BadBody at the first bad field."""
    try:
        return json_format.ParseDict(data, message_type())
    except json_format.ParseError as err:
        field, reason = _locate(data, message_type().DESCRIPTOR, "")
        raise BadBody(field or "body", reason or _reason(str(err))) from None


def _locate(data: Any, descriptor: Any, path: str) -> tuple[str, str]:
    """(path, reason) of the first value in `data` that does not parse as `descriptor`."""
    if not isinstance(data, dict):
        return path, "must be a JSON object"
    fields = {f.name: f for f in descriptor.fields} | {f.json_name: f for f in descriptor.fields}
    for key, value in data.items():
        here = f"{path}.{key}" if path else key
        field = fields.get(key)
        if field is None:
            return here, "is no field of this message"
        repeated = field.is_repeated
        if field.message_type is not None and not field.message_type.GetOptions().map_entry:
            if value is None:
                continue
            if repeated:
                if not isinstance(value, list):
                    return here, "must be a list"
                for i, item in enumerate(value):
                    found = _locate(item, field.message_type, f"{here}[{i}]")
                    if found[0]:
                        return found
            else:
                found = _locate(value, field.message_type, here)
                if found[0]:
                    return found
            continue
        try:
            json_format.ParseDict({key: value}, message_factory.GetMessageClass(descriptor)())
        except json_format.ParseError:
            return here, _expected(field, value)
    return "", ""


def _expected(field: Any, value: Any) -> str:
    """What a scalar field takes, and the value it got instead."""
    got = json.dumps(value)[:40]
    if field.enum_type is not None:
        names = [v.name for v in field.enum_type.values]
        return f"must be one of {', '.join(names)}, not {got}"
    kinds = {field.TYPE_BOOL: "true or false", field.TYPE_STRING: "a string"}
    kinds |= dict.fromkeys((field.TYPE_DOUBLE, field.TYPE_FLOAT), "a number")
    kind = kinds.get(field.type, "an integer")
    return f"must be {'a list of ' if field.is_repeated else ''}{kind}, not {got}"


def _reason(text: str) -> str:
    """The innermost reason of a json_format error, without its own path."""
    reason = text.rsplit("field: ", 1)[-1].split(" at ", 1)[0].split("\n", 1)[0]
    return reason.rstrip(".")


def _as_json(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


class Gateway:
    """The page and the API in front of one AdvisorService at `target` (host:port); without
    `options`, loopback only and no token (see WebOptions)."""

    def __init__(self, target: str, options: WebOptions | None = None) -> None:
        self.target = target
        self.options = options or WebOptions()
        self.channel: grpc.aio.Channel | None = None
        self.advisor: advisor_pb2_grpc.AdvisorServiceStub | None = None
        self.runner: web.AppRunner | None = None
        self.address = ""
        self.access: Access | None = None

    def app(self) -> web.Application:
        middlewares = [_hang_up, _json_errors, self._guard]
        app = web.Application(client_max_size=MAX_BODY, middlewares=middlewares)
        app.on_response_prepare.append(guard.mark)
        app.router.add_get("/", _index)
        app.router.add_static("/static/", static_folder())
        for path, (message_type, method) in UNARY.items():
            app.router.add_post(path, self._unary(message_type, method))
        app.router.add_get("/api/games", self._unary(advisor_pb2.ListGamesRequest, "ListGames"))
        app.router.add_post("/api/observation", self._observation)
        app.router.add_post("/api/deal", self._deal)
        for path, (message_type, method, timeout) in STREAMING.items():
            app.router.add_post(path, self._streaming(message_type, method, timeout))
        return app

    def _unary(
        self, message_type: type[Message], method: str
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        call = getattr(self.advisor, method)

        async def handle(request: web.Request) -> web.Response:
            message = await read_request(request, message_type, self.options.body_timeout)
            try:
                response = await call(message, timeout=CALL_TIMEOUT)
            except grpc.aio.AioRpcError as err:
                return grpc_error(err, self.target)
            return web.json_response(_as_json(response))

        return handle

    async def _observation(self, request: web.Request) -> web.Response:
        """The body, a regent.v1.Observation in protobuf's JSON mapping, in the page's form:
        only parsed (the calls that use it judge the position)."""
        message = await read_request(request, advisor_pb2.Observation, self.options.body_timeout)
        return web.json_response(_as_json(message))

    async def _deal(self, request: web.Request) -> web.Response:
        """A new game dealt from a seed, as one seat sees it (see clients/web/deal.py)."""
        body = await read_json(request, self.options.body_timeout)
        try:
            return web.json_response(deal(body))
        except BadDeal as err:
            raise BadBody(err.field, err.wording) from None

    def _streaming(
        self, message_type: type[Message], method: str, timeout: float
    ) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """A server-streaming call as JSON lines; the first message (or the error) decides
        the HTTP status."""

        async def handle(request: web.Request) -> web.StreamResponse:
            message = await read_request(request, message_type, self.options.body_timeout)
            assert self.advisor is not None, "the gateway serves once started"
            call = getattr(self.advisor, method)(message, timeout=timeout)
            try:
                try:
                    first = await call.read()
                except grpc.aio.AioRpcError as err:
                    return grpc_error(err, self.target)
                response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
                await response.prepare(request)
                item = first
                while item is not grpc.aio.EOF:
                    await response.write(json.dumps(_as_json(item)).encode() + b"\n")
                    try:
                        item = await call.read()
                    except grpc.aio.AioRpcError as err:
                        body = grpc_error(err, self.target).text
                        assert body is not None, "an error response has a JSON body"
                        failure = json.loads(body)
                        await response.write(json.dumps(failure).encode() + b"\n")
                        break
                await response.write_eof()
                return response
            finally:
                call.cancel()  # the browser went away, or the stream ended: either way, done

        return handle

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        assert self.access is not None
        refused = guard.refusal(request, self.access)
        if refused is not None:
            raise refused
        return await handler(request)

    async def start(self, address: str) -> None:
        """Serve on `address` (host:port; port 0 picks a free one): see `self.address`.
        Beyond loopback, warns on stderr and prints the URL with the access token."""
        host, port = split_address(address)
        sock = socket.create_server((host, port))
        bound_host, bound_port = sock.getsockname()[:2]
        try:
            self.access = guard.access(host, bound_host, bound_port, self.options)
        except ValueError:
            sock.close()
            raise
        # A grpc.aio channel belongs to the event loop it is made on: this one.
        self.channel = grpc.aio.insecure_channel(self.target)
        self.advisor = advisor_pb2_grpc.AdvisorServiceStub(self.channel)
        # keepalive_timeout also bounds the wait for a request's headers (from the connection
        # or the last answer); lingering_time drains an unread body before the close (LINGER).
        self.runner = web.AppRunner(
            self.app(),
            handler_cancellation=True,
            access_log=None,
            keepalive_timeout=self.options.header_timeout,
            lingering_time=LINGER,
        )
        await self.runner.setup()
        await web.SockSite(self.runner, sock).start()
        self.address = f"{bound_host}:{bound_port}"
        log.info("hint page on http://%s/ (service %s)", self.address, self.target)
        self._announce()

    def _announce(self) -> None:
        """Beyond loopback, a loud warning; with a token, the URL that carries it (once)."""
        assert self.access is not None
        if self.access.exposed:
            print(
                f"\n*** WARNING: the hint page listens on {self.address}, beyond this machine:"
                "\n*** anyone on the network can reach it. Its API asks for the access token,"
                "\n*** which only the address below carries: keep it to yourself.",
                file=sys.stderr,
            )
        if self.access.token is not None:
            print(f"hint page with its token: {self.access.url}", file=sys.stderr, flush=True)

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        if self.channel is not None:
            await self.channel.close()


def split_address(address: str) -> tuple[str, int]:
    """`host:port` (`[::1]:8080` too) as (host, port); ValueError when it is not one."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, not {address!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def local_target(address: str) -> str:
    """Where a gateway in the same process reaches a server listening on `address`."""
    host, port = split_address(address)
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@functools.cache
def static_folder() -> Path:
    """The page's folder on disk, which aiohttp's static route serves: the package's own
    folder when it is installed as files (as pip installs a wheel); from a zipped install, a
    temporary copy, removed at exit."""
    atexit.register(_ON_DISK.close)
    return _ON_DISK.enter_context(as_file(STATIC))


async def _index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(static_folder() / "index.html")


@web.middleware
async def _hang_up(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """An answer given before the request's body had all arrived (a 408 for a body too slow,
    a refusal that never read it) ends the connection without a reset: the answer, then the
    gateway's end of the stream (a FIN), then what the client still sends read and dropped
    until it closes, up to DRAIN_BYTES or DRAIN_SECONDS. Closed while the client's bytes
    still come (as aiohttp closes after LINGER), the connection is reset by the kernel, and
    a client that had not read the answer yet (a loaded one) loses it."""
    response = await handler(request)
    transport = request.transport
    if request.content.is_eof() or response.prepared or transport is None:
        return response
    response.force_close()
    await response.prepare(request)
    await response.write_eof()
    transport.write_eof()
    with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
        await asyncio.wait_for(_discard(request.content, DRAIN_BYTES), DRAIN_SECONDS)
    return response


async def _discard(content: StreamReader, limit: int) -> None:
    """Read and drop `content` to its end, or until `limit` bytes are dropped."""
    while limit > 0 and (chunk := await content.readany()):
        limit -= len(chunk)


@web.middleware
async def _json_errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Refusals, unknown API routes, wrong methods, oversized bodies and any failure answer
    in the error shape; a failure's details go to the log only."""
    try:
        return await handler(request)
    except Refused as refused:
        return error_response(
            refused.status, refused.code, refused.message, refused.fields, refused.headers
        )
    except web.HTTPException as err:
        if not request.path.startswith("/api/") or err.status < 400:
            raise
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 413: "BODY_TOO_LARGE"}
        return error_response(
            err.status,
            code.get(err.status, "HTTP_ERROR"),
            f"{request.method} {request.path}: {err.reason}",
        )
    except ConnectionError:
        raise  # the client went away: nobody to answer
    except Exception:
        log.exception("%s %s failed", request.method, request.path)
        return error_response(
            500, "INTERNAL", "the gateway failed on this request; its log says why"
        )


@contextlib.asynccontextmanager
async def running(
    address: str, target: str, options: WebOptions | None = None
) -> AsyncIterator[Gateway]:
    """A gateway on `address` in front of the service at `target`, stopped on leaving."""
    gateway = Gateway(target, options)
    await gateway.start(address)
    try:
        yield gateway
    finally:
        await gateway.stop()


def beside_server(
    address: str, options: WebOptions | None = None
) -> Callable[[str], contextlib.AbstractAsyncContextManager[Gateway]]:
    """`regent serve`'s page on `address`, for server.app.serve to run beside the server it
    starts (given the address that server listens on)."""
    return lambda server: running(address, local_target(server), options)


async def serve_web(address: str, target: str, options: WebOptions | None = None) -> None:
    """`regent web`: the page against the service at `target`, until SIGINT or SIGTERM."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    async with running(address, target, options):
        await stopping.wait()
