"""Repositories for agents, workspaces, sessions, session messages and queued follow-ups."""

from __future__ import annotations

import builtins

# `Any` in this module: JSON cells as stored (settings, config, metadata, stats: dicts whose
# values readers narrow), and peewee field values and SQL parameters (peewee ships no types).
from typing import TYPE_CHECKING, Any

from cherry_desktop.core.data._json import dumps, loads_or_error
from cherry_desktop.core.data.models import (
    Agent,
    AgentSession,
    AgentWorkspace,
    database_proxy,
    execute,
    fetch_by_pk,
    now_ms,
    read_joined,
    select_columns,
)
from cherry_desktop.core.data.records import (
    RESTORE_UNCONFIRMED,
    AgentRecord,
    AgentSessionRecord,
    SessionWorktree,
    WorkspaceRecord,
)

if TYPE_CHECKING:
    pass  # loaded at the first message read


class NotFoundError(LookupError):
    """No row with that id."""


#: The lock a transaction that reads and then writes (a next ordering, then the rows) takes at
#: BEGIN. A deferred one would hold a read snapshot that another connection's commit makes
#: stale, and its first write would then fail at once with "database is locked" (WAL mode).
WRITE_AFTER_READ = "IMMEDIATE"


def _agent(row: Agent) -> AgentRecord:
    tools, e1 = loads_or_error(row.disabled_tools, [], where=f"agent {row.id}.disabled_tools")
    config, e2 = loads_or_error(row.config, {}, where=f"agent {row.id}.config")
    return AgentRecord(
        id=row.id, type=row.type, name=row.name, description=row.description,
        instructions=row.instructions, built_in_id=row.built_in_id, model=row.model,
        permission_mode=row.permission_mode, disabled_tools=list(tools) if isinstance(tools, list) else [],
        config=config if isinstance(config, dict) else {}, created_at=row.created_at,
        updated_at=row.updated_at, load_error=e1 or e2,
    )


def _workspace(row: AgentWorkspace) -> WorkspaceRecord:
    return WorkspaceRecord(id=row.id, agent_id=row.agent_id, name=row.name, path=row.path, kind=row.kind)


#: The key of `agent_session.settings` holding the tools always allowed in the session.
ALWAYS_ALLOWED_KEY = "always_allowed_tools"


def _session_settings(row: AgentSession) -> dict[str, Any]:
    settings, _ = loads_or_error(row.settings, {}, where=f"agent_session {row.id}.settings")
    return settings if isinstance(settings, dict) else {}


def _always_allowed(settings: dict[str, Any]) -> tuple[str, ...]:
    tools = settings.get(ALWAYS_ALLOWED_KEY)
    if not isinstance(tools, list):
        return ()
    return tuple(sorted({t for t in tools if isinstance(t, str) and t}))


#: The key of `agent_session.settings` holding the session's own git worktree.
WORKTREE_KEY = "worktree"
#: The key of `agent_session.settings` holding a forked session's earlier conversation, which
#: its first runtime turn carries (a runtime session of its own starts without it).
FORK_SEED_KEY = "fork_seed"


def _worktree(settings: dict[str, Any]) -> SessionWorktree | None:
    value = settings.get(WORKTREE_KEY)
    if not isinstance(value, dict) or not all(isinstance(value.get(k), str) and value[k] for k in ("path", "branch")):
        return None
    return SessionWorktree(path=value["path"], branch=value["branch"], repo=str(value.get("repo") or ""),
                           base=str(value.get("base") or ""))


def _session(row: AgentSession) -> AgentSessionRecord:
    settings = _session_settings(row)
    return AgentSessionRecord(
        id=row.id, agent_id=row.agent_id, workspace_id=row.workspace_id, name=row.name,
        model=row.model, created_at=row.created_at, updated_at=row.updated_at,
        always_allowed_tools=_always_allowed(settings), worktree=_worktree(settings),
    )


