"""What a window shows with no chat or session open: what to do next, one click away."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


class EmptyState(QWidget):
    """Says how to start (a chat, an agent, the providers, or the offline demo).

    Signals:
        new_chat_requested(): the user wants a new chat.
        new_agent_requested(): the user wants a new agent.
        providers_requested(): the user wants to set up providers and keys.
    """

    new_chat_requested = Signal()
    new_agent_requested = Signal()
    providers_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("emptyState")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 40, 40, 40)
        outer.addStretch(1)
        self.heading = QLabel(self.tr("Nothing is open"), self)
        self.heading.setObjectName("emptyStateTitle")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        outer.addWidget(self.heading)
        self.body = QLabel(self)
        self.body.setObjectName("emptyStateText")
        self.body.setWordWrap(True)
        self.body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        outer.addWidget(self.body)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.new_chat_button = QPushButton(self.tr("New chat"), self)
        self.new_chat_button.setObjectName("primaryButton")
        self.new_chat_button.clicked.connect(self.new_chat_requested)
        self.new_agent_button = QPushButton(self.tr("New agent…"), self)
        self.new_agent_button.setObjectName("emptyNewAgentButton")
        self.new_agent_button.clicked.connect(self.new_agent_requested)
        self.providers_button = QPushButton(self.tr("Providers and API keys…"), self)
        self.providers_button.setObjectName("emptyProvidersButton")
        self.providers_button.clicked.connect(self.providers_requested)
        for b in (self.new_chat_button, self.new_agent_button, self.providers_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        outer.addSpacing(12)
        outer.addLayout(buttons)
        outer.addSpacing(12)
        self.hint = QLabel(self)
        self.hint.setObjectName("emptyHint")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.hint)
        outer.addStretch(2)
        self.set_demo(False)
        self.set_has_conversations(False)

    def set_demo(self, demo: bool) -> None:
        """In the offline demo the hint says what the demo offers, never to start it."""
        if demo:
            self.hint.setText(self.tr(
                "This is Cherry's offline demo: no account, no network. Open the demo agent's session on "
                "the left to watch an agent run a tool, approve it, and steer it while it works; or start "
                "a new chat, which the demo model answers."))
        else:
            self.hint.setText(self.tr(
                "Chats answer with a model of one of your providers: add an API key in Providers, or use a "
                "local server such as Ollama. Claude Code agents work in a folder you choose and can use "
                "your own Claude Code login.\n\nTo try everything offline, without an account, start the "
                "app with cherry-desktop --demo"))

    def set_has_conversations(self, has_any: bool) -> None:
        """First words differ when there is something on the left to open."""
        if has_any:
            self.heading.setText(self.tr("Nothing is open"))
            self.body.setText(self.tr("Open a chat or an agent session from the list on the left, "
                                      "or start something new."))
        else:
            self.heading.setText(self.tr("Welcome to Cherry Desktop"))
            self.body.setText(self.tr("Create a chat to talk with a model, or an agent to let Claude Code "
                                      "work in a folder of yours."))
