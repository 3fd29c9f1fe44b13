"""What a window does with message actions: edit and resend (a branch in chats, a new turn in
agent sessions), delete with undo, and the window-wide shortcuts (copy the last answer,
regenerate it, edit the last message sent)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget

from cherry_desktop.core.state.topics import is_agent_session_topic
from cherry_desktop.ui.chat import COPY_SHORTCUT, REGENERATE_SHORTCUT, UndoBar

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges
    from cherry_desktop.ui.chat import MessageView
    from cherry_desktop.ui.composer import Composer


class ActionsWindow(Protocol):
    """The window, as its message actions need it."""

    topic_id: str | None
    bridges: Bridges
    message_view: MessageView
    composer: Composer

    @property
    def alive(self) -> bool: ...

    def is_streaming(self) -> bool: ...

    def regenerate(self, message_id: str) -> asyncio.Task[Any] | None: ...


class MessageActionsHandler(QObject):
    """Owned by one window (`widget`, where its shortcuts live); reaches it only through its
    public members."""

    def __init__(self, window: ActionsWindow, widget: QWidget, undo_bar: UndoBar) -> None:
        super().__init__(widget)
        self.window = window
        self.undo_bar = undo_bar
        # The message being edited in the composer (its next send branches from its parent).
        self.editing: str | None = None
        self._deleting: dict[str, str] = {}  # message id -> its topic, until the undo expires
        view = window.message_view
        view.edit_requested.connect(self.edit)
        view.delete_requested.connect(self.delete)
        undo_bar.undone.connect(lambda mid: view.set_row_hidden(mid, False))
        undo_bar.expired.connect(self._delete_for_real)
        window.composer.edit_last_requested.connect(self.edit_last)
        window.composer.cancel_edit_requested.connect(self.cancel_edit)
        QShortcut(QKeySequence(COPY_SHORTCUT), widget, self.copy_last)
        QShortcut(QKeySequence(REGENERATE_SHORTCUT), widget, self.regenerate_last)

    # -- edit and resend ----------------------------------------------------------------------
    def edit(self, message_id: str) -> None:
        row = self.window.message_view.row(message_id)
        if row is None:
            return
        self.editing = message_id
        composer = self.window.composer
        composer.editor.setPlainText(row.text())
        composer.editor.setFocus()
        composer.set_editing(True)

    def edit_last(self) -> None:
        view = self.window.message_view
        users = [r for r in view.rows() if view.can_edit(r) and r.isVisible()]
        if users:
            self.edit(users[-1].message_id)

    def take_parent_anchor(self) -> str | None:
        """Before a send: in a chat, a message being edited is replaced by a new branch from
        its parent (returned; its rows leave the view); agent sessions send a new turn."""
        message_id, self.editing = self.editing, None
        if message_id is None:
            return None
        self.window.composer.set_editing(False)
        topic_id = self.window.topic_id
        if topic_id is None or is_agent_session_topic(topic_id):
            return None
        bridges = self.window.bridges
        parent = bridges.chats.message_parent(topic_id, message_id)
        if parent is None:
            bridges.chats.start_branch_at_root(topic_id)
        self.window.message_view.truncate_from(message_id)
        return parent

    def cancel_edit(self) -> None:
        if self.editing is not None:
            self.editing = None
            self.window.composer.set_editing(False)

    # -- delete with undo ---------------------------------------------------------------------
    def delete(self, message_id: str) -> None:
        if self.window.topic_id is None:
            return
        self._deleting[message_id] = self.window.topic_id
        self.window.message_view.set_row_hidden(message_id, True)
        self.undo_bar.offer(message_id)

    def _delete_for_real(self, message_id: str) -> None:
        topic_id = self._deleting.pop(message_id, None)
        if topic_id is None:
            return
        self.window.bridges.chats.delete_message(topic_id, message_id)
        if self.window.alive and topic_id == self.window.topic_id:
            self.window.message_view.remove_row(message_id)

    # -- shortcuts ------------------------------------------------------------------------------
    def _last_answer(self) -> str | None:
        answers = [r for r in self.window.message_view.rows() if r.role == "assistant" and r.isVisible()]
        return answers[-1].message_id if answers else None

    def copy_last(self) -> None:
        message_id = self._last_answer()
        row = self.window.message_view.row(message_id) if message_id else None
        if row is not None:
            self.window.message_view.copy_row(row)

    def regenerate_last(self) -> None:
        message_id = self._last_answer()
        row = self.window.message_view.row(message_id) if message_id else None
        if row is not None and self.window.message_view.can_regenerate(row) and not self.window.is_streaming():
            self.window.regenerate(row.message_id)
