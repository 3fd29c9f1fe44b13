"""What an agent session's header shows (agent, model, workspace, permission mode, context
usage, the tools always allowed in it), a permission-mode change applied to the live session,
and revoking an always-allowed tool.

A mode change is the agent's (`agent.permission_mode`): it is saved, then carried onto a warm
connection through the host's reconcile path. The outcome is one of `PermissionOutcome`:
applied now, applied from the next turn (no live connection, or the runtime must restart to
change it), or denied by the live runtime (the header says so; the next turn reconnects under
the saved mode, as the host fails closed).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.data import Repositories

if TYPE_CHECKING:
    from cherry_desktop.core.ai.runtime.types import AgentRuntimeConnection, ContextUsage

log = logging.getLogger(__name__)


class LiveSessionView(Protocol):
    """What the header reads of a live session (the host's `LiveSession`)."""

    @property
    def context_usage(self) -> ContextUsage | None: ...

    @property
    def connection(self) -> AgentRuntimeConnection | None: ...


class SessionRuntime(Protocol):
    """What the header uses of the agent-session host (`AgentSessionRuntimeService`)."""

    def get_entry(self, session_id: str) -> LiveSessionView | None: ...

    def revoke_always_allowed_tools(self, session_id: str, tool_names: list[str] | None = None) -> Iterable[str]: ...

    async def reconcile_agent(self, agent_id: str) -> Mapping[str, str]: ...


class PermissionOutcome(enum.Enum):
    APPLIED = "applied"
    NEXT_TURN = "next-turn"
    DENIED = "denied"


@dataclass(frozen=True)
class SessionHeaderInfo:
    session_id: str
    agent_id: str
    agent_name: str
    agent_type: str
    model_id: str | None
    model_name: str
    workspace_path: str | None
    permission_mode: str
    permission_modes: tuple[str, ...]
    context_used: int | None = None
    context_max: int | None = None
    # The tools allowed without asking in this session (`agent_session/tool_grants.py`).
    always_allowed_tools: tuple[str, ...] = ()
    # The session's own git worktree: its branch, and the command that merges it back.
    branch: str = ""
    merge_command: str = ""


def _modes(agent_type: str) -> tuple[str, ...]:
    from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES

    caps = AGENT_RUNTIME_CAPABILITIES.get(agent_type)
    return tuple(caps.permission_modes) if caps is not None else ("default",)


def session_header_info(repos: Repositories, runtime: SessionRuntime | None,
                        session_id: str) -> SessionHeaderInfo | None:
    session = repos.sessions.find_session(session_id)
    if session is None or session.agent_id is None:
        return None
    agent = repos.agents.find_agent(session.agent_id)
    if agent is None:
        return None
    workspace = repos.agents.find_workspace(session.workspace_id)
    model_id = session.model or agent.model
    model = repos.providers.find_model(model_id) if model_id else None
    used, maximum = context_usage(runtime, session_id)
    worktree = session.worktree
    return SessionHeaderInfo(
        session_id=session_id, agent_id=agent.id, agent_name=agent.name, agent_type=agent.type,
        model_id=model_id, model_name=(model.name or model.model_id) if model is not None else (model_id or ""),
        workspace_path=worktree.path if worktree is not None else workspace.path if workspace is not None else None,
        permission_mode=agent.permission_mode, permission_modes=_modes(agent.type),
        context_used=used, context_max=maximum,
        always_allowed_tools=tuple(t for t in session.always_allowed_tools if t not in agent.disabled_tools),
        branch=worktree.branch if worktree is not None else "",
        merge_command=f"git -C {worktree.repo} merge {worktree.branch}" if worktree is not None else "")


def always_allowed_tools(repos: Repositories, session_id: str) -> tuple[str, ...]:
    """The session's grants that apply (a tool its agent disables is never allowed)."""
    info = session_header_info(repos, None, session_id)
    return info.always_allowed_tools if info is not None else ()


def revoke_always_allowed(repos: Repositories, runtime: SessionRuntime | None, session_id: str,
                          tool_names: list[str] | None = None) -> tuple[str, ...]:
    """Ask again for `tool_names` (None: every tool) in the session, its live connection
    included; returns the tools still allowed."""
    if runtime is not None:
        return tuple(runtime.revoke_always_allowed_tools(session_id, tool_names))
    return repos.sessions.update_always_allowed_tools(session_id, remove=tool_names, remove_all=tool_names is None)


def context_usage(runtime: SessionRuntime | None, session_id: str) -> tuple[int | None, int | None]:
    """The live session's last context usage (its entry's, else its connection's)."""
    entry = runtime.get_entry(session_id) if runtime is not None else None
    if entry is None:
        return None, None
    usage = entry.context_usage
    if usage is None and entry.connection is not None:
        usage = entry.connection.get_context_usage()
    return (usage.used_tokens, usage.max_tokens) if usage is not None else (None, None)


async def apply_permission_mode(repos: Repositories, runtime: SessionRuntime | None, session_id: str,
                                mode: str) -> PermissionOutcome:
    """Save `mode` as the session's agent's and carry it onto the live connection."""
    session = repos.sessions.get_session(session_id)
    if session.agent_id is None:
        raise ValueError(f"session {session_id} has no agent")
    agent = repos.agents.get_agent(session.agent_id)
    if mode not in _modes(agent.type):
        raise ValueError(f"{agent.type} has no permission mode {mode!r}")
    repos.agents.update_agent(agent.id, permission_mode=mode)
    if runtime is None:
        return PermissionOutcome.NEXT_TURN
    # Through the host's reconcile, as every agent edit: a refused live tightening fails
    # closed there (stream paused, queue held, the reason published) and shows as denied here.
    outcomes = await runtime.reconcile_agent(agent.id)
    return _outcome(outcomes.get(session_id, "next-turn"))


def _outcome(result: str) -> PermissionOutcome:
    if result == "applied":
        return PermissionOutcome.APPLIED
    if result == "next-turn":
        return PermissionOutcome.NEXT_TURN
    return PermissionOutcome.DENIED
