from __future__ import annotations

import sqlite3
from pathlib import Path

import peewee as pw
import pytest

from cherry_desktop.core.data import (
    SCHEMA_VERSION,
    NotFoundError,
    Repositories,
    SchemaTooNewError,
    journal_mode,
    open_database,
    schema_version,
    table_names,
)
from cherry_desktop.core.messages import TextPart

REQUIRED_TABLES = {"provider", "model", "agent", "agent_workspace", "agent_session",
                   "agent_session_message", "topic", "message", "usage_record"}


def test_new_database_is_wal_with_every_table(db_path: Path) -> None:
    db = open_database(db_path)
    assert journal_mode(db) == "wal"
    assert schema_version(db) == SCHEMA_VERSION
    assert set(table_names(db)) >= REQUIRED_TABLES
    cols = {c.name for c in db.get_columns("agent_session_message")}
    assert {"id", "session_id", "role", "data", "status", "model_id", "runtime_resume_token", "stats",
            "created_at", "ordering"} <= cols
    msg_cols = {c.name for c in db.get_columns("message")}
    assert {"parent_id", "siblings_group_id", "status"} <= msg_cols
    db.close()


def test_existing_file_at_version_zero_is_migrated_forward(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    con = sqlite3.connect(db_path)
    con.execute("CREATE TABLE unrelated (x INTEGER)")
    con.commit()
    con.close()
    db = open_database(db_path)
    assert schema_version(db) == SCHEMA_VERSION
    assert "unrelated" in table_names(db)
    db.close()
    # Reopening runs nothing twice.
    db = open_database(db_path)
    assert schema_version(db) == SCHEMA_VERSION
    db.close()


def test_a_version_one_file_gains_app_meta_and_keeps_its_rows(db_path: Path) -> None:
    from cherry_desktop.core.data.database import MIGRATIONS

    db = open_database(db_path)
    db.execute_sql("DROP TABLE app_meta")
    db.execute_sql("PRAGMA user_version = 1")
    Repositories().topics.create_topic(name="kept", id="t1")
    db.close()
    db = open_database(db_path)
    assert schema_version(db) == len(MIGRATIONS) >= 2
    assert "app_meta" in table_names(db)
    repos = Repositories()
    assert repos.topics.get_topic("t1").name == "kept"
    repos.meta.set("k", "v")
    assert repos.meta.get("k") == "v"
    db.close()


def _indexes(db: pw.SqliteDatabase, table: str) -> set[str]:
    rows = db.execute_sql(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", (table,))
    return {row[0] for row in rows}


def test_session_messages_keep_one_index_on_session_and_ordering(db_path: Path) -> None:
    """A version-3 file (with the two single-column indexes of old) loses them; a new file never
    has them; reading a session's messages in order and by session alone still uses the index."""
    db = open_database(db_path)
    assert _indexes(db, "agent_session_message") == {"agent_session_message_session_id_ordering"}
    db.execute_sql('CREATE INDEX "agent_session_message_session_id" ON "agent_session_message" ("session_id")')
    db.execute_sql('CREATE INDEX "agent_session_message_ordering" ON "agent_session_message" ("ordering")')
    db.execute_sql("PRAGMA user_version = 3")
    repos = Repositories()
    agent = repos.agents.create_agent(type="claude-code", name="a")
    workspace = repos.agents.create_workspace(name="w", path="w", kind="system")
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=workspace.id)
    user, _ = repos.session_messages.create_turn(session_id=session.id, user_parts=[TextPart(text="kept")],
                                                 model_id=None)
    db.close()
    db = open_database(db_path)
    try:
        assert schema_version(db) == SCHEMA_VERSION
        assert _indexes(db, "agent_session_message") == {"agent_session_message_session_id_ordering"}
        for sql in ('SELECT * FROM "agent_session_message" WHERE "session_id" = ? ORDER BY "ordering"',
                    'SELECT MAX("ordering") FROM "agent_session_message" WHERE "session_id" = ?'):
            plan = " ".join(str(row[-1]) for row in db.execute_sql(f"EXPLAIN QUERY PLAN {sql}", (session.id,)))
            assert "agent_session_message_session_id_ordering" in plan, plan
        assert Repositories().session_messages.list_messages(session.id)[0].id == user.id
    finally:
        db.close()


def test_database_from_a_newer_build_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    with pytest.raises(SchemaTooNewError):
        open_database(db_path)


def _session(repos: Repositories) -> str:
    agent = repos.agents.create_agent(type="claude-code", name="Coder", model="p::m")
    ws = repos.agents.create_workspace(name="w", path="/tmp", agent_id=agent.id)
    return repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="s").id


