"""Message actions: a small toolbar over the hovered row (one per view, moved from row to row)
and the same actions in the row's context menu, with the Copy and Select all of the text the
right-click landed on.

Copy (as Markdown), Edit and resend (user rows), Regenerate (assistant rows of chats), Delete
(undoable for a few seconds: the window deletes once the undo bar times out); in agent sessions
with checkpoints, Changes (the files an answer's turn changed) and Restore files (to before a
user message).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QPoint, Qt, QTimer, Signal, SignalInstance
from PySide6.QtGui import QGuiApplication, QKeySequence, QTextDocument
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMenu, QPushButton, QTextEdit, QToolButton, QWidget

if TYPE_CHECKING:
    from cherry_desktop.ui.chat._message_row import MessageRow

UNDO_SECONDS = 6
COPY_SHORTCUT = "Ctrl+Shift+C"
REGENERATE_SHORTCUT = "Ctrl+Shift+R"
EDIT_SHORTCUT = "Up"  # in an empty composer: edit the last message you sent
DELETE_SHORTCUT = "Del"
COPIED_MS = 1500  # how long the Copy button says "Copied"


class MessageActions(QFrame):
    """The hover toolbar. Signals carry the row's message id.

    Signals:
        copy_requested(str), edit_requested(str), regenerate_requested(str),
        delete_requested(str), changes_requested(str), rewind_requested(str)
    """

    changes_requested = Signal(str)
    rewind_requested = Signal(str)
    copy_requested = Signal(str)
    edit_requested = Signal(str)
    regenerate_requested = Signal(str)
    delete_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageActions")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        self.message_id = ""

        def button(name: str, text: str, tip: str, signal: SignalInstance) -> QToolButton:
            b = QToolButton(self)
            b.setObjectName(name)
            b.setText(text)
            b.setToolTip(tip)
            b.setCursor(Qt.CursorShape.PointingHandCursor)
            b.clicked.connect(lambda: signal.emit(self.message_id))
            layout.addWidget(b)
            return b

        self.copy_button = button("copyMessageButton", self.tr("Copy"),
                                  self.tr("Copy as Markdown (%1)").replace("%1", COPY_SHORTCUT),
                                  self.copy_requested)
        self.edit_button = button("editMessageButton", self.tr("Edit"),
                                  self.tr("Edit and send again (%1 in an empty message box)").replace(
                                      "%1", EDIT_SHORTCUT), self.edit_requested)
        self.regenerate_button = button("regenerateButton", self.tr("Regenerate"),
                                        self.tr("Another answer (%1)").replace("%1", REGENERATE_SHORTCUT),
                                        self.regenerate_requested)
        self.delete_button = button("deleteMessageButton", self.tr("Delete"),
                                    self.tr("Delete this message (you can undo it)"), self.delete_requested)
        self.changes_button = button("turnChangesButton", self.tr("Changes"),
                                     self.tr("The files this turn added, modified or deleted"),
                                     self.changes_requested)
        self.rewind_button = button("rewindButton", self.tr("Restore files"),
                                    self.tr("Restore files to before this message (shows what changes first)"),
                                    self.rewind_requested)
        self.copy_requested.connect(self._say_copied)
        self._copied = QTimer(self)
        self._copied.setSingleShot(True)
        self._copied.timeout.connect(lambda: self.copy_button.setText(self.tr("Copy")))
        self.setVisible(False)

    def _say_copied(self) -> None:
        """The Copy button says "Copied" for a moment (from the button, the menu or the shortcut)."""
        self.copy_button.setText(self.tr("Copied"))
        self._copied.start(COPIED_MS)

    def configure(self, row: MessageRow, *, can_edit: bool, can_regenerate: bool, can_delete: bool,
                  checkpointed: bool = False) -> None:
        self.message_id = row.message_id
        self.edit_button.setVisible(can_edit)
        self.regenerate_button.setVisible(can_regenerate)
        self.delete_button.setVisible(can_delete)
        self.changes_button.setVisible(checkpointed and row.role == "assistant")
        self.rewind_button.setVisible(checkpointed and row.role == "user")

    def show_over(self, row: MessageRow) -> None:
        """Show at the row's top right corner (this widget is the rows' sibling)."""
        self.adjustSize()
        parent = self.parentWidget()
        self.move(row.mapTo(parent, QPoint(row.width() - self.width() - 8, 4)) if parent is not None
                  else QPoint(0, 0))
        self.raise_()
        self.show()

    def fill_menu(self, menu: QMenu) -> None:
        """The same actions, with their shortcuts, for the row's context menu."""
        def add(text: str, shortcut: str, signal: SignalInstance, visible: bool = True) -> None:
            if visible:
                action = menu.addAction(text, lambda: signal.emit(self.message_id))
                if shortcut:
                    action.setShortcut(QKeySequence(shortcut))
        add(self.tr("Copy as Markdown"), COPY_SHORTCUT, self.copy_requested)
        add(self.tr("Edit and resend"), "", self.edit_requested, not self.edit_button.isHidden())
        add(self.tr("Regenerate"), REGENERATE_SHORTCUT, self.regenerate_requested,
            not self.regenerate_button.isHidden())
        add(self.tr("Delete"), DELETE_SHORTCUT, self.delete_requested, not self.delete_button.isHidden())
        add(self.tr("Changes"), "", self.changes_requested, not self.changes_button.isHidden())
        add(self.tr("Restore files to before this message"), "", self.rewind_requested,
            not self.rewind_button.isHidden())


