"""Search above the sidebar: a box (Ctrl+K) whose text swaps the topic tree for the results —
topics whose title matches, then messages with the text around the match. Opening a message
hit shows its topic, scrolls to the message and highlights it for a moment."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import SearchBridge, SearchEntry

ENTRY_ROLE = Qt.ItemDataRole.UserRole
#: Typing settles this long before a query runs.
DEBOUNCE_MS = 150
#: How long an opened hit stays highlighted.
HIGHLIGHT_MS = 2500


def entry_html(entry: SearchEntry, untitled: str) -> str:
    title = f"<b>{html.escape(entry.title or untitled)}</b>"
    if not entry.message_id:
        return title
    s = entry.snippet
    snippet = (html.escape(s[:entry.match_start]) + "<span style='background:#e0a800;color:black'>"
               + html.escape(s[entry.match_start:entry.match_end]) + "</span>" + html.escape(s[entry.match_end:]))
    return f"{title}<br><span style='font-size:11px'>{snippet}</span>"


class _SearchBox(QLineEdit):
    """Escape clears; Down moves into the results."""

    down_pressed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            return
        if event.key() == Qt.Key.Key_Down:
            self.down_pressed.emit()
            return
        super().keyPressEvent(event)


class SearchPanel(QWidget):
    """The search box over a stack of the sidebar and the result list.

    Signals:
        hit_opened(str, str): topic id, and the message id to reveal ("" for a title match).
    """

    hit_opened = Signal(str, str)

    def __init__(self, bridge: SearchBridge, sidebar: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchPanel")
        self.bridge = bridge
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(0)
        self.box = _SearchBox(self)
        self.box.setObjectName("searchBox")
        self.box.setPlaceholderText(self.tr("Search chats and sessions (Ctrl+K)"))
        self.box.setClearButtonEnabled(True)
        v.addWidget(self.box)
        self.stack = QStackedWidget(self)
        self.sidebar = sidebar
        self.stack.addWidget(sidebar)
        self.results = QListWidget(self)
        self.results.setObjectName("searchResults")
        self.results.setWordWrap(True)
        self.stack.addWidget(self.results)
        v.addWidget(self.stack, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_query)
        self.box.textChanged.connect(self._on_text)
        self.box.returnPressed.connect(self._open_first)
        self.box.down_pressed.connect(self._focus_results)
        self.results.itemActivated.connect(self._open_item)
        self.results.itemClicked.connect(self._open_item)
        self.shortcut = QShortcut(QKeySequence("Ctrl+K"), self)
        self.shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.shortcut.activated.connect(self.focus_box)

    def focus_box(self) -> None:
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.box.selectAll()

    def _on_text(self, text: str) -> None:
        if not text.strip():
            self._timer.stop()
            self.results.clear()
            self.stack.setCurrentWidget(self.sidebar)
            return
        self._timer.start()

    def run_query(self) -> None:
        """Query now (typing starts it after `DEBOUNCE_MS`)."""
        self._timer.stop()
        query = self.box.text().strip()
        self.results.clear()
        if not query:
            self.stack.setCurrentWidget(self.sidebar)
            return
        self.stack.setCurrentWidget(self.results)
        entries = self.bridge.search(query)
        if not entries:
            item = QListWidgetItem(self.tr("No results"), self.results)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            return
        for entry in entries:
            self._add(entry)

    def _add(self, entry: SearchEntry) -> None:
        item = QListWidgetItem(self.results)
        item.setData(ENTRY_ROLE, entry)
        label = QLabel(entry_html(entry, self.tr("Untitled")))
        label.setObjectName("searchHit" if entry.message_id else "searchTitleHit")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setContentsMargins(6, 4, 6, 4)
        label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        item.setToolTip(entry.snippet or entry.title)
        self.results.setItemWidget(item, label)
        item.setSizeHint(label.sizeHint())

    def entries(self) -> list[SearchEntry]:
        out = []
        for i in range(self.results.count()):
            entry = self.results.item(i).data(ENTRY_ROLE)
            if entry is not None:
                out.append(entry)
        return out

    def _focus_results(self) -> None:
        if self.stack.currentWidget() is self.results and self.results.count():
            self.results.setFocus()
            self.results.setCurrentRow(0)

    def _open_first(self) -> None:
        self.run_query()
        if self.results.count():
            self._open_item(self.results.item(0))

    def _open_item(self, item: QListWidgetItem) -> None:
        entry = item.data(ENTRY_ROLE)
        if isinstance(entry, SearchEntry):
            self.hit_opened.emit(entry.topic_id, entry.message_id)


def reveal_hit(view: Any, message_id: str) -> bool:
    """`reveal_message`; a hit on another branch of a chat opens that branch first (as the
    message's version switcher would). False: it cannot be shown (the chat is streaming)."""
    return reveal_message(view, message_id) or (view.show_version(message_id)
                                                and reveal_message(view, message_id))


def reveal_message(view: Any, message_id: str) -> bool:
    """Load older pages of `view` (a MessageView) until the message's row is there, scroll to it
    and highlight it for `HIGHLIGHT_MS`. False when the topic's shown branch lacks it."""
    row = view.row(message_id)
    while row is None and view.has_more and view.load_older():
        row = view.row(message_id)
    if row is None:
        return False
    row.setProperty("searchHit", True)
    _repolish(row)

    def scroll() -> None:
        if view.row(message_id) is row:
            view.ensureWidgetVisible(row, 0, 24)

    # After the layout placed the row (and after load_older's own scroll fix-up), and once
    # more when late layout passes have moved it.
    # The row is the timers' context: a window closed meanwhile takes them along.
    QTimer.singleShot(0, row, scroll)
    QTimer.singleShot(120, row, scroll)

    def unmark() -> None:
        if view.row(message_id) is row:
            row.setProperty("searchHit", False)
            _repolish(row)

    QTimer.singleShot(HIGHLIGHT_MS, row, unmark)
    return True


def _repolish(widget: QWidget) -> None:
    widget.style().unpolish(widget)
    widget.style().polish(widget)
    widget.update()
