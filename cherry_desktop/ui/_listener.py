"""The Qt-side `StreamListener`: one per window and topic (the spec's WebContentsListener).

The manager calls `on_chunk` synchronously for every chunk; re-emitting a Qt signal per chunk
would repaint per chunk. Instead chunks are buffered and flushed once per frame (16 ms) as one
batch, and a terminal event first flushes what is buffered so order is kept.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal

log = logging.getLogger(__name__)

FRAME_MS = 16
# Under load (three windows at 2 000 chunks/s on a busy machine) a 16 ms frame can cost more
# than the frame itself; the listener then stretches its frame up to this long instead of
# letting the loop fall behind, and comes back to 16 ms once the loop keeps up.
MAX_FRAME_MS = 64


class StreamChunk:
    """One buffered chunk with its branch identity."""

    __slots__ = ("anchor_message_id", "chunk", "source_model_id")

    def __init__(self, chunk: Any, source_model_id: str | None, anchor_message_id: str | None) -> None:
        self.chunk = chunk
        self.source_model_id = source_model_id
        self.anchor_message_id = anchor_message_id


class QtStreamListener(QObject):
    """Forwards one topic's stream into a window, coalesced per frame.

    Signals:
        chunks_ready(list): the frame's `StreamChunk`s, in arrival order.
        done(object): a `StreamDoneResult` (after any buffered chunks).
        paused(object): a `StreamPausedResult`.
        errored(object): a `StreamErrorResult`.
    """

    chunks_ready = Signal(list)
    done = Signal(object)
    paused = Signal(object)
    errored = Signal(object)

    def __init__(self, window_key: str, topic_id: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._id = f"wc:{window_key}:{topic_id}"
        self.topic_id = topic_id
        self._buffer: list[StreamChunk] = []
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._on_frame)
        self.flush_count = 0
        self.frame_ms = FRAME_MS
        self._armed_at = 0.0
        # Windows attached to one topic receive each chunk together; offsetting their frames
        # by a few ms keeps three windows from painting in the same loop iteration.
        self._phase_ms = (sum(map(ord, window_key)) % 3) * (FRAME_MS // 3)
        self._last_flush = 0.0

    # -- StreamListener protocol ------------------------------------------------------------
    @property
    def id(self) -> str:
        return self._id

    def on_chunk(self, chunk: Any, source_model_id: str | None = None,
                 anchor_message_id: str | None = None) -> None:
        if not self.is_alive():
            return
        self._buffer.append(StreamChunk(chunk, source_model_id, anchor_message_id))
        if not self._timer.isActive():
            now = time.monotonic()
            self._armed_at = now
            idle = (now - self._last_flush) * 1000 > 2 * self.frame_ms
            self._timer.start(self.frame_ms + (self._phase_ms if idle else 0))

    async def on_done(self, result: Any) -> None:
        self._terminal(self.done, result)

    async def on_paused(self, result: Any) -> None:
        self._terminal(self.paused, result)

    async def on_error(self, result: Any) -> None:
        self._terminal(self.errored, result)

    def is_alive(self) -> bool:
        return not self._closed and shiboken6.isValid(self)

    # -- window side ------------------------------------------------------------------------
    def feed_replay(self, chunks: list[StreamChunk]) -> None:
        """Deliver attach replay chunks ahead of anything live (same path as live chunks)."""
        self._buffer[:0] = chunks
        self.flush()

    def _on_frame(self) -> None:
        # How late the frame timer fired says how busy the loop is.
        late_ms = (time.monotonic() - self._armed_at) * 1000 - self._timer.interval()
        if late_ms > self.frame_ms / 2:
            self.frame_ms = min(MAX_FRAME_MS, self.frame_ms * 2)
        elif late_ms < 4 and self.frame_ms > FRAME_MS:
            self.frame_ms = max(FRAME_MS, int(self.frame_ms * 0.75))
        self.flush()

    def flush(self) -> None:
        if not self.is_alive():
            self._buffer.clear()
            return
        self._timer.stop()
        if not self._buffer:
            return
        batch, self._buffer = self._buffer, []
        self._last_flush = time.monotonic()
        self.flush_count += 1
        self.chunks_ready.emit(batch)

    def close(self) -> None:
        """The window closed or switched topic: the manager drops us at its next dispatch."""
        self._closed = True
        self._buffer.clear()
        if shiboken6.isValid(self):
            self._timer.stop()

    def _terminal(self, signal: Any, result: Any) -> None:
        if not self.is_alive():
            return
        self.flush()
        signal.emit(result)
