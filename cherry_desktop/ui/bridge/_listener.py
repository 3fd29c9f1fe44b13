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
from PySide6.QtCore import QObject, Qt, QTimer, Signal

from cherry_desktop.core.ai.renderer import RendererListener

log = logging.getLogger(__name__)

FRAME_MS = 16
# Under load (three windows at 2 000 chunks/s on a busy machine) a 16 ms frame can cost more
# than the frame itself; the listener then stretches its frame up to this long instead of
# letting the loop fall behind, and comes back to 16 ms once the loop keeps up.
MAX_FRAME_MS = 64
# Windows attached to one topic receive each chunk together. Frames fire on a grid of
# FRAME_MS shared by all listeners, each listener at its own phase (one of PHASES slots),
# so three windows commit and paint in different loop iterations. Arming "FRAME_MS after
# the first chunk" instead lets one busy iteration line all windows up for good.
PHASES = 3


def next_frame_delay_ms(now_ms: float, earliest_ms: float, phase_ms: float) -> float:
    """Milliseconds from `now_ms` to the first grid point (k * FRAME_MS + `phase_ms`) at or
    after `earliest_ms`."""
    k = -(-(earliest_ms - phase_ms) // FRAME_MS)
    return max(0.0, k * FRAME_MS + phase_ms - now_ms)


class StreamChunk:
    """One buffered chunk with its branch identity."""

    __slots__ = ("anchor_message_id", "chunk", "source_model_id")

    def __init__(self, chunk: Any, source_model_id: str | None, anchor_message_id: str | None) -> None:
        self.chunk = chunk
        self.source_model_id = source_model_id
        self.anchor_message_id = anchor_message_id


class QtStreamListener(QObject, RendererListener):
    """Forwards one topic's stream into a window, coalesced per frame (a `RendererListener`:
    with background mode "abort", the stream stops when the last window's listener goes).

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
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._on_frame)
        self.flush_count = 0
        self.frame_ms = FRAME_MS
        self._due_ms = 0.0
        self._phase_ms = (sum(map(ord, window_key)) % PHASES) * FRAME_MS / PHASES
        self._last_due_ms = -float(MAX_FRAME_MS)

    @property
    def phase_ms(self) -> float:
        """Where in each frame this window's flushes fall (windows are spread across a frame)."""
        return self._phase_ms

    @property
    def due_ms(self) -> float:
        """When the next flush is due (loop time, ms; 0 before the first chunk)."""
        return self._due_ms

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
            now_ms = time.monotonic() * 1000
            # At most one frame per `frame_ms`; a first chunk after a pause waits a few ms so
            # the frame can gather the chunks arriving with it.
            # (From the last frame's due time, not its actual time: a frame that fired a bit
            # late must not push the next one a whole grid step further.)
            earliest = max(now_ms + FRAME_MS / PHASES, self._last_due_ms + self.frame_ms)
            delay = next_frame_delay_ms(now_ms, earliest, self._phase_ms)
            self._due_ms = now_ms + delay
            self._timer.start(round(delay))

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
        late_ms = time.monotonic() * 1000 - self._due_ms
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
        self._last_due_ms = self._due_ms
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
