"""`RowHover`: the message view's action toolbar over the hovered row (each `HoverRow` reports
the mouse entering and leaving it; an event filter on the toolbar), and the same actions in a
row's context menu."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, SignalInstance
from PySide6.QtGui import QCursor, QEnterEvent
from PySide6.QtWidgets import QMenu, QWidget

from cherry_desktop.ui.chat._message_actions import MessageActions, add_text_actions, text_under
from cherry_desktop.ui.chat._message_row import MessageRow
from cherry_desktop.ui.chat._sibling_group import AnswerColumn
from cherry_desktop.ui.chat._translate import add_translate_menu


class HoverView(Protocol):
    """The message view, as its hover toolbar needs it."""

    @property
    def translate_requested(self) -> SignalInstance: ...

    def row_at(self, pos: QPoint) -> MessageRow | None: ...

    def can_edit(self, row: MessageRow) -> bool: ...

    def can_regenerate(self, row: MessageRow) -> bool: ...

    def can_delete(self, row: MessageRow) -> bool: ...

    def can_translate(self, row: MessageRow) -> bool: ...

    def is_checkpointed(self, row: MessageRow) -> bool:
        """The row's agent turn has a checkpoint (Changes, Restore files)."""
        ...


class HoverRow(MessageRow):
    """A message row of a view with a hover toolbar: it tells `hover` when the mouse enters or
    leaves it. (An event filter on every row saw every event of every row: each row moved by a
    page of older rows going in above ran it, ~1 000 Python calls a frame while scrolling up,
    `bench/scale.py`.)"""

    hover: RowHover | None = None

    def enterEvent(self, event: QEnterEvent) -> None:
        super().enterEvent(event)
        if self.hover is not None:
            self.hover.show_over(self)

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        if self.hover is not None:
            self.hover.left()


class RowHover(QObject):
    """Owned by one message view (`owner`, the view as a widget: the menu's parent; `content`
    holds its rows; `actions` is its toolbar)."""

    def __init__(self, view: HoverView, owner: QWidget, content: QWidget, actions: MessageActions) -> None:
        super().__init__(owner)
        self.view = view
        self.owner = owner
        self.content = content
        self.actions = actions

    def configure(self, row: MessageRow) -> None:
        view = self.view
        self.actions.configure(row, can_edit=view.can_edit(row), can_regenerate=view.can_regenerate(row),
                               can_delete=view.can_delete(row), checkpointed=view.is_checkpointed(row))

    def show_over(self, row: MessageRow) -> None:
        self.configure(row)
        self.actions.show_over(row)

    def left(self) -> None:
        """The mouse left a row or the toolbar: the toolbar follows the row now under it."""
        QTimer.singleShot(0, self._sync_hover)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave:  # the toolbar's
            self.left()
        return False

    def _sync_hover(self) -> None:
        pos = self.content.mapFromGlobal(QCursor.pos())
        if self.actions.isVisible() and self.actions.geometry().contains(pos):
            return
        row = self.view.row_at(pos)
        if row is None or not row.isVisible():
            self.actions.hide()
        else:
            self.show_over(row)

    def menu(self, pos: QPoint) -> QMenu | None:
        """The context menu of the message at `pos` (in the content's coordinates): wherever the
        right-click lands on it (its text, a code block, a tool card, an attachment, its header,
        its margins, its model's column bar), with the text's own Copy and Select all when the
        click was on a text. Pops up and returns the menu (None: no message there)."""
        under = self.content.childAt(pos)
        row = self.view.row_at(pos) or _column_row(under)
        if row is None:
            return None
        self.show_over(row)  # its Copy button says "Copied" when the menu's Copy is taken
        menu = QMenu(self.owner)
        menu.setObjectName("messageMenu")
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.actions.fill_menu(menu)
        if self.view.can_translate(row):
            add_translate_menu(menu, lambda language: self.view.translate_requested.emit(row.message_id, language))
        text = text_under(under, row)
        if text is not None:
            menu.addSeparator()
            add_text_actions(menu, text)
        # Not `exec`: a nested event loop under the app's asyncio loop (qasync) would run
        # the loop's callbacks re-entrantly while the menu is open.
        menu.popup(self.content.mapToGlobal(pos))
        return menu


def _column_row(widget: QWidget | None) -> MessageRow | None:
    """The answer whose column (in a multi-model group) holds `widget`, e.g. its bar."""
    while widget is not None and not isinstance(widget, AnswerColumn):
        widget = widget.parentWidget()
    return widget.row if widget is not None else None
