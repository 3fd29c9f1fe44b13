"""A window's conversation column: its headers, message view, queue dock, undo bar and
approval card, built into the column around the empty state and the composer the window's
shell already has, and wired to the window (`build_conversation`).

Its modules (the message view with every row and block, the session's widgets) load when the
first window completes, after its first paint (`ChatWindow.complete`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMainWindow, QVBoxLayout, QWidget

from cherry_desktop.ui.chat import ChatHeader, IssueWords, MessageView, UndoBar, UsageSummary, translate_row
from cherry_desktop.ui.composer import QueueDock
from cherry_desktop.ui.session import FOCUS_SHORTCUT, ApprovalCard, SessionHeader

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges
    from cherry_desktop.ui.chat import EmptyState
    from cherry_desktop.ui.composer import Composer
    from cherry_desktop.ui.shell._window_follow import WindowFollow
    from cherry_desktop.ui.shell._window_parts import WindowHost
    from cherry_desktop.ui.shell._window_send import WindowSend


class ConversationHost(Protocol):
    """The window as its conversation's builder sees it: what the parts connect to."""

    controller: WindowHost
    bridges: Bridges
    composer: Composer
    empty_state: EmptyState
    send: WindowSend
    follow: WindowFollow

    def regenerate(self, message_id: str) -> Any: ...


class Conversation(NamedTuple):
    """The parts `build_conversation` made, for the window to keep."""

    words: IssueWords
    chat_header: ChatHeader
    session_header: SessionHeader
    usage_summary: UsageSummary
    message_view: MessageView
    queue_dock: QueueDock
    undo_bar: UndoBar
    approval_card: ApprovalCard


def build_conversation(window: ConversationHost, main: QMainWindow, column: QVBoxLayout) -> Conversation:
    """Build `window`'s conversation parts into `column` (which holds its empty state and its
    composer) and connect them to the window, its sender and its follower."""
    right = window.composer.parentWidget()
    send, follow, controller = window.send, window.follow, window.controller

    def above(widget: QWidget, anchor: QWidget, stretch: int = 0) -> None:
        column.insertWidget(column.indexOf(anchor), widget, stretch)

    words = IssueWords(main)
    header = ChatHeader(right)
    header.model_chosen.connect(follow.on_model_chosen)
    header.providers_requested.connect(lambda pid: controller.open_providers(main, pid or None))
    above(header, window.empty_state)
    session_header = SessionHeader(right)
    session_header.permission_chosen.connect(follow.on_permission_chosen)
    session_header.grants_revoked.connect(follow.revoke_grants)
    above(session_header, window.empty_state)
    usage = UsageSummary(right)
    above(usage, window.empty_state)
    view = MessageView(window.bridges, right)
    view.approvals_changed.connect(send.refresh_approval)
    view.regenerate_requested.connect(window.regenerate)
    view.error_fix_requested.connect(lambda code: controller.fix_error(main, code))
    view.translate_requested.connect(lambda mid, lang: translate_row(view, window.bridges.streams, mid, lang))
    above(view, window.empty_state, 1)
    dock = QueueDock(right)
    sessions, act = window.bridges.sessions, send.queue_action
    dock.edit_requested.connect(lambda mid, text: act(sessions.edit_queued, mid, text))
    dock.remove_requested.connect(lambda mid: act(sessions.remove_queued, mid))
    dock.reorder_requested.connect(lambda ids: act(sessions.reorder_queued, ids))
    dock.steer_now_requested.connect(lambda mid: act(sessions.steer_queued_now, mid))
    dock.resume_requested.connect(lambda: act(sessions.resume_queue))
    sessions.queue_changed.connect(send.on_queue_changed)
    above(dock, window.composer)
    undo_bar = UndoBar(right)
    above(undo_bar, window.composer)
    # The approval card sits above the composer, which stays usable while a tool call
    # waits: the user can go on typing, steer or queue (the card never takes the focus).
    card = ApprovalCard(right)
    card.decided.connect(send.on_approval_decided)
    card.always_allowed.connect(send.on_always_allowed)
    card.setVisible(False)
    above(card, window.composer)
    QShortcut(QKeySequence(FOCUS_SHORTCUT), main, card.take_focus)
    QWidget.setTabOrder(window.composer.editor, card)
    return Conversation(words, header, session_header, usage, view, dock, undo_bar, card)
