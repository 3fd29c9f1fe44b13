"""`ClaudeCodeRuntimeDriver` driven directly (connect, send, iterate events): real CLI,
scripted model server."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.core.ai.runtime.events import HISTORY_RESET_METADATA_KEY
from cherry_desktop.core.ai.runtime.prompt import BLOCK_LANGUAGE
from cherry_desktop.core.ai.runtime.types import (
    STEER_REMINDER_OPEN,
    ApprovalDecision,
    ReconcileInput,
    RuntimeConnectInput,
    RuntimeRedirectInput,
)
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.demo import HangReply, ScriptedModelServer, http_error, slow_text, text, tool_use
from tests.integration.claude_driver_helpers import EventReader, Harness, chunk_types, send_text, text_of

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


@pytest.fixture
def harness(model_server: ScriptedModelServer, tmp_path: Path, workspace: Path) -> Harness:
    return Harness(model_server, tmp_path, workspace)


@pytest.fixture
async def driver() -> AsyncIterator[ClaudeCodeRuntimeDriver]:
    drv = ClaudeCodeRuntimeDriver()
    try:
        yield drv
    finally:
        await drv.shutdown()


async def test_fresh_turn_with_tool(driver: ClaudeCodeRuntimeDriver, harness: Harness, workspace: Path) -> None:
    target = workspace / "hello.txt"
    harness.server.enqueue(
        tool_use("Write", {"file_path": str(target), "content": "hi\n"}, preamble="Writing it."),
        text("Done writing."),
    )
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "write hello.txt")
    events = await reader.turn()

    assert target.read_text() == "hi\n"
    assert events[-1].type == "turn-complete"
    types = chunk_types(events)
    assert types.index("tool-input-start") < types.index("tool-input-available") < types.index("tool-output-available")
    assert text_of(events) == "Writing it.Done writing."
    output = next(e.chunk for e in events if e.type == "chunk" and e.chunk.type == "tool-output-available")
    assert output.duration_ms is not None
    usages = [e for e in events if e.type == "usage"]
    assert len(usages) == 2
    assert all(u.time_first_token_ms is not None and u.time_completion_ms is not None for u in usages)
    tokens = [e.token for e in events if e.type == "resume-token"]
    assert tokens
    assert len(set(tokens)) == 1
    assert any(e.type == "context-usage" for e in events)
    metadata = [e.chunk for e in events if e.type == "chunk" and e.chunk.type == "message-metadata"]
    assert metadata[-1].message_metadata["usage"]["output_tokens"] > 0
    first = harness.server.requests_for_model_turns()[0]
    assert BLOCK_LANGUAGE in first.system_text  # the materialized prompt reached the model


async def test_two_turns_on_one_connection(driver: ClaudeCodeRuntimeDriver, harness: Harness) -> None:
    harness.server.enqueue(text("first answer"), text("second answer"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "one")
    assert text_of(await reader.turn()) == "first answer"
    pids = driver.process_manager.alive_pids()
    await send_text(connection, "two")
    assert text_of(await reader.turn()) == "second answer"
    assert driver.process_manager.alive_pids() == pids  # same CLI process, no respawn
    history = harness.server.last_model_request().all_text()
    assert "one" in history
    assert "first answer" in history


async def test_new_connection_resumes_history(driver: ClaudeCodeRuntimeDriver, harness: Harness) -> None:
    harness.server.enqueue(text("remembered answer"), text("after restart"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "remember the word kumquat")
    events = await reader.turn()
    token = [e.token for e in events if e.type == "resume-token"][-1]
    await connection.close()

    # As after an app restart: no explicit token, the newest persisted one is used.
    harness.last_token[0] = token
    resumed = await driver.connect(harness.connect_input())
    reader = EventReader(resumed)
    await send_text(resumed, "what was the word?")
    assert text_of(await reader.turn()) == "after restart"
    sent = harness.server.last_model_request().all_text()
    assert "kumquat" in sent
    assert "remembered answer" in sent


async def test_bogus_resume_token_recovers(driver: ClaudeCodeRuntimeDriver, harness: Harness) -> None:
    harness.server.enqueue(text("fresh start"))
    bogus = "00000000-0000-4000-8000-000000000000"
    connection = await driver.connect(harness.connect_input(resume_token=bogus))
    reader = EventReader(connection)
    await send_text(connection, "hello again")
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    tokens = {e.token for e in events if e.type == "resume-token"}
    assert tokens
    assert bogus not in tokens
    assert getattr(connection, "recovered_from", None) == bogus


async def test_steer_injected_mid_turn(driver: ClaudeCodeRuntimeDriver, harness: Harness, workspace: Path) -> None:
    harness.server.enqueue(
        tool_use(
            "Bash",
            {"command": "echo steered", "description": "echo"},
            preamble="Working on it slowly before a tool call, so there is time to steer.",
            delay_s=0.03,
        ),
        text("Post-steer answer."),
    )
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "do the work")
    await reader.read_until(lambda e: e.type == "chunk" and e.chunk.type == "text-delta")
    steer = UIMessage.user_text("Please also mention penguins")
    assert await connection.redirect(RuntimeRedirectInput(message=steer))
    events = await reader.turn()

    kinds = [e.type if e.type != "chunk" else e.chunk.type for e in events]
    boundary = kinds.index("steer-boundary")
    assert events[boundary].message_ids == (steer.id,)
    assert "tool-output-available" in kinds[:boundary]  # the tool belongs to the pre-steer row
    assert kinds[boundary + 1] == "start-step"  # just before the post-steer assistant message
    assert "Post-steer answer." in text_of(events[boundary:])
    assert "steer-undelivered" not in kinds
    last = harness.server.last_model_request().all_text()
    assert "Please also mention penguins" in last
    # The CLI nests hook context in its own reminder; the steer wording must reach the model.
    assert STEER_REMINDER_OPEN.split("\n")[1] in last


async def test_the_demo_model_acknowledges_a_steer_the_cli_delivered(driver: ClaudeCodeRuntimeDriver, harness: Harness,
                                                                     workspace: Path) -> None:
    """The demo's first answer invites a steer; the real CLI delivers it after the Write's tool
    result (PreToolUse additionalContext, HTML-escaped in its own reminder) and the demo quotes
    exactly what the user typed."""
    from cherry_desktop.demo.script import STEER_INVITE, DemoScript

    harness.server.default = DemoScript(workspace, delay_s=0.01, first_turn_s=2.0)
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "show me the demo")
    await reader.read_until(lambda e: e.type == "chunk" and e.chunk.type == "text-delta")
    assert await connection.redirect(RuntimeRedirectInput(message=UIMessage.user_text("Please mention <penguins>")))
    events = await reader.turn()
    said = text_of(events)
    assert STEER_INVITE.strip().split(":")[0] in said  # "Try steering now"
    assert "You steered me mid-turn with: “Please mention <penguins>”." in said
    assert "steer-undelivered" not in [e.type for e in events]
    # The next turn does not quote the old steer again.
    await send_text(connection, "again")
    later = text_of(await reader.turn())
    assert "Done: the note is in your workspace." in later and "steered" not in later


async def test_steer_undelivered_when_turn_ends_first(driver: ClaudeCodeRuntimeDriver, harness: Harness) -> None:
    harness.server.enqueue(slow_text("No tools in this answer at all.", delay_s=0.03, chunk_size=4))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "answer without tools")
    await reader.read_until(lambda e: e.type == "chunk" and e.chunk.type == "text-delta")
    steer = UIMessage.user_text("late steer")
    assert await connection.redirect(RuntimeRedirectInput(message=steer))
    events = await reader.turn()
    kinds = [e.type for e in events]
    assert kinds.index("steer-undelivered") < kinds.index("turn-complete")
    assert next(e for e in events if e.type == "steer-undelivered").message_id == steer.id
    # Not a live turn any more: a redirect is refused, the host queues it.
    assert not await connection.redirect(RuntimeRedirectInput(message=UIMessage.user_text("x")))


async def test_interrupt_ends_turn_as_aborted(driver: ClaudeCodeRuntimeDriver, harness: Harness) -> None:
    harness.server.enqueue(HangReply(text_before="partial "), text("after stop"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "hang")
    await reader.read_until(lambda e: e.type == "chunk" and e.chunk.type == "text-delta")
    await connection.interrupt()
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert events[-1].finish_reason == "aborted"
    assert connection.is_alive
    await send_text(connection, "again")
    assert text_of(await reader.turn()) == "after stop"


@pytest.mark.parametrize("status", [500, 529, 401])
async def test_api_error_keeps_resume_token(driver: ClaudeCodeRuntimeDriver, harness: Harness, status: int) -> None:
    harness.server.enqueue(http_error(status, f"scripted {status}"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "fail")
    events = await reader.turn()
    error = events[-1]
    assert error.type == "error"
    assert error.status == status
    assert any(e.type == "resume-token" for e in events)
    assert not connection.is_alive  # a failed result tears the connection down


@pytest.mark.parametrize("approve", [True, False])
async def test_tool_approval(driver: ClaudeCodeRuntimeDriver, harness: Harness, workspace: Path, approve: bool) -> None:
    target = workspace / "approved.txt"
    harness.server.enqueue(tool_use("Write", {"file_path": str(target), "content": "x"}), text("finished"))
    connection = await driver.connect(harness.connect_input(permission_mode="default"))
    reader = EventReader(connection)
    await send_text(connection, "write it")
    before = await reader.read_until(lambda e: e.type == "tool-approval-request")
    request = before[-1]
    assert request.tool_name == "Write"
    decision = ApprovalDecision(approved=approve, reason=None if approve else "not today")
    assert await connection.respond_tool_approval(request.approval_id, decision)
    events = await reader.turn()
    kinds = chunk_types(events)
    if approve:
        assert target.exists()
        assert "tool-output-available" in kinds
    else:
        assert not target.exists()
        assert "tool-output-denied" in kinds
        assert "tool-output-error" not in kinds
        assert "not today" in harness.server.last_model_request().all_text()
    assert events[-1].type == "turn-complete"


async def test_always_allow_a_tool_for_the_rest_of_the_session(driver: ClaudeCodeRuntimeDriver, harness: Harness,
                                                               workspace: Path) -> None:
    first, second, other = workspace / "one.txt", workspace / "two.txt", workspace / "three.txt"
    harness.server.enqueue(tool_use("Write", {"file_path": str(first), "content": "1"}), text("one"),
                           tool_use("Write", {"file_path": str(second), "content": "2"}), text("two"))
    connection = await driver.connect(harness.connect_input(permission_mode="default"))
    reader = EventReader(connection)
    await send_text(connection, "write one")
    request = (await reader.read_until(lambda e: e.type == "tool-approval-request"))[-1]
    assert await connection.respond_tool_approval(request.approval_id,
                                                  ApprovalDecision(approved=True, always_allow=True))
    await reader.turn()
    await send_text(connection, "write two")  # the same tool again: not asked
    events = await reader.turn()
    assert first.exists() and second.exists()
    assert not any(e.type == "tool-approval-request" for e in events)
    # Another tool still asks.
    harness.server.enqueue(tool_use("Bash", {"command": f"touch {other}"}), text("three"))
    await send_text(connection, "touch three")
    request = (await reader.read_until(lambda e: e.type == "tool-approval-request"))[-1]
    assert request.tool_name == "Bash"
    assert await connection.respond_tool_approval(request.approval_id, ApprovalDecision(approved=False))
    await reader.turn()
    assert not other.exists()


async def test_reconcile_permission_mode_and_disabled_tools(
    driver: ClaudeCodeRuntimeDriver, harness: Harness, workspace: Path
) -> None:
    harness.server.enqueue(text("ok"), tool_use("Bash", {"command": "touch nope", "description": "t"}), text("done"))
    connection = await driver.connect(harness.connect_input(permission_mode="default"))
    reader = EventReader(connection)
    await send_text(connection, "warm up")
    await reader.turn()
    same = ReconcileInput(permission_mode="default", disabled_tools=frozenset(), model_id=None)
    assert await connection.reconcile(same) == "current"
    bypass = ReconcileInput(permission_mode="bypassPermissions", disabled_tools=frozenset(), model_id=None)
    assert await connection.reconcile(bypass) == "rebuild"  # the CLI only allows it from launch
    changed = ReconcileInput(permission_mode="acceptEdits", disabled_tools=frozenset({"Bash"}), model_id=None)
    assert await connection.reconcile(changed) == "patched"
    assert getattr(connection, "permission_mode", None) == "acceptEdits"
    await send_text(connection, "run bash")
    events = await reader.turn()
    assert not (workspace / "nope").exists()  # Bash disabled in place: denied before any prompt
    assert not any(e.type == "tool-approval-request" for e in events)
    assert any(e.type == "chunk" and e.chunk.type in ("tool-output-error", "tool-output-denied") for e in events)
    assert events[-1].type == "turn-complete"


async def test_no_cli_process_alive_after_shutdown(harness: Harness) -> None:
    driver = ClaudeCodeRuntimeDriver()
    harness.server.enqueue(text("a"), text("b"))
    first = await driver.connect(harness.connect_input())
    reader = EventReader(first)
    await send_text(first, "x")
    await reader.turn()
    second = await driver.connect(harness.connect_input())
    pids = driver.process_manager.alive_pids()
    assert len(pids) == 2
    await driver.shutdown()
    await asyncio.sleep(0.3)
    assert not first.is_alive
    assert not second.is_alive
    alive = [pid for pid in pids if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    assert alive == []


async def test_duplicate_tool_use_ids_rebuild_and_replay(driver: ClaudeCodeRuntimeDriver, harness: Harness) -> None:
    harness.server.enqueue(text("first"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "start")
    old_token = [e.token for e in await reader.turn() if e.type == "resume-token"][-1]

    harness.server.enqueue(
        http_error(400, "messages.3.content.1: `tool_use` ids must be unique"), text("replayed answer")
    )
    await send_text(connection, "the pending input")
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert text_of(events) == "replayed answer"
    assert not any(e.type == "error" for e in events)
    tokens = [e.token for e in events if e.type == "resume-token"]
    assert tokens[-1] != old_token  # the replay runs in a new SDK session; its token wins
    replay = harness.server.last_model_request()
    assert "the pending input" in replay.last_user_text()
    assert [m["role"] for m in replay.messages] == ["user"]  # history was not resumed


async def test_cli_stderr_goes_to_the_debug_log_prewarmed_or_not(harness: Harness,
                                                                 capfd: pytest.CaptureFixture[str],
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """What a CLI writes to its stderr (here its note on a model it does not know) reaches the
    debug log, never the app's own stderr: for a connected CLI and for a prewarmed one."""
    caplog.set_level(logging.DEBUG, logger="cherry_desktop.core.ai.runtime.claude_code")

    def unknown_model_input(resume_token: str | None = None) -> RuntimeConnectInput:
        connect_input = harness.connect_input(resume_token=resume_token)
        connect_input.context.model_id = "anthropic:claude-unknown-to-the-cli"
        return connect_input

    driver = ClaudeCodeRuntimeDriver()
    try:
        harness.server.enqueue(text("connected"), text("prewarmed"))
        connection = await driver.connect(unknown_model_input())
        await send_text(connection, "hi")
        token = [e.token for e in await EventReader(connection).turn() if e.type == "resume-token"][-1]
        await connection.close()
        logged_connected = [r.getMessage() for r in caplog.records if r.getMessage().startswith("claude cli:")]

        await driver.on_session_idle(unknown_model_input(token))
        assert driver.warm_queries.has("session-1")
        resumed = await driver.connect(unknown_model_input(token))
        assert not driver.warm_queries.has("session-1")
        await send_text(resumed, "again")
        assert text_of(await EventReader(resumed).turn()) == "prewarmed"
        await resumed.close()
    finally:
        await driver.shutdown()
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("claude cli:")]
    assert logged_connected and len(logged) > len(logged_connected), logged
    assert "claude-unknown-to-the-cli" not in capfd.readouterr().err


