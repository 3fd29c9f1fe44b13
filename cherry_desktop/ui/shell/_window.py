"""`ChatWindow`: one equal window rendering one topic (agent session or chat)."""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QSpacerItem, QSplitter, QVBoxLayout, QWidget

from cherry_desktop.core.state.topics import is_agent_session_topic, session_id_from_topic
from cherry_desktop.ui.bridge import BridgeUnavailableError, QtStreamListener, TopicStatusView
from cherry_desktop.ui.chat import EmptyState, ErrorWords
from cherry_desktop.ui.common import ask_text
from cherry_desktop.ui.composer import Composer
from cherry_desktop.ui.shell._agent_actions import AgentActions
from cherry_desktop.ui.shell._complete_after_paint import CompleteAfterPaint
from cherry_desktop.ui.shell._export import export_topic
from cherry_desktop.ui.shell._sidebar_toggle import SidebarToggle
from cherry_desktop.ui.shell._window_menu import build_menu
from cherry_desktop.ui.sidebar import NewTopicBar, SearchPanel, SessionList, SidebarPane, reveal_hit

if TYPE_CHECKING:
    from cherry_desktop.ui.shell._window_parts import WindowHost

log = logging.getLogger(__name__)
_WINDOW_IDS = itertools.count(1)


#: The sidebar keeps room for its names in a narrow window (it used to shrink to a sliver).
SIDEBAR_MIN_WIDTH = 160


