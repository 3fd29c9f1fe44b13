"""The host saves an "always allow" answer with the session (`agent_session/tool_grants.py`) and
hands the session's grants to every connection; the row keeps them (real SQLite). The real
runtimes' side: tests/integration/test_tool_grants.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cherry_desktop.core.ai.agent_session.tool_grants import grant_tool
from cherry_desktop.core.ai.runtime.events import ToolApprovalRequestEvent
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.data import NotFoundError, Repositories, open_database, schema_version
from cherry_desktop.core.data.database import SCHEMA_VERSION
from tests.unit.agent_session.harness import Harness, make_harness
from tests.waiting import until


async def _ask(h: Harness, conn: object, approval_id: str, tool: str) -> None:
    conn.emit(ToolApprovalRequestEvent(approval_id=approval_id, tool_call_id=f"call-{approval_id}",  # type: ignore[attr-defined]
                                       tool_name=tool))
    await until(lambda: any(getattr(c, "approval_id", None) == approval_id for _, c in h.subscriber.chunks))


async def test_only_an_always_answer_the_runtime_took_is_saved(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    sid = h.session.id
    await _ask(h, conn, "a1", "Bash")
    assert await h.runtime.respond_tool_approval(sid, "a1", ApprovalDecision(approved=True))
    await _ask(h, conn, "a2", "Write")
    assert await h.runtime.respond_tool_approval(sid, "a2", ApprovalDecision(approved=False, always_allow=True))
    assert repos.sessions.always_allowed_tools(sid) == ()
    await _ask(h, conn, "a3", "Edit")
    assert await h.runtime.respond_tool_approval(sid, "a3", ApprovalDecision(approved=True, always_allow=True))
    assert repos.sessions.always_allowed_tools(sid) == ("Edit",)
    # An answer to an approval the host never saw asked is not a grant.
    assert await h.runtime.respond_tool_approval(sid, "unknown", ApprovalDecision(approved=True, always_allow=True))
    assert repos.sessions.always_allowed_tools(sid) == ("Edit",)
    conn.complete("done")
    await h.idle()


async def test_a_tool_disabled_before_the_answer_is_not_saved(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    await _ask(h, conn, "a1", "Bash")
    repos.agents.update_agent(h.session.agent_id, disabled_tools=["Bash"])
    assert await h.runtime.respond_tool_approval(h.session.id, "a1",
                                                 ApprovalDecision(approved=True, always_allow=True))
    assert repos.sessions.always_allowed_tools(h.session.id) == ()
    conn.complete("done")
    await h.idle()


async def test_every_connection_gets_the_grants_but_never_a_disabled_tool(repos: Repositories,
                                                                          tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    repos.sessions.update_always_allowed_tools(h.session.id, add=["Bash", "Write"])
    repos.agents.update_agent(h.session.agent_id, disabled_tools=["Write"])
    conn = await h.first_turn("go")
    assert h.driver.connect_inputs[0].always_allowed_tools == frozenset({"Bash"})
    conn.complete("done")
    await h.idle()
    # Revoked with no live grant set on the (scripted) connection: the row follows.
    assert h.runtime.revoke_always_allowed_tools(h.session.id, ["Bash"]) == ("Write",)
    assert h.runtime.revoke_always_allowed_tools(h.session.id) == ()


def test_grants_are_kept_on_the_row_with_its_other_settings(repos: Repositories) -> None:
    agent = repos.agents.create_agent(type="claude-code", name="a")
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=None)
    assert session.always_allowed_tools == ()
    before = repos.sessions.get_session(session.id).updated_at
    assert repos.sessions.update_always_allowed_tools(session.id, add=["Write", "Bash", "Bash"]) == ("Bash", "Write")
    assert repos.sessions.get_session(session.id).always_allowed_tools == ("Bash", "Write")
    assert repos.sessions.get_session(session.id).updated_at == before  # the session list keeps its order
    assert repos.sessions.update_always_allowed_tools(session.id, remove=["Write", "Nope"]) == ("Bash",)
    assert repos.sessions.update_always_allowed_tools(session.id, add=["Edit"], remove_all=True) == ("Edit",)
    with pytest.raises(NotFoundError):
        repos.sessions.update_always_allowed_tools("missing", add=["Bash"])
    assert repos.sessions.always_allowed_tools("missing") == ()
    repos.sessions.delete_session(session.id)
    assert repos.sessions.always_allowed_tools(session.id) == ()


def test_a_corrupt_settings_cell_reads_as_no_grants(repos: Repositories, db_path: Path) -> None:
    agent = repos.agents.create_agent(type="claude-code", name="a")
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="kept")
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE agent_session SET settings = ? WHERE id = ?", ("{not json", session.id))
    found = repos.sessions.get_session(session.id)
    assert found.name == "kept" and found.always_allowed_tools == ()
    assert repos.sessions.update_always_allowed_tools(session.id, add=["Bash"]) == ("Bash",)


def test_a_version_eight_file_gains_the_settings_column(db_path: Path) -> None:
    db = open_database(db_path)
    repos = Repositories()
    agent = repos.agents.create_agent(type="claude-code", name="a")
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="old")
    db.execute_sql('ALTER TABLE "agent_session" DROP COLUMN "settings"')
    db.execute_sql("PRAGMA user_version = 8")
    db.close()
    db = open_database(db_path)
    try:
        assert schema_version(db) == SCHEMA_VERSION
        found = repos.sessions.get_session(session.id)
        assert found.name == "old" and found.always_allowed_tools == ()
        assert repos.sessions.update_always_allowed_tools(session.id, add=["Bash"]) == ("Bash",)
    finally:
        db.close()


async def test_an_always_answer_after_the_session_was_deleted_saves_nothing(repos: Repositories,
                                                                            tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    await _ask(h, conn, "a1", "Bash")
    await h.runtime.delete_session(h.session.id)
    assert not await h.runtime.respond_tool_approval(h.session.id, "a1",
                                                     ApprovalDecision(approved=True, always_allow=True))
    assert repos.sessions.find_session(h.session.id) is None
    # Saving a grant for it directly is refused too (no row is made again).
    assert not grant_tool(h.runtime, h.session.id, "Bash")
    assert repos.sessions.always_allowed_tools(h.session.id) == ()
