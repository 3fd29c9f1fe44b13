"""HTTP answers of the gateway: errors in the caller's dialect, SSE frames, and a streamed
response that sends nothing before its first frame exists.

`stream_after_first` awaits the first frame while watching the caller: a provider that fails
before its first chunk becomes a real HTTP status (`UpstreamHttpError`), and a caller that goes
away meanwhile closes the upstream request. Once streaming, starlette's response cancels the
frame generator when the caller disconnects (ASGI spec 2.3 from uvicorn), which closes the
upstream request the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from cherry_desktop.core.ai.stream.sse import DONE_FRAME
from cherry_desktop.core.gateway.to_anthropic import anthropic_error
from cherry_desktop.core.gateway.to_openai import openai_error
from cherry_desktop.core.gateway.upstream import Dialect, UpstreamHttpError
from cherry_desktop.core.gateway.wire import WireObject

_ANTHROPIC_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                          404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
                          529: "overloaded_error"}
_OPENAI_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                       404: "not_found_error", 429: "rate_limit_error"}
#: nginx's "client closed request": logged, never seen by the caller (it is gone).
CLIENT_CLOSED = 499
_SSE_HEADERS = {"content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no"}


def error_type_for(dialect: Dialect, status: int) -> str:
    table = _ANTHROPIC_ERROR_TYPES if dialect == "anthropic" else _OPENAI_ERROR_TYPES
    return table.get(status, "api_error")


def error_body(dialect: Dialect, status: int, message: str, error_type: str | None = None) -> WireObject:
    kind = error_type or error_type_for(dialect, status)
    return anthropic_error(kind, message) if dialect == "anthropic" else openai_error(kind, message)


def error_response(dialect: Dialect, status: int, message: str, error_type: str | None = None) -> Response:
    return JSONResponse(error_body(dialect, status, message, error_type), status_code=status)


def upstream_error_response(dialect: Dialect, error: UpstreamHttpError) -> Response:
    """The upstream's refusal with its own status; its body as it was when it speaks the
    caller's dialect, else its message in the caller's shape."""
    if error.dialect == dialect and error.body:
        with contextlib.suppress(ValueError):
            body = json.loads(error.body)
            if isinstance(body, dict):
                return JSONResponse(body, status_code=error.status)
    return error_response(dialect, error.status, error.message)


def anthropic_frame(event: str, data: WireObject | str) -> bytes:
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return f"event: {event}\ndata: {payload}\n\n".encode()


def data_frame(data: WireObject | str) -> bytes:
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return f"data: {payload}\n\n".encode()



def stream_error_frame(dialect: Dialect, error_type: str, message: str) -> bytes:
    """A failure after the stream started, as the caller's dialect says one."""
    if dialect == "anthropic":
        return anthropic_frame("error", anthropic_error(error_type, message))
    return data_frame(openai_error(error_type, message))


async def wait_disconnect(request: Request) -> None:
    """Returns once the caller closed its connection (the body was read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def _chain(first: bytes, rest: AsyncGenerator[bytes, None]) -> AsyncIterator[bytes]:
    try:
        yield first
        async for frame in rest:
            yield frame
    finally:
        await rest.aclose()


async def stream_after_first(request: Request, frames: AsyncGenerator[bytes, None], dialect: Dialect) -> Response:
    """Stream `frames` as SSE once the first one exists (see the module docstring)."""
    first = asyncio.ensure_future(frames.__anext__())
    gone = asyncio.ensure_future(wait_disconnect(request))
    try:
        await asyncio.wait({first, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not first.done():
        first.cancel()
        with contextlib.suppress(BaseException):
            await first
        await frames.aclose()
        return Response(status_code=CLIENT_CLOSED)
    try:
        head = first.result()
    except UpstreamHttpError as error:
        return upstream_error_response(dialect, error)
    except StopAsyncIteration:
        return error_response(dialect, 502, "the upstream sent an empty stream")
    return StreamingResponse(_chain(head, frames), headers=_SSE_HEADERS)


def sse_response(frames: AsyncIterator[bytes]) -> StreamingResponse:
    """An SSE response that starts at once (the agent API: its stream exists already)."""
    return StreamingResponse(frames, headers=_SSE_HEADERS)


__all__ = ["CLIENT_CLOSED", "DONE_FRAME", "anthropic_frame", "data_frame", "error_body", "error_response",
           "error_type_for", "sse_response", "stream_after_first", "stream_error_frame",
           "upstream_error_response", "wait_disconnect"]
