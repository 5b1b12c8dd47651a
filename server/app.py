"""The gRPC server: Advisor and Match services, health checking, reflection,
one log line per call, graceful shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from regent.v1 import advisor_pb2, advisor_pb2_grpc, matches_pb2, matches_pb2_grpc
from server import metrics
from server.advisor import Advisor
from server.interceptors import AioStream, AioUnary, Decode, WrappingInterceptor
from server.limits import ServerLimits
from server.matches import Matches
from server.quotas import ApiKey, Quotas
from server.searching import SearchSlots
from server.status import (
    Rejected,
    StatusInterceptor,
    invalid_argument,
    shutting_down,
)
from server.store import MEMORY

log = logging.getLogger("regent.server")

#: Requests larger than this are decoded on a worker thread, so that a big one
#: never holds up the event loop (and every other call) while it is parsed.
_DECODE_ON_LOOP_BYTES = 16 * 1024
#: The threads that decode them: a pool of their own, bounded, apart from the searches', the
#: database's and asyncio's default executor (which nothing of the server's uses).
DECODE_THREADS = 2
_HEALTH_PREFIX = f"/{health.SERVICE_NAME}/"

SERVICES = (
    advisor_pb2.DESCRIPTOR.services_by_name["AdvisorService"].full_name,
    matches_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
)


def _code(context: grpc.aio.ServicerContext, error: BaseException | None) -> str:
    """The status the call ended with, as the client sees it. A stream closed before its end
    (GeneratorExit) had its reader stop: gRPC stops pulling only when the call is over, and a
    cancel that lands while gRPC sends a message reaches the stream so, not as a
    CancelledError."""
    code = context.code()
    if code is not None and code != grpc.StatusCode.OK:
        return code.name
    if isinstance(error, (asyncio.CancelledError, GeneratorExit)) or context.cancelled():
        remaining = context.time_remaining()
        return "DEADLINE_EXCEEDED" if remaining is not None and remaining <= 0 else "CANCELLED"
    return "UNKNOWN" if error is not None else "OK"


class CallLog(WrappingInterceptor):
    """Logs `method status duration` once per call (no request or response content, so
    never a card) and counts it in the metrics. It identifies the caller and holds it to its
    quotas (server/quotas.py). While the server drains it refuses new calls (but health
    checks) with UNAVAILABLE, and it counts the calls in flight. It decodes the requests
    itself (see `_decoded`)."""

    decodes_requests = True

    def __init__(self, quotas: Quotas) -> None:
        self.quotas = quotas
        self.draining = False
        self.in_flight = 0
        #: Calls received, by method (health checks included).
        self.received: Counter[str] = Counter()
        self._idle = asyncio.Event()
        self._idle.set()
        self.decoding = ThreadPoolExecutor(DECODE_THREADS, thread_name_prefix="regent-decode")

    async def idle(self) -> None:
        """Wait until no call but health checks is running."""
        await self._idle.wait()

    def _enter(self, method: str) -> None:
        self.in_flight += 1
        self._idle.clear()
        metrics.IN_FLIGHT.labels(_label(method)).inc()

    def _leave(self, method: str, code: str, start: float, error: BaseException | None) -> None:
        """Logs the call's line; an UNKNOWN one names its exception's type (never its
        message, which may name a card)."""
        self.in_flight -= 1
        if self.in_flight == 0:
            self._idle.set()
        seconds = time.perf_counter() - start
        label = _label(method)
        metrics.IN_FLIGHT.labels(label).dec()
        metrics.CALLS.labels(label, code).inc()
        metrics.LATENCY.labels(label).observe(seconds)
        ms = round(seconds * 1000, 1)
        call = {"method": method, "code": code, "ms": ms}
        shown = code
        if code == "UNKNOWN" and error is not None:
            call["error"] = type(error).__name__
            shown = f"{code} ({call['error']})"
        log.info("%s %s %.1fms", method, shown, ms, extra={"call": call})

    def handling(self, method: str) -> None:
        self.received[method] += 1

    def unary(self, call: AioUnary, method: str, decode: Decode | None) -> AioUnary:
        async def unary(data: bytes, context: grpc.aio.ServicerContext) -> Any:
            async with self._call(method, decode, data, context) as request:
                return await call(request, context)

        return unary

    def streaming(self, call: AioStream, method: str, decode: Decode | None) -> AioStream:
        async def streaming(data: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            async with self._call(method, decode, data, context) as request:
                async for item in call(request, context):
                    yield item

        return streaming

    @contextlib.asynccontextmanager
    async def _call(
        self, method: str, decode: Decode | None, data: bytes, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[Any]:
        """A call's bookkeeping around its run: counted in flight, admitted, its request
        decoded (what the block is given); at its end logged and measured with the status it
        ended with, however it ended."""
        start, error = time.perf_counter(), None
        self._enter(method)
        try:
            await self._admit(method, context)
            yield await self._decoded(decode, data, context)
        except BaseException as err:
            error = err
            raise
        finally:
            self._leave(method, _code(context, error), start, error)

    async def _admit(self, method: str, context: grpc.aio.ServicerContext) -> None:
        """UNAVAILABLE for a new call while the server drains; the caller's identity and
        search quota. Health checks pass whatever happens."""
        if method.startswith(_HEALTH_PREFIX):
            return
        if self.draining:
            await context.abort_with_status(shutting_down())
        try:
            self.quotas.admit(method, context.invocation_metadata() or (), context.peer())
        except Rejected as rejected:
            await context.abort_with_status(rejected.status)

    async def _decoded(
        self, decode: Decode | None, data: bytes, context: grpc.aio.ServicerContext
    ) -> Any:
        """The request message; INVALID_ARGUMENT (not UNKNOWN) for bytes that are not one."""
        if decode is None:
            return data
        try:
            if len(data) > _DECODE_ON_LOOP_BYTES:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self.decoding, decode, data)
            return decode(data)
        except DecodeError:
            await context.abort_with_status(invalid_argument("request", "is not a valid message"))


def _label(method: str) -> str:
    """A method's label in the metrics: `/regent.v1.MatchService/Play` -> `MatchService/Play`."""
    service, _, name = method.lstrip("/").rpartition("/")
    return f"{service.rsplit('.', 1)[-1]}/{name}"