class ChatWindow(QMainWindow):
    """A window: sidebar, message view, queue dock, composer or approval card.

    Closing it only detaches its listener; the stream goes on and persists.

    Built in two steps: the shell (sidebar, search, composer, menu), then `complete()` adds the
    conversation (headers, message view, queue dock, undo bar, approval card) and what follows
    its stream. A `staged` window (the app's first, opened before core's stream services run)
    paints its shell first and completes right after that paint, so the conversation's modules
    load after the first paint; until then it shows no topic and its composer takes no input.
    Any other window completes at once.

    Signals:
        topic_changed(str): the window now shows this topic id.
        turn_finished(str, str): topic id and terminal status ("success", "paused", "error").
        closed(): the window closed.
    """

    topic_changed = Signal(str)
    turn_finished = Signal(str, str)
    closed = Signal()

    def __init__(self, controller: WindowHost, parent: QWidget | None = None, *, staged: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("ChatWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.controller = controller
        self.bridges = controller.bridges
        self.cache = controller.cache
        self.window_key = f"w{next(_WINDOW_IDS)}"
        self.topic_id: str | None = None
        self.last_error: str | None = None
        self._closed = False
        self.completed = False
        # The title leads with how many conversations wait for the user, in any window.
        self.setWindowTitle(controller.attention.window_title())
        controller.attention.waiting_changed.connect(self._on_waiting_changed)
        self.resize(1100, 720)
        self._build_shell()
        self.new_window_action = build_menu(self, controller, open_in_new_window=self.open_in_new_window,
                                            new_chat=self.new_chat, export_markdown=self.export_markdown)
        self.sidebar_toggle.add_menu()
        if staged:
            self.composer.setEnabled(False)
            CompleteAfterPaint(self, self)
        else:
            self.complete()

    # -- layout -------------------------------------------------------------------------------
    def _build_shell(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        # A 1 px line (as the theme draws it) keeps a 5 px grab area but, unlike the style's
        # default handle, overlaps neither pane: a widget under an overlapping sibling cannot
        # scroll by blitting, so the message view would repaint in full at every scroll step.
        splitter.setHandleWidth(1)
        self.sidebar = SessionList(self.bridges.chats, self.cache, splitter)
        self.sidebar.open_requested.connect(self._on_open_requested)
        self.sidebar.new_session_requested.connect(self.new_session)
        self.sidebar.new_worktree_session_requested.connect(self.new_worktree_session)
        self.sidebar.rename_requested.connect(self.rename_topic)
        self.sidebar.delete_requested.connect(self.delete_topic)
        self.sidebar.edit_agent_requested.connect(lambda agent_id: self.controller.edit_agent(self, agent_id))
        self.agent_actions = AgentActions(self, self)
        self.sidebar.delete_agent_requested.connect(self.agent_actions.delete_agent)
        self.sidebar.new_agent_requested.connect(lambda: self.controller.edit_agent(self, None))
        self.sidebar.new_chat_requested.connect(self.new_chat)
        self.new_topic_bar = NewTopicBar()
        self.new_topic_bar.new_chat_clicked.connect(self.new_chat)
        self.new_topic_bar.new_session_clicked.connect(self.new_session_for_current_agent)
        self.search_panel = SearchPanel(self.bridges.search, SidebarPane(self.new_topic_bar, self.sidebar), splitter)
        self.search_panel.hit_opened.connect(self.open_search_hit)
        self.sidebar_toggle: SidebarToggle = SidebarToggle(self, self.search_panel, self.bridges.settings)
        right = QWidget(splitter)
        self._column = v = QVBoxLayout(right)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(0)
        self.title = QLabel(right)
        self.title.setObjectName("topicTitle")
        self.title.setVisible(False)
        v.addWidget(self.sidebar_toggle.title_bar(self.title, right))
        # Where the conversation goes (`complete`): until then the composer stays at the bottom.
        self._conversation_slot = QSpacerItem(0, 0)
        v.addSpacerItem(self._conversation_slot)
        v.setStretch(1, 1)
        self.empty_state = EmptyState(right)
        self.empty_state.new_chat_requested.connect(self.new_chat)
        self.empty_state.new_agent_requested.connect(lambda: self.controller.edit_agent(self, None))
        self.empty_state.providers_requested.connect(lambda: self.controller.open_providers(self, None))
        self.empty_state.setVisible(False)
        v.addWidget(self.empty_state, 1)
        self.composer = Composer(right)
        self.composer.submitted.connect(self.submit)
        self.composer.stop_requested.connect(self.stop)
        self._composer_placeholder = self.composer.editor.placeholderText()
        self.composer.editor.setPlaceholderText(self.tr("Open or create a chat to write a message"))
        v.addWidget(self.composer)
        splitter.addWidget(self.search_panel)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(0, False)
        self.search_panel.setMinimumWidth(SIDEBAR_MIN_WIDTH)  # a narrow window narrows the topic first
        splitter.setSizes([260, 840])
        self.setCentralWidget(splitter)
        self.statusBar().setObjectName("windowStatus")

    def complete(self) -> None:
        """Add the conversation's parts (once; see the class docstring)."""
        if self.completed or not self.alive:
            return
        self.completed = True
        from cherry_desktop.ui.shell._actions_handler import MessageActionsHandler
        from cherry_desktop.ui.shell._checkpoint_actions import CheckpointActions
        from cherry_desktop.ui.shell._multi_model import connect_window
        from cherry_desktop.ui.shell._window_conversation import build_conversation
        from cherry_desktop.ui.shell._window_follow import WindowFollow
        from cherry_desktop.ui.shell._window_send import WindowSend
        from cherry_desktop.ui.shell._window_stream import WindowStream
        from cherry_desktop.ui.shell._worktree_actions import WorktreeActions

        # What the window sends, and how it follows its topic (both take it as `WindowParts`).
        self.send = WindowSend(self, self)
        self.follow = WindowFollow(self, self.send, self)
        self.worktree_actions = WorktreeActions(self, self)
        self._column.removeItem(self._conversation_slot)
        (self.words, self.chat_header, self.session_header, self.usage_summary, self.message_view,
         self.queue_dock, self.undo_bar, self.approval_card) = build_conversation(self, self, self._column)
        self.actions_handler = MessageActionsHandler(self, self, self.undo_bar)
        self.checkpoint_actions = CheckpointActions(self, self)  # its refreshes follow the stream's signals
        self.stream = WindowStream(self, self, self.message_view, self.session_header, self.usage_summary)
        self.stream.live_changed.connect(self.update_composer)
        self.stream.turn_finished.connect(self.turn_finished)
        self.stream.reloaded.connect(self.send.refresh_queue)
        self.stream.reloaded.connect(self.send.refresh_approval)
        self.checkpoint_actions.refresh_on(self.stream.reloaded, self.turn_finished)
        self.stream.failed.connect(self.report_error)
        connect_window(self)  # multi-model answers: stop one, regenerate one, use one
        self.cache.topic_status_changed.connect(self._on_topic_status)
        self.cache.changed.connect(self.follow.on_cache_changed)
        self.bridges.providers.providers_changed.connect(self.follow.refresh_header)
        self.follow.refresh_header()
        self._refresh_empty_state()
        self.update_composer()

    def export_markdown(self, path: Path | None = None) -> Path | None:
        """Write this window's conversation to Markdown (`path` is asked for when None)."""
        return export_topic(self, self.bridges.chats, self.topic_id, path)

    # -- topic ------------------------------------------------------------------------------------
    def _on_open_requested(self, topic_id: str, new_window: bool) -> None:
        if new_window:
            self.controller.open_window(topic_id)
        else:
            self.show_topic(topic_id)

    def open_search_hit(self, topic_id: str, message_id: str) -> None:
        """Show a search result's topic; a message hit is revealed (`reveal_hit`)."""
        self.show_topic(topic_id)
        if message_id and not reveal_hit(self.message_view, message_id):
            self.statusBar().showMessage(self.tr("That message is on another branch of this chat"), 5000)

    def open_in_new_window(self) -> None:
        self.controller.open_window(self.topic_id)

    def show_topic(self, topic_id: str | None) -> asyncio.Task[Any] | None:
        """Show `topic_id`: rows from the database, then attach for live output."""
        self.complete()
        if topic_id == self.topic_id and self.listener is not None:
            return None
        self.stream.drop()
        self.undo_bar.commit()
        self.actions_handler.cancel_edit()
        self.topic_id = topic_id
        self.stream.topic_id = topic_id
        self.stream.attached_live = False
        self.title.setText(self.bridges.chats.topic_title(topic_id) if topic_id else "")
        if topic_id:
            self.sidebar.select_topic(topic_id)
        self.send.refresh_queue()
        self.message_view.show_topic(topic_id)
        self.follow.refresh_header()
        self._refresh_empty_state()
        self.update_composer()
        self.send.refresh_approval()
        if topic_id is None:
            return None
        task = self.stream.subscribe(topic_id)
        self.composer.editor.setFocus(Qt.FocusReason.OtherFocusReason)  # opened to write in, as in Cherry Studio
        self.topic_changed.emit(topic_id)
        self._mark_seen_if_active()
        return task

    # -- the live side is `self.stream`; these read-only names stay for tests and benches ----------
    @property
    def listener(self) -> QtStreamListener | None:
        return self.stream.listener

    @property
    def attached_live(self) -> bool:
        return self.stream.attached_live

    @property
    def live_text_at_terminal(self) -> str | None:
        return self.stream.live_text_at_terminal

    def live_text(self) -> str:
        return self.stream.live_text()

    def _on_topic_status(self, topic_id: str, status: TopicStatusView) -> None:
        if topic_id != self.topic_id:
            return
        self.stream.follow_status(topic_id, status.is_live)
        self.update_composer()
        self.send.refresh_approval()
        self._mark_seen_if_active()
        if session_id_from_topic(topic_id):
            self.send.refresh_queue()

    def is_streaming(self) -> bool:
        return self.completed and self.stream.is_streaming()

    def update_composer(self) -> None:
        streaming = self.is_streaming()
        can_steer = self.bridges.sessions.can_steer(self.topic_id) if self.topic_id else False
        self.composer.set_streaming(streaming, can_steer=can_steer)
        self.composer.setEnabled(self.topic_id is not None)
        self.composer.editor.setPlaceholderText(
            self._composer_placeholder if self.topic_id is not None
            else self.tr("Open or create a chat to write a message"))

    # -- actions -----------------------------------------------------------------------------------
    def submit(self, text: str, mode: str) -> asyncio.Task[Any] | None:
        """Send `text`: a new turn ("send"), a steer into the running turn, or a queued turn."""
        return self.send.submit(text, mode)

    def regenerate(self, message_id: str) -> asyncio.Task[Any] | None:
        """`Ai_Stream_Open` with `regenerate-message`: another answer to the same question."""
        return self.send.regenerate(message_id)

    def stop(self) -> None:
        self.send.stop()

    def approval_waiting(self) -> bool:
        """A tool call of this window's topic waits for the user (the card shows)."""
        return (self.completed and self.approval_card.approval is not None
                and self.approval_card.isVisibleTo(self))

    def new_worktree_session(self, agent_id: str) -> asyncio.Task[None]:
        self.complete()
        return self.worktree_actions.new_session(agent_id)

    def new_session(self, agent_id: str) -> None:
        topic_id = self.bridges.sessions.create_session(agent_id, self.tr("New session"))
        self.controller.reload_sidebars()
        self.show_topic(topic_id)

    def new_session_for_current_agent(self) -> None:
        """"+ New session": for the agent the user is looking at; no agent yet: make one first."""
        agent_id = self.sidebar.agent_for_new_session()
        if agent_id is None:
            self.controller.edit_agent(self, None)
        else:
            self.new_session(agent_id)

    def new_chat(self) -> None:
        """A new chat on the model most likely wanted (the header's picker changes it)."""
        model = self.bridges.providers.default_chat_model()
        topic_id = self.bridges.chats.create_topic(self.tr("New chat"), model=model)
        self.controller.reload_sidebars()
        self.show_topic(topic_id)
        if self.chat_header.isVisible():
            self.chat_header.picker.setFocus()

    def _refresh_empty_state(self) -> None:
        # Until core's stream services run (just after the first paint) the first topic is not
        # chosen yet: a blank view, not "Nothing is open" flashing for a moment.
        empty = self.topic_id is None and self.bridges.services_running()
        self.empty_state.setVisible(empty)
        self.message_view.setVisible(not empty)
        self.title.setVisible(not empty)
        if empty:
            self.empty_state.set_has_conversations(self.bridges.chats.has_conversations())

    def rename_topic(self, topic_id: str) -> None:
        name, ok = ask_text(self, self.tr("Rename"), self.tr("Name"), self.bridges.chats.topic_title(topic_id))
        if ok and name.strip():
            # Every window's sidebar and header follow the shared cache.
            self.bridges.chats.rename_topic(topic_id, name.strip())

    def delete_topic(self, topic_id: str, *, confirm: bool = True) -> asyncio.Task[Any] | None:
        """Delete a conversation (asked first; a session's own worktree offered for removal)."""
        self.complete()
        return self.worktree_actions.delete_topic(topic_id, confirm=confirm)

    def report_error(self, exc: BaseException) -> None:
        if not self.alive:
            log.warning("after its window closed: %s", exc)
            return
        if isinstance(exc, BridgeUnavailableError):
            message = self.tr("This part of the app is not available yet (%1).").replace("%1", exc.what)
        else:
            message = (self.words.describe_error(exc) or ErrorWords().describe_exception(exc)
                       or str(exc) or type(exc).__name__)
        if self.topic_id is not None and not is_agent_session_topic(self.topic_id):
            self.follow.refresh_header()
        self.show_error(message)

    def show_error(self, message: str) -> None:
        self.last_error = message
        self.statusBar().showMessage(message, 8000)

    # -- read receipts, close -----------------------------------------------------------------------
    def _mark_seen_if_active(self) -> None:
        if self.topic_id is not None and self.isActiveWindow():
            self.cache.mark_completion_seen(self.topic_id)

    def mark_seen(self) -> None:
        """The user looked at this window (activation, or tests standing in for it)."""
        if self.topic_id is not None:
            self.cache.mark_completion_seen(self.topic_id)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.mark_seen()
        super().changeEvent(event)

    @property
    def alive(self) -> bool:
        """False once the window closed (its widgets may be deleted by then)."""
        return not self._closed and shiboken6.isValid(self)

    def _on_waiting_changed(self, _count: int) -> None:
        self.setWindowTitle(self.controller.attention.window_title())

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.controller.confirm_close(self):
            event.ignore()  # the last window asks first what becomes of the work waiting for the user
            return
        if self.completed:
            self.undo_bar.commit()  # a deletion still undoable becomes final
        self._closed = True
        self._detach()
        self.closed.emit()
        super().closeEvent(event)

    def _detach(self) -> None:
        if not self.completed:
            return  # a staged window closed before it completed follows nothing yet
        self.stream.close()
        try:
            self.cache.topic_status_changed.disconnect(self._on_topic_status)
            self.cache.changed.disconnect(self.follow.on_cache_changed)
            self.bridges.sessions.queue_changed.disconnect(self.send.on_queue_changed)
            self.bridges.providers.providers_changed.disconnect(self.follow.refresh_header)
            self.controller.attention.waiting_changed.disconnect(self._on_waiting_changed)
        except (RuntimeError, TypeError):
            pass
