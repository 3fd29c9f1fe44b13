"""`WindowStream`: one window's subscription to its topic's stream.

It owns the window's `QtStreamListener` (subscribe on showing a topic, drop on switching or
closing), attaches with the compact replay (`Ai_Stream_Attach`), renders the live chunks
into the message view and handles each terminal event (finish the live rows, re-read the
database once). It words nothing: the window says what goes wrong (`failed`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from cherry_desktop.ui.bridge import QtStreamListener, StreamChunk
from cherry_desktop.ui.chat import refresh_footers, terminal_error
from cherry_desktop.ui.common import spawn
from cherry_desktop.ui.session import follow_session_header

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges, QtSharedCache
    from cherry_desktop.ui.chat import MessageView, UsageSummary
    from cherry_desktop.ui.session import SessionHeader


class StreamOwner(Protocol):
    """The window, as its stream needs it."""

    bridges: Bridges
    cache: QtSharedCache
    window_key: str

    @property
    def alive(self) -> bool: ...


class WindowStream(QObject):
    """The live side of a window (see module docstring).

    Signals:
        live_changed(): whether the topic streams here may have changed (composer state).
        turn_finished(str, str): topic id and terminal status ("success", "paused", "error").
        reloaded(): the rows were re-read from the database after a terminal.
        failed(object): an attach failed with this exception.
    """

    live_changed = Signal()
    turn_finished = Signal(str, str)
    reloaded = Signal()
    failed = Signal(object)

    def __init__(self, window: StreamOwner, owner: QObject, message_view: MessageView,
                 session_header: SessionHeader, usage_summary: UsageSummary) -> None:
        super().__init__(owner)
        self.window = window
        self.bridges = window.bridges
        self.cache = window.cache
        self.window_key: str = window.window_key
        self.message_view = message_view
        self.session_header = session_header
        self.usage_summary = usage_summary
        self.topic_id: str | None = None
        self.listener: QtStreamListener | None = None
        # True from a send (or a live status seen) until the topic's last terminal.
        self.attached_live = False
        self.live_text_at_terminal: str | None = None
        self.closed = False

    # -- subscription --------------------------------------------------------------------------
    def subscribe(self, topic_id: str | None) -> asyncio.Task[Any] | None:
        """Follow `topic_id` from now on (None: nothing); returns the attach task."""
        self.drop()
        self.topic_id = topic_id
        self.attached_live = False
        if topic_id is None:
            return None
        listener = QtStreamListener(self.window_key, topic_id, self)
        listener.chunks_ready.connect(self.on_chunks)
        listener.done.connect(lambda r: self.on_terminal("success", r))
        listener.paused.connect(lambda r: self.on_terminal("paused", r))
        listener.errored.connect(lambda r: self.on_terminal("error", r))
        self.listener = listener
        return spawn(self.attach(), on_error=self.failed.emit)

    def drop(self) -> None:
        """Detach the listener (the stream goes on and persists)."""
        listener, topic_id = self.listener, self.topic_id
        self.listener = None
        if listener is None or topic_id is None:
            return
        listener.close()
        spawn(self.bridges.streams.detach(topic_id, listener))

    def close(self) -> None:
        self.closed = True
        self.drop()

    @property
    def alive(self) -> bool:
        return not self.closed and bool(self.window.alive)

    async def attach(self) -> None:
        """`Ai_Stream_Attach`: replay what was missed, then live chunks continue."""
        listener, topic_id = self.listener, self.topic_id
        if listener is None or topic_id is None:
            return
        response = await self.bridges.streams.attach(topic_id, listener)
        if not self.alive or listener is not self.listener:
            return  # switched topic meanwhile
        if response.status == "streaming":
            self.attached_live = True
            for replay in response.replays:
                # Multi-model replays carry their model id, as live chunks of such a turn do.
                source = replay.execution_id if response.is_multi_model else None
                listener.feed_replay([StreamChunk(c, source, replay.anchor_message_id) for c in replay.chunks])
        elif response.final_messages:
            for message in response.final_messages.values():
                row = self.message_view.row(message.id)
                if row is not None and row.status == "pending":
                    row.set_parts(list(message.parts), status="success" if response.status == "done"
                                  else ("error" if response.status == "error" else "paused"))
        self.live_changed.emit()

    def follow_status(self, topic_id: str, is_live: bool) -> None:
        """The shared cache says `topic_id` streams (or not): subscribe to a turn another
        window (or the agent's queue) started."""
        if topic_id == self.topic_id and is_live and not self.attached_live and self.listener is not None:
            self.attached_live = True
            spawn(self.attach(), on_error=self.failed.emit)

    def is_streaming(self) -> bool:
        if self.topic_id is None:
            return False
        return bool(self.cache.topic_status(self.topic_id).is_live) or self.attached_live

    # -- live ----------------------------------------------------------------------------------
    def on_chunks(self, batch: list[StreamChunk]) -> None:
        self.message_view.apply_batch(batch)
        follow_session_header(self.session_header, batch)

    def on_terminal(self, status: str, result: Any) -> None:
        # `result` is one of core's terminal results (done, paused, error: only an error has
        # `error`); their types load with the stream package, after the first paint.
        error_text, error_code = terminal_error(result)
        self.message_view.finish_live(status, error_text, getattr(result, "anchor_message_id", None), error_code)
        self.live_text_at_terminal = self.live_text()
        self.session_header.set_todos(None)
        if bool(getattr(result, "is_topic_done", True)):
            self.attached_live = False
        self.turn_finished.emit(self.topic_id or "", status)
        self.live_changed.emit()
        self.reload_after_terminal()

    def reload_after_terminal(self) -> None:
        """Re-read the database once: the broker tells a window about a terminal only after
        the terminal write finished, so the rows are final by now (no polling)."""
        if self.alive and self.topic_id is not None:
            self.message_view.reload()
            self.reloaded.emit()
            # An agent turn's usage is written just after its end is told: read it after that.
            QTimer.singleShot(0, self.refresh_usage)

    def refresh_usage(self) -> None:
        if self.alive and self.topic_id is not None:
            self.usage_summary.show_totals(self.bridges.chats.usage_totals(self.topic_id))
            refresh_footers(self.bridges.chats, self.message_view.rows())

    def live_text(self) -> str:
        """Text of the assistant rows currently shown (tests compare windows with it)."""
        return "\n".join(r.text() for r in self.message_view.rows() if r.role == "assistant")
