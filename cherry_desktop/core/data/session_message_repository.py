"""Repositories for the messages of agent sessions and their queued follow-ups."""

from __future__ import annotations

import builtins

# `Any` in this module: JSON cells as stored (metadata, stats: dicts whose values readers
# narrow), and peewee field values and SQL parameters (peewee ships no types).
from typing import TYPE_CHECKING, Any, cast

import peewee as pw

from cherry_desktop.core.data._json import dumps, loads_or_error, parts_from_json, parts_to_json
from cherry_desktop.core.data.agent_repository import WRITE_AFTER_READ, NotFoundError
from cherry_desktop.core.data.models import (
    AgentSessionMessage,
    AgentSessionPendingTurn,
    database_proxy,
    execute,
    fetch_by_pk,
    new_uuid,
    now_ms,
    read_row,
    select_columns,
)
from cherry_desktop.core.data.records import MessageStatus, PendingTurnRecord, StoredMessage

if TYPE_CHECKING:
    from cherry_desktop.core.messages import MessagePart  # loaded at the first message read


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
