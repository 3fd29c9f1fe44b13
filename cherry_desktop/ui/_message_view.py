"""The message view: database rows plus the live stream, newest page first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QKeyEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QMenu, QScrollArea, QToolButton, QVBoxLayout, QWidget

from cherry_desktop.ui._listener import StreamChunk
from cherry_desktop.ui._message_actions import MessageActions, copy_markdown
from cherry_desktop.ui._message_row import MessageRow
from cherry_desktop.ui._sibling_group import SiblingGroups
from cherry_desktop.ui._translate import add_translate_menu

PAGE_SIZE = 40
ROW_SPACING = 10
# Posted below the paint's priority: the follow-the-bottom scroll runs once pending paints are
# done, so Qt can blit it (it repaints the whole view when the scrolled area holds unpainted
# regions, as it does right after a row grew).
_FOLLOW_BOTTOM = QEvent.Type(QEvent.registerEventType())
_AFTER_PAINT_PRIORITY = Qt.EventPriority.LowEventPriority.value - 1


class _Canvas(QWidget):
    """The rows' background, painted opaque by itself.

    A scroll area scrolls by moving this widget; Qt blits a move (and repaints only the
    strip it exposes) only when the moved widget is opaque. A style sheet background does not
    count as opaque, so while streaming every scroll step repainted the whole visible text.
    """

    def __init__(self, on_layout_request: Callable[[], None]) -> None:
        super().__init__()
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents, True)
        self._on_layout_request = on_layout_request

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            # A row's size changed: size to the rows first, so the layout activates once.
            self._on_layout_request()
        return super().event(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        # The style sheet's background is in the palette (Qt copies it there when polishing).
        QPainter(self).fillRect(event.rect(), self.palette().window())


class MessageView(QScrollArea):
    """Rows of one topic. Loads the newest `PAGE_SIZE` rows, older ones on scroll to the top.

    Signals:
        approvals_changed(): the set of tool calls awaiting the user's decision changed.
        regenerate_requested(str): the user asked for another answer to this assistant row.
        edit_requested(str): the user wants to edit this user row and send it again.
        delete_requested(str): the user deleted this row (the window offers undo).
        translate_requested(str, str): message id and language code to translate it into.
    """

    approvals_changed = Signal()
    regenerate_requested = Signal(str)
    edit_requested = Signal(str)
    delete_requested = Signal(str)
    translate_requested = Signal(str, str)

    def __init__(self, bridge: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageView")
        self.bridge = bridge
        self.topic_id: str | None = None
        # The view sizes its content itself (`fit_content`): a resizable scroll area makes the
        # content at least its minimum size hint, and word-wrapped labels report that hint at a
        # narrow width, so the content grew empty space below the last row until the view,
        # following the bottom, showed nothing.
        self.setWidgetResizable(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._content = _Canvas(self.fit_content)
        self._content.setObjectName("messageViewContent")
        self._layout = QVBoxLayout(self._content)
        self._layout.setContentsMargins(12, 12, 12, ROW_SPACING)
        self._layout.setSpacing(ROW_SPACING)
        self._empty = QLabel(self.tr("No messages yet. Say hello!"))
        self._empty.setObjectName("emptyHint")
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setVisible(self.bridge.services_running())  # see `reload`
        self._layout.addWidget(self._empty)
        self._layout.addStretch(1)
        self.setWidget(self._content)
        self._content.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._content.customContextMenuRequested.connect(self._menu)
        self._rows: list[MessageRow] = []
        self._by_id: dict[str, MessageRow] = {}
        # Multi-model turns: their answers' rows sit in a group widget, side by side.
        self.groups = SiblingGroups(bridge, self._content)
        self._oldest_ordering: int | None = None
        self._has_more = False
        self.hidden_ids: set[str] = set()
        self._stick_to_bottom = True
        self._follow_posted = False
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scroll)
        bar.rangeChanged.connect(self._on_range_changed)
        self.jump_button = QToolButton(self)
        self.jump_button.setObjectName("jumpToLatestButton")
        self.jump_button.setText(self.tr("↓ Jump to latest"))
        self.jump_button.setToolTip(self.tr("Scroll to the newest message (Ctrl+End)"))
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.clicked.connect(self.jump_to_latest)
        self.jump_button.setVisible(False)
        self.row_actions = MessageActions(self._content)
        self.row_actions.copy_requested.connect(self._copy)
        self.row_actions.edit_requested.connect(self.edit_requested)
        self.row_actions.regenerate_requested.connect(self.regenerate_requested)
        self.row_actions.delete_requested.connect(self.delete_requested)
        self.row_actions.installEventFilter(self)

    # -- loading -----------------------------------------------------------------------------
    def show_topic(self, topic_id: str | None) -> None:
        self.topic_id = topic_id
        self.reload()

    def reload(self) -> None:
        """Rebuild from the database (the newest page). Rows still streaming are kept as they
        are, so a reload is safe in the middle of a turn."""
        # Rows still streaming, and rows this view streamed to the end, are kept: their
        # widgets already show the persisted content, and re-rendering a long reply's
        # Markdown would cost a visible hitch.
        live = {r.message_id: r for r in self._rows if r.live or r.streamed}
        for row in live.values():
            self._take_out(row)
            self._rows.remove(row)
        self._clear()
        if self.topic_id is None:
            # Blank while core's stream services start (the first topic is not chosen yet).
            self._empty.setVisible(self.bridge.services_running())
            return
        rows = self.bridge.load_messages(self.topic_id, limit=PAGE_SIZE)
        self._has_more = len(rows) >= PAGE_SIZE
        self._oldest_ordering = rows[0].ordering if rows else None
        for stored in rows:
            group = self.groups.group_for(stored)
            if group is not None:
                for row in self.groups.build(group, lambda m: self._reuse(live.pop(m.id, None), m)
                                             or self.make_row(m)):
                    self._append_row(row)
                continue
            kept = self._reuse(live.pop(stored.id, None), stored)
            if kept is not None:
                self._append_row(kept)
            else:
                self._append_stored(stored)
        for kept in live.values():
            if kept.live:
                self._append_row(kept)
            else:
                kept.deleteLater()
        self._empty.setVisible(not self._rows)
        self._stick_to_bottom = True
        self.fit_content()
        self.scroll_to_bottom()

    @staticmethod
    def _reuse(kept: MessageRow | None, stored: Any) -> MessageRow | None:
        """A row kept across a reload, brought up to its stored state (None: build anew)."""
        if kept is not None and not kept.live and (stored.status == "pending" or stored.load_error):
            kept.deleteLater()
            return None
        if kept is not None and not kept.live:
            kept.set_status(stored.status)
            kept.footer.set_stats(stored.stats)
        return kept

    def load_older(self) -> int:
        """Prepend the page before the oldest loaded row; returns how many rows came."""
        if not self._has_more or self.topic_id is None or self._oldest_ordering is None:
            return 0
        rows = self.bridge.load_messages(self.topic_id, limit=PAGE_SIZE, before_ordering=self._oldest_ordering)
        self._has_more = len(rows) >= PAGE_SIZE
        if not rows:
            return 0
        self._oldest_ordering = rows[0].ordering
        bar = self.verticalScrollBar()
        old_max, old_value = bar.maximum(), bar.value()
        index = position = 0
        for stored in rows:
            group = self.groups.group_for(stored)
            made = self.groups.build(group, self.make_row) if group is not None else [self.make_row(stored)]
            new_rows = [r for r in made if r is not None]
            for row in new_rows:
                row.installEventFilter(self)
                self._rows.insert(index, row)
                self._by_id[row.message_id] = row
                index += 1
            if new_rows:
                position += 1
                self._layout.insertWidget(position, self._outer(new_rows[0]))
        self.fit_content()
        QTimer.singleShot(0, lambda: bar.setValue(old_value + bar.maximum() - old_max))
        return len(rows)

    def make_row(self, stored: Any) -> MessageRow | None:
        if stored.id in self.hidden_ids:
            return None
        steer = bool(stored.metadata.get("steer") or stored.metadata.get("is_steer"))
        row = self._new_row(stored.id, stored.role, steer=steer)
        row.set_parts(stored.parts, status=stored.status, stats=stored.stats, load_error=stored.load_error)
        row.apply_metadata(stored.metadata)
        self._by_id[stored.id] = row
        return row

    def _new_row(self, message_id: str, role: str, *, steer: bool = False) -> MessageRow:
        row = MessageRow(message_id, role, steer=steer, files=getattr(self.bridge, "attachments", None))
        # A multi-model group updates its buttons when an answer's status or liveness changes
        # (not on every streamed frame).
        row.state_changed.connect(self.groups.row_state_changed)
        return row

    def _append_stored(self, stored: Any) -> None:
        row = self.make_row(stored)
        if row is not None:
            self._append_row(row)

    def _append_row(self, row: MessageRow) -> None:
        row.installEventFilter(self)
        self._rows.append(row)
        self._by_id[row.message_id] = row
        outer = self._outer(row)
        if self._layout.indexOf(outer) < 0:
            self._layout.insertWidget(self._layout.count() - 1, outer)
        self._empty.setVisible(False)

    def _outer(self, row: MessageRow) -> QWidget:
        """The widget of the view's layout that holds `row` (its group, or itself)."""
        return self.groups.view_of(row) or row

    def _take_out(self, row: MessageRow) -> None:
        """Take `row` out of the layout (or out of its group); the row itself lives on."""
        if self.groups.view_of(row) is None:
            self._layout.removeWidget(row)
            return
        emptied = self.groups.take(row)
        if emptied is not None:
            self._layout.removeWidget(emptied)
            emptied.deleteLater()

    def _clear(self) -> None:
        outers: dict[int, QWidget] = {id(w): w for w in (self._outer(r) for r in self._rows)}
        outers.update((id(v), v) for v in self.groups.take_all())
        for outer in outers.values():
            self._layout.removeWidget(outer)
            outer.deleteLater()
        self._rows.clear()
        self._by_id.clear()
        self._oldest_ordering = None
        self._has_more = False

    # -- live ------------------------------------------------------------------------------------
    def add_user_row(self, message_id: str, text: str, *, steer: bool = False, files: Any = ()) -> MessageRow:
        from cherry_desktop.core.messages import TextPart

        row = self._by_id.get(message_id)
        if row is None:
            row = self._new_row(message_id, "user", steer=steer)
            self._append_row(row)
        row.set_parts([*([TextPart(text=text, state="done")] if text or not files else []), *files])
        self._stick_to_bottom = True
        return row

    def live_row(self, anchor_message_id: str | None) -> MessageRow:
        """The row an execution writes to: its placeholder if loaded, else a new one."""
        key = anchor_message_id or "__live__"
        row = self._by_id.get(key)
        placed = self.groups.place(key, self.make_row) if row is None and anchor_message_id else None
        if placed is not None:
            # A multi-model turn's answer: its group appears, or (regenerated) it replaces the
            # row of its model's column.
            new_rows, replaced = placed
            if replaced is not None and replaced in self._rows:
                self._rows[self._rows.index(replaced)] = new_rows[0]
                self._by_id.pop(replaced.message_id, None)
                self._by_id[key] = new_rows[0]
                new_rows[0].installEventFilter(self)
                replaced.deleteLater()
            else:
                for new in new_rows:
                    self._append_row(new)
            row = self._by_id.get(key)
        if row is None:
            row = self._new_row(key, "assistant")
            row.set_status("streaming")
            self._append_row(row)
        elif row.status in ("pending", "success", "paused", "error") and not row.live:
            # A placeholder (or a row a replay rebuilds): stream into it from empty.
            row.clear()
            row.set_status("streaming")
        row.live = True
        return row

    def apply_batch(self, batch: list[StreamChunk]) -> None:
        """Apply one frame of chunks, then commit each touched row once."""
        touched: dict[int, MessageRow] = {}
        approvals = False
        current_anchor: str | None = None
        row: MessageRow | None = None
        for item in batch:
            if row is None or item.anchor_message_id != current_anchor:
                current_anchor = item.anchor_message_id
                row = self.live_row(current_anchor)
                touched[id(row)] = row
            if row.apply_chunk(item.chunk) is not None:
                approvals = True
        for r in touched.values():
            r.end_frame()
        if approvals:
            self.approvals_changed.emit()

    def finish_live(self, status: str, error_text: str | None = None, anchor_message_id: str | None = None,
                    error_code: str | None = None) -> None:
        """End the live rows; in a multi-model group only the answer of `anchor_message_id`
        (each model's answer ends on its own)."""
        for row in self._rows:
            grouped_other = self.groups.view_of(row) is not None and row.message_id != anchor_message_id
            if row.live and not (grouped_other and anchor_message_id is not None):
                row.finish_live(status)
                row.streamed = True
                if error_text and row.error_text is None:
                    row.show_error(error_text, error_code)
                row.live = False
        self.approvals_changed.emit()

    def rename_row(self, old_id: str, new_id: str) -> None:
        row = self._by_id.pop(old_id, None)
        if row is not None:
            row.message_id = new_id
            self._by_id[new_id] = row

    def remove_row(self, message_id: str) -> None:
        row = self._by_id.pop(message_id, None)
        if row is not None:
            self._rows.remove(row)
            self._take_out(row)
            row.deleteLater()

    def truncate_from(self, message_id: str) -> None:
        """Remove this row and every row after it (a chat branches off before it)."""
        row = self._by_id.get(message_id)
        if row is None:
            return
        for later in self._rows[self._rows.index(row):]:
            self.remove_row(later.message_id)

    # -- queries -----------------------------------------------------------------------------------
    def rows(self) -> list[MessageRow]:
        return list(self._rows)

    def row(self, message_id: str) -> MessageRow | None:
        return self._by_id.get(message_id)

    def pending_approvals(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for row in self._rows:
            out.extend(row.pending_approvals())
        return out

    def mark_approval_responded(self, approval_id: str, approved: bool) -> None:
        for row in self._rows:
            row.mark_approval_responded(approval_id, approved)
        self.approvals_changed.emit()

    @property
    def has_more(self) -> bool:
        return self._has_more

    def row_at(self, pos: QPoint) -> MessageRow | None:
        widget = self._content.childAt(pos)
        while widget is not None and not isinstance(widget, MessageRow) and widget is not self._content:
            widget = widget.parentWidget()
        return widget if isinstance(widget, MessageRow) else None

    def can_regenerate(self, row: MessageRow) -> bool:
        from cherry_desktop.core.state.topics import is_agent_session_topic

        group = self.groups.view_of(row)  # a multi-model answer: only while its turn is the last
        return (row.role == "assistant" and not row.live and self.topic_id is not None
                and (group is None or group.is_tip) and not is_agent_session_topic(self.topic_id)
                and not row.message_id.startswith(("local:", "__")))

    def can_edit(self, row: MessageRow) -> bool:
        return (row.role == "user" and self.topic_id is not None
                and not row.message_id.startswith(("local:", "__")))

    def can_delete(self, row: MessageRow) -> bool:
        return (not row.live and row.status not in ("pending", "streaming") and self.topic_id is not None
                and not row.message_id.startswith(("local:", "__")) and self.groups.view_of(row) is None)

    def _configure_actions(self, row: MessageRow) -> None:
        self.row_actions.configure(row, can_edit=self.can_edit(row), can_regenerate=self.can_regenerate(row),
                               can_delete=self.can_delete(row))

    def show_actions(self, row: MessageRow) -> None:
        """The hover toolbar over `row` (hovering shows it; tests call this directly)."""
        self._configure_actions(row)
        self.row_actions.show_over(row)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Enter and isinstance(watched, MessageRow):
            self.show_actions(watched)
        elif kind == QEvent.Type.Leave:
            QTimer.singleShot(0, self._sync_hover)
        return False

    def _sync_hover(self) -> None:
        pos = self._content.mapFromGlobal(QCursor.pos())
        if self.row_actions.isVisible() and self.row_actions.geometry().contains(pos):
            return
        row = self.row_at(pos)
        if row is None or not row.isVisible():
            self.row_actions.hide()
        else:
            self.show_actions(row)

    def _copy(self, message_id: str) -> None:
        row = self._by_id.get(message_id)
        if row is not None:
            copy_markdown(row.text())

    def set_row_hidden(self, message_id: str, hidden: bool) -> None:
        """Hide a row while its deletion can still be undone (or show it again)."""
        row = self._by_id.get(message_id)
        if row is not None:
            row.setVisible(not hidden)
            if hidden and self.row_actions.message_id == message_id:
                self.row_actions.hide()

    def _menu(self, pos: QPoint) -> None:
        row = self.row_at(pos)
        if row is None:
            return
        self._configure_actions(row)
        menu = QMenu(self)
        self.row_actions.fill_menu(menu)
        if self.can_translate(row):
            add_translate_menu(menu, lambda language: self.translate_requested.emit(row.message_id, language))
        menu.exec(self._content.mapToGlobal(pos))

    def can_translate(self, row: MessageRow) -> bool:
        """Rows with text, of a chat or an agent session, once saved and settled (a translation
        is stored with its message; a queued follow-up is still the user's to edit)."""
        return (not row.live and row.status != "pending" and self.topic_id is not None
                and not row.message_id.startswith(("local:", "__")) and bool(row.text().strip()))

    # -- sizing and scrolling -------------------------------------------------------------------
    def fit_content(self) -> None:
        """Size the content to its rows at the viewport's width: it ends at the last row
        (plus one row spacing), whatever the rows' minimum size hints say."""
        width = self.viewport().width()
        content = self._content
        has_hfw = content.hasHeightForWidth()
        height = content.heightForWidth(width) if has_hfw else self._layout.totalSizeHint().height()
        if content.width() != width or content.height() != height:
            content.resize(width, height)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit_content()
        return super().viewportEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_jump_button()

    def _place_jump_button(self) -> None:
        b = self.jump_button
        b.adjustSize()
        vp = self.viewport().geometry()
        b.move(vp.right() - b.width() - 16, vp.bottom() - b.height() - 12)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_End and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.jump_to_latest()
            return
        super().keyPressEvent(event)

    def jump_to_latest(self) -> None:
        self._stick_to_bottom = True
        self.scroll_to_bottom()
        self.jump_button.setVisible(False)

    def scroll_to_bottom(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_scroll(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick_to_bottom = value >= bar.maximum() - 24
        self._update_jump_button()
        if value == bar.minimum() and self._has_more and bar.maximum() > 0:
            self.load_older()

    def _update_jump_button(self) -> None:
        show = not self._stick_to_bottom and self.verticalScrollBar().maximum() > 0
        if show != self.jump_button.isVisible():
            if show:
                self._place_jump_button()
                self.jump_button.raise_()
            self.jump_button.setVisible(show)

    def _on_range_changed(self, _min: int, _max: int) -> None:
        if self._stick_to_bottom and not self._follow_posted:
            self._follow_posted = True
            QCoreApplication.postEvent(self, QEvent(_FOLLOW_BOTTOM), _AFTER_PAINT_PRIORITY)
        self._update_jump_button()

    def event(self, event: QEvent) -> bool:
        if event.type() == _FOLLOW_BOTTOM:
            self._follow_posted = False
            if self._stick_to_bottom:
                self.scroll_to_bottom()
            return True
        return super().event(event)
