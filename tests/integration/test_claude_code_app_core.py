"""End to end through the whole app core: `start_core` (AiService -> AiStreamManager ->
AgentSessionRuntimeService -> ClaudeCodeRuntimeDriver -> the bundled CLI) against the scripted
model server, with the demo's provider / agent / workspace / session records
(`ensure_demo_records`): provider type "anthropic", base URL = the server, the CLI child's
environment from the provider's settings. The core and its helpers: `tests/integration/app_core.py`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.demo import HangReply, ScriptedModelServer, http_error, slow_text, text, tool_use
from cherry_desktop.demo.cli_env import NO_RETRY_CLI_ENV
from tests.integration.app_core import BOGUS_TOKEN, TURN_LIMIT_S, App, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


def alive_children() -> set[int]:
    """PIDs of this process's live descendants (zombies are dead)."""
    pids = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                pids.add(child.pid)
        except psutil.NoSuchProcess:
            pass
    return pids


def cli_cmdline(app: App[ClaudeCodeRuntimeDriver]) -> list[str]:
    pids = app.driver.process_manager.alive_pids()
    assert len(pids) == 1, pids
    return psutil.Process(pids[0]).cmdline()


# ---- stop / pause ------------------------------------------------------------------------


# ---- follow-ups --------------------------------------------------------------------------


