"""`ChatWindow`: one equal window rendering one topic (agent session or chat)."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.core.state.shared_cache import agent_runtime_setup_key, topic_title_key
from cherry_desktop.core.state.topics import is_agent_session_topic, session_id_from_topic
from cherry_desktop.ui._actions_handler import MessageActionsHandler
from cherry_desktop.ui._always_allowed import follow_always_allowed, show_always_allowed
from cherry_desktop.ui._approval_card import FOCUS_SHORTCUT, ApprovalCard
from cherry_desktop.ui._attach_send import SentFiles
from cherry_desktop.ui._composer import Composer, QueueDock
from cherry_desktop.ui._empty_state import EmptyState
from cherry_desktop.ui._listener import QtStreamListener
from cherry_desktop.ui._message_actions import UndoBar
from cherry_desktop.ui._message_view import MessageView
from cherry_desktop.ui._model_picker import ChatHeader, IssueWords
from cherry_desktop.ui._multi_model import connect_window, extra_model_issue, header_issue
from cherry_desktop.ui._search import SearchPanel, reveal_message
from cherry_desktop.ui._session_header import SessionHeader
from cherry_desktop.ui._sidebar import SessionList
from cherry_desktop.ui._tasks import spawn
from cherry_desktop.ui._translate import translate_row
from cherry_desktop.ui._usage import UsageSummary
from cherry_desktop.ui._window_stream import WindowStream
from cherry_desktop.ui.bridge import BridgeUnavailableError
from cherry_desktop.ui.error_words import ErrorWords

if TYPE_CHECKING:
    from cherry_desktop.ui._controller import UiController

log = logging.getLogger(__name__)
# The agent host's SharedCache key prefix for a session's runtime state (busy, pending, held).
RUNTIME_STATE_PREFIX = "agent.session.runtime."
_WINDOW_IDS = itertools.count(1)


#: The sidebar keeps room for its names in a narrow window (it used to shrink to a sliver).
SIDEBAR_MIN_WIDTH = 160


class ChatWindow(QMainWindow):
    """A window: sidebar, message view, queue dock, composer or approval card.

    Closing it only detaches its listener; the stream goes on and persists.

    Signals:
        topic_changed(str): the window now shows this topic id.
        turn_finished(str, str): topic id and terminal status ("success", "paused", "error").
        closed(): the window closed.
    """

    topic_changed = Signal(str)
    turn_finished = Signal(str, str)
    closed = Signal()

    def __init__(self, controller: UiController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ChatWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.controller = controller
        self.bridge = controller.bridge
        self.cache = controller.cache
        self.window_key = f"w{next(_WINDOW_IDS)}"
        self.topic_id: str | None = None
        self.last_error: str | None = None
        self._closed = False
        self.setWindowTitle(self.tr("Cherry Desktop"))
        self.resize(1100, 720)
        self._build()
        self._build_menu()
        self.cache.topic_status_changed.connect(self._on_topic_status)
        self.cache.changed.connect(self._on_cache_changed)
        self.bridge.providers_changed.connect(self._refresh_header)
        self._refresh_header()
        self._refresh_empty_state()
        self._update_composer()

    # -- layout -------------------------------------------------------------------------------
    def _build(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        # A 1 px line (as the theme draws it) keeps a 5 px grab area but, unlike the style's
        # default handle, overlaps neither pane: a widget under an overlapping sibling cannot
        # scroll by blitting, so the message view would repaint in full at every scroll step.
        splitter.setHandleWidth(1)
        self.sidebar = SessionList(self.bridge, self.cache, splitter)
        self.sidebar.open_requested.connect(self._on_open_requested)
        self.sidebar.new_session_requested.connect(self.new_session)
        self.sidebar.rename_requested.connect(self.rename_topic)
        self.sidebar.delete_requested.connect(self.delete_topic)
        self.sidebar.edit_agent_requested.connect(lambda agent_id: self.controller.edit_agent(self, agent_id))
        self.sidebar.new_agent_requested.connect(lambda: self.controller.edit_agent(self, None))
        self.sidebar.new_chat_requested.connect(self.new_chat)
        self.search_panel = SearchPanel(self.bridge, self.sidebar, splitter)
        self.search_panel.hit_opened.connect(self.open_search_hit)
        right = QWidget(splitter)
        v = QVBoxLayout(right)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(0)
        self.title = QLabel(right)
        self.title.setObjectName("topicTitle")
        v.addWidget(self.title)
        self.words = IssueWords(self)
        self.shown_session_issue: str | None = None
        self.chat_header = ChatHeader(right)
        self.chat_header.model_chosen.connect(self._on_model_chosen)
        self.chat_header.providers_requested.connect(lambda pid: self.controller.open_providers(self, pid or None))
        v.addWidget(self.chat_header)
        self.session_header = SessionHeader(right)
        self.session_header.permission_chosen.connect(self._on_permission_chosen)
        follow_always_allowed(self)
        v.addWidget(self.session_header)
        self.usage_summary = UsageSummary(right)
        v.addWidget(self.usage_summary)
        self.message_view = MessageView(self.bridge, right)
        self.message_view.approvals_changed.connect(self._refresh_approval)
        self.message_view.regenerate_requested.connect(self.regenerate)
        self.message_view.translate_requested.connect(lambda mid, lang: translate_row(self, mid, lang))
        v.addWidget(self.message_view, 1)
        self.empty_state = EmptyState(right)
        self.empty_state.new_chat_requested.connect(self.new_chat)
        self.empty_state.new_agent_requested.connect(lambda: self.controller.edit_agent(self, None))
        self.empty_state.providers_requested.connect(lambda: self.controller.open_providers(self, None))
        v.addWidget(self.empty_state, 1)
        self.queue_dock = QueueDock(right)
        self.queue_dock.edit_requested.connect(lambda mid, text: self._queue_action("edit_queued", mid, text))
        self.queue_dock.remove_requested.connect(lambda mid: self._queue_action("remove_queued", mid))
        self.queue_dock.reorder_requested.connect(lambda ids: self._queue_action("reorder_queued", ids))
        self.queue_dock.steer_now_requested.connect(lambda mid: self._queue_action("steer_queued_now", mid))
        self.queue_dock.resume_requested.connect(lambda: self._queue_action("resume_queue"))
        self.bridge.queue_changed.connect(self._on_queue_changed)
        v.addWidget(self.queue_dock)
        self.undo_bar = UndoBar(right)
        v.addWidget(self.undo_bar)
        # The approval card sits above the composer, which stays usable while a tool call
        # waits: the user can go on typing, steer or queue (the card never takes the focus).
        self.approval_card = ApprovalCard(right)
        self.approval_card.decided.connect(self._on_approval_decided)
        self.approval_card.always_allowed.connect(self._on_always_allowed)
        self.approval_card.setVisible(False)
        v.addWidget(self.approval_card)
        QShortcut(QKeySequence(FOCUS_SHORTCUT), self, self.approval_card.take_focus)
        self.composer = Composer(right)
        self.composer.submitted.connect(self.submit)
        self.composer.stop_requested.connect(self.stop)
        self._composer_placeholder = self.composer.editor.placeholderText()
        v.addWidget(self.composer)
        QWidget.setTabOrder(self.composer.editor, self.approval_card)
        splitter.addWidget(self.search_panel)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(0, False)
        self.search_panel.setMinimumWidth(SIDEBAR_MIN_WIDTH)  # a narrow window narrows the topic first
        splitter.setSizes([260, 840])
        self.setCentralWidget(splitter)
        self.statusBar().setObjectName("windowStatus")
        self.actions_handler = MessageActionsHandler(self, self.undo_bar)
        self.stream = WindowStream(self, self.message_view, self.session_header, self.usage_summary)
        self.stream.live_changed.connect(self._update_composer)
        self.stream.turn_finished.connect(self.turn_finished)
        self.stream.reloaded.connect(self._refresh_queue)
        self.stream.reloaded.connect(self._refresh_approval)
        self.stream.failed.connect(self._report_error)
        connect_window(self)  # multi-model answers: stop one, regenerate one, use one

    def _build_menu(self) -> None:
        menu = self.menuBar().addMenu(self.tr("&File"))

        def action(text: str, slot: Any, shortcut: Any = None, name: str = "") -> QAction:
            a = QAction(text, self)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            if name:
                a.setObjectName(name)
            a.triggered.connect(slot)
            menu.addAction(a)
            self.addAction(a)
            return a

        self.new_window_action = action(self.tr("Open in new window"), self.open_in_new_window,
                                        "Ctrl+Shift+N", "openInNewWindow")
        action(self.tr("New chat"), self.new_chat, QKeySequence.StandardKey.New)
        action(self.tr("New agent…"), lambda: self.controller.edit_agent(self, None))
        action(self.tr("Export to Markdown…"), self.export_markdown, "Ctrl+Shift+E", "exportMarkdown")
        menu.addSeparator()
        action(self.tr("Providers and API keys…"), lambda: self.controller.open_providers(self, None),
               name="providersAction")
        action(self.tr("Settings…"), lambda: self.controller.open_settings(self), QKeySequence.StandardKey.Preferences)
        menu.addSeparator()
        action(self.tr("Close window"), self.close, QKeySequence.StandardKey.Close)
        action(self.tr("Quit"), self.controller.quit, QKeySequence.StandardKey.Quit)

    def export_markdown(self) -> None:
        from cherry_desktop.ui._export import export_topic

        export_topic(self)

    # -- topic ------------------------------------------------------------------------------------
    def _on_open_requested(self, topic_id: str, new_window: bool) -> None:
        if new_window:
            self.controller.open_window(topic_id)
        else:
            self.show_topic(topic_id)

    def open_search_hit(self, topic_id: str, message_id: str) -> None:
        """Show a search result's topic; for a message hit, scroll to it and highlight it."""
        self.show_topic(topic_id)
        if message_id and not reveal_message(self.message_view, message_id):
            self.statusBar().showMessage(self.tr("That message is on another branch of this chat"), 5000)

    def open_in_new_window(self) -> None:
        self.controller.open_window(self.topic_id)

    def show_topic(self, topic_id: str | None) -> asyncio.Task[Any] | None:
        """Show `topic_id`: rows from the database, then attach for live output."""
        if topic_id == self.topic_id and self.listener is not None:
            return None
        self.stream.drop()
        self.undo_bar.commit()
        self.actions_handler.cancel_edit()
        self.topic_id = topic_id
        self.stream.topic_id = topic_id
        self.stream.attached_live = False
        self.title.setText(self.bridge.topic_title(topic_id) if topic_id else "")
        if topic_id:
            self.sidebar.select_topic(topic_id)
        self._refresh_queue()
        self.message_view.show_topic(topic_id)
        self._refresh_header()
        self._refresh_empty_state()
        self._update_composer()
        self._refresh_approval()
        if topic_id is None:
            return None
        task = self.stream.subscribe(topic_id)
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

    def _on_topic_status(self, topic_id: str, status: Any) -> None:
        if topic_id != self.topic_id:
            return
        self.stream.follow_status(topic_id, status.is_live)
        self._update_composer()
        self._refresh_approval()
        self._mark_seen_if_active()
        if session_id_from_topic(topic_id):
            self._refresh_queue()

    def _on_cache_changed(self, key: str, _value: Any) -> None:
        if self.topic_id is not None and key == topic_title_key(self.topic_id) and isinstance(_value, str):
            self.title.setText(_value)
        if self.session_header.agent_type and key == agent_runtime_setup_key(self.session_header.agent_type):
            self.session_header.show_runtime_setup(_value)
        # The host publishes each session's runtime state (busy, pending, held, issue): the queue
        # may have changed from another window or from the host itself.
        session_id = session_id_from_topic(self.topic_id) if self.topic_id else None
        if session_id is not None and key == RUNTIME_STATE_PREFIX + session_id:
            self._refresh_queue()
            issue = _value.get("issue") if isinstance(_value, dict) else None
            code = str(issue["code"]) if isinstance(issue, dict) and issue.get("code") else None
            if code is not None and code != self.shown_session_issue:
                # Why the queue is on hold (a queued turn that could not start, an agent edit
                # the running session could not take): the user sees it once, the queue stays.
                self._show_error(self.words.describe_session_issue(code))
            self.shown_session_issue = code

    def is_streaming(self) -> bool:
        return self.stream.is_streaming()

    def _update_composer(self) -> None:
        streaming = self.is_streaming()
        can_steer = self.bridge.can_steer(self.topic_id) if self.topic_id else False
        self.composer.set_streaming(streaming, can_steer=can_steer)
        self.composer.setEnabled(self.topic_id is not None)
        self.composer.editor.setPlaceholderText(
            self._composer_placeholder if self.topic_id is not None
            else self.tr("Open or create a chat to write a message"))

    # -- actions -----------------------------------------------------------------------------------
    def submit(self, text: str, mode: str) -> asyncio.Task[Any] | None:
        """Send `text`: a new turn ("send"), a steer into the running turn, or a queued turn."""
        if self.topic_id is None or self.listener is None:
            return None
        issue = self.bridge.chat_issue(self.topic_id) or extra_model_issue(self.bridge, self.topic_id)
        if issue is not None and issue.blocks_send and mode == "send":
            # Say what is missing instead of sending into a certain failure; keep the text.
            self.chat_header.set_issue(issue)
            self._show_error(self.words.describe(issue))
            if not self.composer.editor.toPlainText().strip():
                self.composer.editor.setPlainText(text)
            return None
        from cherry_desktop.core.messages import new_id  # loaded after first paint

        files = SentFiles.stage(self.bridge, self.composer, self.topic_id, text)
        if files.error:  # not stored: nothing is sent, the composer keeps text and files
            self._show_error(files.error)
            return None
        # Everything the window shows happens now, while it surely exists; the task only sends
        # (and may outlive the window: closing it right after Enter must not drop the message).
        parent = self.actions_handler.take_parent_anchor() if mode == "send" else None
        local_id = f"local:{new_id()}"
        if mode != "queue":
            # Shown at once, before any reply chunk can arrive; renamed once core names it.
            self.message_view.add_user_row(local_id, text, steer=mode == "steer", files=files.parts)
        self.stream.attached_live = True
        self._update_composer()
        return spawn(self._submit(self.topic_id, self.listener, text, mode, local_id, parent, files),
                     on_error=self._report_error)

    async def _submit(self, topic_id: str, listener: QtStreamListener, text: str, mode: str, local_id: str,
                      parent: str | None = None, files: SentFiles | None = None) -> Any:
        from cherry_desktop.core.ai.stream.types import AiStreamOpenRequest  # loaded after first paint

        files = files or SentFiles()
        request = AiStreamOpenRequest(
            topic_id=topic_id, user_message_parts=files.message_parts(text),
            follow_up_mode="queue" if mode == "queue" else "steer", parent_anchor_id=parent,
            mentioned_model_ids=self.bridge.multi_model.models_to_ask(topic_id) if mode == "send" else [])
        try:
            result = await self.bridge.open(request, listener)
        except Exception:
            files.settle(self.bridge, topic_id, composer=self.composer if self.alive else None, text=text)
            if self.alive:
                self.stream.attached_live = self.cache.topic_status(topic_id).is_live
                self._update_composer()
            raise
        files.settle(self.bridge, topic_id)
        if not self.alive or topic_id != self.topic_id:
            return result  # sent and saved; this window is gone or shows another topic
        row = self.message_view.row(local_id)
        if row is not None and result.user_message_id:
            self.message_view.rename_row(local_id, result.user_message_id)
        if result.follow_up == "queued" and row is not None:
            self.message_view.remove_row(result.user_message_id or local_id)
        if result.follow_up == "queued" or mode == "queue":
            self._refresh_queue()
            self.statusBar().showMessage(self.tr("Queued for the next turn"), 4000)
        elif result.follow_up == "injected":
            self.statusBar().showMessage(self.tr("Steered into the running turn"), 4000)
        return result

    def regenerate(self, message_id: str) -> asyncio.Task[Any] | None:
        """`Ai_Stream_Open` with `regenerate-message`: another answer to the same question."""
        if self.topic_id is None or self.listener is None:
            return None
        from cherry_desktop.core.ai.stream.types import AiStreamOpenRequest  # loaded after first paint

        request = AiStreamOpenRequest(topic_id=self.topic_id, trigger="regenerate-message", message_id=message_id)
        self.stream.attached_live = True
        self._update_composer()

        async def run() -> Any:
            try:
                return await self.bridge.open(request, self.listener)
            except Exception:
                if self.alive:
                    self.stream.attached_live = False
                    self._update_composer()
                raise

        return spawn(run(), on_error=self._report_error)

    def stop(self) -> None:
        if self.topic_id is not None:
            spawn(self.bridge.abort(self.topic_id), on_error=self._report_error)

    def _on_always_allowed(self, approval_id: str, tool_name: str) -> None:
        self._on_approval_decided(approval_id, True, "", always=True)
        self.statusBar().showMessage(
            self.tr("%1 is allowed without asking for the rest of this session").replace("%1", tool_name), 8000)

    def _on_approval_decided(self, approval_id: str, allowed: bool, reason: str = "", *,
                             always: bool = False) -> None:
        if self.topic_id is None:
            return
        topic_id = self.topic_id
        focus = QApplication.focusWidget()
        if focus is not None and (focus is self.approval_card or self.approval_card.isAncestorOf(focus)):
            self.composer.editor.setFocus()  # the keyboard goes back to where the user writes

        async def respond() -> None:
            await self.bridge.respond_tool_approval(topic_id, approval_id, allowed, reason or None,
                                                    always_allow=always)
            if self.alive:
                self.message_view.mark_approval_responded(approval_id, allowed)
                if always:  # the header lists the new grant
                    show_always_allowed(self, topic_id)

        spawn(respond(), on_error=self._report_error)
        self.message_view.mark_approval_responded(approval_id, allowed)

    def _refresh_approval(self) -> None:
        pending = self.message_view.pending_approvals()
        if pending:
            self.approval_card.show_approval(pending[0])
            self.approval_card.setVisible(True)
        else:
            self.approval_card.clear()
            self.approval_card.setVisible(False)

    def approval_waiting(self) -> bool:
        """A tool call of this window's topic waits for the user (the card shows)."""
        return self.approval_card.approval is not None and self.approval_card.isVisibleTo(self)

    def _refresh_queue(self) -> None:
        session_id = session_id_from_topic(self.topic_id) if self.topic_id else None
        items = self.bridge.list_queued(session_id) if session_id else []
        hidden = {i.message_id for i in items}
        released = self.message_view.hidden_ids - hidden
        self.message_view.hidden_ids = hidden
        if released:
            # A queued follow-up left the dock (it runs now, or was steered in): its user row
            # belongs in the conversation again. A reload keeps rows that are streaming.
            self.message_view.reload()
        self.queue_dock.set_items(items, held=self.bridge.is_queue_held(session_id) if session_id else False)

    def _on_queue_changed(self, session_id: str) -> None:
        if self.topic_id and session_id_from_topic(self.topic_id) == session_id:
            self._refresh_queue()

    def _queue_action(self, name: str, *args: Any) -> None:
        session_id = session_id_from_topic(self.topic_id) if self.topic_id else None
        if session_id is None:
            return
        spawn(getattr(self.bridge, name)(session_id, *args), on_error=self._report_error)

    def new_session(self, agent_id: str) -> None:
        topic_id = self.bridge.create_session(agent_id, self.tr("New session"))
        self.controller.reload_sidebars()
        self.show_topic(topic_id)

    def new_chat(self) -> None:
        """A new chat on the model most likely wanted (the header's picker changes it)."""
        topic_id = self.bridge.create_topic(self.tr("New chat"), model=self.bridge.default_chat_model())
        self.controller.reload_sidebars()
        self.show_topic(topic_id)
        if self.chat_header.isVisible():
            self.chat_header.picker.setFocus()

    # -- chat model ----------------------------------------------------------------------------------
    def _refresh_header(self) -> None:
        """The chat header shows for chat topics only (an agent's model is the agent's); the
        session header for agent sessions."""
        topic_id = self.topic_id
        self.session_header.show_info(
            self.bridge.session_header_info(topic_id) if topic_id and is_agent_session_topic(topic_id) else None)
        setup_key = agent_runtime_setup_key(self.session_header.agent_type)
        self.session_header.show_runtime_setup(self.cache.snapshot(setup_key).get(setup_key))
        self.usage_summary.show_totals(self.bridge.usage_totals(topic_id) if topic_id else None)
        is_chat = topic_id is not None and not is_agent_session_topic(topic_id)
        self.chat_header.setVisible(is_chat)
        if not is_chat or topic_id is None:
            return
        self.chat_header.set_models(self.bridge.chat_models(), self.bridge.topic_model(topic_id))
        self.chat_header.set_extra_models(self.bridge.multi_model.extra_models(topic_id))
        self.chat_header.set_issue(header_issue(self.bridge, topic_id))

    def _on_permission_chosen(self, mode: str) -> asyncio.Task[Any] | None:
        topic_id = self.topic_id
        if topic_id is None:
            return None

        async def apply() -> None:
            outcome = await self.bridge.set_session_permission_mode(topic_id, mode)
            if topic_id == self.topic_id:
                self.session_header.show_outcome(mode, outcome.value)

        return spawn(apply(), on_error=self._report_error)

    def _on_model_chosen(self, unique_model_id: str) -> None:
        if self.topic_id is None or is_agent_session_topic(self.topic_id):
            return
        self.bridge.set_topic_model(self.topic_id, unique_model_id)
        self.statusBar().clearMessage()  # a "no model / no key" message may no longer apply
        self._refresh_header()
        for window in self.controller.windows_for(self.topic_id):
            if window is not self:
                window._refresh_header()

    def _refresh_empty_state(self) -> None:
        # Until core's stream services run (just after the first paint) the first topic is not
        # chosen yet: a blank view, not "Nothing is open" flashing for a moment.
        empty = self.topic_id is None and self.bridge.services_running()
        self.empty_state.setVisible(empty)
        self.message_view.setVisible(not empty)
        self.title.setVisible(not empty)
        if empty:
            self.empty_state.set_has_conversations(self.bridge.has_conversations())

    def rename_topic(self, topic_id: str) -> None:
        name, ok = QInputDialog.getText(self, self.tr("Rename"), self.tr("Name"),
                                        text=self.bridge.topic_title(topic_id))
        if ok and name.strip():
            # Every window's sidebar and header follow the shared cache.
            self.bridge.rename_topic(topic_id, name.strip())

    def delete_topic(self, topic_id: str, *, confirm: bool = True) -> asyncio.Task[Any] | None:
        if confirm and QMessageBox.question(self, self.tr("Delete"), self.tr("Delete this conversation?")) \
                != QMessageBox.StandardButton.Yes:
            return None

        async def run() -> None:
            await self.bridge.delete_topic(topic_id)
            self.controller.topic_deleted(topic_id)

        return spawn(run(), on_error=self._report_error)

    def _report_error(self, exc: BaseException) -> None:
        if not self.alive:
            log.warning("after its window closed: %s", exc)
            return
        if isinstance(exc, BridgeUnavailableError):
            message = self.tr("This part of the app is not available yet (%1).").replace("%1", exc.what)
        else:
            message = (self.words.describe_error(exc) or ErrorWords().describe_exception(exc)
                       or str(exc) or type(exc).__name__)
        if self.topic_id is not None and not is_agent_session_topic(self.topic_id):
            self._refresh_header()
        self._show_error(message)

    def _show_error(self, message: str) -> None:
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

    def closeEvent(self, event: QCloseEvent) -> None:
        self.undo_bar.commit()  # a deletion still undoable becomes final
        self._closed = True
        self.stream.close()
        try:
            self.cache.topic_status_changed.disconnect(self._on_topic_status)
            self.cache.changed.disconnect(self._on_cache_changed)
            self.bridge.queue_changed.disconnect(self._on_queue_changed)
            self.bridge.providers_changed.disconnect(self._refresh_header)
        except (RuntimeError, TypeError):
            pass
        self.closed.emit()
        super().closeEvent(event)
