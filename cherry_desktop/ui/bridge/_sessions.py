"""Agents and their sessions: the queued follow-ups of a session, steering, the session
header's facts and permission mode, the tools always allowed, and creating, saving and
deleting agents and sessions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from cherry_desktop.core.state.topics import session_id_from_topic, session_topic_id
from cherry_desktop.ui.bridge._base import CoreBridge
from cherry_desktop.ui.bridge._cache_keys import session_always_allowed_key
from cherry_desktop.ui.bridge._types import AgentDeletion, QueuedFollowUp

if TYPE_CHECKING:
    from collections.abc import Mapping

    from cherry_desktop.core.ai.runtime.capabilities import AgentRuntimeCapabilities
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.core.data import AgentRecord
    from cherry_desktop.core.views.session_header import PermissionOutcome, SessionHeaderInfo


class SessionsBridge(CoreBridge):
    """Agents and agent sessions (see module docstring).

    Signals:
        queue_changed(str): the queued follow-ups of this session id changed.
    """

    queue_changed = Signal(str)

    def __init__(self, core: CoreServices, parent: QObject | None = None) -> None:
        super().__init__(core, parent)
        self._announced: dict[str, tuple[str, ...]] = {}  # session id -> its runtime's commands

    def tell_queue_changed(self, session_id: str) -> None:
        """A follow-up of `session_id` was queued or left the queue (the stream channels say)."""
        self.queue_changed.emit(session_id)

    # -- queued follow-ups ----------------------------------------------------------------------
    def list_queued(self, session_id: str) -> list[QueuedFollowUp]:
        runtime = self._agent_runtime()
        # Before the stream services run, the persisted queue is the whole truth.
        rows = (runtime.list_pending_turns(session_id) if runtime is not None
                else self._repos.pending_turns.list(session_id))
        return [QueuedFollowUp(message_id=row.user_message_id, text=row.text, is_steer=row.is_steer)
                for row in rows]

    async def edit_queued(self, session_id: str, message_id: str, text: str) -> None:
        (await self._runtime()).edit_pending_turn(session_id, message_id, text)
        self.queue_changed.emit(session_id)

    async def remove_queued(self, session_id: str, message_id: str) -> None:
        (await self._runtime()).remove_pending_turn(session_id, message_id)
        self.queue_changed.emit(session_id)

    async def reorder_queued(self, session_id: str, message_ids: list[str]) -> None:
        (await self._runtime()).reorder_pending_turns(session_id, message_ids)
        self.queue_changed.emit(session_id)

    async def resume_queue(self, session_id: str) -> None:
        await (await self._runtime()).resume_pending_turns(session_id)
        self.queue_changed.emit(session_id)

    def is_queue_held(self, session_id: str) -> bool:
        runtime = self._agent_runtime()
        return bool(runtime.is_queue_held(session_id)) if runtime is not None else False

    async def steer_queued_now(self, session_id: str, message_id: str) -> None:
        await (await self._runtime()).steer_now(session_id, message_id)
        self._repos.session_messages.mark_steer(message_id)
        self.queue_changed.emit(session_id)

    # -- runtime facts --------------------------------------------------------------------------
    @staticmethod
    def runtime_capabilities() -> dict[str, AgentRuntimeCapabilities]:
        try:
            from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES
        except ImportError:
            return {}
        capabilities: Mapping[str, AgentRuntimeCapabilities] = AGENT_RUNTIME_CAPABILITIES
        return dict(capabilities)

    def can_steer(self, topic_id: str) -> bool:
        """Whether "Steer now" is offered. Chat topics steer by enqueue + yield + chain; agent
        sessions need a runtime (the host queues the steer when the connection cannot redirect,
        and `DispatchResult.follow_up` says which happened)."""
        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            return True
        caps = self._session_capabilities(session_id)
        return caps is not None and caps.supports_steer

    def slash_commands(self, topic_id: str) -> tuple[str, ...]:
        """The "/" commands the composer offers in `topic_id`: the ones its runtime announced
        (Claude Code's init message, an ACP agent's available commands; the host publishes
        them with the session's runtime state), else its descriptor's; () for a chat."""
        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            return ()
        from cherry_desktop.core.ai.agent_session import agent_session_runtime_key

        state = self.core.shared_cache.get(agent_session_runtime_key(session_id))
        announced = state.get("slash_commands") if isinstance(state, dict) else None
        if isinstance(announced, list) and announced:
            # Kept for this run of the app: a closed runtime (its idle window ran out) starts
            # its next connection with none until its CLI announces them again.
            self._announced[session_id] = tuple(str(command) for command in announced)
        if session_id in self._announced:
            return self._announced[session_id]
        caps = self._session_capabilities(session_id)
        return tuple(caps.slash_commands) if caps is not None else ()

    def session_workspace(self, topic_id: str) -> str | None:
        """Where the session of `topic_id` works: its own worktree, else its workspace folder."""
        session_id = session_id_from_topic(topic_id)
        session = self._repos.sessions.find_session(session_id) if session_id else None
        if session is None:
            return None
        if session.worktree is not None:
            return session.worktree.path
        workspace = self._repos.agents.find_workspace(session.workspace_id)
        return workspace.path if workspace else None

    async def workspace_files(self, topic_id: str) -> list[str]:
        """The files of the session's workspace, relative (the composer's "@" list; bounded,
        `.gitignore` honoured in a git work tree, listed off the UI thread)."""
        from cherry_desktop.core.views.workspace_files import list_workspace_files

        path = self.session_workspace(topic_id)
        return await list_workspace_files(Path(path)) if path else []

    def _session_capabilities(self, session_id: str) -> AgentRuntimeCapabilities | None:
        session = self._repos.sessions.find_session(session_id)
        agent = self._repos.agents.find_agent(session.agent_id) if session and session.agent_id else None
        return self.runtime_capabilities().get(agent.type) if agent else None

    # -- agents and sessions --------------------------------------------------------------------
    def find_agent(self, agent_id: str) -> AgentRecord | None:
        return self._repos.agents.find_agent(agent_id)

    def agent_workspace(self, agent_id: str) -> str | None:
        """The path of the agent's first workspace (None without one)."""
        workspaces = self._repos.agents.list_workspaces(agent_id)
        return workspaces[0].path if workspaces else None

    def create_session(self, agent_id: str, name: str = "") -> str:
        """A new session of `agent_id` in the agent's first workspace; returns its topic id."""
        agent = self._repos.agents.get_agent(agent_id)
        workspaces = self._repos.agents.list_workspaces(agent_id)
        session = self._repos.sessions.create_session(
            agent_id=agent_id, workspace_id=workspaces[0].id if workspaces else None, name=name,
            model=agent.model)
        return session_topic_id(session.id)

    def agent_deletion(self, agent_id: str) -> AgentDeletion:
        """What deleting `agent_id` would take with it (its sessions; worktrees stay on disk)."""
        agent = self._repos.agents.find_agent(agent_id)
        sessions = self._repos.sessions.list_sessions(agent_id)
        return AgentDeletion(agent_id=agent_id, name=agent.name if agent else "",
                             topic_ids=tuple(session_topic_id(s.id) for s in sessions),
                             worktree_paths=tuple(s.worktree.path for s in sessions if s.worktree))

    async def delete_agent(self, agent_id: str) -> None:
        """Delete an agent and its sessions: a running turn is stopped, each session's runtime
        released at once, then the rows go (a session's own worktree stays on disk)."""
        await self.services()
        runtime = self._agent_runtime()
        if runtime is not None:
            await runtime.delete_agent(agent_id)
        else:
            self._repos.agents.delete_agent(agent_id)

    def save_agent(self, agent_id: str | None, values: dict[str, Any]) -> str:
        """Create or update an agent (and its workspace) from the agent dialog's values."""
        agents = self._repos.agents
        fields = {"name": values["name"], "permission_mode": values["permission_mode"],
                  "model": values.get("model"), "instructions": values.get("instructions", "")}
        picks = {key: list(values[key]) for key in ("mcps", "skills") if key in values}
        if picks:  # the agent's MCP servers and skills, beside what else its config holds
            current = agents.find_agent(agent_id) if agent_id else None
            fields["config"] = {**(current.config if current else {}), **picks}
        runtime = self._agent_runtime()
        if agent_id is None:
            # `config`: the dialog's spawn-frozen choices (which agent a runtime runs), made once,
            # beside the MCP servers and skills picked.
            fields["config"] = {**dict(values.get("config") or {}), **picks}
            agent_id = agents.create_agent(type=values["type"], **fields).id
        elif runtime is not None:
            # Through the host: a live session of the agent takes the edit at once.
            runtime.update_agent(agent_id, **fields)
        else:
            agents.update_agent(agent_id, **fields)
        workspace = values.get("workspace")
        if workspace and not any(w.path == workspace for w in agents.list_workspaces(agent_id)):
            agents.create_workspace(name=Path(workspace).name or workspace, path=workspace, agent_id=agent_id)
        return agent_id

    # -- the session header ---------------------------------------------------------------------
    def session_header_info(self, topic_id: str) -> SessionHeaderInfo | None:
        """A `SessionHeaderInfo` for an agent session's topic, else None."""
        from cherry_desktop.core.views.session_header import session_header_info

        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            return None
        return session_header_info(self._repos, self._agent_runtime(), session_id)

    async def set_session_permission_mode(self, topic_id: str, mode: str) -> PermissionOutcome:
        """Save the mode (the session's agent's) and apply it live through the host's reconcile."""
        from cherry_desktop.core.views.session_header import apply_permission_mode

        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            raise ValueError(f"{topic_id} is not an agent session")
        return await apply_permission_mode(self._repos, self._agent_runtime(), session_id, mode)

    def always_allowed(self, topic_id: str) -> tuple[str, ...]:
        """The tools always allowed in the agent session of `topic_id` (() for another topic)."""
        from cherry_desktop.core.views.session_header import always_allowed_tools

        session_id = session_id_from_topic(topic_id)
        return always_allowed_tools(self._repos, session_id) if session_id is not None else ()

    def revoke_always_allowed(self, topic_id: str, tools: list[str]) -> tuple[str, ...]:
        """Ask again for `tools` in the session of `topic_id`, its live connection at once; returns
        the tools still always allowed (every window of the session shows them)."""
        from cherry_desktop.core.views.session_header import revoke_always_allowed

        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            return ()
        revoke_always_allowed(self._repos, self._agent_runtime(), session_id, tools)
        return self.publish_always_allowed(topic_id)

    def publish_always_allowed(self, topic_id: str) -> tuple[str, ...]:
        """Tell every window of the session which tools are always allowed now (after an
        "Always allow" answer or a revoke); returns them."""
        tools = self.always_allowed(topic_id)
        self.core.shared_cache.set_shared(session_always_allowed_key(topic_id), tools)
        return tools