#: The grace's last part: searches are cut short this long before its end, to answer by it.
_CUT_SHORT = 0.25
#: How long the stop waits past the grace for the calls still running to end, the answers of
#: searches cut short above all (milliseconds; a loaded host may hold them up): then what
#: still runs is cancelled.
_ANSWERS_DUE = 10.0


class RegentServer:
    """A running server; `await start()`, then `await stop()` (graceful). Hosted matches
    are kept in the database `db` (see server/store.py; by default in memory). Callers may
    identify with the API `keys` (server/quotas.py); with `metrics_address`, Prometheus
    metrics are served there (server/metrics.py)."""

    def __init__(
        self,
        address: str = "127.0.0.1:50051",
        limits: ServerLimits | None = None,
        db: str = MEMORY,
        keys: Sequence[ApiKey] = (),
        metrics_address: str | None = None,
    ):
        self.limits = limits or ServerLimits()
        self.slots = SearchSlots(self.limits.max_searches)
        self.quotas = Quotas(self.limits, keys)
        self.calls = CallLog(self.quotas)
        self.metrics_address = metrics_address
        self.metrics: metrics.MetricsServer | None = None
        self.server = grpc.aio.server(
            # The call log outermost, so that it sees the status each call ended with.
            interceptors=[self.calls, StatusInterceptor()],
            options=[
                # No SO_REUSEPORT: a second server on a busy port must fail, not share it.
                ("grpc.so_reuseport", 0),
                ("grpc.max_receive_message_length", self.limits.max_request_bytes),
            ],
        )
        self.advisor = Advisor(self.limits, self.slots)
        self.matches = Matches(self.limits, db)
        advisor_pb2_grpc.add_AdvisorServiceServicer_to_server(self.advisor, self.server)
        matches_pb2_grpc.add_MatchServiceServicer_to_server(self.matches, self.server)
        self.health = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            (*SERVICES, health.SERVICE_NAME, reflection.SERVICE_NAME), self.server
        )
        self.port = self.server.add_insecure_port(address)
        if self.port == 0:
            raise OSError(f"cannot listen on {address}")
        host = address.rsplit(":", 1)[0]
        self.address = f"{host}:{self.port}"

    async def start(self) -> None:
        await self.matches.start()
        metrics.watch(self, self._readings())
        if self.metrics_address is not None:
            self.metrics = metrics.MetricsServer(self.metrics_address)
        await self.server.start()
        for name in ("", *SERVICES):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        log.info("regent serving on %s", self.address)

    async def stop(self, grace: float = 5.0) -> None:
        """Drain, then stop. For up to `grace` seconds health answers NOT_SERVING, new
        calls get UNAVAILABLE and running ones go on; then running searches answer
        with their best so far, hosted bots stop, and what still runs after `_ANSWERS_DUE`
        more seconds (an answer held up by a loaded host) is cancelled."""
        self.calls.draining = True
        self.matches.drain()
        for name in ("", *SERVICES):
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        log.info("regent draining (%.1f s grace)", grace)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.calls.idle(), max(0.0, grace - _CUT_SHORT))
        self.slots.stop_all()
        await self.matches.close()
        await self.server.stop(_ANSWERS_DUE)
        for pool in (self.calls.decoding, self.advisor.work):
            pool.shutdown(wait=False, cancel_futures=True)
        self.advisor.conversions.close()
        metrics.unwatch(self)
        if self.metrics is not None:
            self.metrics.stop()
        log.info("regent stopped")

    def _readings(self) -> list[metrics.Reading]:
        """The gauges of this server's state, read at each scrape."""
        pool = self.matches.pool
        return [
            ("regent_searches_running", "Advisor searches running (at most max_searches).",
             lambda: self.slots.running),
            ("regent_bot_searches_running", "Hosted bots' searches running (at most "
             "max_bot_searches).", lambda: pool.running),
            ("regent_bot_searches_queued", "Hosted bots' moves waiting for the bots' pool.",
             lambda: pool.queued),
            ("regent_live_matches", "Unfinished hosted matches this replica holds in memory.",
             lambda: len(self.matches.live)),
            ("regent_watchers", "Open Watch streams on this replica (at most max_watchers).",
             lambda: self.matches.watchers.count),
            ("regent_conversions_pending", "ApplyObservedMove, LegalMoves and ApplyMove calls "
             "in or waiting for the conversion processes.",
             lambda: self.advisor.conversions.pending),
        ]  # fmt: skip


