"""The gRPC server: Advisor and Match services, health checking, reflection,
one log line per call, graceful shutdown."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from regent.v1 import advisor_pb2, advisor_pb2_grpc, matches_pb2, matches_pb2_grpc
from server.advisor import Advisor
from server.limits import ServerLimits
from server.matches import Matches
from server.searching import SearchSlots
from server.status import invalid_argument
from server.store import MEMORY
from server.web.gateway import Gateway, local_target

log = logging.getLogger("regent.server")

SERVICES = (
    advisor_pb2.DESCRIPTOR.services_by_name["AdvisorService"].full_name,
    matches_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
)


def _code(context: grpc.aio.ServicerContext, error: BaseException | None) -> str:
    if isinstance(error, asyncio.CancelledError):
        return "CANCELLED"
    code = context.code()
    if code is not None and code != grpc.StatusCode.OK:
        return code.name
    return "UNKNOWN" if error is not None else "OK"


class CallLog(grpc.aio.ServerInterceptor):
    """Logs `method status duration` once per call: no request or response
    content, so never a card."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return handler
        method = details.method
        decode = handler.request_deserializer
        if handler.unary_unary is not None:
            inner = handler.unary_unary

            async def unary(data: bytes, context: grpc.aio.ServicerContext) -> Any:
                start, error = time.perf_counter(), None
                try:
                    return await inner(await _decoded(decode, data, context), context)
                except BaseException as err:
                    error = err
                    raise
                finally:
                    _log(method, _code(context, error), start)

            return grpc.unary_unary_rpc_method_handler(unary, None, handler.response_serializer)
        if handler.unary_stream is not None:
            stream = handler.unary_stream

            async def streaming(
                data: bytes, context: grpc.aio.ServicerContext
            ) -> AsyncIterator[Any]:
                start, error = time.perf_counter(), None
                try:
                    request = await _decoded(decode, data, context)
                    async for item in stream(request, context):
                        yield item
                except BaseException as err:
                    error = err
                    raise
                finally:
                    _log(method, _code(context, error), start)

            return grpc.unary_stream_rpc_method_handler(
                streaming, None, handler.response_serializer
            )
        return handler


async def _decoded(
    decode: Callable[[bytes], Any] | None, data: bytes, context: grpc.aio.ServicerContext
) -> Any:
    """The request message; INVALID_ARGUMENT (not UNKNOWN) for bytes that are not one."""
    if decode is None:
        return data
    try:
        return decode(data)
    except DecodeError:
        await context.abort_with_status(invalid_argument("request", "is not a valid message"))


def _log(method: str, code: str, start: float) -> None:
    log.info("%s %s %.1fms", method, code, (time.perf_counter() - start) * 1000)


class RegentServer:
    """A running server; `await start()`, then `await stop()` (graceful). Hosted matches
    are kept in the database `db` (see server/store.py; by default in memory)."""

    def __init__(
        self,
        address: str = "127.0.0.1:50051",
        limits: ServerLimits | None = None,
        db: str = MEMORY,
    ):
        self.limits = limits or ServerLimits()
        self.slots = SearchSlots(self.limits.max_searches)
        # No SO_REUSEPORT: a second server on a busy port must fail, not share it.
        self.server = grpc.aio.server(interceptors=[CallLog()], options=[("grpc.so_reuseport", 0)])
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
        await self.server.start()
        for name in ("", *SERVICES):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        log.info("regent serving on %s", self.address)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop taking calls, let running ones finish for `grace` seconds."""
        for name in ("", *SERVICES):
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        await self.server.stop(grace)
        await self.matches.close()
        log.info("regent stopped")


async def serve(
    address: str,
    limits: ServerLimits,
    grace: float = 5.0,
    web_address: str | None = None,
    db: str = MEMORY,
) -> None:
    """Run until SIGINT or SIGTERM, then shut down gracefully; with `web_address`, the hint
    page's gateway runs on the same event loop and talks to this server."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = RegentServer(address, limits, db)
    await server.start()
    gateway = None
    if web_address is not None:
        gateway = Gateway(local_target(server.address))
        try:
            await gateway.start(web_address)
        except OSError:
            await server.stop(0)
            raise
    await stopping.wait()
    if gateway is not None:
        await gateway.stop()
    await server.stop(grace)


class BackgroundServer:
    """A RegentServer on its own event loop in a background thread, for
    synchronous callers (benchmarks, tests, `regent play`). A context manager."""

    def __init__(
        self, address: str = "127.0.0.1:0", limits: ServerLimits | None = None, db: str = MEMORY
    ):
        self._loop = asyncio.new_event_loop()
        #: What the event loop caught that nobody handled (a crashed bot task, say).
        self.loop_errors: list[dict[str, Any]] = []
        self._loop.set_exception_handler(self._loop_error)
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="regent-server", daemon=True
        )
        self._thread.start()
        self.server: RegentServer = self._call(self._make(address, limits, db))
        self.address = self.server.address

    async def _make(self, address: str, limits: ServerLimits | None, db: str) -> RegentServer:
        server = RegentServer(address, limits, db)
        await server.start()
        return server

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.loop_errors.append(context)
        loop.default_exception_handler(context)

    def _call(self, coroutine: Awaitable[Any]) -> Any:
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
