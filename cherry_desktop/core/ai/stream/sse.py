"""`SseListener` (stream-manager.md, "API server SSE"): a topic's `UIMessageChunk`s onto one
server-sent-events response (the local API's, `core.gateway.agent_api`).

Id ``sse:<uuid>``; `is_alive()` is "the response is still open". Chunks are queued as they
come (`on_chunk` is synchronous) and written by the response's generator, `frames()`: one
``data: <chunk JSON>`` line per chunk, ``data: [DONE]`` once the topic is done. A subscriber,
not a renderer: it is carried onto a steer's continuation, and a caller that goes away only
closes it (the manager prunes it) while the stream and its persistence go on, whatever
``background_mode`` says (that stops only streams a window watched).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterable

from cherry_desktop.core.ai.stream.types import (
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    StreamTerminalResult,
    UniqueModelId,
)
from cherry_desktop.core.messages import UIMessageChunk

_END = object()
DONE_FRAME = b"data: [DONE]\n\n"


def chunk_frame(chunk: UIMessageChunk) -> bytes:
    return b"data: " + chunk.model_dump_json(exclude_none=True).encode() + b"\n\n"


class SseListener:
    """One SSE response's listener (see the module docstring)."""

    def __init__(self) -> None:
        self._id = f"sse:{uuid.uuid4()}"
        self._queue: asyncio.Queue[bytes | object] = asyncio.Queue()
        self._open = True
        self.terminal: StreamTerminalResult | None = None

    @property
    def id(self) -> str:
        return self._id

    def is_alive(self) -> bool:
        return self._open

    def replay(self, chunks: Iterable[UIMessageChunk]) -> None:
        """Queue an attach's compact replay (before any live chunk arrives)."""
        for chunk in chunks:
            self._queue.put_nowait(chunk_frame(chunk))

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: UniqueModelId | None = None,
                 anchor_message_id: str | None = None) -> None:
        if self._open:
            self._queue.put_nowait(chunk_frame(chunk))

    def _terminal(self, result: StreamTerminalResult) -> None:
        if result.is_topic_done and self._open:
            self.terminal = result
            self._queue.put_nowait(_END)

    async def on_done(self, result: StreamDoneResult) -> None:
        self._terminal(result)

    async def on_paused(self, result: StreamPausedResult) -> None:
        self._terminal(result)

    async def on_error(self, result: StreamErrorResult) -> None:
        self._terminal(result)

    def end(self) -> None:
        """End the response now (the topic ended before this listener was registered)."""
        if self._open:
            self._queue.put_nowait(_END)

    def close(self) -> None:
        """The response is over (written to its end, or its caller went away)."""
        self._open = False

    async def frames(self) -> AsyncIterator[bytes]:
        """The response body; closing it (a caller that left) closes the listener."""
        try:
            while True:
                item = await self._queue.get()
                if item is _END:
                    yield DONE_FRAME
                    return
                assert isinstance(item, bytes)
                yield item
        finally:
            self.close()


__all__ = ["DONE_FRAME", "SseListener", "chunk_frame"]
