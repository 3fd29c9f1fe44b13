"""`RowHover`: the message view's action toolbar over the hovered row (an event filter on every
row and on the toolbar), and the same actions in a row's context menu."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, QTimer, SignalInstance
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QMenu, QWidget

from cherry_desktop.ui.chat._message_row import MessageRow
from cherry_desktop.ui.chat._translate import add_translate_menu

if TYPE_CHECKING:
    from cherry_desktop.ui.chat._message_actions import MessageActions


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

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Enter and isinstance(watched, MessageRow):
            self.show_over(watched)
        elif kind == QEvent.Type.Leave:
            QTimer.singleShot(0, self._sync_hover)
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

    def menu(self, pos: QPoint) -> None:
        """The context menu of the row at `pos` (in the content's coordinates)."""
        row = self.view.row_at(pos)
        if row is None:
            return
        self.configure(row)
        menu = QMenu(self.owner)
        self.actions.fill_menu(menu)
        if self.view.can_translate(row):
            add_translate_menu(menu, lambda language: self.view.translate_requested.emit(row.message_id, language))
        menu.exec(self.content.mapToGlobal(pos))