def test_turn_rows_and_resume_token(repos: Repositories) -> None:
    sid = _session(repos)
    user, pending = repos.session_messages.create_turn(
        session_id=sid, user_parts=[TextPart(text="hello")], model_id="p::m")
    assert pending.status == "pending" and pending.ordering == user.ordering + 1
    assert repos.session_messages.get_last_runtime_resume_token(sid) is None
    repos.session_messages.update_message(pending.id, parts=[TextPart(text="hi")], status="error",
                                          runtime_resume_token="tok-1", stats={"total_tokens": 3})
    row = repos.session_messages.get_message(pending.id)
    assert (row.status, row.runtime_resume_token, row.stats) == ("error", "tok-1", {"total_tokens": 3})
    assert repos.session_messages.get_last_runtime_resume_token(sid) == "tok-1"
    _, p2 = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="again")],
                                               model_id="p::m")
    repos.session_messages.update_message(p2.id, status="success", runtime_resume_token="tok-2")
    assert repos.session_messages.get_last_runtime_resume_token(sid) == "tok-2"
    assert [m.role for m in repos.session_messages.list_messages(sid)] == ["user", "assistant"] * 2
    assert [m.id for m in repos.session_messages.list_messages(sid, limit=1)] == [p2.id]
    assert repos.session_messages.list_pending() == []
    with pytest.raises(NotFoundError):
        repos.session_messages.update_message("nope", status="success")


def test_corrupt_json_cell_is_an_error_for_that_row_only(repos: Repositories, db_path: Path) -> None:
    sid = _session(repos)
    good = repos.session_messages.create_message(session_id=sid, role="user", parts=[TextPart(text="ok")])
    bad = repos.session_messages.create_message(session_id=sid, role="assistant", parts=[])
    con = sqlite3.connect(db_path)
    con.execute("UPDATE agent_session_message SET data = '{broken' WHERE id = ?", (bad.id,))
    con.execute("UPDATE agent_session_message SET stats = '[1,' WHERE id = ?", (good.id,))
    con.commit()
    con.close()
    rows = repos.session_messages.list_messages(sid)
    assert [r.id for r in rows] == [good.id, bad.id]
    assert rows[0].parts[0].text == "ok"  # type: ignore[union-attr]
    assert rows[0].load_error is not None and "stats" in rows[0].load_error
    assert rows[1].parts == [] and rows[1].load_error is not None and "data" in rows[1].load_error


def test_invalid_part_shape_is_reported(repos: Repositories, db_path: Path) -> None:
    topic = repos.topics.create_topic(name="t")
    m = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="x")])
    con = sqlite3.connect(db_path)
    con.execute("""UPDATE message SET data = '[{"type":"text","text":"a"},{"type":"dynamic-tool"}]' WHERE id = ?""",
                (m.id,))
    con.commit()
    con.close()
    row = repos.messages.get_message(m.id)
    assert row.parts[0].text == "a"  # type: ignore[union-attr]
    assert row.load_error is not None and "part 1" in row.load_error


def test_message_tree_branch_and_siblings(repos: Repositories) -> None:
    topic = repos.topics.create_topic(name="chat")
    u = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="q")])
    gid = repos.messages.next_siblings_group_id(topic.id)
    a1 = repos.messages.create_message(topic_id=topic.id, role="assistant", parts=[], parent_id=u.id,
                                       status="pending", model_id="p::a", siblings_group_id=gid)
    a2 = repos.messages.create_message(topic_id=topic.id, role="assistant", parts=[], parent_id=u.id,
                                       status="pending", model_id="p::b", siblings_group_id=gid)
    assert {c.id for c in repos.messages.children(u.id)} == {a1.id, a2.id}
    assert [m.id for m in repos.messages.branch(topic.id)] == [u.id, a2.id]
    repos.topics.set_active_node(topic.id, a1.id)
    assert [m.id for m in repos.messages.branch(topic.id)] == [u.id, a1.id]
    assert repos.messages.next_siblings_group_id(topic.id) == gid + 1
    assert len(repos.messages.list_pending()) == 2


