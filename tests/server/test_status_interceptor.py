"""The status interceptor (server/status.py), over a real socket: a handler, unary or
streaming, that raises `Rejected` answers its status with its details; one that raises
anything else answers INTERNAL with a fixed message (the error's text is logged, never sent),
not UNKNOWN; what a stream yielded before it failed still arrives."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from grpc_status import rpc_status

from server.status import (
    INTERNAL_MESSAGE,
    Rejected,
    StatusInterceptor,
    invalid_argument,
)

SECRET = "a Python error's text: NameError: name 'hidden' is not defined"


async def _refused(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    raise Rejected(invalid_argument("move.id", "is no move"))


async def _crashed(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    raise NameError(SECRET)


async def _stream_refused(
    request: bytes, context: grpc.aio.ServicerContext
) -> AsyncIterator[bytes]:
    yield b"first"
    raise Rejected(invalid_argument("interval_ms", "cannot be negative"))


async def _stream_crashed(
    request: bytes, context: grpc.aio.ServicerContext
) -> AsyncIterator[bytes]:
    yield b"first"
    raise ValueError(SECRET)


async def _answered(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    return request


HANDLERS = grpc.method_handlers_generic_handler(
    "test.Statuses",
    {
        "Refused": grpc.unary_unary_rpc_method_handler(_refused),
        "Crashed": grpc.unary_unary_rpc_method_handler(_crashed),
        "Answered": grpc.unary_unary_rpc_method_handler(_answered),
        "StreamRefused": grpc.unary_stream_rpc_method_handler(_stream_refused),
        "StreamCrashed": grpc.unary_stream_rpc_method_handler(_stream_crashed),
    },
)

#: What each call ends with: (code, message, the items a stream sent first).
Outcome = tuple[grpc.StatusCode, str, list[bytes]]


@contextlib.contextmanager
def serving() -> Iterator[str]:
    """A grpc.aio server of HANDLERS behind the interceptor, on an event loop in a thread of
    its own (as the service's BackgroundServer runs); its address."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> tuple[grpc.aio.Server, int]:
        server = grpc.aio.server(interceptors=[StatusInterceptor()])
        server.add_generic_rpc_handlers((HANDLERS,))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        return server, port

    server, port = asyncio.run_coroutine_threadsafe(start(), loop).result(30)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def call_all(address: str) -> dict[str, Outcome]:
    found: dict[str, Outcome] = {}
    with grpc.insecure_channel(address) as channel:
        answer = channel.unary_unary("/test.Statuses/Answered")(b"hi", timeout=30)
        found["Answered"] = (grpc.StatusCode.OK, answer.decode(), [])
        for name in ("Refused", "Crashed"):
            try:
                channel.unary_unary(f"/test.Statuses/{name}")(b"", timeout=30)
            except grpc.RpcError as err:
                found[name] = (err.code(), err.details() or "", [])
                if name == "Refused":
                    status = rpc_status.from_call(err)
                    assert status is not None and status.details
        for name in ("StreamRefused", "StreamCrashed"):
            items: list[bytes] = []
            try:
                for item in channel.unary_stream(f"/test.Statuses/{name}")(b"", timeout=30):
                    items.append(item)
            except grpc.RpcError as err:
                found[name] = (err.code(), err.details() or "", items)
    return found


def test_rejected_gets_its_status_and_a_crash_internal_without_its_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="regent.server"), serving() as address:
        found = call_all(address)
    assert found["Answered"] == (grpc.StatusCode.OK, "hi", [])
    code = grpc.StatusCode
    assert found["Refused"] == (code.INVALID_ARGUMENT, "move.id: is no move", [])
    assert found["Crashed"] == (code.INTERNAL, INTERNAL_MESSAGE, [])
    assert found["StreamRefused"] == (
        code.INVALID_ARGUMENT, "interval_ms: cannot be negative", [b"first"]
    )  # fmt: skip
    assert found["StreamCrashed"] == (code.INTERNAL, INTERNAL_MESSAGE, [b"first"])
    logged = [r for r in caplog.records if r.exc_info]
    assert len(logged) == 2 and all(SECRET in str(r.exc_info[1]) for r in logged if r.exc_info)
