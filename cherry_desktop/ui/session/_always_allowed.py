"""The session header's "Always allowed: Bash, Write": the tools the user allowed without asking
in this agent session (the approval card's "Always allow"), with a menu to ask again for one
of them or for all. The grants live with the session (`core/ai/agent_session/tool_grants.py`);
`revoke_always_allowed` / `always_allowed_of` are the bridge's facet for them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from cherry_desktop.core.state.topics import session_id_from_topic


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


def follow_always_allowed(window: Any) -> None:
    """Hook a window's session header: "Ask again for" revokes in the shown session."""

    def revoke(tools: list[str]) -> None:
        topic_id = window.topic_id
        if topic_id is not None:  # the live connection asks again from its next call
            _show(window, topic_id, revoke_always_allowed(window.bridge, topic_id, tools))

    window.session_header.grants_revoked.connect(revoke)


def show_always_allowed(window: Any, topic_id: str) -> None:
    """Show the saved grants in the header of every window on the session (after an "Always
    allow" answer)."""
    _show(window, topic_id, always_allowed_of(window.bridge, topic_id))


def _show(window: Any, topic_id: str, tools: tuple[str, ...]) -> None:
    for shown in window.controller.windows_for(topic_id):
        shown.session_header.always_allowed.set_tools(tools)


def always_allowed_of(bridge: Any, topic_id: str) -> tuple[str, ...]:
    """The tools always allowed in the agent session of `topic_id` (() for another topic)."""
    from cherry_desktop.core.views.session_header import always_allowed_tools

    session_id = session_id_from_topic(topic_id)
    return always_allowed_tools(bridge.repos, session_id) if session_id is not None else ()


def revoke_always_allowed(bridge: Any, topic_id: str, tools: list[str]) -> tuple[str, ...]:
    """Ask again for `tools` in the session of `topic_id`, its live connection at once; returns
    the tools still always allowed."""
    from cherry_desktop.core.views.session_header import revoke_always_allowed as revoke

    session_id = session_id_from_topic(topic_id)
    if session_id is None:
        return ()
    revoke(bridge.repos, bridge.agent_runtime, session_id, tools)
    return always_allowed_of(bridge, topic_id)