def test_providers_models_usage_and_pending_turns(repos: Repositories) -> None:
    repos.providers.upsert_provider(id="openai", name="OpenAI", type="openai-compatible",
                                    base_url="http://127.0.0.1:1/v1")
    model = repos.providers.upsert_model(provider_id="openai", model_id="gpt-x")
    assert model.unique_model_id == "openai::gpt-x"
    assert [m.model_id for m in repos.providers.list_models("openai")] == ["gpt-x"]
    repos.usage.add(message_id="m", model_id="openai::gpt-x", input_tokens=3, output_tokens=4)
    assert repos.usage.list(message_id="m")[0]["output_tokens"] == 4
    sid = _session(repos)
    a = repos.pending_turns.add(session_id=sid, user_message_id="u1", text="one", is_steer=False)
    b = repos.pending_turns.add(session_id=sid, user_message_id="u2", text="two", is_steer=True)
    assert [p.user_message_id for p in repos.pending_turns.list(sid)] == ["u1", "u2"]
    repos.pending_turns.reorder(sid, ["u2", "u1"])
    assert [p.user_message_id for p in repos.pending_turns.list(sid)] == ["u2", "u1"]
    repos.pending_turns.remove_by_message(a.user_message_id)
    assert [p.id for p in repos.pending_turns.list(sid)] == [b.id]


def test_a_version_four_file_loses_the_config_version_counter_and_its_triggers(db_path: Path) -> None:
    """A file from a build whose session validation read a trigger-fed `config_version`
    counter: the counter table and its fifteen triggers go, the rows stay, and writes to the
    tables that carried triggers still work."""
    from cherry_desktop.core.data.database import MIGRATIONS
    from cherry_desktop.core.data.models import database_proxy

    db_path.parent.mkdir(parents=True)
    db = pw.SqliteDatabase(str(db_path), pragmas={"foreign_keys": 1})
    database_proxy.initialize(db)
    for migration in MIGRATIONS[:4]:
        migration(db)
    db.execute_sql("PRAGMA user_version = 4")
    repos = Repositories()
    agent = repos.agents.create_agent(type="claude-code", name="kept", id="a1")
    workspace = repos.agents.create_workspace(name="w", path="w", kind="system", agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=workspace.id, id="s1")

    def triggers(db: pw.SqliteDatabase) -> set[str]:
        return {row[0] for row in db.execute_sql("SELECT name FROM sqlite_master WHERE type = 'trigger'")}

    def config_triggers(db: pw.SqliteDatabase) -> set[str]:
        # Migration 6's search-index triggers are not migration 3's.
        return {t for t in triggers(db) if t.endswith("_config_version")}

    assert len(triggers(db)) == 15 and "config_version" in table_names(db)
    db.close()

    db = open_database(db_path)
    try:
        assert schema_version(db) == SCHEMA_VERSION
        assert not config_triggers(db) and "config_version" not in table_names(db)
        repos = Repositories()
        assert repos.agents.get_agent("a1").name == "kept"
        assert repos.sessions.get_session("s1").workspace_id == workspace.id
        repos.agents.update_agent("a1", model="p::m")
        repos.providers.upsert_provider(id="p", name="P", type="anthropic")
        repos.providers.upsert_model(provider_id="p", model_id="m")
        repos.sessions.rename_session(session.id, "renamed")
        repos.sessions.delete_session(session.id)
        assert repos.sessions.find_session(session.id) is None
    finally:
        db.close()
    # A new file, which runs migration 3 and then 5, ends without them too.
    db = open_database(db_path.with_name("fresh.db"))
    try:
        assert not config_triggers(db) and "config_version" not in table_names(db)
    finally:
        db.close()


def test_deleting_a_chat_message_moves_its_replies_up_and_keeps_the_branch(repos: Repositories) -> None:
    from cherry_desktop.core.messages import TextPart

    topic = repos.topics.create_topic(name="t")
    first = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="q")])
    answer = repos.messages.create_message(topic_id=topic.id, role="assistant", parts=[TextPart(text="a")],
                                           parent_id=first.id)
    follow = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="q2")],
                                           parent_id=answer.id)
    repos.topics.set_active_node(topic.id, follow.id)
    repos.messages.delete_message(answer.id)
    assert [m.id for m in repos.messages.branch(topic.id)] == [first.id, follow.id]
    repos.messages.delete_message(follow.id)  # the active node: the branch now ends at its parent
    assert repos.topics.get_topic(topic.id).active_node_id == first.id
    assert [m.id for m in repos.messages.branch(topic.id)] == [first.id]
    repos.messages.delete_message("no-such-id")  # nothing to delete: no error
