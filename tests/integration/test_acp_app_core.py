"""End to end through the whole app core (`start_core` -> AiStreamManager ->
AgentSessionRuntimeService -> AcpRuntimeDriver -> the real claude-agent-acp, pinned, from npm)
against the scripted model server: rows, tool calls approved on the card, as the user sees them
in the database. The core and its helpers: `tests/integration/app_core.py`."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import uuid
from pathlib import Path

import httpx
import psutil
import pytest

from cherry_desktop.core.ai.runtime.events import HISTORY_RESET_METADATA_KEY
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.messages import ToolPart
from cherry_desktop.core.net.key_relay import TOKEN_PREFIX
from cherry_desktop.demo import HangReply, ScriptedModelServer, http_error, text, tool_use
from cherry_desktop.demo.cli_env import NO_RETRY_CLI_ENV
from tests.integration.app_core import BOGUS_TOKEN, TURN_LIMIT_S, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]


async def test_a_fresh_text_turn(open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_acp_app()
    model_server.enqueue(text("Hello from the ACP agent."))
    row = await app.turn("say hello")
    assert row.status == "success"
    assert row_text(row) == "Hello from the ACP agent."
    assert row.runtime_resume_token  # the agent's ACP session id
    assert "say hello" in model_server.last_model_request().all_text()
    assert {r.json["model"] for r in model_server.requests_for_model_turns()} == {"claude-demo"}  # the session's model


async def test_a_tool_call_approved_on_the_card(open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_acp_app()
    target = app.workspace / "note.txt"
    model_server.enqueue(tool_use("Write", {"file_path": str(target), "content": "hello"}, preamble="Writing."),
                         text("Written."))
    result = await app.send("write a note")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert not target.exists()  # nothing runs before the user's answer
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                              ApprovalDecision(approved=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success"
    assert row_text(row) == "Writing.Written."
    tools = [p for p in row.parts if isinstance(p, ToolPart)]
    assert [t.tool_name for t in tools] == ["Write"]
    assert tools[0].state == "output-available"
    cherry = (tools[0].provider_metadata or {}).get("cherry", {})
    assert cherry.get("transport") == "acp" and cherry.get("kind") == "edit"
    assert target.read_text() == "hello"


async def test_deny_then_allow_always(open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    """Deny: the call does not run and the part says denied; "always allow": this call runs and
    the session's next call of the tool is not asked again (and the grant is saved)."""
    app = await open_acp_app()
    denied = app.workspace / "denied.txt"
    model_server.enqueue(tool_use("Write", {"file_path": str(denied), "content": "no"}), text("Not written."))
    result = await app.send("write denied.txt")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                              ApprovalDecision(approved=False))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success" and not denied.exists()
    (part,) = [p for p in row.parts if isinstance(p, ToolPart)]
    assert part.state == "output-denied"
    assert model_server.last_model_request().has_tool_result  # the model heard the refusal

    first, second = app.workspace / "one.txt", app.workspace / "two.txt"
    model_server.enqueue(tool_use("Write", {"file_path": str(first), "content": "1"}), text("One."),
                         tool_use("Write", {"file_path": str(second), "content": "2"}), text("Two."))
    result = await app.send("write one.txt")
    await until(lambda: len(app.approval_ids()) == 2, limit=TURN_LIMIT_S)
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[1],
                                                              ApprovalDecision(approved=True, always_allow=True))
    assert (await app.finished(result.placeholder_ids[0])).status == "success"
    row = await app.turn("write two.txt")
    assert row.status == "success" and len(app.approval_ids()) == 2  # not asked again
    assert first.read_text() == "1" and second.read_text() == "2"
    assert "Write" in app.core.repos.sessions.always_allowed_tools(app.session_id)


