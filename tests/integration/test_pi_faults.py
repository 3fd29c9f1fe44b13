"""pi under faults, through the whole app core (real pi, real SQLite, the scripted server)."""

from __future__ import annotations

import asyncio
import signal

import psutil
import pytest

from cherry_desktop.core.ai.runtime.types import CUT_SHORT_METADATA_KEY, CutShortReason
from cherry_desktop.demo import ScriptedModelServer, slow_text, text
from tests.integration.app_core import TURN_LIMIT_S, OpenApp, row_text
from tests.unit.agent_session.harness import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


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
