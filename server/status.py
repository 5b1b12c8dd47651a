"""Standard gRPC statuses for the service's errors; invalid arguments carry
field-level details (google.rpc.BadRequest), and every refusal its wording
(google.rpc.ErrorInfo: reason REFUSED, domain regent, metadata the English `template` and
its parameters; see engine.errors), which a front end words in its own language. Handlers
raise `Rejected`; one interceptor (`StatusInterceptor`) answers it with its status, and any
other exception with INTERNAL and a fixed message (the error is logged, never sent), so that
no call ends in UNKNOWN."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import grpc
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from engine.errors import WORDING_DOMAIN, Wording, worded
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


def invalid_argument(field: str, reason: str | Wording, **params: object) -> grpc.Status:
    """INVALID_ARGUMENT naming the bad field, readable as a message and as details;
    `reason` is a template with {name} `params` (or a wording)."""
    return _with_field(code_pb2.INVALID_ARGUMENT, field, reason, params)


def resource_exhausted(field: str, reason: str | Wording, **params: object) -> grpc.Status:
    return _with_field(code_pb2.RESOURCE_EXHAUSTED, field, reason, params)


def failed_precondition(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.FAILED_PRECONDITION, message, params)


def not_found(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.NOT_FOUND, message, params)


def unauthenticated(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.UNAUTHENTICATED, message, params)


def permission_denied(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.PERMISSION_DENIED, message, params)


def deadline_exceeded(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.DEADLINE_EXCEEDED, message, params)


def unavailable(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.UNAVAILABLE, message, params)


def shutting_down() -> grpc.Status:
    """A new call, or a search asked for, while the server drains: retry another replica."""
    return unavailable("the server is shutting down; retry")


def internal(message: str | Wording, **params: object) -> grpc.Status:
    return _plain(code_pb2.INTERNAL, message, params)


#: The longest message or detail a status carries: what a client sent is quoted
#: in reasons, and status metadata must stay well within gRPC's header limits.
MAX_TEXT = 400


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: ErrorInfo's reason for every refusal's wording (its domain: WORDING_DOMAIN).
REFUSED = "REFUSED"


def _plain(code: int, message: str | Wording, params: dict[str, object]) -> grpc.Status:
    wording = worded(message, **params)
    status = status_pb2.Status(code=code, message=clip(str(wording)))
    status.details.add().Pack(_info(wording))
    return rpc_status.to_status(status)


def _with_field(
    code: int, field: str, reason: str | Wording, params: dict[str, object]
) -> grpc.Status:
    wording = worded(reason, **params)
    field, text = clip(field, 200), clip(str(wording))
    details = error_details_pb2.BadRequest(
        field_violations=[Violation(field=field, description=text)]
    )
    status = status_pb2.Status(code=code, message=f"{field}: {text}")
    status.details.add().Pack(details)
    status.details.add().Pack(_info(wording))
    return rpc_status.to_status(status)


def _info(wording: Wording) -> error_details_pb2.ErrorInfo:
    """The wording as ErrorInfo: metadata `template` and each parameter (clipped)."""
    metadata = {name: clip(value, 200) for name, value in wording.params.items()}
    metadata["template"] = clip(wording.template)
    return error_details_pb2.ErrorInfo(reason=REFUSED, domain=WORDING_DOMAIN, metadata=metadata)


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
