"""`Attention`: which conversations wait for the user (a tool call to approve) across every
window, the desktop notifications that say so or that a reply is ready, and the words a
window's title and the tray use for it."""

from __future__ import annotations

import time
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from cherry_desktop.ui.bridge import Bridges, QtSharedCache, TopicStatusView
from cherry_desktop.ui.sidebar import badge_state


class AttentionHost(Protocol):
    """What `Attention` asks of the controller that owns the windows and the tray."""

    def topic_focused(self, topic_id: str) -> bool:
        """A window showing `topic_id` is the active window (the user sees it)."""
        ...

    def notify(self, title: str, text: str) -> None: ...


class Attention(QObject):
    """Follows every topic's status (`QtSharedCache.topic_status_changed`), the one writer of
    the set of conversations that wait for the user. A conversation's approval is notified
    once, when it starts to wait (a repeated status of the same wait is no new approval), and
    not at all while a window showing it is the active window.

    Signals:
        waiting_changed(int): how many conversations wait for the user's approval now.
    """

    waiting_changed = Signal(int)

    def __init__(self, bridges: Bridges, cache: QtSharedCache, host: AttentionHost,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridges = bridges
        self.cache = cache
        self._host = host
        self._status: dict[str, TopicStatusView] = {}
        self._waiting_since: dict[str, float] = {}
        # Follow first, then read the snapshot: nothing can slip between the two.
        cache.topic_status_changed.connect(self._on_topic_status)
        for topic_id, status in cache.statuses().items():
            self._status[topic_id] = status
            if status.awaiting_approval:
                self._waiting_since[topic_id] = time.monotonic()

    # -- what waits --------------------------------------------------------------------------------
    def waiting(self) -> dict[str, float]:
        """The conversations waiting for the user's approval, each with the `time.monotonic()`
        at which it began to wait, longest waiting first."""
        return dict(self._waiting_since)

    def waiting_count(self) -> int:
        return len(self._waiting_since)

    def live_topics(self) -> list[tuple[str, str]]:
        """(topic id, badge state) of every conversation with something to show: waiting for
        approval (first), replying, or a reply not seen yet (`ui.sidebar.badge_state`)."""
        live = [(topic_id, badge_state(status, self.cache.has_unseen_completion(topic_id)))
                for topic_id, status in self._status.items()]
        live = [(topic_id, state) for topic_id, state in live if state in ("approval", "pending", "streaming", "done")]
        return sorted(live, key=lambda item: item[1] != "approval")

    def state_words(self, state: str) -> str:
        """A badge state in words (the tray's menu)."""
        return {
            "approval": self.tr("Waiting for your approval"),
            "pending": self.tr("Replying…"),
            "streaming": self.tr("Replying…"),
            "done": self.tr("Reply ready"),
        }.get(state, "")

    def topic_title(self, topic_id: str) -> str:
        return self.bridges.chats.topic_title(topic_id) or self.tr("Untitled conversation")

    def window_title(self) -> str:
        """A window's title (and the tray's tooltip): the app, led by how many wait for you."""
        count = self.waiting_count()
        if not count:
            return self.tr("Cherry Desktop")
        return self.tr("(%n) Waiting for you — Cherry Desktop", "", count)

    # -- transitions -------------------------------------------------------------------------------
    def _on_topic_status(self, topic_id: str, status: TopicStatusView) -> None:
        previous = self._status.get(topic_id)
        self._status[topic_id] = status
        if status.awaiting_approval != (topic_id in self._waiting_since):
            if status.awaiting_approval:
                self._waiting_since[topic_id] = time.monotonic()
                self._tell(topic_id, self.tr("Waiting for your approval to go on."))
            else:
                del self._waiting_since[topic_id]
            self.waiting_changed.emit(len(self._waiting_since))
        completed = (status.status == "done" and status.last_completed_at is not None
                     and (previous is None or previous.last_completed_at != status.last_completed_at))
        if completed and self.bridges.settings.settings_values().get("notify_on_completion", True):
            self._tell(topic_id, self.tr("The reply is ready."))

    def _tell(self, topic_id: str, text: str) -> None:
        if not self._host.topic_focused(topic_id):
            self._host.notify(self.bridges.chats.topic_title(topic_id) or self.tr("Cherry Desktop"), text)
