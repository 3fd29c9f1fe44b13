"""Full-text search over chat and agent-session messages (SQLite FTS5).

`search_doc` holds one row per searchable message: its kind (`chat` | `session`), id, topic or
session id and its text (the message's text parts, joined). `search_fts` is an FTS5 index with
`search_doc` as its external content (the text is stored once). Triggers keep both in step with
`message` and `agent_session_message`, so every writer (the repositories, raw SQL, another
process) and the cascades of a deleted topic or session update them. A streaming row (status
`pending`) is indexed once it settles: its checkpoints do not churn the index.

The tokenizer is `trigram`: a query matches inside words and in CJK text, which has no spaces
for a word tokenizer to split on. Terms under three characters cannot use a trigram index; they
filter what the index found for the query's longer terms, and a query of short terms alone
scans the newest `SHORT_SCAN_ROWS` messages (LIKE).
"""

from __future__ import annotations

from dataclasses import dataclass

import peewee as pw

from cherry_desktop.core.data.models import database_proxy

#: How many of the newest messages a query of only short terms (under three characters) scans.
SHORT_SCAN_ROWS = 20_000

#: (kind, message table, owner column): the tables whose messages are searchable.
_SOURCES = (("chat", "message", "topic_id"), ("session", "agent_session_message", "session_id"))


def _text_parts(row: str) -> str:
    """FROM and WHERE clauses over the text parts of a message row (`new` / a table alias),
    to aggregate with `_BODY`. A corrupt `data` cell has no parts rather than failing the write."""
    return (f"json_each(CASE WHEN json_valid({row}.data) THEN {row}.data ELSE '[]' END) AS j "
            f"WHERE json_extract(j.value, '$.type') = 'text' AND {row}.status != 'pending'")


#: A message's text: its text parts, newline-joined (the HAVING keeps messages with some).
_BODY = "group_concat(json_extract(j.value, '$.text'), char(10))"


def create_search_index(db: pw.SqliteDatabase) -> None:
    """Migration 6: the tables, the triggers, and the index back-filled from existing rows."""
    db.execute_sql('CREATE TABLE IF NOT EXISTS "search_doc" ('
                   '"id" INTEGER PRIMARY KEY, "kind" TEXT NOT NULL, "message_id" TEXT NOT NULL, '
                   '"owner_id" TEXT NOT NULL, "body" TEXT NOT NULL)')
    db.execute_sql('CREATE INDEX IF NOT EXISTS "search_doc_message" ON "search_doc" ("message_id")')
    db.execute_sql('CREATE VIRTUAL TABLE IF NOT EXISTS "search_fts" USING fts5('
                   "body, content='search_doc', content_rowid='id', tokenize='trigram')")
    for kind, table, owner in _SOURCES:
        # Back-fill before the triggers exist; the FTS index is rebuilt in one pass below.
        db.execute_sql(
            f'INSERT INTO "search_doc" ("kind", "message_id", "owner_id", "body") '
            f"SELECT '{kind}', m.id, m.{owner}, {_BODY} FROM \"{table}\" AS m, {_text_parts('m')} "
            f"GROUP BY m.rowid HAVING {_BODY} != '' ORDER BY m.rowid")
        insert = (f'INSERT INTO "search_doc" ("kind", "message_id", "owner_id", "body") '
                  f"SELECT '{kind}', new.id, new.{owner}, {_BODY} FROM {_text_parts('new')} "
                  f"HAVING {_BODY} != '';")
        forget = f"DELETE FROM \"search_doc\" WHERE \"message_id\" = old.id AND \"kind\" = '{kind}';"
        db.execute_sql(f'CREATE TRIGGER IF NOT EXISTS "{table}_search_insert" AFTER INSERT ON "{table}" '
                       f"BEGIN {insert} END")
        db.execute_sql(f'CREATE TRIGGER IF NOT EXISTS "{table}_search_update" '
                       f'AFTER UPDATE OF "data", "status" ON "{table}" '
                       "WHEN old.status != 'pending' OR new.status != 'pending' "
                       f"BEGIN {forget} {insert} END")
        db.execute_sql(f'CREATE TRIGGER IF NOT EXISTS "{table}_search_delete" AFTER DELETE ON "{table}" '
                       f"BEGIN {forget} END")
    db.execute_sql('CREATE TRIGGER IF NOT EXISTS "search_doc_ai" AFTER INSERT ON "search_doc" BEGIN '
                   'INSERT INTO "search_fts" ("rowid", "body") VALUES (new.id, new.body); END')
    db.execute_sql('CREATE TRIGGER IF NOT EXISTS "search_doc_ad" AFTER DELETE ON "search_doc" BEGIN '
                   "INSERT INTO \"search_fts\" (\"search_fts\", \"rowid\", \"body\") "
                   "VALUES ('delete', old.id, old.body); END")
    db.execute_sql("INSERT INTO \"search_fts\" (\"search_fts\") VALUES ('rebuild')")