class AgentRepository:
    """Agents and their workspaces."""

    def create_agent(self, *, type: str, name: str, model: str | None = None, instructions: str = "",
                     description: str = "", permission_mode: str = "default",
                     built_in_id: str | None = None, disabled_tools: list[str] | None = None,
                     config: dict[str, Any] | None = None, id: str | None = None) -> AgentRecord:
        fields: dict[str, Any] = {
            "type": type, "name": name, "model": model, "instructions": instructions,
            "description": description, "permission_mode": permission_mode,
            "built_in_id": built_in_id, "disabled_tools": dumps(disabled_tools or []),
            "config": dumps(config or {}),
        }
        if id is not None:
            fields["id"] = id
        row = Agent.create(**fields)
        return _agent(row)

    def get_agent(self, agent_id: str) -> AgentRecord:
        row = fetch_by_pk(Agent, agent_id)
        if row is None:
            raise NotFoundError(f"agent {agent_id}")
        return _agent(row)

    def find_agent(self, agent_id: str) -> AgentRecord | None:
        row = fetch_by_pk(Agent, agent_id)
        return _agent(row) if row else None

    def list_agents(self) -> list[AgentRecord]:
        return [_agent(r) for r in Agent.select().order_by(Agent.created_at, Agent.id)]

    def update_agent(self, agent_id: str, **changes: Any) -> AgentRecord:
        for key in ("disabled_tools", "config"):
            if key in changes:
                changes[key] = dumps(changes[key])
        changes["updated_at"] = now_ms()
        if Agent.update(**changes).where(Agent.id == agent_id).execute() == 0:
            raise NotFoundError(f"agent {agent_id}")
        return self.get_agent(agent_id)

    def restored_unconfirmed(self) -> list[AgentRecord]:
        """Agents restored from a backup that the user has not allowed yet."""
        return [a for a in self.list_agents() if a.config.get(RESTORE_UNCONFIRMED)]

    def allow_restored(self, agent_id: str) -> AgentRecord:
        """The user allowed a restored agent: it runs turns again."""
        agent = self.get_agent(agent_id)
        config = {k: v for k, v in agent.config.items() if k != RESTORE_UNCONFIRMED}
        return self.update_agent(agent_id, config=config)

    def delete_agent(self, agent_id: str) -> None:
        Agent.delete().where(Agent.id == agent_id).execute()

    def create_workspace(self, *, name: str, path: str, kind: str = "user",
                         agent_id: str | None = None) -> WorkspaceRecord:
        return _workspace(AgentWorkspace.create(name=name, path=path, kind=kind, agent=agent_id))

    def get_workspace(self, workspace_id: str) -> WorkspaceRecord:
        row = fetch_by_pk(AgentWorkspace, workspace_id)
        if row is None:
            raise NotFoundError(f"workspace {workspace_id}")
        return _workspace(row)

    def find_workspace(self, workspace_id: str | None) -> WorkspaceRecord | None:
        if workspace_id is None:
            return None
        row = fetch_by_pk(AgentWorkspace, workspace_id)
        return _workspace(row) if row else None

    def list_workspaces(self, agent_id: str | None = None) -> list[WorkspaceRecord]:
        q = AgentWorkspace.select().order_by(AgentWorkspace.created_at)
        if agent_id is not None:
            q = q.where(AgentWorkspace.agent == agent_id)
        return [_workspace(r) for r in q]


