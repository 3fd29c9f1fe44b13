"""pi under faults, through the whole app core (real pi, real SQLite, the scripted server): pi
killed mid-turn, a session deleted or a model / provider removed around a turn, a message or
a Stop racing the turn's end, Stop while an approval card waits, the API key never written to
any file, and no pi left when the core stops during an idle prewarm."""

from __future__ import annotations

import asyncio
import hashlib
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest

from cherry_desktop.core.ai.agent_session.errors import AgentSessionValidationError
from cherry_desktop.core.ai.runtime.events import CUT_SHORT_METADATA_KEY, CutShortReason
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.storage.credentials import provider_key_name
from cherry_desktop.demo import HangReply, ScriptedModelServer, slow_text, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_PROVIDER_ID, DEMO_UNIQUE_MODEL_ID
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


def _gone(pid: int) -> bool:
    return not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


async def test_pi_sigkilled_mid_turn_keeps_partial_and_token_then_resumes(
        open_pi_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    model_server.enqueue(text("I will remember kumquat."), slow_text("Once upon a time " * 100, delay_s=0.03),
                         text("The word was kumquat."))
    first = await app.turn("remember the word kumquat")
    token = first.runtime_resume_token
    assert first.status == "success" and token

    assistant_id = await app.start_streaming("tell me a story")
    (pid,) = app.driver.alive_pids()
    psutil.Process(pid).send_signal(signal.SIGKILL)
    row = await app.finished(assistant_id)
    assert row.status != "pending"
    assert row_text(row).startswith("Once")
    assert len(row_text(row)) < len("Once upon a time " * 100)
    assert row.metadata.get(CUT_SHORT_METADATA_KEY) == CutShortReason.RUNTIME_EXITED
    assert row.runtime_resume_token == token
    assert not any(getattr(p, "state", None) == "streaming" for p in row.parts)

    third = await app.turn("what was the word?")
    assert (third.status, row_text(third)) == ("success", "The word was kumquat.")
    assert CUT_SHORT_METADATA_KEY not in third.metadata
    assert third.runtime_resume_token == token  # the same pi session, resumed in a new pi
    assert pid not in app.driver.alive_pids()
    history = model_server.last_model_request().all_text()
    assert "remember the word kumquat" in history and "I will remember kumquat." in history
    assert "tell me a story" in history


async def test_deleting_a_pi_session_mid_turn_ends_its_pi(open_pi_app: OpenApp,
                                                         model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    model_server.enqueue(HangReply(text_before="working on it"))
    result = await app.send("a long task")
    await until(lambda: app.text_streamed(result.placeholder_ids[0]) == "working on it", limit=TURN_LIMIT_S)
    (pid,) = app.driver.alive_pids()
    await app.core.agent_runtime.delete_session(app.session_id)
    assert app.driver.alive_pids() == [] and not app.driver.connections
    assert _gone(pid)
    assert app.core.repos.sessions.find_session(app.session_id) is None
    assert not app.driver.has_warm(app.session_id)
    await until(lambda: not app.core.stream_manager.has_live_stream(app.topic), limit=TURN_LIMIT_S)
    await asyncio.sleep(0.3)
    assert app.driver.alive_pids() == []  # nothing respawned (no prewarm of a deleted session)


@pytest.mark.parametrize("gone", ["model", "provider"])
async def test_a_vanished_model_or_provider_is_refused_before_spawn(
        open_pi_app: OpenApp, model_server: ScriptedModelServer, gone: str) -> None:
    app = await open_pi_app()
    model_server.enqueue(text("first"))
    assert (await app.turn("first")).status == "success"
    await app.core.stop()
    app = await open_pi_app()  # a restart: no pi alive
    rows_before = len(app.rows())
    if gone == "model":
        app.core.repos.providers.delete_model(DEMO_UNIQUE_MODEL_ID)
    else:
        app.core.repos.providers.delete_provider(DEMO_PROVIDER_ID)
    with pytest.raises(AgentSessionValidationError) as info:
        await app.send("after the removal")
    assert info.value.code == ("model-not-found" if gone == "model" else "provider-not-found")
    assert app.driver.alive_pids() == [] and not app.driver.connections
    rows = app.rows()
    assert len(rows) == rows_before and all(r.status != "pending" for r in rows)
    assert len(model_server.requests_for_model_turns()) == 1


async def test_model_deleted_mid_turn_the_turn_ends_and_the_next_is_refused(
        open_pi_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    model_server.enqueue(slow_text("A slow answer in pieces. " * 4, delay_s=0.03))
    assistant_id = await app.start_streaming("go")
    app.core.repos.providers.delete_model(DEMO_UNIQUE_MODEL_ID)
    row = await app.finished(assistant_id)
    assert row.status == "success" and row_text(row) == "A slow answer in pieces. " * 4
    with pytest.raises(AgentSessionValidationError) as info:
        await app.send("next")
    assert info.value.code == "model-not-found"
    rows = app.rows()
    assert [r.role for r in rows] == ["user", "assistant"] and all(r.status != "pending" for r in rows)


async def test_stop_while_an_approval_card_waits_never_runs_the_tool(
        open_pi_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    target = app.workspace / "ran.txt"
    model_server.enqueue(tool_use("write", {"path": str(target), "content": "x"}, preamble="Writing."),
                         text("should not be reached"), text("after the stop"))
    result = await app.send("write it")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    app.core.stream_manager.abort(app.topic, "user")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "paused"
    assert not await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                                  ApprovalDecision(approved=True))
    await asyncio.sleep(0.3)
    assert not target.exists()
    second = await app.turn("and now?")
    assert second.status == "success"
    assert not target.exists()
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)


async def test_the_api_key_is_in_no_file_after_a_turn(open_pi_app: OpenApp, model_server: ScriptedModelServer,
                                                     tmp_path: Path) -> None:
    secret = "sk-ant-secret-never-on-disk-5d1e9"
    app = await open_pi_app()
    app.core.credentials.set(provider_key_name(DEMO_PROVIDER_ID), secret)
    target = app.workspace / "note.txt"
    model_server.enqueue(tool_use("read", {"path": str(target)}, preamble="Reading."), text("Done."))
    target.write_text("hello")
    result = await app.send("read the note")
    await until(lambda: app.approval_ids() or app.row(result.placeholder_ids[0]).status != "pending",
                limit=TURN_LIMIT_S)
    if app.approval_ids():
        await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                           ApprovalDecision(approved=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success"
    # The key was really in use (the model requests carried it), never in pi's environment ...
    assert model_server.last_model_request().key_sha256 == hashlib.sha256(secret.encode()).hexdigest()
    (pid,) = app.driver.alive_pids()
    assert not any(secret in value for value in psutil.Process(pid).environ().values())

    def leaks() -> list[Path]:
        found = []
        for path in tmp_path.rglob("*"):
            if path.is_file() and not path.is_symlink():
                try:
                    if secret.encode() in path.read_bytes():
                        found.append(path)
                except OSError:
                    pass
        return found

    # ... and is in no file, while the connection (and its pi home) is alive and after it closed.
    assert app.driver.connections
    assert leaks() == []
    await app.core.stop()
    assert leaks() == []


def _reached(app: App[Any], assistant_id: str, at: str, terminals_before: int) -> Callable[[], bool]:
    """Whether the window saw `at` (a chunk type of the answer, or "terminal": its end)."""
    if at == "terminal":
        return lambda: len(app.subscriber.terminals) > terminals_before
    return lambda: any(a == assistant_id and c.type == at for a, c in app.subscriber.chunks)


@pytest.mark.parametrize("at", ["text-end", "finish-step", "terminal"])
async def test_a_message_sent_as_the_turn_settles_is_steered_or_queued_never_dropped(
        open_pi_app: OpenApp, model_server: ScriptedModelServer, at: str) -> None:
    app = await open_pi_app()
    model_server.default = text("default answer")
    sent: list[str] = []
    for i in range(4):
        model_server.enqueue(slow_text(f"answer {i} in pieces", delay_s=0.01, chunk_size=3))
        result = await app.send(f"question {i}")
        await until(_reached(app, result.placeholder_ids[0], at, len(app.subscriber.terminals)), limit=TURN_LIMIT_S)
        await asyncio.sleep(i * 0.002)
        follow = await app.send(f"follow-up {i}")
        sent.append(follow.user_message_id or "")
        await until(lambda: app.is_idle() and not app.core.agent_runtime.list_pending_turns(app.session_id)
                    and all(r.status != "pending" for r in app.rows()), limit=TURN_LIMIT_S)
    rows = app.rows()
    by_id = {r.id: r for r in rows}
    for i, message_id in enumerate(sent):
        assert message_id in by_id and row_text(by_id[message_id]) == f"follow-up {i}"
    # Every follow-up reached the model once (in the turn it steered, or as a turn of its own).
    requests = model_server.requests_for_model_turns()
    for i in range(4):
        assert sum(f"follow-up {i}" in r.last_user_text() for r in requests) == 1
    assert all(r.status == "success" for r in rows)
    assert sum(r.role == "assistant" for r in rows) == len(requests)
    assert len(app.driver.alive_pids()) <= 1


async def test_a_steer_sent_from_the_window_on_the_assistants_last_chunk_is_never_dropped(
        open_pi_app: OpenApp, model_server: ScriptedModelServer) -> None:
    """The window sends the moment it sees the answer's step end (pi's message_end): the steer
    races pi's agent_end; pi may take it, or end the run with it still in its queue (the
    connection reports it undelivered and retires). Either way it is answered, exactly once."""
    app = await open_pi_app()
    model_server.default = text("default answer")
    sends: list[asyncio.Task[object]] = []
    original = app.subscriber.on_chunk

    def on_chunk(chunk: object, source_model_id: object = None, anchor_message_id: str | None = None) -> None:
        original(chunk, source_model_id, anchor_message_id)  # type: ignore[arg-type]
        if getattr(chunk, "type", None) == "finish-step" and armed:
            armed.clear()
            sends.append(asyncio.ensure_future(app.send(f"racing steer {len(sends)}")))

    app.subscriber.on_chunk = on_chunk  # type: ignore[method-assign]
    rounds = 3
    armed: list[bool] = []
    for i in range(rounds):
        armed.append(True)
        model_server.enqueue(slow_text(f"answer {i}", delay_s=0.01, chunk_size=3))
        await app.send(f"question {i}")
        await until(lambda n=i: len(sends) > n, limit=TURN_LIMIT_S)  # type: ignore[misc]
        await sends[i]
        await until(lambda: app.is_idle() and not app.core.agent_runtime.list_pending_turns(app.session_id)
                    and all(r.status != "pending" for r in app.rows()), limit=TURN_LIMIT_S)
    user_texts = [row_text(r) for r in app.rows() if r.role == "user"]
    for i in range(rounds):
        assert user_texts.count(f"racing steer {i}") == 1
    requests = model_server.requests_for_model_turns()
    for i in range(rounds):
        # Answered once: one request's last user message carries it (a steer or its own turn).
        assert sum(f"racing steer {i}" in r.last_user_text() for r in requests) == 1
    rows = app.rows()
    assert all(r.status == "success" for r in rows)
    assert sum(r.role == "assistant" for r in rows) == len(requests)
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)


async def test_stop_in_the_tick_the_answer_ends_settles_and_the_next_turn_runs(
        open_pi_app: OpenApp, model_server: ScriptedModelServer) -> None:
    """Stop pressed the moment the window sees the answer's step end: it races pi's
    agent_end. The row ends success or paused (never pending), and the session goes on."""
    app = await open_pi_app()
    original = app.subscriber.on_chunk
    armed: list[bool] = []

    def on_chunk(chunk: object, source_model_id: object = None, anchor_message_id: str | None = None) -> None:
        original(chunk, source_model_id, anchor_message_id)  # type: ignore[arg-type]
        if getattr(chunk, "type", None) == "finish-step" and armed:
            armed.clear()
            app.core.stream_manager.abort(app.topic, "user")

    app.subscriber.on_chunk = on_chunk  # type: ignore[method-assign]
    for i in range(3):
        armed.append(True)
        model_server.enqueue(slow_text(f"answer {i}", delay_s=0.01, chunk_size=3))
        result = await app.send(f"question {i}")
        row = await app.finished(result.placeholder_ids[0])
        assert row.status in ("success", "paused")
        assert row_text(row) == f"answer {i}"
    model_server.enqueue(text("still here"))
    last = await app.turn("are you there?")
    assert (last.status, row_text(last)) == ("success", "still here")
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)
    assert all(r.status != "pending" for r in app.rows())


async def test_core_stop_during_the_idle_prewarm_leaves_no_pi(open_pi_app: OpenApp,
                                                             model_server: ScriptedModelServer) -> None:
    app = await open_pi_app()
    app.core.agent_runtime.idle_window_s = 0.05
    model_server.enqueue(text("done"))
    assert (await app.turn("one turn")).status == "success"
    (turn_pid,) = app.driver.alive_pids()
    # The idle close ends this pi and spawns a warm one on the token: stop the core meanwhile.
    await until(lambda: turn_pid not in app.driver.alive_pids(), limit=TURN_LIMIT_S)
    await app.core.stop()
    await asyncio.sleep(0.5)
    assert app.driver.alive_pids() == [] and not app.driver.has_warm(app.session_id)
    me = psutil.Process()
    assert [p.pid for p in me.children(recursive=True) if not _gone(p.pid)] == []
