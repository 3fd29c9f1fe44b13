"""The message view: database rows plus the live stream, newest page first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from cherry_desktop.ui.bridge import Bridges, StreamChunk
from cherry_desktop.ui.chat._following_scroll import Canvas, FollowingScrollArea, RowsLayout
from cherry_desktop.ui.chat._message_actions import MessageActions, copy_markdown
from cherry_desktop.ui.chat._message_row import MessageRow
from cherry_desktop.ui.chat._older_rows import PAGE_SIZE, OlderPage, OlderRowsLoading, PageBlock, ScrollAnchor
from cherry_desktop.ui.chat._row_hover import HoverRow, RowHover
from cherry_desktop.ui.chat._sibling_group import SiblingGroups
from cherry_desktop.ui.chat._versions import RowVersions
from cherry_desktop.ui.common import JsonObject

if TYPE_CHECKING:
    from cherry_desktop.core.messages import AttachmentPart
    from cherry_desktop.ui.bridge import StoredMessage

ROW_SPACING = 10


class MessageView(OlderRowsLoading, FollowingScrollArea):
    """Rows of one topic. Loads the newest `PAGE_SIZE` rows, older ones on scroll to the top.

    Signals:
        approvals_changed(): the set of tool calls awaiting the user's decision changed.
        regenerate_requested(str): the user asked for another answer to this assistant row.
        edit_requested(str): the user wants to edit this user row and send it again.
        delete_requested(str): the user deleted this row (the window offers undo).
        translate_requested(str, str): message id and language code to translate it into.
        error_fix_requested(str): a row's error offered a fix the app makes (its error code).
    """

    approvals_changed = Signal()
    regenerate_requested = Signal(str)
    edit_requested = Signal(str)
    delete_requested = Signal(str)
    translate_requested = Signal(str, str)
    error_fix_requested = Signal(str)

    def __init__(self, bridges: Bridges, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageView")
        self.bridges = bridges
        self.topic_id: str | None = None
        self.reloads = 0  # how many times the rows were rebuilt (a version switch reloads once)
        # The view sizes its content itself (`fit_content`): a resizable scroll area makes the
        # content at least its minimum size hint, and word-wrapped labels report that hint at a
        # narrow width, so the content grew empty space below the last row until the view,
        # following the bottom, showed nothing.
        self.setWidgetResizable(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._content = Canvas(self.fit_content)
        self._content.setObjectName("messageViewContent")
        self._layout = RowsLayout(self._content)
        self._layout.setContentsMargins(12, 12, 12, ROW_SPACING)
        self._layout.setSpacing(ROW_SPACING)
        self.empty_hint = QLabel(self.tr("No messages yet. Say hello!"))
        self.empty_hint.setObjectName("emptyHint")
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setVisible(self.bridges.services_running())  # see `reload`
        self._layout.addWidget(self.empty_hint)
        self._layout.addStretch(1)
        self.setWidget(self._content)
        self._content.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._content.customContextMenuRequested.connect(lambda pos: self.hover.menu(pos))
        self._rows: list[MessageRow] = []
        # The shown branch's rows that have other versions (Regenerate, Edit-and-resend).
        self.versions = RowVersions(self, bridges.chats)
        self._by_id: dict[str, MessageRow] = {}
        # Multi-model turns: their answers' rows sit in a group widget, side by side.
        self.groups = SiblingGroups(bridges.multi_model, self._content)
        self._oldest_ordering: int | None = None
        self._has_more = False
        self._older: OlderPage | None = None  # a page of older rows coming in
        self._blocks: list[PageBlock] = []  # the older pages' rows, a block per page
        self._anchor = ScrollAnchor(self, self)
        self.hidden_ids: set[str] = set()
        self.follow_bottom()
        self.row_actions = MessageActions(self._content)
        self.row_actions.copy_requested.connect(self._copy)
        self.row_actions.edit_requested.connect(self.edit_requested)
        self.row_actions.regenerate_requested.connect(self.regenerate_requested)
        self.row_actions.delete_requested.connect(self.delete_requested)
        self.hover: RowHover = RowHover(self, self, self._content, self.row_actions)
        self.row_actions.installEventFilter(self.hover)

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
        self.reloads += 1
        for row in live.values():
            self._take_out(row)
            self._rows.remove(row)
        self._clear()
        if self.topic_id is None:
            # Blank while core's stream services start (the first topic is not chosen yet).
            self.empty_hint.setVisible(self.bridges.services_running())
            return
        rows = self.bridges.chats.load_messages(self.topic_id, limit=PAGE_SIZE)
        self.versions.load(self.topic_id)
        self._has_more = len(rows) >= PAGE_SIZE
        self._oldest_ordering = rows[0].ordering if rows else None
        for stored in rows:
            group = self.groups.group_for(stored)
            if group is not None:
                for row in self.groups.build(group, lambda m: self._reuse(live.pop(m.id, None), m)
                                             or self.make_row(m)):
                    self._append_row(row)
                continue
            shown = self._reuse(live.pop(stored.id, None), stored) or self.make_row(stored)
            if shown is not None:
                self._append_row(shown)
        for kept in live.values():
            if kept.live:
                self._append_row(kept)
            else:
                kept.deleteLater()
        for shown in self._rows:
            self.versions.sync(shown)
        self.empty_hint.setVisible(not self._rows)
        self._stick_to_bottom = True
        self.fit_content()
        self.scroll_to_bottom()

    @staticmethod
    def _reuse(kept: MessageRow | None, stored: StoredMessage) -> MessageRow | None:
        """A row kept across a reload, brought up to its stored state (None: build anew)."""
        if kept is not None and not kept.live and (stored.status == "pending" or stored.load_error):
            kept.deleteLater()
            return None
        if kept is not None and not kept.live:
            kept.set_status(stored.status)
            kept.settle_tools(stored.parts)
            kept.footer.set_stats(stored.stats)
        return kept

    def make_row(self, stored: StoredMessage) -> MessageRow | None:
        if stored.id in self.hidden_ids:
            return None
        steer = bool(stored.metadata.get("steer") or stored.metadata.get("is_steer"))
        row = self._new_row(stored.id, stored.role, steer=steer)
        row.set_parts(stored.parts, status=stored.status, stats=stored.stats, load_error=stored.load_error)
        row.apply_metadata(stored.metadata)
        row.time.set_time(stored.created_at)
        self._by_id[stored.id] = row
        self.versions.sync(row)
        return row

    def set_empty_text(self, text: str | None) -> None:
        """The words shown while the topic has no rows (None: the default greeting)."""
        self.empty_hint.setText(text or self.tr("No messages yet. Say hello!"))

    def show_version(self, message_id: str) -> bool:
        """Show another version of a message (its branch, saved, in every window of the chat)."""
        return self.versions.show(message_id)

    def _new_row(self, message_id: str, role: str, *, steer: bool = False) -> MessageRow:
        row = HoverRow(message_id, role, steer=steer, files=self.bridges.attachments)
        row.hover = self.hover
        # A multi-model group updates its buttons when an answer's status or liveness changes
        # (not on every streamed frame).
        row.state_changed.connect(self.groups.row_state_changed)
        row.error_fix_requested.connect(self.error_fix_requested)
        return row

    def _append_row(self, row: MessageRow) -> None:
        self._rows.append(row)
        self._by_id[row.message_id] = row
        outer = self._outer(row)
        if self._layout.indexOf(outer) < 0:
            self._layout.insertWidget(self._layout.count() - 1, outer)
        self.empty_hint.setVisible(False)

    def _outer(self, row: MessageRow) -> QWidget:
        """The widget of the view's layout that holds `row` (its group, or itself)."""
        return self.groups.view_of(row) or row

    def _take_out(self, row: MessageRow) -> None:
        """Take `row` out of the layout (or out of its group); the row itself lives on."""
        if self.groups.view_of(row) is None:
            self.remove_outer(row)
            return
        emptied = self.groups.take(row)
        if emptied is not None:
            self.remove_outer(emptied)
            emptied.deleteLater()

    def _clear(self) -> None:
        outers: dict[int, QWidget] = {id(w): w for w in (self._outer(r) for r in self._rows)}
        outers.update((id(v), v) for v in self.groups.take_all())
        for outer in outers.values():
            self.remove_outer(outer)
            outer.deleteLater()
        self.drop_blocks()
        self._rows.clear()
        self._by_id.clear()
        self._oldest_ordering = None
        self._has_more = False
        self._older = None
        self._anchor.release()

    # -- live ------------------------------------------------------------------------------------
    def add_user_row(self, message_id: str, text: str, *, steer: bool = False,
                     files: Sequence[AttachmentPart] = ()) -> MessageRow:
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

    def pending_approvals(self) -> list[JsonObject]:
        return [approval for row in self._rows for approval in row.pending_approvals()]

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

    def show_actions(self, row: MessageRow) -> None:
        """The hover toolbar over `row` (hovering shows it; tests call this directly)."""
        self.hover.show_over(row)

    def _copy(self, message_id: str) -> None:
        row = self._by_id.get(message_id)
        if row is not None:
            copy_markdown(row.text())

    def copy_row(self, row: MessageRow) -> None:
        """Copy as Markdown from elsewhere (the window's shortcut): the toolbar over `row` says "Copied"."""
        self.hover.show_over(row)
        self.row_actions.copy_requested.emit(row.message_id)

    def set_row_hidden(self, message_id: str, hidden: bool) -> None:
        """Hide a row while its deletion can still be undone (or show it again)."""
        row = self._by_id.get(message_id)
        if row is not None:
            row.setVisible(not hidden)
            if hidden and self.row_actions.message_id == message_id:
                self.row_actions.hide()

    def can_translate(self, row: MessageRow) -> bool:
        """Rows with text, of a chat or an agent session, once saved and settled (a translation
        is stored with its message; a queued follow-up is still the user's to edit)."""
        return (not row.live and row.status != "pending" and self.topic_id is not None
                and not row.message_id.startswith(("local:", "__")) and bool(row.text().strip()))

    def is_checkpointed(self, row: MessageRow) -> bool:
        return self.topic_id is not None and self.bridges.checkpoints.has_checkpoint(self.topic_id, row.message_id)

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
