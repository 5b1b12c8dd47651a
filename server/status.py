"""Standard gRPC statuses for the service's errors; invalid arguments carry
field-level details (google.rpc.BadRequest). Handlers raise `Rejected`; one interceptor
(`StatusInterceptor`) answers it with its status, and any other exception with INTERNAL and a
fixed message (the error is logged, never sent), so that no call ends in UNKNOWN."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import grpc
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from server.interceptors import AioStream, AioUnary, Decode, WrappingInterceptor

Violation = error_details_pb2.BadRequest.FieldViolation


class Rejected(Exception):
    """A request refused with a ready gRPC status."""

    def __init__(self, status: grpc.Status) -> None:
        super().__init__(status.details)
        self.status = status

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its arguments when unpickled (see engine.errors)."""
        return type(self), (self.status,), self.__dict__


def invalid_argument(field: str, reason: str) -> grpc.Status:
    """INVALID_ARGUMENT naming the bad field, readable as a message and as details."""
    return _with_field(code_pb2.INVALID_ARGUMENT, field, reason)


def resource_exhausted(field: str, reason: str) -> grpc.Status:
    return _with_field(code_pb2.RESOURCE_EXHAUSTED, field, reason)


def failed_precondition(message: str) -> grpc.Status:
    return _plain(code_pb2.FAILED_PRECONDITION, message)


def not_found(message: str) -> grpc.Status:
    return _plain(code_pb2.NOT_FOUND, message)


def unauthenticated(message: str) -> grpc.Status:
    return _plain(code_pb2.UNAUTHENTICATED, message)


def permission_denied(message: str) -> grpc.Status:
    return _plain(code_pb2.PERMISSION_DENIED, message)


def deadline_exceeded(message: str) -> grpc.Status:
    return _plain(code_pb2.DEADLINE_EXCEEDED, message)


def unavailable(message: str) -> grpc.Status:
    return _plain(code_pb2.UNAVAILABLE, message)


def internal(message: str) -> grpc.Status:
    return _plain(code_pb2.INTERNAL, message)


#: The longest message or detail a status carries: what a client sent is quoted
#: in reasons, and status metadata must stay well within gRPC's header limits.
MAX_TEXT = 400


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plain(code: int, message: str) -> grpc.Status:
    return rpc_status.to_status(status_pb2.Status(code=code, message=clip(message)))


def _with_field(code: int, field: str, reason: str) -> grpc.Status:
    field, reason = clip(field, 200), clip(reason)
    details = error_details_pb2.BadRequest(
        field_violations=[Violation(field=field, description=reason)]
    )
    status = status_pb2.Status(code=code, message=f"{field}: {reason}")
    status.details.add().Pack(details)
    return rpc_status.to_status(status)


log = logging.getLogger("regent.server")

#: What a caller is told of a handler's crash: a fixed text, never the Python error's.
INTERNAL_MESSAGE = "the server failed to answer this call; the failure is in its log"


async def _refuse(error: Exception, method: str, context: grpc.aio.ServicerContext) -> None:
    """End the call with the status of `error`: a Rejected's own, else INTERNAL (logged)."""
    if isinstance(error, Rejected):
        await context.abort_with_status(error.status)
    log.error("%s failed", method, exc_info=error)
    await context.abort_with_status(internal(INTERNAL_MESSAGE))


class StatusInterceptor(WrappingInterceptor):
    """Every handler's exceptions mapped to statuses in one place (as grpc-interceptor's
    ExceptionToStatusInterceptor does): a handler, unary or streaming, raises `Rejected`
    and the caller gets its status; any other exception is INTERNAL with a fixed message.
    A call aborted or cancelled meanwhile ends as it did."""

    def unary(self, call: AioUnary, method: str, decode: Decode | None) -> AioUnary:
        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                return await call(request, context)
            except (grpc.aio.AbortError, asyncio.CancelledError):
                raise
            except Exception as error:
                await _refuse(error, method, context)

        return unary

    def streaming(self, call: AioStream, method: str, decode: Decode | None) -> AioStream:
        async def streaming(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            try:
                async for item in call(request, context):
                    yield item
            except (grpc.aio.AbortError, asyncio.CancelledError):
                raise
            except Exception as error:
                await _refuse(error, method, context)

        return streaming
