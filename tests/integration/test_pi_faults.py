"""pi under faults, through the whole app core (real pi, real SQLite, the scripted server)."""

from __future__ import annotations

import signal

import psutil
import pytest

from cherry_desktop.core.ai.runtime.types import CUT_SHORT_METADATA_KEY, CutShortReason
from cherry_desktop.demo import ScriptedModelServer, slow_text, text
from tests.integration.app_core import OpenApp, row_text

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
