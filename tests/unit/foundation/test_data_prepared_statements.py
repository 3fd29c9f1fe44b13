"""The repository paths that run statements prepared once (a turn's lookups and writes) read and
write exactly what peewee's own queries read and write."""

from __future__ import annotations

import sqlite3

import pytest

from cherry_desktop.core.data import NotFoundError, Repositories
from cherry_desktop.core.data.models import AgentSessionMessage, Provider, UsageRecord
from cherry_desktop.core.messages import TextPart


def _session(repos: Repositories) -> str:
    agent = repos.agents.create_agent(type="claude-code", name="A", model="p::m", disabled_tools=["Bash"],
                                      config={"k": 1})
    ws = repos.agents.create_workspace(name="w", path="/tmp/w", kind="system", agent_id=agent.id)
    return repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="s", model="p::m2").id


def test_lookups_by_primary_key_match_peewee_rows(repos: Repositories) -> None:
    sid = _session(repos)
    session = repos.sessions.find_session(sid)
    assert session is not None and session.agent_id is not None and session.workspace_id is not None
    row = repos.sessions.get_session(sid)
    assert (row.name, row.model) == ("s", "p::m2")
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

    repos.providers.upsert_provider(id="p", name="P", type="anthropic", enabled=False, settings={"env": {"A": "1"}})
    provider = repos.providers.find_provider("p")
    # BooleanField is stored as an integer: the value is converted back as peewee converts it.
    assert provider is not None and provider.enabled is False and provider.settings == {"env": {"A": "1"}}
    assert Provider.get_by_id("p").enabled is False
    repos.providers.upsert_model(provider_id="p", model_id="m2", name="M2")
    model = repos.providers.find_model("p::m2")
    assert model is not None and (model.provider_id, model.model_id, model.name) == ("p", "m2", "M2")
    assert repos.providers.find_model("p::none") is None


def test_turn_rows_and_terminal_update(repos: Repositories) -> None:
    sid = _session(repos)
    user, assistant = repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="hi")],
                                                         model_id="p::m2")
    assert (user.ordering, assistant.ordering) == (1, 2)
    assert assistant.status == "pending" and assistant.model_id == "p::m2"
    repos.session_messages.update_message(assistant.id, parts=[TextPart(text="answer")], status="success",
                                          stats={"tokens": 3}, metadata={"usage": {"input_tokens": 1}},
                                          runtime_resume_token="tok")
    stored = repos.session_messages.get_message(assistant.id)
    assert [p.text for p in stored.parts if isinstance(p, TextPart)] == ["answer"]
    assert (stored.status, stored.stats, stored.metadata, stored.runtime_resume_token) == (
        "success", {"tokens": 3}, {"usage": {"input_tokens": 1}}, "tok")
    assert stored.updated_at >= assistant.updated_at
    # A partial update leaves every other column as it was.
    repos.session_messages.update_message(assistant.id, status="error")
    again = repos.session_messages.get_message(assistant.id)
    assert (again.status, again.stats, again.runtime_resume_token) == ("error", {"tokens": 3}, "tok")
    assert AgentSessionMessage.get_by_id(assistant.id).status == "error"
    with pytest.raises(NotFoundError):
        repos.session_messages.update_message("nope", status="success")
    # Both rows of a turn or neither: test_create_turn_rows_match_what_is_stored.


def test_usage_insert_fills_defaults_and_rejects_unknown_fields(repos: Repositories) -> None:
    rid = repos.usage.add(session_id="s", message_id="m", model_id="p::m", input_tokens=5,
                          time_first_token_ms=12, time_completion_ms=None)
    row = UsageRecord.get_by_id(rid)
    assert (row.input_tokens, row.output_tokens, row.reasoning_tokens, row.time_first_token_ms) == (5, 0, 0, 12)
    assert row.time_completion_ms is None and row.topic_id is None and row.created_at > 0
    assert repos.usage.add(message_id="m") == rid + 1
    with pytest.raises(TypeError):
        repos.usage.add(message_id="m", bogus=1)


