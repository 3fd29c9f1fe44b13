"""`StartGuide`: what a start opens and what an empty screen suggests.

- The conversation last open in a window is saved in the settings; the next start opens it
  again when it still exists (the offline demo opens its own session).
- In `--demo`, an empty agent session suggests what to try (a task that runs a tool, how to
  steer and stop), and the empty state never tells the user to start the demo they are in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from cherry_desktop.core.state.topics import is_agent_session_topic

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges
    from cherry_desktop.ui.shell._window import ChatWindow


class StartGuide(QObject):
    """One per controller; follows every window's `topic_changed`."""

    def __init__(self, bridges: Bridges, *, demo: bool, demo_topic: Callable[[], str | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridges = bridges
        self.demo = demo  # `--demo`
        # The demo session, once the app made it (None before, and outside the demo).
        self._demo_topic = demo_topic

    def first_topic(self) -> str | None:
        """What the app's first window opens: the demo session, else the conversation last open
        (still there), else the newest session, else the newest chat."""
        demo_topic_id = self._demo_topic() if self.demo else None
        if demo_topic_id is not None:
            return demo_topic_id
        last = self.bridges.settings.last_topic()
        if last and self.bridges.chats.topic_exists(last):
            return last
        return self.bridges.chats.first_topic()

    def watch(self, window: ChatWindow) -> None:
        window.empty_state.set_demo(self.demo)
        # A bound method, not a lambda holding the window: the window's own signal would keep it.
        window.topic_changed.connect(self._on_topic_changed)
        if window.topic_id is not None:
            self._on_topic(window, window.topic_id)

    def _on_topic_changed(self, topic_id: str) -> None:
        from cherry_desktop.ui.shell._window import ChatWindow

        window = self.sender()
        if isinstance(window, ChatWindow):
            self._on_topic(window, topic_id)

    def _on_topic(self, window: ChatWindow, topic_id: str) -> None:
        self.bridges.settings.remember_last_topic(topic_id)
        demo_session = self.demo and is_agent_session_topic(topic_id)
        window.message_view.set_empty_text(self.demo_session_hint() if demo_session else None)

    def demo_session_hint(self) -> str:
        return self.tr(
            "This session talks to Cherry's offline demo agent: no account, no network.\n\n"
            "Try a task that uses a tool, for example: “Write a short note about pelicans into my "
            "workspace”. The agent streams its answer slowly, then asks before it runs its Write tool: "
            "Allow or Deny.\n\n"
            "While it is still writing, type another message and press Ctrl+Enter to steer it, "
            "or press Stop to end the turn.")