async def test_api_error_row_keeps_the_session_and_the_next_turn_works(
        open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_acp_app(extra_env=NO_RETRY_CLI_ENV)
    model_server.enqueue(http_error(401, "scripted 401"), text("recovered answer"))
    result = await app.send("a prompt that fails")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error"
    assert row.runtime_resume_token
    assert row_text(app.row(result.user_message_id or "")) == "a prompt that fails"
    errors = [t for t in app.subscriber.terminals if t.status == "error"]
    assert len(errors) == 1 and "401" in errors[0].error.message  # type: ignore[union-attr]
    second = await app.turn("try again")
    assert second.status == "success" and row_text(second) == "recovered answer"
    assert second.runtime_resume_token == row.runtime_resume_token  # the same ACP session


async def test_restart_resumes_through_session_load_and_a_bogus_id_recovers_once(
        open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_acp_app()
    model_server.enqueue(text("I will remember kumquat."), text("The word was kumquat."), text("fresh start"))
    first = await app.turn("remember the word kumquat")
    token = first.runtime_resume_token
    assert first.status == "success" and token
    await app.core.stop()
    assert app.driver.alive_pids() == []

    app = await open_acp_app()
    second = await app.turn("what was the word?")
    assert second.status == "success" and row_text(second) == "The word was kumquat."
    assert second.runtime_resume_token == token
    history = model_server.last_model_request().all_text()
    assert "remember the word kumquat" in history and "I will remember kumquat." in history
    assert not second.metadata.get(HISTORY_RESET_METADATA_KEY)
    database = app.core.paths.database_file
    await app.core.stop()

    with sqlite3.connect(database) as db:
        db.execute("UPDATE agent_session_message SET runtime_resume_token = ? WHERE id = ?", (BOGUS_TOKEN, second.id))
    app = await open_acp_app()
    third = await app.turn("after the corruption")
    assert third.status == "success", third
    assert [c.recovered_from for c in app.driver.connections] == [BOGUS_TOKEN]
    assert third.runtime_resume_token not in (BOGUS_TOKEN, token)
    assert third.metadata.get(HISTORY_RESET_METADATA_KEY) is True  # "history not restored"
    assert "remember the word kumquat" not in model_server.last_model_request().all_text()


async def test_idle_close_and_core_stop_leave_no_agent_process(open_acp_app: OpenApp,
                                                               model_server: ScriptedModelServer) -> None:
    app = await open_acp_app()
    app.core.agent_runtime.idle_window_s = 0.1
    model_server.enqueue(text("done"))
    assert (await app.turn("one turn, then idle")).status == "success"
    await until(lambda: app.driver.alive_pids() == [], limit=TURN_LIMIT_S)  # closed idle, no prewarm
    app.core.agent_runtime.idle_window_s = 60.0
    model_server.enqueue(HangReply(text_before="streaming at stop"))
    result = await app.send("a turn still streaming at stop")
    await until(lambda: app.subscriber.text_for(result.placeholder_ids[0]), limit=TURN_LIMIT_S)
    (pid,) = app.driver.alive_pids()
    await app.core.stop()
    assert app.driver.alive_pids() == []
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    with sqlite3.connect(app.core.paths.database_file) as db:
        (status,) = db.execute("SELECT status FROM agent_session_message WHERE id = ?",
                               (result.placeholder_ids[0],)).fetchone()
    assert status == "paused"


async def test_the_provider_key_never_reaches_the_agent_or_what_it_runs(open_acp_app: OpenApp,
                                                                       model_server: ScriptedModelServer) -> None:
    """The agent and its Claude Code CLI talk to Cherry's key relay with a token; only the
    relay's request to the provider carries the key (core/net/key_relay.py)."""
    secret = f"sk-ant-{uuid.uuid4().hex}"
    app = await open_acp_app(extra_env={"ANTHROPIC_API_KEY": secret})
    model_server.enqueue(text("keyed"))
    assert (await app.turn("hello")).status == "success"
    requests = model_server.message_requests()
    assert requests and {r.key_sha256 for r in requests} == {hashlib.sha256(secret.encode()).hexdigest()}
    (pid,) = app.driver.alive_pids()
    agent = psutil.Process(pid)
    tree = [agent, *agent.children(recursive=True)]
    assert any("claude" in " ".join(p.cmdline()) for p in tree[1:])  # the agent's CLI is among them
    for process in tree:
        assert secret.encode() not in Path(f"/proc/{process.pid}/environ").read_bytes()
        assert secret not in " ".join(process.cmdline())
    assert TOKEN_PREFIX.encode() in Path(f"/proc/{tree[-1].pid}/environ").read_bytes()  # what it got instead


async def test_the_key_relay_token_is_worth_nothing_once_the_connection_closed(
        open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    """What a tool could read from the agent's CLI (the relay's URL and token) reaches the model
    while the connection lives and nothing once the session's runtime closed."""
    app = await open_acp_app(extra_env={"ANTHROPIC_API_KEY": f"sk-ant-{uuid.uuid4().hex}"})
    model_server.enqueue(text("keyed"))
    assert (await app.turn("hello")).status == "success"
    (pid,) = app.driver.alive_pids()
    cli = psutil.Process(pid).children(recursive=True)[-1]
    environ = dict(entry.split("=", 1) for entry in
                   Path(f"/proc/{cli.pid}/environ").read_text().split("\0") if "=" in entry)
    base_url = environ["ANTHROPIC_BASE_URL"].rstrip("/")
    match = re.search(re.escape(TOKEN_PREFIX) + r"[A-Za-z0-9_-]+", "\n".join(environ.values()))
    assert match is not None and base_url.startswith("http://127.0.0.1:")
    request = {"model": "claude-sonnet-4-5", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}
    model_server.enqueue(text("a tool's own request"))
    async with httpx.AsyncClient(timeout=10) as client:
        live = await client.post(f"{base_url}/v1/messages", json=request, headers={"x-api-key": match.group()})
        assert live.status_code == 200  # the token works while the connection lives
        assert await app.core.agent_runtime.close_session(app.session_id)
        await until(lambda: app.driver.alive_pids() == [], limit=TURN_LIMIT_S)
        try:
            after = await client.post(f"{base_url}/v1/messages", json=request, headers={"x-api-key": match.group()})
        except httpx.TransportError:
            return  # the relay is gone with its connection
        assert after.status_code in (401, 503), after.text
