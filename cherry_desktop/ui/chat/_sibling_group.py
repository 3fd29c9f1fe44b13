"""A multi-model turn in the message view: its answers side by side (columns, or tabs when the
view is too narrow), each with its model, status, Stop, Regenerate and "Use this answer".

`SiblingGroups` is the message view's bookkeeping of the groups it shows: it builds a group
for a stored answer that belongs to one, and places a regenerated answer's new row in its
model's column (a window sees that row first as an unknown stream anchor).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QTabBar, QVBoxLayout, QWidget

from cherry_desktop.ui.bridge import MultiModelBridge
from cherry_desktop.ui.chat._message_row import MessageRow

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import SiblingGroup, StoredMessage

# Below this width per answer the group shows one answer at a time, under tabs.
MIN_COLUMN_WIDTH = 340
_BUSY = ("pending", "streaming")


class AnswerColumn(QFrame):
    """One model's answer: a header (model, "continues from here", buttons) over its row."""

    def __init__(self, group: SiblingGroupView, model_id: str, model_name: str, row: MessageRow) -> None:
        super().__init__(group)
        self.setObjectName("answerColumn")
        self.group = group
        self.model_id = model_id
        self.model_name = model_name
        self.row = row
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(4)
        bar = QHBoxLayout()
        bar.setSpacing(6)
        # The model's name heads its row (and its tab when narrow); the bar holds the rest.
        self.chosen_label = QLabel(self.tr("✓ Continues from here"), self)
        self.chosen_label.setObjectName("answerChosen")
        self.chosen_label.setToolTip(self.tr("The next message continues the conversation from this answer"))
        bar.addWidget(self.chosen_label)
        bar.addStretch(1)
        self.stop_button = self._button(bar, self.tr("Stop"), "answerStop", self.tr("Stop this model's answer"),
                                        lambda: group.stop_requested.emit(self.model_id))
        self.regenerate_button = self._button(bar, self.tr("Regenerate"), "answerRegenerate",
                                              self.tr("Ask this model again (the other answers stay)"),
                                              lambda: group.regenerate_requested.emit(self.row.message_id))
        self.use_button = self._button(bar, self.tr("Use this answer"), "answerUse",
                                       self.tr("Continue the conversation from this answer"),
                                       lambda: group.choose_requested.emit(self.row.message_id))
        v.addLayout(bar)
        self.set_row(row)

    def _button(self, bar: QHBoxLayout, text: str, name: str, tip: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        bar.addWidget(button)
        return button

    def set_row(self, row: MessageRow) -> None:
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        if self.row is not row:
            layout.removeWidget(self.row)
        self.row = row
        row.set_author(self.model_name)
        layout.addWidget(row)
        row.setVisible(True)

    def refresh(self, *, chosen: bool, is_tip: bool, group_busy: bool) -> None:
        row = self.row
        busy = row.live or row.status in _BUSY
        self.chosen_label.setVisible(chosen)
        self.stop_button.setVisible(busy)
        self.regenerate_button.setVisible(is_tip and not busy)
        self.regenerate_button.setEnabled(not group_busy)
        self.use_button.setVisible(is_tip and not chosen and not busy)
        self.use_button.setEnabled(row.status == "success" and not group_busy)
        if row.status not in ("success",) and not busy:
            self.use_button.setToolTip(self.tr("Only a finished answer can be used"))


class SiblingGroupView(QFrame):
    """The answers of one multi-model turn (see module docstring).

    Signals:
        stop_requested(str): stop this model's answer.
        regenerate_requested(str): ask again for this answer (message id).
        choose_requested(str): continue the conversation from this answer (message id).
        refreshed(): its buttons and tabs were brought up to its answers' state (`refresh`:
            when the group is built or changes, or one of its answers changes status or
            liveness; not on a streamed text frame).
    """

    stop_requested = Signal(str)
    regenerate_requested = Signal(str)
    choose_requested = Signal(str)
    refreshed = Signal()

    def __init__(self, key: tuple[str, int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("siblingGroup")
        self.key = key
        self.continues_from: str | None = None
        self.is_tip = False
        self.columns: list[AnswerColumn] = []
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(6)
        self.tabs = QTabBar(self)
        self.tabs.setObjectName("answerTabs")
        self.tabs.setExpanding(False)
        self.tabs.currentChanged.connect(lambda _i: self._apply_mode())
        v.addWidget(self.tabs)
        self._row_layout = QHBoxLayout()
        self._row_layout.setSpacing(10)
        v.addLayout(self._row_layout)
        self.narrow = False

    def add_column(self, model_id: str, model_name: str, row: MessageRow) -> AnswerColumn:
        column = AnswerColumn(self, model_id, model_name, row)
        self.columns.append(column)
        self._row_layout.addWidget(column, 1, Qt.AlignmentFlag.AlignTop)
        self.tabs.addTab(model_name)
        self._apply_mode()
        return column

    def remove_column(self, column: AnswerColumn) -> None:
        index = self.columns.index(column)
        self.columns.pop(index)
        self.tabs.removeTab(index)
        column.deleteLater()
        self._apply_mode()

    def column_of(self, row: MessageRow) -> AnswerColumn | None:
        return next((c for c in self.columns if c.row is row), None)

    def rows(self) -> list[MessageRow]:
        return [c.row for c in self.columns]

    def refresh(self) -> None:
        busy = any(r.live or r.status in _BUSY for r in self.rows())
        for i, column in enumerate(self.columns):
            row = column.row
            # Only a finished answer shows it: the one the chat continues from once the turn
            # ends is known (and saved) when the first answer finishes, never before.
            chosen = (row.message_id == self.continues_from and len(self.columns) > 1
                      and row.status == "success" and not row.live)
            column.refresh(chosen=chosen, is_tip=self.is_tip, group_busy=busy)
            self.tabs.setTabText(i, ("✓ " if chosen else "") + column.model_name)
        self.refreshed.emit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._apply_mode()

    def _apply_mode(self) -> None:
        narrow = self.width() < MIN_COLUMN_WIDTH * max(len(self.columns), 1)
        self.narrow = narrow
        self.tabs.setVisible(narrow and len(self.columns) > 1)
        current = self.tabs.currentIndex()
        for i, column in enumerate(self.columns):
            column.setVisible(not narrow or i == current)


class SiblingGroups(QObject):
    """The groups a message view shows (see module docstring).

    Signals:
        stop_requested(str): stop this model's answer of the running turn.
        regenerate_requested(str): regenerate this answer.
        choose_requested(str): continue from this answer.
    """

    stop_requested = Signal(str)
    regenerate_requested = Signal(str)
    choose_requested = Signal(str)

    def __init__(self, bridge: MultiModelBridge, content: QWidget) -> None:
        super().__init__(content)
        self.bridge = bridge
        self.content = content
        self._views: dict[tuple[str, int], SiblingGroupView] = {}
        self._of_row: dict[int, SiblingGroupView] = {}

    def group_for(self, stored: StoredMessage) -> SiblingGroup | None:
        """The sibling group of a stored row (None: shown as a row of its own)."""
        if stored.role != "assistant" or stored.siblings_group_id is None:
            return None
        return self.bridge.group_of(stored)

    def build(self, group: SiblingGroup, make_row: Callable[[StoredMessage], MessageRow | None]) -> list[MessageRow]:
        """A view for `group` (replacing any shown for it); returns its rows in order."""
        key = (group.parent_id, group.group_id)
        old = self._views.pop(key, None)
        if old is not None:
            self._forget(old)
        view = SiblingGroupView(key, self.content)
        view.stop_requested.connect(self.stop_requested)
        view.regenerate_requested.connect(self.regenerate_requested)
        view.choose_requested.connect(self.choose_requested)
        view.continues_from, view.is_tip = group.continues_from, group.is_tip
        for member in group.members:
            row = make_row(member)
            if row is not None:
                view.add_column(member.model_id or "", self.bridge.model_name(member.model_id), row)
                self._of_row[id(row)] = view
        self._views[key] = view
        view.refresh()
        return view.rows()

    def place(self, anchor_message_id: str, make_row: Callable[[StoredMessage], MessageRow | None]
              ) -> tuple[list[MessageRow], MessageRow | None] | None:
        """An unknown stream anchor that is an answer of a multi-model turn: the rows it adds
        (a whole new group for a turn just sent, in the models' order; or the regenerated
        answer, in its model's column) and the row that answer replaced there. None: the
        anchor is not a group's answer."""
        stored = self.bridge.find_message(anchor_message_id)
        if stored is None or stored.siblings_group_id is None or stored.parent_id is None:
            return None
        view = self._views.get((stored.parent_id, stored.siblings_group_id))
        if view is None:
            group = self.bridge.group_of(stored)
            if group is None or anchor_message_id not in group.member_ids():
                return None
            return self.build(group, make_row), None
        row = make_row(stored)
        if row is None:
            return None
        self._of_row[id(row)] = view
        column = next((c for c in view.columns if c.model_id == stored.model_id), None)
        if column is None:
            view.add_column(stored.model_id or "", self.bridge.model_name(stored.model_id), row)
            view.refresh()
            return [row], None
        old = column.row
        self._of_row.pop(id(old), None)
        column.set_row(row)
        old.setParent(self.content)
        old.hide()
        view.refresh()
        return [row], old

    def view_of(self, row: MessageRow) -> SiblingGroupView | None:
        return self._of_row.get(id(row))

    def take(self, row: MessageRow) -> SiblingGroupView | None:
        """Take `row` out of its group (kept or removed by the view); returns the group's view
        when that left it empty (the caller removes it)."""
        view = self._of_row.pop(id(row), None)
        if view is None:
            return None
        column = view.column_of(row)
        row.setParent(self.content)
        row.hide()
        if column is not None:
            view.remove_column(column)
        if view.columns:
            return None
        self._views.pop(view.key, None)
        return view

    def take_all(self) -> list[SiblingGroupView]:
        views = list(self._views.values())
        for view in views:
            self._forget(view)
        self._views.clear()
        return views

    def _forget(self, view: SiblingGroupView) -> None:
        for row in view.rows():
            if self._of_row.get(id(row)) is view:
                del self._of_row[id(row)]

    def row_state_changed(self, row: MessageRow) -> None:
        """`row`'s status or liveness changed: its group (if any) updates its buttons."""
        view = self.view_of(row)
        if view is not None:
            view.refresh()

    def views(self) -> list[SiblingGroupView]:
        return list(self._views.values())