def text_under(widget: QWidget | None, row: QWidget) -> QTextEdit | QLabel | None:
    """The selectable text of `row` that `widget` (under a right-click) is part of, if any."""
    while widget is not None and widget is not row:
        if isinstance(widget, QTextEdit):
            return widget
        if isinstance(widget, QLabel) and widget.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse:
            return widget
        widget = widget.parentWidget()
    return None


def add_text_actions(menu: QMenu, text: QTextEdit | QLabel) -> None:
    """The text's own Copy (its selection) and Select all, as Qt's text menu has them."""
    if isinstance(text, QTextEdit):
        selected, copy, select_all = text.textCursor().hasSelection(), text.copy, text.selectAll
    else:
        label = text
        selected = label.hasSelectedText()

        def copy() -> None:
            copy_markdown(label.selectedText())

        def select_all() -> None:
            label.setSelection(0, _label_length(label))
    copy_action = menu.addAction(QCoreApplication.translate("MessageActions", "Copy"), copy)
    copy_action.setObjectName("copySelectionAction")
    copy_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
    copy_action.setEnabled(selected)
    select_action = menu.addAction(QCoreApplication.translate("MessageActions", "Select all"), select_all)
    select_action.setShortcut(QKeySequence(QKeySequence.StandardKey.SelectAll))


def _label_length(label: QLabel) -> int:
    """The length of a label's text as shown (its selection positions count shown characters)."""
    doc = QTextDocument()
    text, kind = label.text(), label.textFormat()
    if kind == Qt.TextFormat.MarkdownText:
        doc.setMarkdown(text)
    elif kind == Qt.TextFormat.RichText or (kind == Qt.TextFormat.AutoText and text.lstrip().startswith("<")):
        doc.setHtml(text)
    else:
        doc.setPlainText(text)
    return doc.characterCount() - 1


def copy_markdown(text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(text)


class UndoBar(QFrame):
    """'Message deleted · Undo' for `UNDO_SECONDS`; then `expired`, unless undone.

    Signals:
        undone(str): the user took the deletion back (message id).
        expired(str): the time is up: delete for real (message id).
    """

    undone = Signal(str)
    expired = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("undoBar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 4, 12, 4)
        self.label = QLabel(self.tr("Message deleted"), self)
        self.label.setObjectName("undoText")
        layout.addWidget(self.label, 1)
        self.undo_button = QPushButton(self.tr("Undo"), self)
        self.undo_button.setObjectName("undoDeleteButton")
        self.undo_button.clicked.connect(self.undo)
        layout.addWidget(self.undo_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.commit)
        self.message_id: str | None = None
        self.setVisible(False)

    def offer(self, message_id: str) -> None:
        self.commit()  # a previous deletion is final once another one starts
        self.message_id = message_id
        self._timer.start(UNDO_SECONDS * 1000)
        self.show()

    def undo(self) -> None:
        message_id, self.message_id = self.message_id, None
        self._timer.stop()
        self.hide()
        if message_id is not None:
            self.undone.emit(message_id)

    def commit(self) -> None:
        """Make the pending deletion final now (time up, another deletion, window closing)."""
        message_id, self.message_id = self.message_id, None
        self._timer.stop()
        self.hide()
        if message_id is not None:
            self.expired.emit(message_id)