class AgentSessionRepository:
    """Sessions of agents."""

    def create_session(self, *, agent_id: str, workspace_id: str | None, name: str = "",
                       model: str | None = None, id: str | None = None) -> AgentSessionRecord:
        fields: dict[str, Any] = {"agent": agent_id, "workspace": workspace_id, "name": name, "model": model}
        if id is not None:
            fields["id"] = id
        return _session(AgentSession.create(**fields))

    def get_session(self, session_id: str) -> AgentSessionRecord:
        row = fetch_by_pk(AgentSession, session_id)
        if row is None:
            raise NotFoundError(f"agent session {session_id}")
        return _session(row)

    def find_session(self, session_id: str) -> AgentSessionRecord | None:
        row = fetch_by_pk(AgentSession, session_id)
        return _session(row) if row else None

    _CONTEXT_SQL = (
        f"SELECT {select_columns(AgentSession, 's')}, {select_columns(Agent, 'a')}, "
        f"{select_columns(AgentWorkspace, 'w')} FROM \"agent_session\" AS s "
        'LEFT JOIN "agent" AS a ON a."id" = s."agent_id" '
        'LEFT JOIN "agent_workspace" AS w ON w."id" = s."workspace_id" WHERE s."id" = ?')

    def find_session_context(
        self, session_id: str,
    ) -> tuple[AgentSessionRecord, AgentRecord | None, WorkspaceRecord | None] | None:
        """A session with its agent and workspace (None where the session names none or the row
        is gone), in one statement: every turn validates all three."""
        found = execute(AgentSession, self._CONTEXT_SQL, (session_id,)).fetchone()
        if found is None:
            return None
        session, agent, workspace = read_joined((AgentSession, Agent, AgentWorkspace), found)
        return (_session(session), _agent(agent) if agent is not None else None,
                _workspace(workspace) if workspace is not None else None)

    def has_sessions(self) -> bool:
        return bool(AgentSession.select().exists())

    def list_sessions(self, agent_id: str | None = None) -> list[AgentSessionRecord]:
        q = AgentSession.select().order_by(AgentSession.updated_at.desc(), AgentSession.id)
        if agent_id is not None:
            q = q.where(AgentSession.agent == agent_id)
        return [_session(r) for r in q]

    def rename_session(self, session_id: str, name: str) -> None:
        AgentSession.update(name=name, updated_at=now_ms()).where(AgentSession.id == session_id).execute()

    def touch_session(self, session_id: str) -> None:
        AgentSession.update(updated_at=now_ms()).where(AgentSession.id == session_id).execute()

    def delete_session(self, session_id: str) -> None:
        AgentSession.delete().where(AgentSession.id == session_id).execute()

    def set_worktree(self, session_id: str, worktree: SessionWorktree | None) -> None:
        """Record (or, with None, forget) the session's own git worktree; other settings kept.
        Raises `NotFoundError`."""
        with database_proxy.atomic(WRITE_AFTER_READ):
            row = fetch_by_pk(AgentSession, session_id)
            if row is None:
                raise NotFoundError(f"agent session {session_id}")
            settings = _session_settings(row)
            if worktree is None:
                settings.pop(WORKTREE_KEY, None)
            else:
                settings[WORKTREE_KEY] = worktree.as_json()
            AgentSession.update(settings=dumps(settings)).where(AgentSession.id == session_id).execute()

    def fork_seed(self, session_id: str) -> str:
        """The earlier conversation a forked session's next runtime turn carries ("" : none)."""
        row = fetch_by_pk(AgentSession, session_id)
        seed = _session_settings(row).get(FORK_SEED_KEY) if row is not None else None
        return seed if isinstance(seed, str) else ""

    def set_fork_seed(self, session_id: str, seed: str) -> None:
        """Set (or, with "", clear) the session's fork seed; other settings kept."""
        with database_proxy.atomic(WRITE_AFTER_READ):
            row = fetch_by_pk(AgentSession, session_id)
            if row is None:
                return
            settings = _session_settings(row)
            if seed:
                settings[FORK_SEED_KEY] = seed
            else:
                settings.pop(FORK_SEED_KEY, None)
            AgentSession.update(settings=dumps(settings)).where(AgentSession.id == session_id).execute()

    def always_allowed_tools(self, session_id: str) -> tuple[str, ...]:
        """The tools allowed without asking in the session (sorted; () for a missing session)."""
        row = fetch_by_pk(AgentSession, session_id)
        return _always_allowed(_session_settings(row)) if row is not None else ()

    def update_always_allowed_tools(self, session_id: str, *, add: builtins.list[str] | None = None,
                                    remove: builtins.list[str] | None = None,
                                    remove_all: bool = False) -> tuple[str, ...]:
        """Add and remove always-allowed tools in one read-modify-write of the row's settings
        (other settings kept); returns the tools now allowed. The row's `updated_at` is left
        as it is: a grant does not reorder the session list. Raises `NotFoundError`."""
        with database_proxy.atomic(WRITE_AFTER_READ):
            row = fetch_by_pk(AgentSession, session_id)
            if row is None:
                raise NotFoundError(f"agent session {session_id}")
            settings = _session_settings(row)
            tools = set() if remove_all else set(_always_allowed(settings))
            tools = (tools | set(add or ())) - set(remove or ())
            settings[ALWAYS_ALLOWED_KEY] = sorted(tools)
            AgentSession.update(settings=dumps(settings)).where(AgentSession.id == session_id).execute()
        return tuple(sorted(tools))
