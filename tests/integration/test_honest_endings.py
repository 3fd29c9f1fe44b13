"""Honest endings: the Claude Code CLI killed (by its pid) mid-turn after some output. The
turn keeps its partial text and settles, the row says it was cut short and why (never a plain
success), and the session stays usable: the next turn runs in a new CLI."""

from __future__ import annotations

import signal

import psutil
import pytest

from cherry_desktop.core.ai.runtime.events import CUT_SHORT_METADATA_KEY, CutShortReason
from cherry_desktop.demo import ScriptedModelServer, slow_text, text
from tests.integration.app_core import OpenApp, row_text

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


async def test_cli_killed_after_output_keeps_text_marks_row_cut_short(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_app()
    model_server.enqueue(slow_text("Once upon a time " * 100, delay_s=0.02), text("Second answer."))
    assistant_id = await app.start_streaming("tell me a story")
    (cli_pid,) = app.driver.process_manager.alive_pids()
    psutil.Process(cli_pid).send_signal(signal.SIGKILL)
    row = await app.finished(assistant_id)
    assert row_text(row).startswith("Once")
    assert row.metadata.get(CUT_SHORT_METADATA_KEY) == CutShortReason.RUNTIME_EXITED
    assert row.status != "pending"
    # The session stays usable: a new CLI answers the next turn, not marked.
    second = await app.turn("again")
    assert (second.status, row_text(second)) == ("success", "Second answer.")
    assert CUT_SHORT_METADATA_KEY not in second.metadata
    assert app.driver.process_manager.alive_pids() != [cli_pid]