def test_pending_turns_of_a_session_in_order(repos: Repositories) -> None:
    sid = _session(repos)
    repos.pending_turns.add(session_id=sid, user_message_id="u1", text="one", is_steer=False)
    repos.pending_turns.add(session_id=sid, user_message_id="u2", text="two", is_steer=True)
    rows = repos.pending_turns.list(sid)
    assert [(r.user_message_id, r.text, r.is_steer, r.ordering) for r in rows] == [
        ("u1", "one", False, 1), ("u2", "two", True, 2)]
    assert rows[1].is_steer is True
    assert [r.user_message_id for r in repos.pending_turns.list()] == ["u1", "u2"]
    assert repos.pending_turns.list("other") == []


def test_session_context_and_provider_model_in_one_statement_each(repos: Repositories) -> None:
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
    db = AgentSessionMessage._meta.database
    db.execute_sql("PRAGMA foreign_keys = OFF")
    db.execute_sql('UPDATE "agent_session" SET "agent_id" = ? WHERE "id" = ?', ("gone", bare.id))
    db.execute_sql("PRAGMA foreign_keys = ON")
    orphan = repos.sessions.find_session_context(bare.id)
    assert orphan is not None and orphan[1] is None and orphan[0].agent_id == "gone"

    repos.providers.upsert_provider(id="p", name="P", type="anthropic", enabled=False)
    repos.providers.upsert_model(provider_id="p", model_id="m2", name="M2")
    both = repos.providers.find_provider_and_model("p", "p::m2")
    assert both == (repos.providers.find_provider("p"), repos.providers.find_model("p::m2"))
    assert both[0] is not None and both[0].enabled is False
    assert repos.providers.find_provider_and_model("p", "p::none") == (both[0], None)
    assert repos.providers.find_provider_and_model(None, "p::m2") == (None, both[1])
    assert repos.providers.find_provider_and_model("q", "q::m") == (None, None)


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


@pytest.mark.parametrize("returning", [True, False], ids=["one-statement", "transaction"])
def test_create_turn_rows_match_what_is_stored(repos: Repositories, monkeypatch: pytest.MonkeyPatch,
                                               returning: bool) -> None:
    """Both ways of saving a turn (one INSERT .. RETURNING on SQLite >= 3.35, a transaction of
    a read and two inserts before) return the rows as stored, continue the session's ordering
    and save both rows or neither."""
    monkeypatch.setattr(type(repos.session_messages), "_create_turn_returning", returning)
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
    assert [m.id for m in repos.session_messages.list_messages(sid)][1:] == [user.id, assistant.id]
    assert [(m.ordering, m.role) for m in repos.session_messages.list_messages(other)] == [
        (1, "user"), (2, "assistant")]
    # A clashing id fails the whole turn: the user row is not left behind.
    with pytest.raises(Exception):  # noqa: B017 (sqlite's IntegrityError through peewee)
        repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="x")], model_id=None,
                                           user_message_id="fresh", assistant_message_id=assistant.id)
    assert repos.session_messages.find_message("fresh") is None
    assert repos.session_messages.count_messages(sid) == 3


def test_create_turn_statements_follow_the_sqlite_library(repos: Repositories) -> None:
    """With RETURNING (SQLite 3.35+) a turn's rows are saved by a single statement, no BEGIN,
    read or COMMIT around it; an older library saves them in one transaction."""
    returning = sqlite3.sqlite_version_info >= (3, 35, 0)
    assert type(repos.session_messages)._create_turn_returning is returning
    sid = _session(repos)
    statements: list[str] = []
    connection = AgentSessionMessage._meta.database.connection()
    connection.set_trace_callback(statements.append)
    try:
        repos.session_messages.create_turn(session_id=sid, user_parts=[TextPart(text="u")], model_id=None)
    finally:
        connection.set_trace_callback(None)
    if returning:
        assert len(statements) == 1 and statements[0].lstrip().startswith("WITH"), statements
    else:
        assert statements[0].upper().startswith("BEGIN") and statements[-1].upper().startswith("COMMIT"), statements
