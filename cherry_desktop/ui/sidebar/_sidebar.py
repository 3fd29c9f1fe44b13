"""The sidebar: agents with their sessions, chat topics, and a status badge per row."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QHeaderView, QMenu, QTreeWidget, QTreeWidgetItem, QWidget

from cherry_desktop.core.state.shared_cache import TOPIC_TITLE_PREFIX
from cherry_desktop.ui.bridge import ChatsBridge, QtSharedCache, TopicStatusView

TOPIC_ROLE = Qt.ItemDataRole.UserRole
KIND_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPIN_MS = 100
BADGE_COLOURS = {"error": "#d93025", "done": "#1e8e3e"}


class StatusBadge:
    """A topic's status in its row's second column: spinner (pending/streaming), approval pill,
    red error dot, green completion dot until the completion is seen.

    Text, colour and tooltip of the row's item, not a widget (nor a QObject): a widget per row
    cost ~0.3 ms to make and lay out, so 2 000 topics took 0.7 s per sidebar build (17 s
    rebuilt while shown) and 60 MB per window (`bench/scale.py`). The list's one timer turns
    the spinners.
    """

    __slots__ = ("_frame", "item", "state", "topic_id")

    def __init__(self, item: QTreeWidgetItem, topic_id: str) -> None:
        self.item = item
        self.topic_id = topic_id
        self.state = ""
        self._frame = 0
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignCenter)

    @property
    def spinning(self) -> bool:
        return self.state in ("pending", "streaming")

    def set_state(self, state: str) -> None:
        if state == self.state:
            return
        self.state = state
        if self.spinning:
            self.item.setToolTip(1, QCoreApplication.translate("StatusBadge", "Replying…"))
            self.spin()
            return
        text, tip = {
            "approval": (QCoreApplication.translate("StatusBadge", "Approval"),
                         QCoreApplication.translate("StatusBadge", "Waiting for your approval")),
            "error": ("●", QCoreApplication.translate("StatusBadge", "The last reply failed")),
            "done": ("●", QCoreApplication.translate("StatusBadge", "New reply")),
        }.get(state, ("", ""))
        self.item.setText(1, text)
        self.item.setToolTip(1, tip)
        colour = BADGE_COLOURS.get(state)
        self.item.setData(1, Qt.ItemDataRole.ForegroundRole, QBrush(QColor(colour)) if colour else None)

    def spin(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self.item.setText(1, SPINNER[self._frame])


def badge_state(status: TopicStatusView, unseen_completion: bool) -> str:
    if status.awaiting_approval:
        return "approval"
    if status.status in ("pending", "streaming"):
        return status.status
    if status.status == "error":
        return "error"
    if status.status == "done" and unseen_completion:
        return "done"
    return ""


class SessionList(QTreeWidget):
    """Agents → sessions, then chat topics. A click opens, a double click or F2 renames (so does
    the context menu, which also offers
    "Open in new window", new / delete session, edit / delete agent). Names follow the shared cache's
    `topic.title.*` (auto-naming, a rename in another window).

    Signals:
        open_requested(str, bool): topic id, and whether to open it in a new window.
        new_session_requested(str): agent id.
        new_worktree_session_requested(str): agent id (a session on its own git branch and folder).
        rename_requested(str): topic id.
        delete_requested(str): topic id.
        edit_agent_requested(str): agent id.
        delete_agent_requested(str): agent id (the window asks first).
        new_agent_requested(): the user wants a new agent.
        new_chat_requested(): the user wants a new chat topic.
    """

    open_requested = Signal(str, bool)
    new_session_requested = Signal(str)
    new_worktree_session_requested = Signal(str)
    rename_requested = Signal(str)
    delete_requested = Signal(str)
    edit_agent_requested = Signal(str)
    delete_agent_requested = Signal(str)
    new_agent_requested = Signal()
    new_chat_requested = Signal()

    def __init__(self, bridge: ChatsBridge, cache: QtSharedCache, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sessionList")
        self.bridge = bridge
        self.cache = cache
        self.setColumnCount(2)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(True)
        self.setAllColumnsShowFocus(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        # The badge column fits the approval pill's word (the widest badge) in this language.
        pill = QCoreApplication.translate("StatusBadge", "Approval")
        self.setColumnWidth(1, max(64, self.fontMetrics().horizontalAdvance(pill) + 20))
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.itemActivated.connect(self._activated)
        self.itemClicked.connect(self._activated)
        self.itemDoubleClicked.connect(self._rename_item)
        # The list never takes the keyboard focus (NoFocus above): F2 is the window's, so it
        # works from the composer or the search box too.
        self.rename_shortcut = QShortcut(QKeySequence(Qt.Key.Key_F2), self)
        self.rename_shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.rename_shortcut.activated.connect(self._rename_current)
        self.badges: dict[str, StatusBadge] = {}
        self._items: dict[str, QTreeWidgetItem] = {}
        self._spinning: set[str] = set()  # the topics whose badge spins
        self._spinner = QTimer(self)
        self._spinner.setInterval(SPIN_MS)
        self._spinner.timeout.connect(self._spin)
        self.current_topic: str | None = None
        # A folded agent (or list) shows the approval pill of a session inside it.
        self.itemCollapsed.connect(self._refresh_folded)
        self.itemExpanded.connect(self._refresh_folded)
        # Follow first, then read the snapshot: nothing can slip between the two.
        cache.changed.connect(self._on_cache_changed)
        self.reload()

    def reload(self) -> None:
        self.clear()
        self.badges.clear()
        self._spinning.clear()
        self._items.clear()
        agents_root = QTreeWidgetItem(self, [self.tr("Agents")])
        agents_root.setData(0, KIND_ROLE, "agents")
        for agent in self.bridge.sidebar_agents():
            a_item = QTreeWidgetItem(agents_root, [agent.name or self.tr("Untitled agent")])
            a_item.setData(0, KIND_ROLE, "agent")
            a_item.setData(0, ID_ROLE, agent.agent_id)
            for session in agent.sessions:
                self._add_topic(a_item, session.topic_id, session.name or self.tr("New session"), "session",
                                session.session_id)
            a_item.setExpanded(True)
        agents_root.setExpanded(True)
        chats_root = QTreeWidgetItem(self, [self.tr("Chats")])
        chats_root.setData(0, KIND_ROLE, "chats")
        for topic in self.bridge.sidebar_chats():
            self._add_topic(chats_root, topic.topic_id, topic.name or self.tr("New chat"), "topic", topic.topic_id)
        chats_root.setExpanded(True)
        if self.current_topic:
            self.select_topic(self.current_topic)

    def _add_topic(self, parent: QTreeWidgetItem, topic_id: str, name: str, kind: str, raw_id: str) -> None:
        item = QTreeWidgetItem(parent, [name, ""])
        item.setData(0, TOPIC_ROLE, topic_id)
        item.setData(0, KIND_ROLE, kind)
        item.setData(0, ID_ROLE, raw_id)
        badge = StatusBadge(item, topic_id)
        self.badges[topic_id] = badge
        self._items[topic_id] = item
        self.refresh_badge(topic_id)

    def refresh_badge(self, topic_id: str) -> None:
        if topic_id in self.badges:
            self.set_badge_state(topic_id, badge_state(self.cache.topic_status(topic_id),
                                                       self.cache.has_unseen_completion(topic_id)))

    def set_badge_state(self, topic_id: str, state: str) -> None:
        badge = self.badges.get(topic_id)
        if badge is not None:
            folded_pill_changes = "approval" in (badge.state, state) and badge.state != state
            badge.set_state(state)
            if badge.spinning:
                self._spinning.add(topic_id)
                self._spinner.start()
            else:
                self._spinning.discard(topic_id)
            parent = badge.item.parent() if folded_pill_changes else None
            while parent is not None:
                self._refresh_folded(parent)
                parent = parent.parent()

    def _refresh_folded(self, item: QTreeWidgetItem) -> None:
        waiting = 0 if item.isExpanded() else self._waiting_inside(item)
        item.setText(1, QCoreApplication.translate("StatusBadge", "Approval") if waiting else "")
        item.setToolTip(1, self.tr("Waiting for your approval inside: %1").replace("%1", str(waiting))
                        if waiting else "")

    def _waiting_inside(self, item: QTreeWidgetItem) -> int:
        count = 0
        for child in (item.child(i) for i in range(item.childCount())):
            if child is None:
                continue
            badge = self.badges.get(child.data(0, TOPIC_ROLE) or "")
            count += (badge is not None and badge.state == "approval") + self._waiting_inside(child)
        return count

    def _spin(self) -> None:
        for topic_id in self._spinning:
            self.badges[topic_id].spin()
        if not self._spinning:
            self._spinner.stop()

    def _on_cache_changed(self, key: str, value: Any) -> None:
        if key.startswith(TOPIC_TITLE_PREFIX):
            item = self._items.get(key[len(TOPIC_TITLE_PREFIX):])
            if item is not None and isinstance(value, str) and value:
                item.setText(0, value)
            return
        topic_id = key.split(".", 3)[-1] if key.startswith("topic.stream.") else None
        if topic_id is not None:
            self.refresh_badge(topic_id)

    def select_topic(self, topic_id: str) -> None:
        self.current_topic = topic_id
        item = self._items.get(topic_id)
        if item is not None:
            self.setCurrentItem(item)

    def agent_for_new_session(self) -> str | None:
        """The agent "+ New session" is for: the open session's, else the selected agent's (or
        its session's), else the first agent; None while there is no agent."""
        for item in (self._items.get(self.current_topic or ""), self.currentItem()):
            while item is not None and item.data(0, KIND_ROLE) != "agent":
                item = item.parent()
            if item is not None:
                return str(item.data(0, ID_ROLE))
        agents = self.topLevelItem(0)
        first = agents.child(0) if agents is not None and agents.childCount() else None
        return str(first.data(0, ID_ROLE)) if first is not None else None

    def item_for(self, topic_id: str) -> QTreeWidgetItem | None:
        return self._items.get(topic_id)

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        topic_id = item.data(0, TOPIC_ROLE)
        if topic_id:
            self.open_requested.emit(topic_id, False)

    def _rename_item(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        topic_id = item.data(0, TOPIC_ROLE)
        if topic_id:
            self.rename_requested.emit(topic_id)

    def _rename_current(self) -> None:
        item = self.currentItem()
        if item is not None and item.data(0, TOPIC_ROLE):
            self._rename_item(item)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_F2:  # sent to the list itself (the shortcut did not run)
            self._rename_current()
            return
        super().keyPressEvent(event)

    def _menu(self, pos: QPoint) -> None:
        # Popped up, not exec'd: a nested event loop would stall the qasync loop's tasks.
        menu = self.context_menu(self.itemAt(pos))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        menu.popup(self.viewport().mapToGlobal(pos))

    def context_menu(self, item: QTreeWidgetItem | None) -> QMenu:
        """The menu of `item` (None: the list's own: new agent, new chat)."""
        menu = QMenu(self)
        menu.setObjectName("sidebarMenu")
        kind = item.data(0, KIND_ROLE) if item is not None else None
        if item is not None and item.data(0, TOPIC_ROLE):
            topic_id = item.data(0, TOPIC_ROLE)
            menu.addAction(self.tr("Open"), lambda: self.open_requested.emit(topic_id, False))
            menu.addAction(self.tr("Open in new window"), lambda: self.open_requested.emit(topic_id, True))
            menu.addSeparator()
            menu.addAction(self.tr("Rename…"), lambda: self.rename_requested.emit(topic_id))
            menu.addAction(self.tr("Delete"), lambda: self.delete_requested.emit(topic_id))
        elif item is not None and kind == "agent":
            agent_id = item.data(0, ID_ROLE)
            menu.addAction(self.tr("New session"), lambda: self.new_session_requested.emit(agent_id))
            menu.addAction(self.tr("New session in its own worktree"),
                           lambda: self.new_worktree_session_requested.emit(agent_id))
            menu.addAction(self.tr("Edit agent…"), lambda: self.edit_agent_requested.emit(agent_id))
            menu.addSeparator()
            menu.addAction(self.tr("Delete agent…"), lambda: self.delete_agent_requested.emit(agent_id))
        else:
            menu.addAction(self.tr("New agent…"), self.new_agent_requested.emit)
            menu.addAction(self.tr("New chat"), self.new_chat_requested.emit)
        return menu