async def test_prewarmed_query_is_consumed_once(harness: Harness) -> None:
    driver = ClaudeCodeRuntimeDriver()
    try:
        harness.server.enqueue(text("before idle"), text("warm answer"))
        connection = await driver.connect(harness.connect_input())
        reader = EventReader(connection)
        await send_text(connection, "hi")
        token = [e.token for e in await reader.turn() if e.type == "resume-token"][-1]
        await connection.close()

        idle_input = harness.connect_input(resume_token=token)
        await driver.on_session_idle(idle_input)
        assert driver.warm_queries.has("session-1")
        warm_pids = driver.process_manager.alive_pids()
        assert len(warm_pids) == 1

        resumed = await driver.connect(harness.connect_input(resume_token=token))
        assert not driver.warm_queries.has("session-1")
        assert driver.process_manager.alive_pids() == warm_pids  # the warm CLI was adopted
        reader = EventReader(resumed)
        await send_text(resumed, "again")
        assert text_of(await reader.turn()) == "warm answer"
        assert "before idle" in harness.server.last_model_request().all_text()

        # A changed signature (permission mode) discards a warm query instead of using it.
        await resumed.close()
        await driver.on_session_idle(idle_input)
        other = await driver.connect(harness.connect_input(resume_token=token, permission_mode="acceptEdits"))
        assert getattr(other, "permission_mode", None) == "acceptEdits"
        assert not driver.warm_queries.has("session-1")
    finally:
        await driver.shutdown()


