"""`WindowParts`: a `ChatWindow` as its helpers see it (`WindowSend`, `WindowFollow`), and
`WindowHost`: the `UiController` as a window sees it. Each side takes the other through one of
these narrow protocols, never its class (no import cycle between them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel, QMainWindow, QStatusBar, QWidget

    from cherry_desktop.ui.bridge import Bridges, QtSharedCache, QtStreamListener
    from cherry_desktop.ui.chat import ChatHeader, IssueWords, MessageView, UsageSummary
    from cherry_desktop.ui.composer import Composer, QueueDock
    from cherry_desktop.ui.session import ApprovalCard, SessionHeader
    from cherry_desktop.ui.shell._actions_handler import MessageActionsHandler
    from cherry_desktop.ui.shell._attention import Attention
    from cherry_desktop.ui.shell._window_stream import WindowStream


class WindowParts(Protocol):
    """The parts of one window and the few things it does for its helpers."""

    topic_id: str | None
    bridges: Bridges
    cache: QtSharedCache
    title: QLabel
    chat_header: ChatHeader
    session_header: SessionHeader
    usage_summary: UsageSummary
    message_view: MessageView
    composer: Composer
    queue_dock: QueueDock
    approval_card: ApprovalCard
    words: IssueWords
    stream: WindowStream
    actions_handler: MessageActionsHandler

    @property
    def alive(self) -> bool: ...

    @property
    def listener(self) -> QtStreamListener | None: ...

    def statusBar(self) -> QStatusBar: ...

    def show_error(self, message: str) -> None: ...

    def report_error(self, exc: BaseException) -> None: ...

    def update_composer(self) -> None: ...


class WindowHost(Protocol):
    """What a window asks of the controller that owns every window."""

    bridges: Bridges
    cache: QtSharedCache
    attention: Attention

    def open_window(self, topic_id: str | None = None, *, show: bool = True) -> QWidget: ...

    def edit_agent(self, parent: QWidget | None, agent_id: str | None) -> None: ...

    def open_settings(self, parent: QWidget | None) -> None: ...

    def open_providers(self, parent: QWidget | None, provider_id: str | None = None) -> None: ...

    def fix_error(self, window: QMainWindow, code: str) -> None: ...

    def reload_sidebars(self) -> None: ...

    def topic_deleted(self, *topic_ids: str) -> None: ...

    def quit(self, code: int = 0) -> None: ...

    def confirm_close(self, window: QWidget) -> bool: ...