#: What runs beside a server, made from the address it listens on: entered once it listens,
#: left as it stops (the front ends give it; the server names none of them).
Beside = Callable[[str], AbstractAsyncContextManager[object]]


async def serve(
    address: str,
    limits: ServerLimits,
    grace: float = 5.0,
    beside: Beside | None = None,
    db: str = MEMORY,
    keys: Sequence[ApiKey] = (),
    metrics_address: str | None = None,
) -> None:
    """Run until SIGINT or SIGTERM, then shut down gracefully (a second signal stops
    at once); with `beside`, what it makes of the server's address (`regent serve`'s hint
    page gateway) runs on the same event loop from the server's start to its stop."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = RegentServer(address, limits, db, keys, metrics_address)
    await server.start()
    async with contextlib.AsyncExitStack() as companions:
        if beside is not None:
            try:
                await companions.enter_async_context(beside(server.address))
            except OSError:
                await server.stop(0)
                raise
        await stopping.wait()
    stopping.clear()
    stop = asyncio.create_task(server.stop(grace))
    again = asyncio.create_task(stopping.wait())
    await asyncio.wait((stop, again), return_when=asyncio.FIRST_COMPLETED)
    if not stop.done():
        log.warning("regent: a second signal; stopping now")
        server.slots.stop_all()
        await server.server.stop(0)
        stop.cancel()
    again.cancel()


class BackgroundServer:
    """A RegentServer on its own event loop in a background thread, for
    synchronous callers (benchmarks, tests, `regent play`). A context manager."""

    def __init__(
        self,
        address: str = "127.0.0.1:0",
        limits: ServerLimits | None = None,
        db: str = MEMORY,
        keys: Sequence[ApiKey] = (),
        metrics_address: str | None = None,
    ):
        self._loop = asyncio.new_event_loop()
        #: What the event loop caught that nobody handled (a crashed bot task, say).
        self.loop_errors: list[dict[str, Any]] = []
        self._loop.set_exception_handler(self._loop_error)
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="regent-server", daemon=True
        )
        self._thread.start()
        make = functools.partial(RegentServer, address, limits, db, keys, metrics_address)
        self.server: RegentServer = self._call(self._start(make))
        self.address = self.server.address

    async def _start(self, make: Callable[[], RegentServer]) -> RegentServer:
        """The server, made and started on the loop (grpc.aio's server belongs to it)."""
        server = make()
        await server.start()
        return server

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.loop_errors.append(context)
        loop.default_exception_handler(context)

    def _call(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def stop(self, grace: float = 1.0) -> None:
        self._call(self.server.stop(grace))
        self._call(self._loop.shutdown_default_executor())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
