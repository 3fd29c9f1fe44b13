"""The sidebar's "+ New chat" and "+ New session" buttons, over the list of agents and chats.

"+ New session" starts one for the agent the user is looking at (the open session's, else the
one selected in the list), else the first agent; with no agent yet it asks for a new one (the
window decides: `SessionList.agent_for_new_session` is None).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget


class NewTopicBar(QWidget):
    """Two buttons side by side.

    Signals:
        new_chat_clicked(): "+ New chat".
        new_session_clicked(): "+ New session".
    """

    new_chat_clicked = Signal()
    new_session_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newTopicBar")
        h = QHBoxLayout(self)
        h.setContentsMargins(6, 6, 6, 6)
        h.setSpacing(6)
        self.new_chat = QPushButton(self.tr("+ New chat"), self)
        self.new_chat.setObjectName("newChatButton")
        self.new_chat.setToolTip(self.tr("A new chat with a model (Ctrl+N)"))
        self.new_chat.clicked.connect(self.new_chat_clicked.emit)
        self.new_session = QPushButton(self.tr("+ New session"), self)
        self.new_session.setObjectName("newSessionButton")
        self.new_session.setToolTip(self.tr("A new session of the agent you are looking at"))
        self.new_session.clicked.connect(self.new_session_clicked.emit)
        for button in (self.new_chat, self.new_session):
            h.addWidget(button, 1)


class SidebarPane(QWidget):
    """The bar over the list: what the search panel shows while nothing is searched."""

    def __init__(self, bar: NewTopicBar, sidebar: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarPane")
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(0)
        v.addWidget(bar)
        v.addWidget(sidebar, 1)


__all__ = ["NewTopicBar", "SidebarPane"]
