"""The one place a grpc.aio handler is taken apart and rebuilt around a wrapper of its
behaviour: `WrappingInterceptor`, the base of the server's interceptors that act on every
call (the StatusInterceptor of server/status.py, the call log of server/app.py). They say
only how to wrap a unary and a server-streaming behaviour; the handler's serializers and
its kind stay as they were."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeAlias, cast

import grpc

#: A grpc.aio handler's behaviours (grpc's stubs type `RpcMethodHandler` for the synchronous
#: server: plain functions of a `grpc.ServicerContext`).
AioUnary = Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]]
AioStream = Callable[[Any, grpc.aio.ServicerContext], AsyncIterator[Any]]
#: A handler's request deserializer: a message from its bytes.
Decode = Callable[[bytes], Any]
#: (Strings: grpc's RpcMethodHandler is generic in its stubs only.)
Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"
Continuation: TypeAlias = "Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]]"


class WrappingInterceptor(grpc.aio.ServerInterceptor):
    """Wraps each call's behaviour, unary (`unary`) or server-streaming (`streaming`), and
    gives the server the handler rebuilt around the wrapper. Other handlers (reflection's
    bidirectional stream) and unknown methods pass as they are."""

    #: True when the wrappers are given the request's bytes, to decode themselves with the
    #: `decode` they are passed (the rebuilt handler then has no deserializer); else they are
    #: given the request message.
    decodes_requests = False

    async def intercept_service(
        self, continuation: Continuation, details: grpc.HandlerCallDetails
    ) -> Handler | None:
        handler = await continuation(details)
        if handler is None:
            return handler
        method = details.method
        self.handling(method)
        decode = handler.request_deserializer
        deserializer = None if self.decodes_requests else decode
        encode = handler.response_serializer
        if handler.unary_unary is not None:
            unary = self.unary(cast(AioUnary, handler.unary_unary), method, decode)
            return grpc.unary_unary_rpc_method_handler(unary, deserializer, encode)
        if handler.unary_stream is not None:
            stream = self.streaming(cast(AioStream, handler.unary_stream), method, decode)
            return grpc.unary_stream_rpc_method_handler(stream, deserializer, encode)
        return handler

    def handling(self, method: str) -> None:
        """Called once for each call of a method the server has a handler for (of any kind),
        before it runs; by default nothing."""

    @abstractmethod
    def unary(self, call: AioUnary, method: str, decode: Decode | None) -> AioUnary:
        """The behaviour that stands for the unary `call` of `method`."""

    @abstractmethod
    def streaming(self, call: AioStream, method: str, decode: Decode | None) -> AioStream:
        """The behaviour that stands for the server-streaming `call` of `method`."""
