"""The composer and the queued follow-ups dock."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import AttachmentCandidate, QueuedFollowUp
from cherry_desktop.ui.common import ask_text
from cherry_desktop.ui.composer._attach_tray import AttachmentTray, offers_files
from cherry_desktop.ui.composer._completion import ComposerCompletion


class _Editor(QPlainTextEdit):
    """Enter sends, Shift+Enter breaks the line, Ctrl+Enter steers, Esc stops, Up in an empty
    box edits the last message sent."""

    enter = Signal()
    ctrl_enter = Signal()
    escape = Signal()
    up_when_empty = Signal()
    # Pasted or dropped files / an image (text pastes stay text).
    files_offered = Signal(QMimeData)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return offers_files(source) or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        if offers_files(source):
            self.files_offered.emit(source)
        else:
            super().insertFromMimeData(source)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if mods & Qt.KeyboardModifier.ControlModifier:
                self.ctrl_enter.emit()
                return
            if not mods & Qt.KeyboardModifier.ShiftModifier:
                self.enter.emit()
                return
        if key == Qt.Key.Key_Escape:
            self.escape.emit()
            return
        if key == Qt.Key.Key_Up and not mods and not self.toPlainText():
            self.up_when_empty.emit()
            return
        super().keyPressEvent(event)


class Composer(QFrame):
    """Message input. Idle: Send. While a turn streams: Steer now, Queue and Stop.

    Signals:
        submitted(str, str): text and mode ("send", "steer" or "queue").
        stop_requested(): the user pressed Stop (or Esc).
        edit_last_requested(): Up in the empty box: edit the last message sent.
        cancel_edit_requested(): Esc while editing a sent message.
    """

    submitted = Signal(str, str)
    stop_requested = Signal()
    edit_last_requested = Signal()
    cancel_edit_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.streaming = False
        self.can_steer = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.editor = _Editor(self)
        self.editor.setObjectName("composerInput")
        self.editor.setPlaceholderText(self.tr("Message (Enter to send, Shift+Enter for a new line)"))
        self.editor.setFixedHeight(84)
        # Tab moves the focus (to a waiting approval card first), as in a chat box; it does
        # not type a tab character.
        self.editor.setTabChangesFocus(True)
        # "/" commands and "@" files (`set_commands`, `set_files`); its list eats the keys it
        # uses while it shows (Enter picks, it does not send).
        self.completion = ComposerCompletion(self.editor)
        # Files for the next message: pasted, dropped (here or on the box) or picked.
        self.attachments = AttachmentTray(self)
        self.editor.files_offered.connect(self.attachments.add_mime)
        self.setAcceptDrops(True)
        layout.addWidget(self.attachments)
        layout.addWidget(self.editor)
        buttons = QHBoxLayout()
        self.attach_button = self._button("attachButton", self.tr("Attach…"),
                                          self.tr("Attach images or text files (or paste / drop them here)"))
        self.attach_button.clicked.connect(self.attachments.pick_files)
        buttons.addWidget(self.attach_button)
        self.hint = QLabel(self)
        self.hint.setObjectName("composerHint")
        buttons.addWidget(self.hint, 1)
        self.steer_button = self._button("steerButton", self.tr("Steer now"),
                                         self.tr("Inject into the running turn (Ctrl+Enter)"))
        self.queue_button = self._button("queueButton", self.tr("Queue"), self.tr("Send as the next turn (Enter)"))
        self.stop_button = self._button("stopButton", self.tr("Stop"), self.tr("Stop the reply (Esc)"))
        self.send_button = self._button("sendButton", self.tr("Send"), self.tr("Send (Enter)"))
        for b in (self.steer_button, self.queue_button, self.stop_button, self.send_button):
            buttons.addWidget(b)
        layout.addLayout(buttons)
        self.send_button.clicked.connect(lambda: self._submit("send"))
        self.steer_button.clicked.connect(lambda: self._submit("steer"))
        self.queue_button.clicked.connect(lambda: self._submit("queue"))
        self.stop_button.clicked.connect(self.stop_requested)
        self.editor.enter.connect(lambda: self._submit("queue" if self.streaming else "send"))
        self.editor.ctrl_enter.connect(lambda: self._submit("steer" if self.streaming else "send"))
        self.editor.escape.connect(self._on_escape)
        self.editor.up_when_empty.connect(self.edit_last_requested)
        self.editing = False
        self.set_streaming(False)

    def _button(self, name: str, text: str, tip: str) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(name)
        b.setToolTip(tip)
        return b

    def set_streaming(self, streaming: bool, *, can_steer: bool | None = None) -> None:
        self.streaming = streaming
        if can_steer is not None:
            self.can_steer = can_steer
        self.send_button.setVisible(not streaming)
        self.stop_button.setVisible(streaming)
        self.queue_button.setVisible(streaming)
        # A runtime without a mid-turn steer (its descriptor says so) offers Queue only.
        self.steer_button.setVisible(streaming and self.can_steer)
        self.steer_button.setEnabled(self.can_steer)
        self._set_hint()

    def set_editing(self, editing: bool) -> None:
        """A sent message is in the box: the next send replaces it (a branch in chats)."""
        self.editing = editing
        if not editing:
            self.editor.clear()
        self._set_hint()

    def _set_hint(self) -> None:
        if self.streaming and self.can_steer:
            self.hint.setText(self.tr("Replying… Ctrl+Enter steers, Enter queues, Esc stops."))
        elif self.streaming:
            self.hint.setText(self.tr("Replying… Enter queues the next turn, Esc stops."))
        elif self.editing:
            self.hint.setText(self.tr("Editing a sent message: Enter sends it again, Esc cancels."))
        else:
            self.hint.setText("")

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if offers_files(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if self.attachments.add_mime(event.mimeData()):
            event.acceptProposedAction()

    def take_attachments(self) -> list[AttachmentCandidate]:
        """The files of the message being sent (the tray empties)."""
        return self.attachments.take()

    def _submit(self, mode: str) -> None:
        text = self.editor.toPlainText().strip()
        if not text and not self.attachments.items:
            return
        if mode == "steer" and not self.can_steer:
            mode = "queue"
        self.editor.clear()
        self.completion.hide()
        self.submitted.emit(text, mode)

    def _on_escape(self) -> None:
        if self.streaming:
            self.stop_requested.emit()
        elif self.editing:
            self.cancel_edit_requested.emit()


class QueueDock(QFrame):
    """Queued follow-ups of an agent session: edit, remove, reorder, steer now.

    Signals:
        edit_requested(str, str): message id and its new text.
        remove_requested(str): message id.
        reorder_requested(list): message ids in the new order.
        steer_now_requested(str): message id.
        resume_requested(): run the held queue (held after a Stop or an error).
    """

    edit_requested = Signal(str, str)
    remove_requested = Signal(str)
    reorder_requested = Signal(list)
    steer_now_requested = Signal(str)
    resume_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("queueDock")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 4, 8, 4)
        self._layout.setSpacing(2)
        self.title = QLabel(self)
        self.title.setObjectName("queueTitle")
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        self.resume_button = QToolButton(self)
        self.resume_button.setObjectName("queueResume")
        self.resume_button.setText(self.tr("Resume queue"))
        self.resume_button.setToolTip(self.tr("The queue is paused after a stop or an error."))
        self.resume_button.clicked.connect(self.resume_requested)
        header.addWidget(self.resume_button)
        self._layout.addLayout(header)
        self.items: list[QueuedFollowUp] = []
        self.held = False
        self._rows: list[QWidget] = []
        self.setVisible(False)

    def rows(self) -> list[QWidget]:
        """The dock's rows (`queueItem`), one per queued follow-up, in order."""
        return list(self._rows)

    def set_items(self, items: list[QueuedFollowUp], *, held: bool = False) -> None:
        for row in self._rows:
            self._layout.removeWidget(row)
            row.deleteLater()
        self._rows.clear()
        self.items = list(items)
        self.held = held
        self.resume_button.setVisible(held and bool(self.items))
        self.title.setText(self.tr("Queued for the next turn (%n)", "", len(self.items)))
        for index, item in enumerate(self.items):
            row = self._make_row(index, item)
            self._rows.append(row)
            self._layout.addWidget(row)
        self.setVisible(bool(self.items))

    def _make_row(self, index: int, item: QueuedFollowUp) -> QWidget:
        row = QWidget(self)
        row.setObjectName("queueItem")
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        label = QLabel(item.text, row)
        label.setObjectName("queueItemText")
        label.setWordWrap(True)
        h.addWidget(label, 1)

        def tool(name: str, text: str, tip: str, slot: Callable[[], object], enabled: bool = True) -> None:
            b = QToolButton(row)
            b.setObjectName(name)
            b.setText(text)
            b.setToolTip(tip)
            b.setEnabled(enabled)
            b.clicked.connect(slot)
            h.addWidget(b)

        mid = item.message_id
        tool("queueUp", "↑", self.tr("Move up"), lambda: self._move(index, -1), index > 0)
        tool("queueDown", "↓", self.tr("Move down"), lambda: self._move(index, 1), index < len(self.items) - 1)
        tool("queueEdit", self.tr("Edit"), self.tr("Edit this message"), lambda: self._edit(mid, item.text))
        tool("queueSteer", self.tr("Steer now"), self.tr("Inject into the running turn"),
             lambda: self.steer_now_requested.emit(mid))
        tool("queueRemove", "✕", self.tr("Remove"), lambda: self.remove_requested.emit(mid))
        return row

    def _move(self, index: int, delta: int) -> None:
        ids = [i.message_id for i in self.items]
        j = index + delta
        if 0 <= j < len(ids):
            ids[index], ids[j] = ids[j], ids[index]
            self.reorder_requested.emit(ids)

    def _edit(self, message_id: str, text: str) -> None:
        new, ok = ask_text(self, self.tr("Edit queued message"), self.tr("Message"), text, multiline=True)
        if ok and new.strip() and new != text:
            self.edit_requested.emit(message_id, new.strip())
