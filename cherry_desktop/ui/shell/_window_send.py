"""`WindowSend`: what a window sends: a new turn, a steer into the running turn or a queued
turn, a regenerate, a stop, the user's answer to a tool call, and the queue dock's actions.
The window shows the user's row at once; the task only sends (and may outlive the window:
closing it right after Enter must not drop the message)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QApplication

from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.ui.common import spawn
from cherry_desktop.ui.composer import SentFiles

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import QtStreamListener
    from cherry_desktop.ui.shell._window_parts import WindowParts


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChatWindow", text)  # the window's words (its .ts context)


class WindowSend(QObject):
    """Sends from one window (see module docstring)."""

    def __init__(self, window: WindowParts, parent: QObject) -> None:
        super().__init__(parent)
        self.window = window

    def submit(self, text: str, mode: str) -> asyncio.Task[Any] | None:
        """Send `text`: a new turn ("send"), a steer into the running turn, or a queued turn."""
        w = self.window
        if w.topic_id is None or w.listener is None:
            return None
        # Only the chat's own model can hold a send back: another one that cannot answer
        # (no key) is left out, and the header says so (`header_issue`).
        issue = w.bridges.providers.chat_issue(w.topic_id)
        if issue is not None and issue.blocks_send and mode == "send":
            # Say what is missing instead of sending into a certain failure; keep the text.
            w.chat_header.set_issue(issue)
            w.show_error(w.words.describe(issue))
            if not w.composer.editor.toPlainText().strip():
                w.composer.editor.setPlainText(text)
            return None
        from cherry_desktop.core.messages import new_id  # loaded after first paint

        files = SentFiles.stage(w.bridges.attachments, w.composer, w.topic_id, text)
        if files.error:  # not stored: nothing is sent, the composer keeps text and files
            w.show_error(files.error)
            return None
        # Everything the window shows happens now, while it surely exists; the task only sends.
        parent = w.actions_handler.take_parent_anchor() if mode == "send" else None
        local_id = f"local:{new_id()}"
        if mode != "queue":
            # Shown at once, before any reply chunk can arrive; renamed once core names it.
            w.message_view.add_user_row(local_id, text, steer=mode == "steer", files=files.parts)
        w.stream.attached_live = True
        w.update_composer()
        skipped = w.bridges.multi_model.skipped_issue(w.topic_id) if mode == "send" else None
        if skipped is not None:
            w.chat_header.set_issue(skipped)
            w.statusBar().showMessage(w.words.describe(skipped), 8000)
        return spawn(self._submit(w.topic_id, w.listener, text, mode, local_id, parent, files),
                     on_error=w.report_error)

    async def _submit(self, topic_id: str, listener: QtStreamListener, text: str, mode: str, local_id: str,
                      parent: str | None = None, files: SentFiles | None = None) -> Any:
        w = self.window
        files = files or SentFiles()
        try:
            result = await w.bridges.streams.submit(
                topic_id, files.message_parts(text), listener, follow_up_mode="queue" if mode == "queue" else "steer",
                parent_anchor_id=parent,
                mentioned_model_ids=w.bridges.multi_model.models_to_ask(topic_id) if mode == "send" else [])
        except Exception:
            files.settle(w.bridges.attachments, topic_id, composer=w.composer if w.alive else None, text=text)
            if w.alive:
                w.stream.attached_live = w.cache.topic_status(topic_id).is_live
                w.update_composer()
                if topic_id == w.topic_id and w.message_view.row(local_id) is not None:
                    # Refused before core named the row (a full disk, a refused send): it was
                    # never saved, so it leaves the view and the text goes back to the composer.
                    w.message_view.remove_row(local_id)
                    if not w.composer.editor.toPlainText().strip():
                        w.composer.editor.setPlainText(text)
            raise
        files.settle(w.bridges.attachments, topic_id)
        if not w.alive or topic_id != w.topic_id:
            return result  # sent and saved; this window is gone or shows another topic
        row = w.message_view.row(local_id)
        if row is not None and result.user_message_id:
            w.message_view.rename_row(local_id, result.user_message_id)
        if result.follow_up == "queued" and row is not None:
            w.message_view.remove_row(result.user_message_id or local_id)
        if result.follow_up == "queued" or mode == "queue":
            self.refresh_queue()
            w.statusBar().showMessage(_tr("Queued for the next turn"), 4000)
        elif result.follow_up == "injected":
            w.statusBar().showMessage(_tr("Steered into the running turn"), 4000)
        return result

    def refresh_queue(self) -> None:
        """The queue dock lists the session's queued follow-ups (their rows stay hidden)."""
        w = self.window
        session_id = session_id_from_topic(w.topic_id) if w.topic_id else None
        items = w.bridges.sessions.list_queued(session_id) if session_id else []
        hidden = {i.message_id for i in items}
        released = w.message_view.hidden_ids - hidden
        w.message_view.hidden_ids = hidden
        if released:
            # A queued follow-up left the dock (it runs now, or was steered in): its user row
            # belongs in the conversation again. A reload keeps rows that are streaming.
            w.message_view.reload()
        w.queue_dock.set_items(items, held=w.bridges.sessions.is_queue_held(session_id) if session_id else False)

    def regenerate(self, message_id: str) -> asyncio.Task[Any] | None:
        """`Ai_Stream_Open` with `regenerate-message`: another answer to the same question."""
        w = self.window
        if w.topic_id is None or w.listener is None:
            return None
        topic_id, listener = w.topic_id, w.listener
        w.stream.attached_live = True
        w.update_composer()

        async def run() -> Any:
            try:
                return await w.bridges.streams.regenerate(topic_id, message_id, listener)
            except Exception:
                if w.alive:
                    w.stream.attached_live = False
                    w.update_composer()
                raise

        return spawn(run(), on_error=w.report_error)

    def stop(self) -> None:
        w = self.window
        if w.topic_id is not None:
            spawn(w.bridges.streams.abort(w.topic_id), on_error=w.report_error)

    # -- the queue dock --------------------------------------------------------------------------
    def on_queue_changed(self, session_id: str) -> None:
        w = self.window
        if w.topic_id and session_id_from_topic(w.topic_id) == session_id:
            self.refresh_queue()

    def queue_action(self, action: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        w = self.window
        session_id = session_id_from_topic(w.topic_id) if w.topic_id else None
        if session_id is None:
            return
        spawn(action(session_id, *args), on_error=w.report_error)

    # -- tool approvals ----------------------------------------------------------------------------
    def on_always_allowed(self, approval_id: str, tool_name: str) -> None:
        self.on_approval_decided(approval_id, True, "", always=True)
        self.window.statusBar().showMessage(
            _tr("%1 is allowed without asking for the rest of this session").replace("%1", tool_name), 8000)

    def on_approval_decided(self, approval_id: str, allowed: bool, reason: str = "", *,
                            always: bool = False) -> None:
        w = self.window
        if w.topic_id is None:
            return
        topic_id = w.topic_id
        focus = QApplication.focusWidget()
        if focus is not None and (focus is w.approval_card or w.approval_card.isAncestorOf(focus)):
            w.composer.editor.setFocus()  # the keyboard goes back to where the user writes

        async def respond() -> None:
            # With `always`, the bridge tells every window of the session the new grant.
            await w.bridges.streams.respond_tool_approval(topic_id, approval_id, allowed, reason or None,
                                                          always_allow=always)
            if w.alive:
                w.message_view.mark_approval_responded(approval_id, allowed)

        spawn(respond(), on_error=w.report_error)
        w.message_view.mark_approval_responded(approval_id, allowed)

    def refresh_approval(self) -> None:
        w = self.window
        # Only a live turn can take an answer: a row a stopped turn left asking offers nothing.
        pending = w.message_view.pending_approvals() if w.stream.is_streaming() else []
        if pending:
            w.approval_card.show_approval(pending[0])
            w.approval_card.setVisible(True)
        else:
            w.approval_card.clear()
            w.approval_card.setVisible(False)
