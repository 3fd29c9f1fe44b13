"""Names of chat topics and agent sessions, and who gave them (`name_source`): "" never named
(auto-naming may name it), "auto", or "user" (a name the user chose is never replaced).

Works on topic ids as the stream traffic keys them: a chat's own id, or `agent-session:<id>`.
"""

from __future__ import annotations

from dataclasses import dataclass

from cherry_desktop.core.data._json import parts_from_json
from cherry_desktop.core.data.models import database_proxy, now_ms
from cherry_desktop.core.state.topics import session_id_from_topic


def _table(topic_id: str) -> tuple[str, str]:
    session_id = session_id_from_topic(topic_id)
    return ("agent_session", session_id) if session_id is not None else ("topic", topic_id)


@dataclass(frozen=True)
class FirstExchange:
    """What naming reads: the first question and answer of a conversation never named, and the
    model it talks to (a session's own, else its agent's; a chat's topic model)."""

    user_text: str
    assistant_text: str
    model: str | None


def _text(data: str) -> str:
    from cherry_desktop.core.messages import TextPart  # loaded with the first parse, as the parts are

    parts, _error = parts_from_json(data, where="naming")
    return "\n".join(p.text for p in parts if isinstance(p, TextPart)).strip()


class TopicNameRepository:
    def name_source(self, topic_id: str) -> str | None:
        """"", "auto" or "user"; None when the topic does not exist."""
        table, row_id = _table(topic_id)
        found = database_proxy.execute_sql(f'SELECT "name_source" FROM "{table}" WHERE "id" = ?', (row_id,)).fetchone()
        return str(found[0]) if found else None

    def rename(self, topic_id: str, name: str) -> None:
        """The user's name: kept, never auto-named again."""
        table, row_id = _table(topic_id)
        database_proxy.execute_sql(
            f'UPDATE "{table}" SET "name" = ?, "name_source" = \'user\', "updated_at" = ? WHERE "id" = ?',
            (name, now_ms(), row_id))

    def set_auto_name(self, topic_id: str, name: str) -> bool:
        """Name a never-named topic; False (nothing written) once it has a name from anyone."""
        table, row_id = _table(topic_id)
        cursor = database_proxy.execute_sql(
            f'UPDATE "{table}" SET "name" = ?, "name_source" = \'auto\' WHERE "id" = ? AND "name_source" = \'\'',
            (name, row_id))
        return bool(cursor.rowcount)

    def first_exchange(self, topic_id: str) -> FirstExchange | None:
        """The first exchange of a never-named topic whose only question so far has a settled
        answer; None otherwise (named, a later exchange, no answer yet, or gone)."""
        session_id = session_id_from_topic(topic_id)
        db = database_proxy
        if session_id is not None:
            head = db.execute_sql(
                'SELECT s."name_source", coalesce(s."model", a."model") FROM "agent_session" AS s '
                'LEFT JOIN "agent" AS a ON a."id" = s."agent_id" WHERE s."id" = ?', (session_id,)).fetchone()
            rows_sql, owner = ('SELECT "role", "data", "status" FROM "agent_session_message" WHERE "session_id" = ? '
                               'ORDER BY "ordering" LIMIT 50'), session_id
        else:
            head = db.execute_sql('SELECT "name_source", "model" FROM "topic" WHERE "id" = ?', (topic_id,)).fetchone()
            rows_sql, owner = ('SELECT "role", "data", "status" FROM "message" WHERE "topic_id" = ? '
                               'ORDER BY "ordering" LIMIT 50'), topic_id
        # Every settled turn asks; a named topic (all but the first) is answered by the head alone.
        if head is None or head[0] != "":
            return None
        rows = db.execute_sql(rows_sql, (owner,)).fetchall()
        users = [r for r in rows if r[0] == "user"]
        answers = [r for r in rows if r[0] == "assistant" and r[2] == "success"]
        if len(users) != 1 or not answers:
            return None
        user_text = _text(users[0][1])
        assistant_text = "\n".join(_text(r[1]) for r in answers).strip()
        if not user_text:
            return None
        return FirstExchange(user_text, assistant_text, head[1])
