"""`WindowFollow`: what a window shows above its messages (title, chat header, session header,
usage line) and how it follows its topic's state on the shared cache: a new name, a chat's
models, the answer it continues from, always-allowed tools, a runtime being set up, and the
agent host's runtime state of a session (its queue, why it is held).

Every window of a topic hears the same keys, so a change made in one (or by core) reaches all
of them; no window reaches into another one."""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from cherry_desktop.core.state.shared_cache import agent_runtime_setup_key, topic_title_key
from cherry_desktop.core.state.topics import is_agent_session_topic, session_id_from_topic
from cherry_desktop.ui.bridge import (
    session_always_allowed_key,
    topic_continuation_key,
    topic_extra_models_key,
    topic_model_key,
)
from cherry_desktop.ui.common import spawn

if TYPE_CHECKING:
    from cherry_desktop.ui.shell._window_parts import WindowParts
    from cherry_desktop.ui.shell._window_send import WindowSend

# The agent host's SharedCache key prefix for a session's runtime state (busy, pending, held).
RUNTIME_STATE_PREFIX = "agent.session.runtime."


class WindowFollow(QObject):
    """The headers of one window and what it follows (see module docstring)."""

    def __init__(self, window: WindowParts, send: WindowSend, parent: QObject) -> None:
        super().__init__(parent)
        self.window = window
        self.send = send
        self.shown_session_issue: str | None = None
        self._files_topic: str | None = None  # whose files the composer's "@" lists

    # -- the headers -----------------------------------------------------------------------------
    def refresh_header(self) -> None:
        """The chat header shows for chat topics only (an agent's model is the agent's); the
        session header for agent sessions."""
        w = self.window
        topic_id = w.topic_id
        w.session_header.show_info(
            w.bridges.sessions.session_header_info(topic_id) if topic_id and is_agent_session_topic(topic_id)
            else None)
        setup_key = agent_runtime_setup_key(w.session_header.agent_type)
        w.session_header.show_runtime_setup(w.cache.snapshot(setup_key).get(setup_key))
        w.usage_summary.show_totals(w.bridges.chats.usage_totals(topic_id) if topic_id else None)
        self.refresh_completion()
        is_chat = topic_id is not None and not is_agent_session_topic(topic_id)
        w.chat_header.setVisible(is_chat)
        if not is_chat or topic_id is None:
            return
        w.chat_header.set_models(w.bridges.providers.chat_models(), w.bridges.providers.topic_model(topic_id))
        w.chat_header.set_extra_models(w.bridges.multi_model.extra_models(topic_id))
        w.chat_header.set_issue(w.bridges.multi_model.header_issue(topic_id))

    def refresh_completion(self) -> None:
        """The composer's "/" commands (the runtime's, as last announced) and "@" files (the
        session's workspace); a chat has neither."""
        w = self.window
        topic_id = w.topic_id
        session = topic_id if topic_id and is_agent_session_topic(topic_id) else None
        w.composer.completion.set_commands(w.bridges.sessions.slash_commands(session) if session else ())
        if session != self._files_topic:
            self._files_topic = session
            w.composer.completion.set_files(functools.partial(w.bridges.sessions.workspace_files, session)
                                            if session else None)

    def on_permission_chosen(self, mode: str) -> asyncio.Task[Any] | None:
        w = self.window
        topic_id = w.topic_id
        if topic_id is None:
            return None

        async def apply() -> None:
            outcome = await w.bridges.sessions.set_session_permission_mode(topic_id, mode)
            if topic_id == w.topic_id:
                w.session_header.show_outcome(mode, outcome.value)

        return spawn(apply(), on_error=w.report_error)

    def on_model_chosen(self, unique_model_id: str) -> None:
        w = self.window
        if w.topic_id is None or is_agent_session_topic(w.topic_id):
            return
        w.statusBar().clearMessage()  # a "no model / no key" message may no longer apply
        # Every window of the chat (this one too) re-reads its header (`topic_model_key`).
        w.bridges.providers.set_topic_model(w.topic_id, unique_model_id)

    def revoke_grants(self, tools: list[str]) -> None:
        """"Ask again for": the live connection asks again from its next call; every window of
        the session shows what is left (`session_always_allowed_key`)."""
        w = self.window
        if w.topic_id is not None:
            w.bridges.sessions.revoke_always_allowed(w.topic_id, tools)

    # -- the shared cache ------------------------------------------------------------------------
    def on_cache_changed(self, key: str, value: Any) -> None:
        w = self.window
        if w.topic_id is not None and key == topic_title_key(w.topic_id) and isinstance(value, str):
            w.title.setText(value)
        self._follow_topic_state(key, value)
        if w.session_header.agent_type and key == agent_runtime_setup_key(w.session_header.agent_type):
            w.session_header.show_runtime_setup(value)
        # The host publishes each session's runtime state (busy, pending, held, issue): the queue
        # may have changed from another window or from the host itself.
        session_id = session_id_from_topic(w.topic_id) if w.topic_id else None
        if session_id is not None and key == RUNTIME_STATE_PREFIX + session_id:
            self.send.refresh_queue()
            self.refresh_completion()  # the commands the runtime announced
            issue = value.get("issue") if isinstance(value, dict) else None
            code = str(issue["code"]) if isinstance(issue, dict) and issue.get("code") else None
            if code is not None and code != self.shown_session_issue:
                # Why the queue is on hold (a queued turn that could not start, an agent edit
                # the running session could not take): the user sees it once, the queue stays.
                w.show_error(w.words.describe_session_issue(code))
            self.shown_session_issue = code

    def _follow_topic_state(self, key: str, value: Any) -> None:
        """What another window (or this one) changed about the topic shown here."""
        w = self.window
        topic_id = w.topic_id
        if topic_id is None:
            return
        if key == topic_model_key(topic_id):
            self.refresh_header()
        elif key == topic_extra_models_key(topic_id) and isinstance(value, list):
            w.chat_header.set_extra_models(value)
            w.chat_header.set_issue(w.bridges.multi_model.header_issue(topic_id))
        elif key == topic_continuation_key(topic_id):
            w.message_view.reload()
        elif key == session_always_allowed_key(topic_id) and isinstance(value, tuple):
            w.session_header.always_allowed.set_tools(value)
