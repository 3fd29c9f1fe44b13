"""Server-sent events over httpx, raced against an `AbortSignal`.

`race(awaitable, signal)` resolves the awaitable or raises `StreamAbortedError` as soon as the
signal fires, so a stuck connect or a silent read never delays a stop. `SseDecoder` turns
text pieces into events (multi-line `data:`, `event:`, comments, CRLF).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import TypeVar

import httpx

from cherry_desktop.core.ai.stream.types import AbortSignal

T = TypeVar("T")


class StreamAbortedError(Exception):
    """The request's signal fired while waiting on the network."""


async def race(awaitable: Awaitable[T], signal: AbortSignal | None) -> T:
    """Await `awaitable`, or raise `StreamAbortedError` the moment `signal` fires."""
    if signal is None:
        return await awaitable
    if signal.aborted:
        if asyncio.iscoroutine(awaitable):
            awaitable.close()
        raise StreamAbortedError(signal.reason)
    work = asyncio.ensure_future(awaitable)
    stop = asyncio.ensure_future(signal.wait())
    try:
        await asyncio.wait({work, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
        if not work.done():
            work.cancel()
            with contextlib.suppress(BaseException):
                await work
    if not work.done() or work.cancelled():
        raise StreamAbortedError(signal.reason)
    return work.result()


@dataclass(frozen=True)
class SseEvent:
    event: str
    data: str


class SseDecoder:
    def __init__(self) -> None:
        self._buf = ""
        self._event = ""
        self._data: list[str] = []

    def feed(self, text: str) -> list[SseEvent]:
        self._buf += text
        events: list[SseEvent] = []
        while True:
            idx = self._buf.find("\n")
            if idx < 0:
                break
            line = self._buf[:idx].rstrip("\r")
            self._buf = self._buf[idx + 1:]
            ev = self._line(line)
            if ev is not None:
                events.append(ev)
        return events

    def flush(self) -> list[SseEvent]:
        events = self.feed("\n") if self._buf else []
        ev = self._line("")
        return [*events, ev] if ev is not None else events

    def _line(self, line: str) -> SseEvent | None:
        if line == "":
            if not self._data and not self._event:
                return None
            ev = SseEvent(event=self._event or "message", data="\n".join(self._data))
            self._event, self._data = "", []
            return ev
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        return None


#: How long a reader that stopped at its last event waits for the body's end (see `_finish_body`).
_BODY_END_WAIT_S = 1.0


async def iter_sse(response: httpx.Response, signal: AbortSignal | None) -> AsyncGenerator[SseEvent, None]:
    """Events of a streaming response; every network read is raced against `signal`."""
    decoder = SseDecoder()
    pieces = response.aiter_text()
    try:
        while True:
            try:
                text = await race(pieces.__anext__(), signal)
            except StopAsyncIteration:
                break
            for ev in decoder.feed(text):
                yield ev
        for ev in decoder.flush():
            yield ev
    except BaseException as exc:
        stopped = isinstance(exc, asyncio.CancelledError) or (signal is not None and signal.aborted)
        await _finish_body(pieces, drain=not stopped)
        raise
    await _finish_body(pieces, drain=False)


async def _finish_body(pieces: AsyncIterator[str], *, drain: bool) -> None:
    """With `drain`, read what is left of a body whose reader stopped at its last event (a
    server ends the body right after it): httpx's generators then end instead of staying
    suspended until the garbage collector closes them from a task of its own (one a closing
    loop may never run), and the connection goes back to the pool. Not after Stop or a
    cancel (`drain` False), and not for long."""
    if drain:
        with contextlib.suppress(Exception, TimeoutError):
            async with asyncio.timeout(_BODY_END_WAIT_S):
                async for _ in pieces:
                    pass
    if isinstance(pieces, AsyncGenerator):
        with contextlib.suppress(Exception):
            await pieces.aclose()
