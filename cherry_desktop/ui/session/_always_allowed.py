"""The session header's "Always allowed: Bash, Write": the tools the user allowed without asking
in this agent session (the approval card's "Always allow"), with a menu to ask again for one
of them or for all. The grants live with the session (`core/ai/agent_session/tool_grants.py`);
`SessionsBridge.always_allowed` / `revoke_always_allowed` are the bridge's door to them."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu, QToolButton, QWidget


class AlwaysAllowedButton(QToolButton):
    """Hidden while no tool is always allowed.

    Signals:
        revoke_requested(list): the tools (names) to ask for again.
    """

    revoke_requested = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sessionAlwaysAllowed")
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolTip(self.tr("Tools allowed without asking in this session; click to ask again"))
        self.setMenu(QMenu(self))
        self.tools: tuple[str, ...] = ()
        self.setVisible(False)

    def set_tools(self, tools: tuple[str, ...] | list[str]) -> None:
        self.tools = tuple(tools)
        self.setVisible(bool(self.tools))
        self.setText(self.tr("Always allowed: %1").replace("%1", ", ".join(self.tools)))
        menu = self.menu()
        menu.clear()
        for tool in self.tools:
            action = menu.addAction(self.tr("Ask again for %1").replace("%1", tool))
            action.setData(tool)
            action.triggered.connect(lambda _=False, t=tool: self.revoke_requested.emit([t]))
        if len(self.tools) > 1:
            menu.addSeparator()
            every = menu.addAction(self.tr("Ask again for every tool"))
            every.triggered.connect(lambda _=False: self.revoke_requested.emit(list(self.tools)))