@dataclass(frozen=True)
class SearchHit:
    """A message that matches: `kind` is `chat` or `session`; `owner_id` is the topic id of a
    chat message and the session id of a session message; `snippet` is the text around the
    first match, `match_start`/`match_end` the match inside it."""

    kind: str
    message_id: str
    owner_id: str
    snippet: str
    match_start: int
    match_end: int


def search_terms(query: str) -> list[str]:
    """The query's whitespace-separated terms (each must occur), without duplicates."""
    seen: list[str] = []
    for term in query.split():
        if term.casefold() not in (t.casefold() for t in seen):
            seen.append(term)
    return seen


def _fts_query(terms: list[str]) -> str:
    return " AND ".join('"' + t.replace('"', '""') + '"' for t in terms)


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def make_snippet(body: str, terms: list[str], width: int = 48) -> tuple[str, int, int]:
    """The text around the earliest match of any term (one line, `…` where cut), and the
    match's span in it."""
    folded = body.casefold()
    best: tuple[int, int] | None = None
    for term in terms:
        at = folded.find(term.casefold())
        if at >= 0 and (best is None or at < best[0]):
            best = (at, at + len(term))
    start, end = best if best is not None else (0, 0)
    lo = max(0, start - width)
    hi = min(len(body), end + width * 2)
    prefix = "…" if lo > 0 else ""
    suffix = "…" if hi < len(body) else ""
    text = body[lo:hi].replace("\n", " ")
    return prefix + text + suffix, len(prefix) + start - lo, len(prefix) + end - lo


class SearchRepository:
    """Queries over the index; newest messages first."""

    _SELECT = 'SELECT d."kind", d."message_id", d."owner_id", d."body" '

    def search_messages(self, query: str, limit: int = 50) -> list[SearchHit]:
        terms = search_terms(query)
        if not terms:
            return []
        long_terms = [t for t in terms if len(t) >= 3]
        short_like = " ".join("AND d.\"body\" LIKE ? ESCAPE '\\'" for t in terms if len(t) < 3)
        short_params = tuple(_like_pattern(t) for t in terms if len(t) < 3)
        if long_terms:
            # The index finds the long terms; a short one filters what it found.
            sql = (self._SELECT + 'FROM "search_fts" AS f JOIN "search_doc" AS d ON d."id" = f."rowid" '
                   f'WHERE "search_fts" MATCH ? {short_like} ORDER BY f."rowid" DESC LIMIT ?')
            params: tuple[object, ...] = (_fts_query(long_terms), *short_params, limit)
        else:
            # A trigram index cannot find a term under three characters: scan the text of the
            # newest SHORT_SCAN_ROWS messages (bounded, so a rare short term stays fast).
            sql = (self._SELECT + 'FROM "search_doc" AS d WHERE d."id" > '
                   '(SELECT coalesce(max("id"), 0) FROM "search_doc") - ? '
                   f'{short_like} ORDER BY d."id" DESC LIMIT ?')
            params = (SHORT_SCAN_ROWS, *short_params, limit)
        cursor = database_proxy.execute_sql(sql, params)
        hits = []
        for kind, message_id, owner_id, body in cursor.fetchall():
            snippet, lo, hi = make_snippet(body, terms)
            hits.append(SearchHit(kind, message_id, owner_id, snippet, lo, hi))
        return hits

    def matching_titles(self, query: str) -> tuple[list[str], list[str]]:
        """Ids of the chat topics and of the agent sessions whose name holds every term."""
        terms = search_terms(query)
        if not terms:
            return [], []
        where = " AND ".join("\"name\" LIKE ? ESCAPE '\\'" for _ in terms)
        params = tuple(_like_pattern(t) for t in terms)
        topics = [r[0] for r in database_proxy.execute_sql(f'SELECT "id" FROM "topic" WHERE {where}', params)]
        sessions = [r[0] for r in database_proxy.execute_sql(
            f'SELECT "id" FROM "agent_session" WHERE {where}', params)]
        return topics, sessions

    def check_integrity(self) -> None:
        """Raise (sqlite's "database disk image is malformed") if the index disagrees with
        `search_doc`."""
        database_proxy.execute_sql(
            "INSERT INTO \"search_fts\" (\"search_fts\", \"rank\") VALUES ('integrity-check', 1)")

    def indexed_count(self) -> int:
        return int(database_proxy.execute_sql('SELECT count(*) FROM "search_doc"').fetchone()[0])
