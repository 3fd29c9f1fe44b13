"""Repositories over a real SQLite file: what they write is what they read back, a turn's two
rows are saved both or neither, and orderings continue from the session's newest row."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import peewee as pw
import pytest

from cherry_desktop.core.data import NotFoundError, Repositories
from cherry_desktop.core.data.models import UsageRecord, database_proxy
from cherry_desktop.core.messages import TextPart


def _session(repos: Repositories) -> str:
    agent = repos.agents.create_agent(type="claude-code", name="A", model="p::m", disabled_tools=["Bash"],
                                      config={"k": 1})
    ws = repos.agents.create_workspace(name="w", path="/tmp/w", kind="system", agent_id=agent.id)
    return repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="s", model="p::m2").id


def _texts(repos: Repositories, session_id: str) -> list[tuple[int, str, str]]:
    return [(m.ordering, m.role, "".join(p.text for p in m.parts if isinstance(p, TextPart)))
            for m in repos.session_messages.list_messages(session_id)]


def test_lookups_read_back_what_was_written(repos: Repositories) -> None:
    sid = _session(repos)
    session = repos.sessions.find_session(sid)
    assert session is not None and session.agent_id is not None and session.workspace_id is not None
    assert (repos.sessions.get_session(sid).name, session.model) == ("s", "p::m2")
    agent = repos.agents.find_agent(session.agent_id)
    assert agent is not None
    assert (agent.disabled_tools, agent.config, agent.load_error) == (["Bash"], {"k": 1}, None)
    workspace = repos.agents.find_workspace(session.workspace_id)
    assert workspace is not None and (workspace.kind, workspace.agent_id) == ("system", agent.id)
    assert repos.sessions.find_session("nope") is None
    assert repos.agents.find_agent("nope") is None
    assert repos.agents.find_workspace("nope") is None
    with pytest.raises(NotFoundError):
        repos.agents.get_agent("nope")
    with pytest.raises(NotFoundError):
        repos.sessions.get_session("nope")

    repos.providers.upsert_provider(id="p", name="P", type="anthropic", enabled=False, settings={"env": {"A": "1"}})
    provider = repos.providers.find_provider("p")
    assert provider is not None and provider.enabled is False and provider.settings == {"env": {"A": "1"}}
    repos.providers.upsert_model(provider_id="p", model_id="m2", name="M2")
    model = repos.providers.find_model("p::m2")
    assert model is not None and (model.provider_id, model.model_id, model.name) == ("p", "m2", "M2")
    assert repos.providers.find_model("p::none") is None
    repos.meta.set("k", "v")
    assert (repos.meta.get("k"), repos.meta.get("none")) == ("v", None)


def test_reads_by_primary_key_agree_with_peewee_selects(repos: Repositories) -> None:
    """The lookups by primary key run SQL prepared once and read tuples (models.py); the lists
    are plain peewee selects: both give the same records, converted values included."""
    sid = _session(repos)
    session = repos.sessions.get_session(sid)
    repos.providers.upsert_provider(id="p", name="P", type="anthropic", enabled=False, settings={"k": [1]})
    repos.providers.upsert_model(provider_id="p", model_id="m2", name="M2")
    user, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="hi")],
                                                         model_id="p::m2")
    repos.session_messages.update_message(assistant.id, stats={"n": 1}, metadata={"a": "b"},
                                          runtime_resume_token="tok")
    topic = repos.topics.create_topic(name="t", model="p::m2")
    node = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="q")])
    assert repos.agents.list_agents() == [repos.agents.get_agent(session.agent_id or "")]
    assert repos.agents.list_workspaces() == [repos.agents.get_workspace(session.workspace_id or "")]
    assert repos.sessions.list_sessions() == [session]
    assert repos.providers.list_providers() == [repos.providers.get_provider("p")]
    assert repos.providers.list_providers()[0].enabled is False
    assert repos.providers.list_models() == [repos.providers.get_model("p::m2")]
    assert repos.session_messages.list_messages(sid) == [repos.session_messages.get_message(user.id),
                                                          repos.session_messages.get_message(assistant.id)]
    assert repos.topics.list_topics() == [repos.topics.get_topic(topic.id)]
    assert repos.messages.list_messages(topic.id) == [repos.messages.get_message(node.id)]


def test_session_context_and_provider_and_model(repos: Repositories) -> None:
    sid = _session(repos)
    session = repos.sessions.get_session(sid)
    found = repos.sessions.find_session_context(sid)
    assert found is not None
    assert found == (session, repos.agents.find_agent(session.agent_id or ""),
                     repos.agents.find_workspace(session.workspace_id))
    assert found[1] is not None and found[1].disabled_tools == ["Bash"]
    assert repos.sessions.find_session_context("nope") is None
    # A session without a workspace, and one whose agent row is gone (foreign keys off for the setup).
    bare = repos.sessions.create_session(agent_id=session.agent_id or "", workspace_id=None)
    assert repos.sessions.find_session_context(bare.id) == (bare, found[1], None)
    db = database_proxy.obj
    db.execute_sql("PRAGMA foreign_keys = OFF")
    db.execute_sql('UPDATE "agent_session" SET "agent_id" = ? WHERE "id" = ?', ("gone", bare.id))
    db.execute_sql("PRAGMA foreign_keys = ON")
    orphan = repos.sessions.find_session_context(bare.id)
    assert orphan is not None and orphan[1] is None and orphan[2] is None

    repos.providers.upsert_provider(id="p", name="P", type="anthropic", enabled=False)
    repos.providers.upsert_model(provider_id="p", model_id="m2", name="M2")
    both = repos.providers.find_provider_and_model("p", "p::m2")
    assert both == (repos.providers.find_provider("p"), repos.providers.find_model("p::m2"))
    assert both[0] is not None and both[0].enabled is False
    assert repos.providers.find_provider_and_model("p", "p::none") == (both[0], None)
    assert repos.providers.find_provider_and_model(None, "p::m2") == (None, both[1])
    assert repos.providers.find_provider_and_model("q", "q::m") == (None, None)


def test_a_turn_saves_both_rows_as_returned_and_continues_the_ordering(repos: Repositories) -> None:
    sid = _session(repos)
    other = _session(repos)
    repos.session_messages.create_message(session_id=sid, role="user", parts=[TextPart(text="before")])
    repos.session_messages.create_turn(session_id=other, user_parts=[TextPart(text="elsewhere")], model_id=None)
    user, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="hi")],
                                                         model_id="p::m2", user_message_id="u-1")
    assert (user.id, user.role, user.status, user.model_id) == ("u-1", "user", "success", None)
    assert (assistant.role, assistant.status, assistant.model_id, assistant.parts) == (
        "assistant", "pending", "p::m2", [])
    assert (user.ordering, assistant.ordering) == (2, 3)
    assert repos.session_messages.get_message(user.id) == user
    assert repos.session_messages.get_message(assistant.id) == assistant
    assert _texts(repos, sid) == [(1, "user", "before"), (2, "user", "hi"), (3, "assistant", "")]
    assert _texts(repos, other) == [(1, "user", "elsewhere"), (2, "assistant", "")]
    # The next turn and a lone message carry on after the newest row.
    nxt, _ = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="again")], model_id=None)
    assert nxt.ordering == 4
    assert repos.session_messages.create_message(session_id=sid, role="user", parts=[]).ordering == 6


def test_a_turn_that_fails_on_its_second_row_leaves_neither(repos: Repositories) -> None:
    sid = _session(repos)
    _, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="u")],
                                                      model_id=None)
    # The placeholder's id clashes: the user row, inserted first, is rolled back with it.
    with pytest.raises(pw.IntegrityError):
        repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="x")], model_id=None,
                                           user_message_id="fresh", assistant_message_id=assistant.id)
    assert repos.session_messages.find_message("fresh") is None
    # A session that does not exist (foreign key): nothing saved.
    with pytest.raises(pw.IntegrityError):
        repos.session_messages.create_turn(session_id="gone", user_parts=[TextPart(text="x")], model_id=None,
                                           user_message_id="orphan")
    assert repos.session_messages.find_message("orphan") is None
    assert [(o, r) for o, r, _ in _texts(repos, sid)] == [(1, "user"), (2, "assistant")]
    # The connection is usable afterwards (no transaction left open).
    user, _ = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="ok")], model_id=None)
    assert user.ordering == 3
    assert not database_proxy.obj.in_transaction()


def test_a_turn_racing_another_connections_write_is_saved_after_it(repos: Repositories, db_path: Path) -> None:
    """Another connection (another thread or process) writes to the session while a turn reads its
    next ordering: the turn holds the write lock from its BEGIN, so the other write waits for it,
    and neither fails with "database is locked" nor reuses an ordering."""
    sid = _session(repos)
    rival_done = threading.Event()
    errors: list[BaseException] = []

    def rival() -> None:
        con = sqlite3.connect(db_path, timeout=10, isolation_level=None)
        try:
            con.execute("BEGIN IMMEDIATE")  # as the repository does: read the top, then write after it
            top = con.execute('SELECT MAX("ordering") FROM "agent_session_message" WHERE "session_id" = ?',
                              (sid,)).fetchone()[0]
            con.execute('INSERT INTO "agent_session_message" ("id", "session_id", "role", "data", "status", '
                        '"created_at", "updated_at", "ordering") VALUES (?, ?, ?, ?, ?, 0, 0, ?)',
                        ("rival", sid, "user", "[]", "success", int(top or 0) + 1))
            con.execute("COMMIT")
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            con.close()
            rival_done.set()

    thread = threading.Thread(target=rival)

    def on_statement(sql: str) -> None:
        # Inside the turn's transaction, after its read, before its first insert: let the rival
        # run (up to 1 s). Under a deferred BEGIN the rival commits here and the turn's insert then
        # fails (its read snapshot is stale); with the lock taken at BEGIN the rival waits for the
        # turn's commit.
        if sql.startswith("INSERT") and not thread.is_alive() and not rival_done.is_set():
            thread.start()
            rival_done.wait(1.0)

    connection = database_proxy.obj.connection()
    connection.set_trace_callback(on_statement)
    try:
        user, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="u")],
                                                             model_id=None)
    finally:
        connection.set_trace_callback(None)
        thread.join(10)
    assert errors == []
    assert (user.ordering, assistant.ordering) == (1, 2)
    assert [(o, r) for o, r, _ in _texts(repos, sid)] == [(1, "user"), (2, "assistant"), (3, "user")]


def test_partial_updates_leave_the_other_columns(repos: Repositories) -> None:
    sid = _session(repos)
    _, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="hi")],
                                                      model_id="p::m2")
    repos.session_messages.update_message(assistant.id, parts=[TextPart(text="answer")], status="success",
                                          stats={"tokens": 3}, metadata={"usage": {"input_tokens": 1}},
                                          runtime_resume_token="tok")
    stored = repos.session_messages.get_message(assistant.id)
    assert [p.text for p in stored.parts if isinstance(p, TextPart)] == ["answer"]
    assert (stored.status, stored.stats, stored.metadata, stored.runtime_resume_token) == (
        "success", {"tokens": 3}, {"usage": {"input_tokens": 1}}, "tok")
    assert stored.updated_at >= assistant.updated_at
    repos.session_messages.update_message(assistant.id, status="error")
    again = repos.session_messages.get_message(assistant.id)
    assert (again.status, again.stats, again.runtime_resume_token, again.parts) == (
        "error", {"tokens": 3}, "tok", stored.parts)
    with pytest.raises(NotFoundError):
        repos.session_messages.update_message("nope", status="success")


def test_move_to_end_gives_the_row_the_newest_ordering(repos: Repositories) -> None:
    sid = _session(repos)
    queued = repos.session_messages.create_message(session_id=sid, role="user", parts=[TextPart(text="q")])
    repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="u")], model_id=None)
    moved = repos.session_messages.move_to_end(queued.id)
    assert moved.ordering == 4 and [p.text for p in moved.parts if isinstance(p, TextPart)] == ["q"]
    assert repos.session_messages.get_message(queued.id) == moved
    assert [m.id for m in repos.session_messages.list_messages(sid)][-1] == queued.id
    assert repos.session_messages.move_to_end(queued.id).ordering == 4  # already last: unchanged
    with pytest.raises(NotFoundError):
        repos.session_messages.move_to_end("nope")


def test_pending_turns_of_a_session_in_order(repos: Repositories) -> None:
    sid = _session(repos)
    other = _session(repos)
    repos.pending_turns.add(session_id=sid, user_message_id="u1", text="one", is_steer=False)
    repos.pending_turns.add(session_id=other, user_message_id="o1", text="elsewhere", is_steer=False)
    repos.pending_turns.add(session_id=sid, user_message_id="u2", text="two", is_steer=True)
    rows = repos.pending_turns.list(sid)
    assert [(r.user_message_id, r.text, r.is_steer, r.ordering) for r in rows] == [
        ("u1", "one", False, 1), ("u2", "two", True, 2)]
    assert sorted((r.ordering, r.session_id == sid) for r in repos.pending_turns.list()) == [
        (1, False), (1, True), (2, True)]
    assert repos.pending_turns.list("none") == []


def test_usage_insert_fills_defaults_and_rejects_unknown_fields(repos: Repositories) -> None:
    rid = repos.usage.add(session_id="s", message_id="m", model_id="p::m", input_tokens=5,
                          time_first_token_ms=12, time_completion_ms=None)
    row = UsageRecord.get_by_id(rid)
    assert (row.input_tokens, row.output_tokens, row.reasoning_tokens, row.time_first_token_ms) == (5, 0, 0, 12)
    assert row.time_completion_ms is None and row.topic_id is None and row.created_at > 0
    assert repos.usage.add(message_id="m") == rid + 1
    with pytest.raises(TypeError):
        repos.usage.add(message_id="m", bogus=1)
    assert [r["id"] for r in repos.usage.list(message_id="m")] == [rid, rid + 1]


def test_upsert_of_an_existing_provider_keeps_its_models(repos: Repositories) -> None:
    """Refreshing a provider (the demo does at every start) changes it in place: a REPLACE
    would delete the row and cascade to its models, and a session on one of them would then
    be refused with model-not-found."""
    repos.providers.upsert_provider(id="p", name="P", type="anthropic", base_url="http://a")
    repos.providers.upsert_model(provider_id="p", model_id="m")
    repos.providers.upsert_provider(id="p", name="P2", type="anthropic", base_url="http://b")
    assert repos.providers.get_provider("p").base_url == "http://b"
    assert repos.providers.get_provider("p").name == "P2"
    assert [m.unique_model_id for m in repos.providers.list_models("p")] == ["p::m"]


def test_first_exchange_of_a_named_topic_reads_only_its_head(repos: Repositories) -> None:
    """Naming asks after every settled turn; once the topic has a name (every turn but the
    first), the answer comes from the topic's own row, without reading its messages."""
    sid = _session(repos)
    topic = f"agent-session:{sid}"
    _user, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="hi")],
                                                          model_id="p::m2")
    repos.session_messages.update_message(assistant.id, parts=[TextPart(text="hello")], status="success")
    exchange = repos.names.first_exchange(topic)
    assert exchange is not None and (exchange.user_text, exchange.assistant_text) == ("hi", "hello")

    statements: list[str] = []
    connection = database_proxy.connection()
    assert repos.names.set_auto_name(topic, "Greeting")
    connection.set_trace_callback(statements.append)
    try:
        assert repos.names.first_exchange(topic) is None
    finally:
        connection.set_trace_callback(None)
    assert len(statements) == 1 and '"agent_session_message"' not in statements[0]


def test_has_topics_and_has_sessions_say_whether_any_exists(repos: Repositories) -> None:
    assert not repos.topics.has_topics() and not repos.sessions.has_sessions()
    repos.topics.create_topic(name="t")
    assert repos.topics.has_topics() and not repos.sessions.has_sessions()
    agent = repos.agents.create_agent(type="claude-code", name="A")
    repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="s")
    assert repos.sessions.has_sessions()