@pytest.mark.parametrize("token", ["not-a-uuid", "../../etc/passwd", "00000000-0000-4000-8000-00000000000G"])
async def test_malformed_resume_token_is_never_used_and_the_turn_runs(
    driver: ClaudeCodeRuntimeDriver, harness: Harness, token: str
) -> None:
    harness.server.enqueue(text("fresh start"))
    connection = await driver.connect(harness.connect_input(resume_token=token))
    reader = EventReader(connection)
    await send_text(connection, "hello again")
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert text_of(events) == "fresh start"
    assert getattr(connection, "recovered_from", None) == token
    assert not any(token in " ".join(psutil.Process(pid).cmdline())
                   for pid in driver.process_manager.alive_pids())
    metadata = [e.chunk.message_metadata for e in events if e.type == "chunk" and e.chunk.type == "message-metadata"]
    assert {HISTORY_RESET_METADATA_KEY: True} in metadata  # the window tells the user


async def test_resume_whose_history_file_is_gone_recovers_once(
    driver: ClaudeCodeRuntimeDriver, harness: Harness
) -> None:
    harness.server.enqueue(text("first"), text("after the reset"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "remember this")
    events = await reader.turn()
    token = next(e.token for e in events if e.type == "resume-token")
    await connection.close()
    removed = list((harness.tmp_path / "cli-home").rglob(f"{token}.jsonl"))
    assert removed, "the CLI kept the conversation in its home"
    for path in removed:
        path.unlink()
    again = await driver.connect(harness.connect_input(resume_token=token))
    reader = EventReader(again)
    await send_text(again, "hello again")
    events = await reader.turn()
    assert text_of(events) == "after the reset"
    assert getattr(again, "recovered_from", None) == token
    assert token not in {e.token for e in events if e.type == "resume-token"}


FAKE_KEY = "sk-ant-cherry-canary-7f3a9c1e5b2d4f6a8091"
KEY_PROBE = (
    "printenv; echo ----; tr '\\0' '\\n' < /proc/$PPID/environ; echo ----; "
    # The descriptor the CLI read its key from, reopened through /proc: a socket cannot be.
    "fd=$(tr '\\0' '\\n' < /proc/$PPID/environ | sed -n 's/^CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR=//p'); "
    "echo fd=$fd; timeout 2 cat /proc/$PPID/fd/$fd; echo end-of-probe"
)


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="an OS feature: the probe reads the CLI's environment from Linux's /proc")
async def test_bash_tool_cannot_read_the_provider_key(driver: ClaudeCodeRuntimeDriver,
                                                     model_server: ScriptedModelServer, tmp_path: Path,
                                                     workspace: Path) -> None:
    """The provider's key is not readable by the tools the CLI runs (printenv, /proc), yet
    reaches the model: a key handed over as the app does (`get_api_key`, the keyring's)."""
    harness = Harness(model_server, tmp_path, workspace)
    base = harness.connect_input()
    # As the app: the key comes from the keyring (get_api_key), the provider's env holds none.
    env = {k: v for k, v in base.extra_env.items() if k != "ANTHROPIC_API_KEY"}
    connect_input = dataclasses.replace(base, extra_env=env, get_api_key=lambda: FAKE_KEY)
    model_server.enqueue(tool_use("Bash", {"command": KEY_PROBE, "description": "env"}), text("done"))

    connection = await driver.connect(connect_input)
    reader = EventReader(connection)
    await send_text(connection, "show me the environment")
    events = await reader.turn(timeout=30)
    assert events[-1].type == "turn-complete"

    request = model_server.last_model_request()
    output = request.last_user_text()
    assert "end-of-probe" in output  # the probe ran and its output came back
    printed, cli_environ, _ = output.split("----", 2)
    assert "ANTHROPIC_BASE_URL" in printed and "ANTHROPIC_BASE_URL" in cli_environ  # env was listed
    # The key still reached the server on every request, yet no tool saw it.
    fingerprint = hashlib.sha256(FAKE_KEY.encode()).hexdigest()
    assert {r.key_sha256 for r in model_server.requests_for_model_turns()} == {fingerprint}
    assert FAKE_KEY not in request.all_text()
    assert FAKE_KEY not in output
