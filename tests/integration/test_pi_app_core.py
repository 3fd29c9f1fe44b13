"""End to end through the whole app core (`start_core` -> AiStreamManager ->
AgentSessionRuntimeService -> PiRuntimeDriver -> the real pi) against the scripted model
server, with the demo's records (`ensure_demo_records` + `ensure_pi_demo_records`): rows,
steers, Stop, errors, restart and idle close as the user sees them in the database. The core
and its helpers: `tests/integration/app_core.py` (shared with the Claude Code tests)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.ai.runtime.types import STEER_REMINDER_OPEN, ApprovalDecision
from cherry_desktop.demo import HangReply, ScriptedModelServer, http_error, slow_text, text, tool_use
from cherry_desktop.demo.script import demo_script
from tests.integration.app_core import BOGUS_TOKEN, TURN_LIMIT_S, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


async def test_fresh_turn_and_tool_approval_through_the_host(open_pi_app: OpenApp,
                                                             model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    target = app.workspace / "note.txt"
    model_server.enqueue(tool_use("write", {"path": str(target), "content": "hello"}, preamble="Writing."),
                         text("Written."))
    result = await app.send("write a note")
    assistant_id = result.placeholder_ids[0]
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert not target.exists()
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                              ApprovalDecision(approved=True))
    row = await app.finished(assistant_id)
    assert row.status == "success"
    assert row_text(row) == "Writing.Written."
    assert any(getattr(p, "tool_name", None) == "write" for p in row.parts)
    assert target.read_text() == "hello"
    assert row.runtime_resume_token and app.driver.session_file_of(row.runtime_resume_token)


async def test_steer_mid_turn_rolls_rows(open_pi_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    model_server.enqueue(slow_text("A long answer, streamed slowly enough to steer.", delay_s=0.03, chunk_size=4),
                         text("Post-steer answer."))
    first = await app.start_streaming("explain slowly")
    steer = await app.send("also mention otters", mode="steer")
    assert steer.follow_up == "injected"
    rows = await app.settled_rows(4)
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    a1a, steer_row, a2 = rows[1], rows[2], rows[3]
    assert a1a.id == first
    assert row_text(a1a) == "A long answer, streamed slowly enough to steer."
    assert steer_row.id == steer.user_message_id and row_text(steer_row) == "also mention otters"
    assert row_text(a2) == "Post-steer answer."
    assert [a1a.status, a2.status] == ["success", "success"]
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2
    assert "also mention otters" in requests[1].all_text() and STEER_REMINDER_OPEN.strip() in requests[1].all_text()
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)


async def test_api_error_row_keeps_token_and_user_message(open_pi_app: OpenApp,
                                                          model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    model_server.enqueue(http_error(401, "scripted 401"), text("recovered answer"))
    result = await app.send("a prompt that fails")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error"
    assert row.runtime_resume_token
    user = app.row(result.user_message_id or "")
    assert row_text(user) == "a prompt that fails"
    errors = [t for t in app.subscriber.terminals if t.status == "error"]
    assert len(errors) == 1 and "401" in errors[0].error.message  # type: ignore[union-attr]
    second = await app.turn("try again")
    assert second.status == "success" and row_text(second) == "recovered answer"
    assert second.runtime_resume_token == row.runtime_resume_token  # the same pi session
    assert "a prompt that fails" in model_server.last_model_request().all_text()


async def test_restart_resumes_and_a_bogus_token_recovers_once(open_pi_app: OpenApp,
                                                               model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    model_server.enqueue(text("I will remember kumquat."), text("The word was kumquat."),
                         text("first life"), text("second life"))
    first = await app.turn("remember the word kumquat")
    token = first.runtime_resume_token
    assert first.status == "success" and token
    await app.core.stop()

    app = await open_pi_app()
    second = await app.turn("what was the word?")
    assert second.status == "success" and row_text(second) == "The word was kumquat."
    assert second.runtime_resume_token == token
    history = model_server.last_model_request().all_text()
    assert "remember the word kumquat" in history and "I will remember kumquat." in history
    database = app.core.paths.database_file
    await app.core.stop()

    with sqlite3.connect(database) as db:
        db.execute("UPDATE agent_session_message SET runtime_resume_token = ? WHERE id = ?",
                   (BOGUS_TOKEN, second.id))
    app = await open_pi_app()
    third = await app.turn("after the corruption")
    assert third.status == "success", third
    assert [c.recovered_from for c in app.driver.connections] == [BOGUS_TOKEN]
    assert third.runtime_resume_token and third.runtime_resume_token not in (BOGUS_TOKEN, token)
    assert "remember the word kumquat" not in model_server.last_model_request().all_text()


async def test_close_session_lets_go_of_the_pi_and_the_next_turn_resumes(open_pi_app: OpenApp,
                                                                           model_server: ScriptedModelServer) -> None:
    """`close_session` ends the session's pi (and a prewarmed one) at once, without deleting
    anything: the next turn starts a new pi on the stored resume token."""
    app = await open_pi_app()
    runtime = app.core.agent_runtime
    runtime.idle_window_s = 0.1
    model_server.enqueue(text("Noted."))
    first = await app.turn("remember the word kumquat")
    assert first.status == "success" and first.runtime_resume_token
    # Closed idle, the session has a prewarmed pi: closing the session ends it too.
    await until(lambda: app.driver.has_warm(app.session_id), limit=TURN_LIMIT_S)
    assert not await runtime.close_session(app.session_id)  # no live entry left, only the warm pi
    assert app.driver.alive_pids() == [] and not app.driver.has_warm(app.session_id)
    runtime.idle_window_s = 60.0
    model_server.enqueue(text("Still noted."))
    second = await app.turn("still there?")
    assert second.status == "success"
    (pid,) = app.driver.alive_pids()
    assert await runtime.close_session(app.session_id)
    assert app.driver.alive_pids() == [] and runtime.get_entry(app.session_id) is None
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    model_server.enqueue(text("Kumquat."))
    third = await app.turn("which word?")
    assert third.status == "success"
    assert "remember the word kumquat" in model_server.last_model_request().all_text()  # resumed
    assert [r.role for r in app.rows()] == ["user", "assistant"] * 3


async def test_idle_close_and_core_stop_leave_no_pi_process(open_pi_app: OpenApp,
                                                            model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    app.core.agent_runtime.idle_window_s = 0.1
    model_server.enqueue(text("done"))
    row = await app.turn("one turn, then idle")
    assert row.status == "success"
    turn_pids = app.driver.alive_pids()
    # The idle window closes the connection (its pi exits) and prewarms one on the token.
    await until(lambda: app.driver.has_warm(app.session_id), limit=TURN_LIMIT_S)
    assert len(turn_pids) == 1 and turn_pids[0] not in app.driver.alive_pids()
    assert not psutil.pid_exists(turn_pids[0]) or psutil.Process(turn_pids[0]).status() == psutil.STATUS_ZOMBIE
    warm_pids = app.driver.alive_pids()
    assert len(warm_pids) == 1

    app.core.agent_runtime.idle_window_s = 60.0
    model_server.enqueue(HangReply(text_before="streaming at stop"))
    result = await app.send("a turn still streaming at stop")
    await until(lambda: app.subscriber.text_for(result.placeholder_ids[0]), limit=TURN_LIMIT_S)
    pids = app.driver.alive_pids()
    assert pids == warm_pids  # the next turn took the prewarmed pi
    await app.core.stop()
    assert app.driver.alive_pids() == []
    assert not psutil.pid_exists(pids[0]) or psutil.Process(pids[0]).status() == psutil.STATUS_ZOMBIE
    with sqlite3.connect(app.core.paths.database_file) as db:
        status, = db.execute("SELECT status FROM agent_session_message WHERE id = ?",
                             (result.placeholder_ids[0],)).fetchone()
    assert status == "paused"


async def test_the_demo_script_drives_the_pi_demo_agent(open_pi_app: OpenApp, model_server: ScriptedModelServer,
                                                        tmp_path: Path) -> None:
    app = await open_pi_app()
    model_server.default = demo_script(app.workspace.with_name("demo"), delay_s=0.0)
    result = await app.send("hello demo")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                       ApprovalDecision(approved=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success"
    assert (app.workspace / "cherry-demo" / "note-1.md").exists()
    assert "Done: the note is in your workspace." in row_text(row)
