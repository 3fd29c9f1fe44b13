"""The one door from widgets into core (the spec's IPC request channels).

One async method per channel: `open` (`Ai_Stream_Open`: submit / regenerate), `attach`,
`detach`, `abort`, `respond_tool_approval`; plus the agent host's queued follow-up actions
and the database reads a window needs. Widgets never touch a core service directly.

The bridge is tolerant of a partly built core: a missing service raises
`BridgeUnavailableError` (the window words it) instead of an AttributeError deep in a slot.
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from cherry_desktop.core.ai.stream.types import AiStreamOpenRequest, AttachResponse, DispatchResult
from cherry_desktop.core.data import StoredMessage
from cherry_desktop.ui._topics import session_id_of

log = logging.getLogger(__name__)


class BridgeUnavailableError(RuntimeError):
    """The core service behind a channel is not there (yet)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(frozen=True)
class QueuedFollowUp:
    """One queued follow-up of an agent session, as the queue dock lists it."""

    message_id: str
    text: str
    is_steer: bool


async def _maybe_await(value: Any) -> Any:
    if inspect.isawaitable(value):
        return await value
    return value


def _first_attr(obj: Any, *names: str) -> Any:
    for name in names:
        fn = getattr(obj, name, None)
        if fn is not None:
            return fn
    return None


