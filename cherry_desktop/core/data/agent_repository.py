"""Repositories for agents, workspaces, sessions, session messages and queued follow-ups."""

from __future__ import annotations

import builtins

# `Any` in this module: JSON cells as stored (settings, config, metadata, stats: dicts whose
# values readers narrow), and peewee field values and SQL parameters (peewee ships no types).
from typing import TYPE_CHECKING, Any, cast

import peewee as pw

from cherry_desktop.core.data._json import dumps, loads_or_error, parts_from_json, parts_to_json
from cherry_desktop.core.data.models import (
    Agent,
    AgentSession,
    AgentSessionMessage,
    AgentSessionPendingTurn,
    AgentWorkspace,
    database_proxy,
    execute,
    fetch_by_pk,
    new_uuid,
    now_ms,
    read_joined,
    read_row,
    select_columns,
)
from cherry_desktop.core.data.records import (
    RESTORE_UNCONFIRMED,
    AgentRecord,
    AgentSessionRecord,
    MessageStatus,
    PendingTurnRecord,
    SessionWorktree,
    StoredMessage,
    WorkspaceRecord,
)

if TYPE_CHECKING:
    from cherry_desktop.core.messages import MessagePart  # loaded at the first message read


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


def session_message_record(row: AgentSessionMessage) -> StoredMessage:
    where = f"agent_session_message {row.id}"
    parts, err = parts_from_json(row.data, where=where + ".data")
    stats, e2 = loads_or_error(row.stats, None, where=where + ".stats")
    meta, e3 = loads_or_error(row.metadata, {}, where=where + ".metadata")
    return StoredMessage(
        id=row.id, owner_id=row.session_id, role=row.role, parts=parts, status=cast(MessageStatus, row.status),
        model_id=row.model_id, created_at=row.created_at, updated_at=row.updated_at,
        ordering=row.ordering, stats=stats, metadata=meta if isinstance(meta, dict) else {},
        runtime_resume_token=row.runtime_resume_token, load_error=err or e2 or e3,
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


class AgentSessionMessageRepository:
    """Messages of agent sessions (`agent_session_message`)."""

    # A turn writes two rows before it starts and updates one as it ends: these statements are
    # prepared once (see "statements prepared once" in models.py).
    _MAX_ORDERING_SQL = 'SELECT MAX("ordering") FROM "agent_session_message" WHERE "session_id" = ?'
    _SET_ORDERING_SQL = 'UPDATE "agent_session_message" SET "ordering" = ? WHERE "id" = ?'
    _INSERT_SQL = (
        'INSERT INTO "agent_session_message" ("id", "session_id", "role", "data", "status", "model_id", '
        '"runtime_resume_token", "stats", "metadata", "created_at", "updated_at", "ordering") '
        "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)"
    )
    # UPDATE statements by the tuple of columns they set.
    _UPDATE_SQL: dict[tuple[str, ...], str] = {}

    def _next_ordering(self, session_id: str) -> int:
        top = execute(AgentSessionMessage, self._MAX_ORDERING_SQL, (session_id,)).fetchone()[0]
        return int(top or 0) + 1

    def create_message(self, *, session_id: str, role: str, parts: list[MessagePart],
                       status: MessageStatus = "success", model_id: str | None = None,
                       id: str | None = None, metadata: dict[str, Any] | None = None,
                       runtime_resume_token: str | None = None) -> StoredMessage:
        with database_proxy.atomic(WRITE_AFTER_READ):
            return self._insert(session_id=session_id, role=role, parts=parts, status=status, model_id=model_id,
                                id=id, metadata=metadata, runtime_resume_token=runtime_resume_token)

    def _insert(self, *, session_id: str, role: str, parts: list[MessagePart], status: MessageStatus,
                model_id: str | None, id: str | None, metadata: dict[str, Any] | None = None,
                runtime_resume_token: str | None = None, ordering: int | None = None) -> StoredMessage:
        """One insert; the caller holds the transaction (ordering is read, then used)."""
        message_id = id if id is not None else new_uuid()
        created = now_ms()
        if ordering is None:
            ordering = self._next_ordering(session_id)
        execute(AgentSessionMessage, self._INSERT_SQL, (
            message_id, session_id, role, parts_to_json(parts), status, model_id, runtime_resume_token,
            dumps(metadata) if metadata else None, created, created, ordering))
        return StoredMessage(
            id=message_id, owner_id=session_id, role=role, parts=list(parts), status=status, model_id=model_id,
            created_at=created, updated_at=created, ordering=ordering, metadata=dict(metadata or {}),
            runtime_resume_token=runtime_resume_token,
        )

    def create_turn(self, *, session_id: str, user_parts: list[MessagePart], model_id: str | None,
                    user_message_id: str | None = None,
                    assistant_message_id: str | None = None) -> tuple[StoredMessage, StoredMessage]:
        """Save a user message and its pending assistant placeholder, both or neither."""
        with database_proxy.atomic(WRITE_AFTER_READ):
            user = self._insert(session_id=session_id, role="user", parts=user_parts, status="success",
                                model_id=None, id=user_message_id)
            assistant = self._insert(session_id=session_id, role="assistant", parts=[], status="pending",
                                     model_id=model_id, id=assistant_message_id, ordering=user.ordering + 1)
        return user, assistant

    def move_to_end(self, message_id: str) -> StoredMessage:
        """Give a row the session's newest ordering (a queued follow-up when its turn runs, so
        it sorts with its answer instead of before turns that ran while it waited)."""
        with database_proxy.atomic(WRITE_AFTER_READ):
            row = fetch_by_pk(AgentSessionMessage, message_id)
            if row is None:
                raise NotFoundError(f"agent session message {message_id}")
            record = session_message_record(row)
            top = self._next_ordering(record.owner_id) - 1
            if record.ordering != top:
                record.ordering = top + 1
                execute(AgentSessionMessage, self._SET_ORDERING_SQL, (record.ordering, message_id))
        return record

    def update_message(self, message_id: str, *, parts: list[MessagePart] | None = None,
                       status: MessageStatus | None = None, stats: dict[str, Any] | None = None,
                       metadata: dict[str, Any] | None = None,
                       runtime_resume_token: str | None = None) -> None:
        columns: list[str] = ["updated_at"]
        values: list[Any] = [now_ms()]
        if parts is not None:
            columns.append("data")
            values.append(parts_to_json(parts))
        if status is not None:
            columns.append("status")
            values.append(status)
        if stats is not None:
            columns.append("stats")
            values.append(dumps(stats))
        if metadata is not None:
            columns.append("metadata")
            values.append(dumps(metadata))
        if runtime_resume_token is not None:
            columns.append("runtime_resume_token")
            values.append(runtime_resume_token)
        key = tuple(columns)
        sql = self._UPDATE_SQL.get(key)
        if sql is None:
            assignments = ", ".join(f'"{c}" = ?' for c in columns)
            sql = self._UPDATE_SQL[key] = f'UPDATE "agent_session_message" SET {assignments} WHERE "id" = ?'
        values.append(message_id)
        if execute(AgentSessionMessage, sql, tuple(values)).rowcount == 0:
            raise NotFoundError(f"agent session message {message_id}")

    def delete_message(self, message_id: str) -> None:
        """Delete one message (a queued follow-up the user removed before it ran)."""
        AgentSessionMessage.delete().where(AgentSessionMessage.id == message_id).execute()

    def get_message(self, message_id: str) -> StoredMessage:
        row = fetch_by_pk(AgentSessionMessage, message_id)
        if row is None:
            raise NotFoundError(f"agent session message {message_id}")
        return session_message_record(row)

    def find_message(self, message_id: str) -> StoredMessage | None:
        row = fetch_by_pk(AgentSessionMessage, message_id)
        return session_message_record(row) if row else None

    def mark_steer(self, message_id: str) -> None:
        """Store that this user message was steered into a running turn (its row keeps the
        "steer" label after a reload); a message deleted meanwhile is let be."""
        stored = self.find_message(message_id)
        if stored is not None:
            self.update_message(message_id, metadata={**stored.metadata, "steer": True})

    def list_messages(self, session_id: str, *, limit: int | None = None,
                      before_ordering: int | None = None) -> list[StoredMessage]:
        """Messages in order; with `limit`, the newest `limit` (before `before_ordering`)."""
        q = AgentSessionMessage.select().where(AgentSessionMessage.session == session_id)
        if before_ordering is not None:
            q = q.where(AgentSessionMessage.ordering < before_ordering)
        if limit is not None:
            rows = list(q.order_by(AgentSessionMessage.ordering.desc()).limit(limit))
            rows.reverse()
        else:
            rows = list(q.order_by(AgentSessionMessage.ordering))
        return [session_message_record(r) for r in rows]

    def count_messages(self, session_id: str) -> int:
        return int(AgentSessionMessage.select().where(AgentSessionMessage.session == session_id).count())

    def get_last_runtime_resume_token(self, session_id: str) -> str | None:
        row = (AgentSessionMessage.select(AgentSessionMessage.runtime_resume_token)
               .where((AgentSessionMessage.session == session_id)
                      & (AgentSessionMessage.role == "assistant")
                      & AgentSessionMessage.runtime_resume_token.is_null(False))
               .order_by(AgentSessionMessage.ordering.desc()).first())
        return row.runtime_resume_token if row else None

    def list_pending(self) -> list[StoredMessage]:
        """Every assistant row still `pending` (crash orphans at boot)."""
        q = AgentSessionMessage.select().where(AgentSessionMessage.status == "pending")
        return [session_message_record(r) for r in q.order_by(AgentSessionMessage.ordering)]


class PendingTurnRepository:
    """Queued follow-ups of agent sessions, persisted so a restart never drops them."""

    def add(self, *, session_id: str, user_message_id: str, text: str, is_steer: bool) -> PendingTurnRecord:
        with database_proxy.atomic(WRITE_AFTER_READ):
            top = (AgentSessionPendingTurn.select(pw.fn.MAX(AgentSessionPendingTurn.ordering))
                   .where(AgentSessionPendingTurn.session == session_id).scalar())
            row = AgentSessionPendingTurn.create(session=session_id, user_message_id=user_message_id, text=text,
                                                 is_steer=is_steer, ordering=int(top or 0) + 1)
        return self._rec(row)

    @staticmethod
    def _rec(row: AgentSessionPendingTurn) -> PendingTurnRecord:
        return PendingTurnRecord(id=row.id, session_id=row.session_id, user_message_id=row.user_message_id,
                                 text=row.text, is_steer=row.is_steer, ordering=row.ordering)

    # The host reads a session's queue at every turn's start and end: prepared once, rows read
    # as tuples (`read_row`).
    _SELECT = f'SELECT {select_columns(AgentSessionPendingTurn, "t")} FROM "agent_session_pending_turn" AS t '
    _LIST_SQL = _SELECT + 'ORDER BY t."ordering"'
    _LIST_SESSION_SQL = _SELECT + 'WHERE t."session_id" = ? ORDER BY t."ordering"'

    def list(self, session_id: str | None = None) -> builtins.list[PendingTurnRecord]:
        if session_id is None:
            cursor = execute(AgentSessionPendingTurn, self._LIST_SQL, ())
        else:
            cursor = execute(AgentSessionPendingTurn, self._LIST_SESSION_SQL, (session_id,))
        return [self._rec(read_row(AgentSessionPendingTurn, values)) for values in cursor.fetchall()]

    def remove_by_message(self, user_message_id: str) -> None:
        AgentSessionPendingTurn.delete().where(
            AgentSessionPendingTurn.user_message_id == user_message_id).execute()

    def update_text(self, user_message_id: str, text: str) -> None:
        AgentSessionPendingTurn.update(text=text).where(
            AgentSessionPendingTurn.user_message_id == user_message_id).execute()

    def reorder(self, session_id: str, user_message_ids: builtins.list[str]) -> None:
        with database_proxy.atomic():
            for i, mid in enumerate(user_message_ids, start=1):
                AgentSessionPendingTurn.update(ordering=i).where(
                    (AgentSessionPendingTurn.session == session_id)
                    & (AgentSessionPendingTurn.user_message_id == mid)).execute()

    def clear(self, session_id: str) -> None:
        AgentSessionPendingTurn.delete().where(AgentSessionPendingTurn.session == session_id).execute()
