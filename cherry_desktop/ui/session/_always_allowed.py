"""The session header's "Always allowed: Bash, Write": the tools the user allowed without asking
in this agent session (the approval card's "Always allow"), with a menu to ask again for one
of them or for all. The grants live with the session (`core/ai/agent_session/tool_grants.py`);
`SessionsBridge.always_allowed` / `revoke_always_allowed` are the bridge's door to them. Many
tools, or a header too narrow for their names, collapse into a count ("Always allowed (4)"); the
menu and the tooltip still name every one."""

from __future__ import annotations

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

#: The names show while "Always allowed: …" is at most this many average characters wide.
NAMES_MAX_CHARS = 32


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
        self.setMenu(QMenu(self))
        self.tools: tuple[str, ...] = ()
        self._names = ""
        self._count = ""
        self.setVisible(False)

    def set_tools(self, tools: tuple[str, ...] | list[str]) -> None:
        self.tools = tuple(tools)
        self.setVisible(bool(self.tools))
        self._names = self.tr("Always allowed: %1").replace("%1", ", ".join(self.tools))
        self._count = self.tr("Always allowed (%n)", "", len(self.tools))
        self.setToolTip(self.tr("Tools allowed without asking in this session; click to ask again")
                        + ("\n" + ", ".join(self.tools) if self.tools else ""))
        self.setText(self._names if self._names_are_short() else self._count)
        self.updateGeometry()
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

    # -- names or a count ------------------------------------------------------------------------
    def _names_are_short(self) -> bool:
        metrics = self.fontMetrics()
        return metrics.horizontalAdvance(self._names) <= metrics.averageCharWidth() * NAMES_MAX_CHARS

    def _size_for(self, text: str) -> QSize:
        hint = super().sizeHint()
        metrics = self.fontMetrics()
        return QSize(hint.width() - metrics.horizontalAdvance(self.text()) + metrics.horizontalAdvance(text),
                     hint.height())

    def sizeHint(self) -> QSize:
        return self._size_for(self._names if self._names_are_short() else self._count)

    def minimumSizeHint(self) -> QSize:
        return self._size_for(self._count)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        fits = self._names_are_short() and self.width() >= self._size_for(self._names).width()
        text = self._names if fits else self._count
        if text and text != self.text():
            self.setText(text)