class UiBridge(QObject):
    """Async request channels from the UI into core.

    Signals:
        queue_changed(str): the queued follow-ups of this session id changed.
        settings_changed(dict): the user settings after a change.
    """

    queue_changed = Signal(str)
    settings_changed = Signal(dict)

    def __init__(self, core: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core

    # -- services -------------------------------------------------------------------------
    @property
    def repos(self) -> Any:
        return self.core.repos

    @property
    def stream_manager(self) -> Any:
        return getattr(self.core, "stream_manager", None)

    @property
    def agent_runtime(self) -> Any:
        return getattr(self.core, "agent_runtime", None)

    def _manager(self) -> Any:
        manager = self.stream_manager
        if manager is None:
            raise BridgeUnavailableError("stream_manager")
        return manager

    # -- request channels -------------------------------------------------------------------
    async def open(self, request: AiStreamOpenRequest, subscriber: Any) -> DispatchResult:
        """`Ai_Stream_Open`: submit (or steer / queue) a user message, or regenerate."""
        manager = self._manager()
        try:
            from cherry_desktop.core.ai.stream import dispatch_stream_request
        except ImportError as exc:
            raise BridgeUnavailableError("dispatch_stream_request") from exc
        result = await _maybe_await(dispatch_stream_request(manager, subscriber, request))
        session_id = session_id_of(request.topic_id)
        if session_id and getattr(result, "follow_up", None) == "queued":
            self.queue_changed.emit(session_id)
        return result  # type: ignore[no-any-return]

    async def attach(self, topic_id: str, listener: Any) -> AttachResponse:
        """`Ai_Stream_Attach`: register the window's listener; compact replay when live."""
        manager = self.stream_manager
        if manager is None:
            return AttachResponse(status="not-found")
        return await _maybe_await(manager.attach(listener, topic_id))  # type: ignore[no-any-return]

    async def detach(self, topic_id: str, listener: Any) -> None:
        """`Ai_Stream_Detach`: unsubscribe; the stream goes on."""
        manager = self.stream_manager
        if manager is None:
            return
        await _maybe_await(manager.detach(listener.id, topic_id))

    async def abort(self, topic_id: str) -> None:
        """`Ai_Stream_Abort`: stop the current generation (the partial persists as paused)."""
        await _maybe_await(self._manager().abort(topic_id))

    async def respond_tool_approval(self, topic_id: str, approval_id: str, approved: bool,
                                    reason: str | None = None) -> bool:
        """`Ai_ToolApproval_Respond`: the user's decision on a pending tool call."""
        runtime = self.agent_runtime
        session_id = session_id_of(topic_id)
        if runtime is None or session_id is None:
            raise BridgeUnavailableError("agent_runtime")
        from cherry_desktop.core.ai.runtime.types import ApprovalDecision

        decision = ApprovalDecision(approved=approved, reason=reason)
        ok = await _maybe_await(runtime.respond_tool_approval(session_id, approval_id, decision))
        return bool(ok) if ok is not None else True

    # -- queued follow-ups (agent sessions) ---------------------------------------------------
    def list_queued(self, session_id: str) -> list[QueuedFollowUp]:
        runtime = self.agent_runtime
        fn = _first_attr(runtime, "list_queued_follow_ups", "list_pending_turns") if runtime else None
        rows: Any = fn(session_id) if fn is not None else self.repos.pending_turns.list(session_id)
        out: list[QueuedFollowUp] = []
        for row in rows or ():
            message_id = getattr(row, "user_message_id", None) or getattr(row, "message_id", None) or ""
            out.append(QueuedFollowUp(message_id=message_id, text=getattr(row, "text", ""),
                                      is_steer=bool(getattr(row, "is_steer", False))))
        return out

    async def _queue_call(self, session_id: str, names: tuple[str, ...], *args: Any) -> None:
        runtime = self.agent_runtime
        fn = _first_attr(runtime, *names) if runtime is not None else None
        if fn is None:
            raise BridgeUnavailableError(names[0])
        await _maybe_await(fn(session_id, *args))
        self.queue_changed.emit(session_id)

    async def edit_queued(self, session_id: str, message_id: str, text: str) -> None:
        await self._queue_call(session_id, ("edit_queued_follow_up", "edit_pending_turn"), message_id, text)

    async def remove_queued(self, session_id: str, message_id: str) -> None:
        await self._queue_call(session_id, ("remove_queued_follow_up", "remove_pending_turn"), message_id)

    async def reorder_queued(self, session_id: str, message_ids: list[str]) -> None:
        await self._queue_call(session_id, ("reorder_queued_follow_ups", "reorder_pending_turns"), message_ids)

    async def resume_queue(self, session_id: str) -> None:
        await self._queue_call(session_id, ("resume_pending_turns",))

    def is_queue_held(self, session_id: str) -> bool:
        runtime = self.agent_runtime
        fn = getattr(runtime, "is_queue_held", None) if runtime is not None else None
        return bool(fn(session_id)) if fn is not None else False

    async def steer_queued_now(self, session_id: str, message_id: str) -> None:
        await self._queue_call(session_id, ("steer_queued_follow_up_now", "steer_now"), message_id)

    # -- runtime facts --------------------------------------------------------------------------
    @staticmethod
    def runtime_capabilities() -> dict[str, Any]:
        try:
            from cherry_desktop.core.ai.runtime.capabilities import (
                AGENT_RUNTIME_CAPABILITIES,
            )
        except ImportError:
            return {}
        return dict(AGENT_RUNTIME_CAPABILITIES)

    def can_steer(self, topic_id: str) -> bool:
        """Whether "Steer now" is offered. Chat topics steer by enqueue + yield + chain; agent
        sessions need a runtime (the host queues the steer when the connection cannot redirect,
        and `DispatchResult.follow_up` says which happened)."""
        session_id = session_id_of(topic_id)
        if session_id is None:
            return True
        session = self.repos.sessions.find_session(session_id)
        agent = self.repos.agents.find_agent(session.agent_id) if session and session.agent_id else None
        caps = self.runtime_capabilities().get(agent.type) if agent else None
        if caps is None:
            return False
        explicit = getattr(caps, "supports_steer", None)
        return True if explicit is None else bool(explicit)

    # -- sessions and topics (sidebar actions) -----------------------------------------------------
    def create_session(self, agent_id: str, name: str = "") -> str:
        """A new session of `agent_id` in the agent's first workspace; returns its topic id."""
        from cherry_desktop.ui._topics import agent_session_topic_id

        agent = self.repos.agents.get_agent(agent_id)
        workspaces = self.repos.agents.list_workspaces(agent_id)
        session = self.repos.sessions.create_session(
            agent_id=agent_id, workspace_id=workspaces[0].id if workspaces else None, name=name,
            model=agent.model)
        return agent_session_topic_id(session.id)

    def create_topic(self, name: str = "", model: str | None = None) -> str:
        return self.repos.topics.create_topic(name=name, model=model).id  # type: ignore[no-any-return]

    def rename_topic(self, topic_id: str, name: str) -> None:
        session_id = session_id_of(topic_id)
        if session_id is not None:
            self.repos.sessions.rename_session(session_id, name)
        else:
            self.repos.topics.rename_topic(topic_id, name)

    async def delete_topic(self, topic_id: str) -> None:
        """Stop a live stream first, then delete the rows."""
        manager = self.stream_manager
        if manager is not None and getattr(manager, "has_live_stream", lambda _t: False)(topic_id):
            await _maybe_await(manager.abort(topic_id))
        session_id = session_id_of(topic_id)
        if session_id is not None:
            self.repos.sessions.delete_session(session_id)
        else:
            self.repos.topics.delete_topic(topic_id)

    # -- agents, settings, keys ---------------------------------------------------------------------
    def save_agent(self, agent_id: str | None, values: dict[str, Any]) -> str:
        """Create or update an agent (and its workspace) from the agent dialog's values."""
        agents = self.repos.agents
        fields = {"name": values["name"], "permission_mode": values["permission_mode"],
                  "model": values.get("model"), "instructions": values.get("instructions", "")}
        if agent_id is None:
            agent_id = agents.create_agent(type=values["type"], **fields).id
        else:
            agents.update_agent(agent_id, **fields)
        workspace = values.get("workspace")
        if workspace and not any(w.path == workspace for w in agents.list_workspaces(agent_id)):
            from pathlib import Path

            agents.create_workspace(name=Path(workspace).name or workspace, path=workspace, agent_id=agent_id)
        return agent_id

    def settings_values(self) -> dict[str, Any]:
        store = getattr(self.core, "settings", None)
        settings = getattr(store, "settings", None)
        return settings.model_dump() if settings is not None else {}

    def update_settings(self, **changes: Any) -> None:
        store = getattr(self.core, "settings", None)
        if store is not None:
            store.update(**changes)
        manager = self.stream_manager
        mode = changes.get("background_mode")
        setter = getattr(manager, "set_background_mode", None) if manager is not None else None
        if mode and setter is not None:
            setter(mode)
        self.settings_changed.emit(self.settings_values())

    def has_api_key(self, provider_id: str) -> bool:
        from cherry_desktop.core.credentials import provider_key_name

        creds = getattr(self.core, "credentials", None)
        return bool(creds and creds.try_get(provider_key_name(provider_id)))

    def set_api_key(self, provider_id: str, key: str) -> None:
        from cherry_desktop.core.credentials import provider_key_name

        self.core.credentials.set(provider_key_name(provider_id), key)

    # -- reads ------------------------------------------------------------------------------------
    def load_messages(self, topic_id: str, *, limit: int | None = None,
                      before_ordering: int | None = None) -> list[StoredMessage]:
        """Rows of a topic in order; with `limit`, the newest `limit` before `before_ordering`."""
        session_id = session_id_of(topic_id)
        if session_id is not None:
            return self.repos.session_messages.list_messages(  # type: ignore[no-any-return]
                session_id, limit=limit, before_ordering=before_ordering)
        rows: list[StoredMessage] = self.repos.messages.branch(topic_id)
        if before_ordering is not None:
            rows = [r for r in rows if r.ordering < before_ordering]
        return rows[-limit:] if limit else rows

    def topic_title(self, topic_id: str) -> str:
        session_id = session_id_of(topic_id)
        if session_id is not None:
            session = self.repos.sessions.find_session(session_id)
            return session.name if session else ""
        topic = self.repos.topics.find_topic(topic_id)
        return topic.name if topic else ""