async def test_undelivered_steer_becomes_the_next_turn(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(slow_text("An answer with no tool call at all.", delay_s=0.03, chunk_size=4),
                         text("Answer to the steer."))
    first = await app.start_streaming("answer without tools")
    steer = await app.send("late steer: mention otters", mode="steer")
    assert steer.follow_up == "injected"  # stashed by the driver; the turn never reaches a tool

    rows = await app.settled_rows(4)
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    assert rows[1].id == first
    assert row_text(rows[1]) == "An answer with no tool call at all."
    assert rows[2].id == steer.user_message_id
    assert row_text(rows[3]) == "Answer to the steer."
    assert [r.status for r in rows[1::2]] == ["success", "success"]
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2
    assert "mention otters" not in requests[0].all_text()
    assert "late steer: mention otters" in requests[1].last_user_text()


async def test_follow_up_in_steer_mode_is_injected_and_rows_roll(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_app()
    notes = app.workspace / "notes.txt"
    notes.write_text("one\ntwo\n")
    model_server.enqueue(
        tool_use("Read", {"file_path": str(notes)},
                 preamble="Reading your notes slowly enough to be steered.", delay_s=0.03),
        text("Post-steer answer."),
    )
    first = await app.start_streaming("summarise my notes")
    steer = await app.send("also count the lines", mode="steer")
    assert steer.follow_up == "injected"

    rows = await app.settled_rows(4)
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    a1a, steer_row, a2 = rows[1], rows[2], rows[3]
    assert a1a.id == first
    assert row_text(a1a) == "Reading your notes slowly enough to be steered."
    assert any(getattr(p, "tool_name", None) == "Read" for p in a1a.parts)  # the tool stays on A1a
    assert steer_row.id == steer.user_message_id
    assert row_text(steer_row) == "also count the lines"
    assert row_text(a2) == "Post-steer answer."
    assert [a1a.status, a2.status] == ["success", "success"]
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2  # one runtime turn: the steer rode on the tool result
    # The CLI passes the hook's context after the tool result (its own wrapping, not a user turn).
    assert "also count the lines" not in requests[0].all_text()
    assert "also count the lines" in requests[1].all_text()
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)


# ---- restart / resume ----------------------------------------------------------------------


async def test_restart_resumes_the_persisted_token(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(text("I will remember kumquat."), text("The word was kumquat."))
    first = await app.turn("remember the word kumquat")
    assert first.status == "success"
    token = first.runtime_resume_token
    assert token
    await app.core.stop()

    app = await open_app()
    assert app.core.repos.session_messages.get_last_runtime_resume_token(app.session_id) == token
    result = await app.send("what was the word?")
    await until(lambda: app.driver.process_manager.alive_pids(), limit=TURN_LIMIT_S)
    assert f"--resume={token}" in cli_cmdline(app)
    second = await app.finished(result.placeholder_ids[0])
    assert second.status == "success"
    assert row_text(second) == "The word was kumquat."
    assert second.runtime_resume_token
    history = model_server.last_model_request().all_text()
    assert "remember the word kumquat" in history
    assert "I will remember kumquat." in history


async def test_bogus_persisted_token_recovers_without_resume(
    open_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path
) -> None:
    app = await open_app()
    model_server.enqueue(text("first life"), text("second life"))
    first = await app.turn("the first conversation")
    assert first.status == "success"
    database = app.core.paths.database_file
    await app.core.stop()

    with sqlite3.connect(database) as db:
        changed = db.execute("UPDATE agent_session_message SET runtime_resume_token = ? WHERE id = ?",
                             (BOGUS_TOKEN, first.id)).rowcount
    assert changed == 1

    app = await open_app()
    result = await app.send("after the corruption")
    await until(lambda: app.driver.connections, limit=TURN_LIMIT_S)
    second = await app.finished(result.placeholder_ids[0])
    assert second.status == "success", second
    assert row_text(second) == "second life"
    assert [c.recovered_from for c in app.driver.connections] == [BOGUS_TOKEN]
    assert f"--resume={BOGUS_TOKEN}" not in cli_cmdline(app)  # rebuilt without resume
    new_token = second.runtime_resume_token
    assert new_token
    assert new_token != BOGUS_TOKEN
    assert app.core.repos.session_messages.get_last_runtime_resume_token(app.session_id) == new_token
    # A new SDK session: the corrupt history is not replayed to the model.
    last = model_server.last_model_request()
    assert "after the corruption" in last.last_user_text()
    assert "the first conversation" not in last.all_text()


# ---- API errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [529, 401])
async def test_api_error_row_keeps_token_and_user_message(
    open_app: OpenApp, model_server: ScriptedModelServer, status: int
) -> None:
    app = await open_app(extra_env=NO_RETRY_CLI_ENV)
    model_server.enqueue(http_error(status, f"scripted {status}"), text("recovered answer"))
    result = await app.send("a prompt that fails")
    row = await app.finished(result.placeholder_ids[0])
    # The failed result tore the connection down, and its CLI with it (not only at app stop).
    await until(lambda: not app.driver.process_manager.alive_pids() and not app.driver.connections,
                limit=TURN_LIMIT_S)
    assert row.status == "error"
    assert row.runtime_resume_token
    user = app.row(result.user_message_id or "")
    assert user.role == "user"
    assert row_text(user) == "a prompt that fails"
    error_terminals = [t for t in app.subscriber.terminals if t.status == "error"]
    assert len(error_terminals) == 1
    assert str(status) in error_terminals[0].error.message  # type: ignore[union-attr]

    # The failed result tore the connection down; the next turn reconnects from the error
    # row's token, and the failed prompt is still part of the conversation.
    second = await app.turn("try again")
    assert second.status == "success"
    assert row_text(second) == "recovered answer"
    assert f"--resume={row.runtime_resume_token}" in cli_cmdline(app)
    assert "a prompt that fails" in model_server.last_model_request().all_text()


# ---- shutdown ----------------------------------------------------------------------------------


async def test_no_cli_process_outlives_core_stop(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    before = alive_children()
    app = await open_app()
    model_server.enqueue(HangReply(text_before="streaming at stop"))
    result = await app.send("a turn still streaming at stop")
    await until(lambda: app.text_streamed(result.placeholder_ids[0]) == "streaming at stop", limit=TURN_LIMIT_S)
    cli_pids = set(app.driver.process_manager.alive_pids())
    assert cli_pids
    assert cli_pids <= alive_children()

    await app.core.stop()
    assert app.driver.process_manager.alive_pids() == []
    assert alive_children() - before == set()
    assert not app.driver.connections
    # Quitting stops the turn as the user's Stop does: `paused`, partial kept, before the
    # database closed.
    with sqlite3.connect(app.core.paths.database_file) as db:
        status, data = db.execute("SELECT status, data FROM agent_session_message WHERE id = ?",
                                  (result.placeholder_ids[0],)).fetchone()
    assert status == "paused"
    assert '"text":"streaming at stop"' in data


async def test_no_prewarmed_cli_outlives_core_stop(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    before = alive_children()
    app = await open_app()
    app.core.agent_runtime.idle_window_s = 0.1
    model_server.enqueue(text("done"))
    row = await app.turn("one turn, then idle")
    assert row.status == "success"
    # Idle window over: the connection closes and a query is prewarmed on the resume token.
    await until(lambda: app.driver.warm_queries.has(app.session_id), limit=TURN_LIMIT_S)
    assert f"--resume={row.runtime_resume_token}" in cli_cmdline(app)

    await app.core.stop()
    assert app.driver.process_manager.alive_pids() == []
    assert alive_children() - before == set()


async def test_first_turn_names_the_session_through_the_naming_prompt(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    from cherry_desktop.core.ai.naming import NAMING_MARKER
    from cherry_desktop.core.state.shared_cache import topic_title_key

    app = await open_app()
    model_server.enqueue(text("Sure, here is the plan."))
    await app.turn("Refactor the payment module please")
    await until(lambda: app.core.repos.sessions.get_session(app.session_id).name != "Demo session",
                limit=TURN_LIMIT_S)
    title = "Demo: Refactor the payment module please"
    assert app.core.repos.sessions.get_session(app.session_id).name == title
    assert app.core.shared_cache.get(topic_title_key(app.topic)) == title
    naming = [r for r in model_server.requests if NAMING_MARKER in r.system_text]
    assert len(naming) == 1 and "Sure, here is the plan." in naming[0].last_user_text()
    # The naming prompt went to the provider directly, not into the agent's conversation.
    assert all(NAMING_MARKER not in r.all_text() for r in model_server.requests_for_model_turns())
    model_server.enqueue(text("Second."))
    await app.turn("and the tests")
    assert len([r for r in model_server.requests if NAMING_MARKER in r.system_text]) == 1
