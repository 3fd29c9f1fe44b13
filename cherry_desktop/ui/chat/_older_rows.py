"""Older rows of the message view, brought in as the user scrolls up: a page at a time from
the database, a few rows per loop turn, the row in view held in place meanwhile.

Each older page's rows sit in a `PageBlock` of their own, one item of the view's layout: a row
going in above the others moves the blocks below it, not every row loaded before. (In one
layout each prepended row moved all loaded rows: the layout pass grew with the rows scrolled
through and was the largest part of a scroll frame, `bench/scale.py`.)"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, QTimer
from PySide6.QtWidgets import QScrollBar, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges, StoredMessage
    from cherry_desktop.ui.chat._message_row import MessageRow
    from cherry_desktop.ui.chat._sibling_group import SiblingGroups

PAGE_SIZE = 40
#: Older rows are prepended for at most about this long per loop turn (at least one row).
OLDER_BUDGET_MS = 4.0
#: The row in view is held in place this long after the last older row went in.
ANCHOR_SETTLE_MS = 300


def _widgets(layout: QVBoxLayout) -> list[QWidget]:
    """The shown widgets of a layout, top to bottom."""
    items = (layout.itemAt(i) for i in range(layout.count()))
    return [w for w in (item.widget() for item in items if item is not None) if w is not None and not w.isHidden()]


class PageBlock(QWidget):
    """The rows (and multi-model groups) of one older page, stacked as in the view's layout."""

    def __init__(self, spacing: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messagePage")
        self.rows = QVBoxLayout(self)
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.rows.setSpacing(spacing)


class OlderPage:
    """A page of older rows being prepended: those still to come, and the block they go in."""

    __slots__ = ("block", "made", "rows")

    def __init__(self, rows: list[StoredMessage], block: PageBlock) -> None:
        self.rows = rows  # oldest first; they go in from the end
        self.block = block
        self.made = 0  # rows made so far


class ScrollAnchor(QObject):
    """Keeps one row at its place in the view while older rows go in above it (and for a
    moment after, while their late layout passes grow them): each time the row moves down,
    the view scrolls by as much. Not while the view follows its bottom (that follows on its
    own); the user's own scrolling moves the place."""

    def __init__(self, view: OlderRowsLoading, parent: QObject) -> None:
        super().__init__(parent)
        self.view = view
        self.widget: QWidget | None = None
        # The widget and its parents up to the content: a move of any moves the widget.
        self._watched: list[QWidget] = []
        self.offset = 0  # the widget's top, in the viewport
        self._scrolling = False
        self._release = QTimer(self)
        self._release.setSingleShot(True)
        self._release.setInterval(ANCHOR_SETTLE_MS)
        self._release.timeout.connect(self.release)
        view.verticalScrollBar().valueChanged.connect(self._on_scroll)

    def hold(self) -> None:
        self._release.stop()
        if self.widget is not None or self.view.following_bottom:
            return
        widget = self.view.first_shown()
        if widget is not None:
            self.widget = widget
            content = self.view.widget()
            watched: QWidget | None = widget
            while watched is not None and watched is not content:
                self._watched.append(watched)
                watched.installEventFilter(self)
                watched = watched.parentWidget()
            self.offset = self._top() - self.view.verticalScrollBar().value()

    def _top(self) -> int:
        assert self.widget is not None
        return self.widget.mapTo(self.view.widget(), QPoint(0, 0)).y()

    def release_soon(self) -> None:
        self._release.start()

    def release(self) -> None:
        self._release.stop()
        for watched in self._watched:
            if shiboken6.isValid(watched):
                watched.removeEventFilter(self)
        self._watched.clear()
        self.widget = None

    def _alive(self) -> bool:
        return self.widget is not None and all(shiboken6.isValid(w) for w in self._watched)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Move and obj in self._watched and self._alive():
            self._scrolling = True
            try:
                self.view.verticalScrollBar().setValue(self._top() - self.offset)
            finally:
                self._scrolling = False
        return False

    def _on_scroll(self, value: int) -> None:
        if self.widget is not None and not self._scrolling and self._alive():
            self.offset = self._top() - value


class OlderRowsLoading:
    """The message view's part that prepends older rows (a base of `MessageView`)."""

    bridges: Bridges
    topic_id: str | None
    groups: SiblingGroups
    _rows: list[MessageRow]
    _by_id: dict[str, MessageRow]
    _layout: QVBoxLayout
    _has_more: bool
    _oldest_ordering: int | None
    _older: OlderPage | None
    _anchor: ScrollAnchor
    _blocks: list[PageBlock]

    if TYPE_CHECKING:  # from the view
        def verticalScrollBar(self) -> QScrollBar: ...
        def widget(self) -> QWidget: ...
        def fit_content(self) -> None: ...
        def make_row(self, stored: StoredMessage) -> MessageRow | None: ...
        def _outer(self, row: MessageRow) -> QWidget: ...
        @property
        def following_bottom(self) -> bool: ...

    def load_older(self) -> int:
        """Prepend the page before the oldest loaded row at once (and first the rest of one
        coming in); returns how many rows came."""
        pending = len(self._older.rows) if self._older is not None else 0
        self._finish_older()
        rows = self._fetch_older()
        if not rows:
            return pending
        bar = self.verticalScrollBar()
        old_max, old_value = bar.maximum(), bar.value()
        came = pending + len(rows)
        self._older = self._open_page(rows)  # taken from as they go in
        self._finish_older(keep_position=False)
        QTimer.singleShot(0, self._anchor, lambda: bar.setValue(old_value + bar.maximum() - old_max))
        return came

    def near_top(self) -> None:
        """Scrolling up, the top is near: the page before comes in a few rows per loop turn
        (`OLDER_BUDGET_MS` each), the rows in view staying where they are. A whole page in
        one turn cost ~200 ms here: a visible stall each 40 rows (`bench/scale.py`)."""
        if self._older is not None:
            return
        rows = self._fetch_older()
        if rows:
            self._older = self._open_page(rows)
            QTimer.singleShot(0, self._anchor, lambda older=self._older: self._prepend_some(older))

    def _fetch_older(self) -> list[StoredMessage]:
        if not self._has_more or self.topic_id is None or self._oldest_ordering is None:
            return []
        rows = self.bridges.chats.load_messages(self.topic_id, limit=PAGE_SIZE, before_ordering=self._oldest_ordering)
        self._has_more = len(rows) >= PAGE_SIZE
        if rows:
            self._oldest_ordering = rows[0].ordering
        return rows

    def _open_page(self, rows: list[StoredMessage]) -> OlderPage:
        """A page of older rows with its block above the rows shown (the empty hint is the
        layout's first item), hidden until its first row goes in: an empty block would take a
        row spacing, moving the rows in view before the anchor holds them."""
        block = PageBlock(self._layout.spacing(), self.widget())
        block.setVisible(False)
        self._layout.insertWidget(1, block)
        self._blocks.append(block)
        return OlderPage(rows, block)

    def drop_blocks(self) -> None:
        """Delete the pages' blocks (a reload: their rows went already)."""
        for block in self._blocks:
            self._layout.removeWidget(block)
            block.deleteLater()
        self._blocks.clear()

    def remove_outer(self, outer: QWidget) -> None:
        """Take a row (or a group) out of the view's layout or out of its page's block; an
        emptied block goes too."""
        block = outer.parentWidget()
        if isinstance(block, PageBlock):
            block.rows.removeWidget(outer)
            if block.rows.count() == 0 and block in self._blocks and (
                    self._older is None or self._older.block is not block):
                self._blocks.remove(block)
                self._layout.removeWidget(block)
                block.deleteLater()
        else:
            self._layout.removeWidget(outer)

    def _prepend_some(self, older: OlderPage) -> None:
        if older is not self._older:
            return  # the view was reloaded, or the rest went in at once
        deadline = time.perf_counter() + OLDER_BUDGET_MS / 1000
        self._anchor.hold()
        started = older.made
        while older.rows and (older.made == started or time.perf_counter() < deadline):
            self._prepend(older)
        self._settle_older(older)
        if older.rows:
            QTimer.singleShot(0, self._anchor, lambda: self._prepend_some(older))

    def _finish_older(self, *, keep_position: bool = True) -> None:
        """The rows of a page still coming in, all now (before anything else prepends)."""
        older = self._older
        if older is None:
            return
        if keep_position:
            self._anchor.hold()
        while older.rows:
            self._prepend(older)
        if keep_position:
            self._settle_older(older)
        else:
            older.block.rows.activate()
            self.fit_content()
        self._older = None

    def _settle_older(self, older: OlderPage) -> None:
        """Size and lay out the content with the rows just prepended (the anchor row, moving
        down, scrolls the view along: `_ScrollAnchor`). The block's layout first: left to its
        own posted pass, its rows would be measured at the width they were made at."""
        older.block.rows.activate()
        self.fit_content()
        self._layout.activate()
        if not older.rows:
            self._older = None
            self._anchor.release_soon()

    def _prepend(self, older: OlderPage) -> None:
        """The newest row still to come of `older` above the rows already shown: a page comes
        in from its end, so the rows shown stay one unbroken stretch of the conversation
        while the rest is still to come (the user may be scrolling into it)."""
        stored = older.rows.pop()
        group = self.groups.group_for(stored)
        made = self.groups.build(group, self.make_row) if group is not None else [self.make_row(stored)]
        new_rows = [r for r in made if r is not None]
        self._rows[0:0] = new_rows  # the page's rows are the oldest loaded
        for row in new_rows:
            self._by_id[row.message_id] = row
        older.made += len(new_rows)
        if new_rows:
            older.block.rows.insertWidget(0, self._outer(new_rows[0]))
            older.block.setVisible(True)

    def first_shown(self) -> QWidget | None:
        """The topmost widget of the layout (a row or a group) at least partly in view."""
        top = self.verticalScrollBar().value()
        for item in _widgets(self._layout):
            if item.y() + item.height() <= top:
                continue
            if not isinstance(item, PageBlock):
                return item
            for outer in _widgets(item.rows):  # the first of its rows in view
                if item.y() + outer.y() + outer.height() > top:
                    return outer
        return None

    def reached_top(self) -> None:
        self.near_top()
