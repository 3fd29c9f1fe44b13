"""A crash during a session's very first turn still resumes its conversation: the resume token
is written to the turn's row as soon as the runtime reports it, not only at the turn's end.

The first app run is a real child process (the whole core and its CLI against the scripted
server) that is SIGKILLed mid-turn; the next run recovers its rows and resumes the CLI
conversation with that token."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from pathlib import Path

import pytest

from cherry_desktop.demo import HangReply, ScriptedModelServer, text
from tests.integration.app_core import TURN_LIMIT_S, OpenApp, row_text
from tests.integration.test_claude_code_app_core import cli_cmdline
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

REPO = Path(__file__).resolve().parents[2]

FIRST_RUN = textwrap.dedent("""
    import asyncio, os, signal, sys
    from pathlib import Path
    from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.messages import TextPart
    from cherry_desktop.core.storage.paths import build_path_registry
    from cherry_desktop.core.state.topics import session_topic_id
    from cherry_desktop.demo.bootstrap import ensure_demo_records
    from tests.unit.agent_session.harness import Subscriber

    async def main(data: str, base_url: str) -> None:
        core = await start_core(build_path_registry(Path(data)))
        root = core.paths.get("feature.agents.workspaces")
        _, session_id, _ = ensure_demo_records(core.repos, root, base_url)
        window = Subscriber()
        request = AiStreamOpenRequest(topic_id=session_topic_id(session_id),
                                      user_message_parts=[TextPart(text="remember the word kumquat", state="done")])
        result = await dispatch_stream_request(core.stream_manager, window, request)
        assistant_id = result.placeholder_ids[0]
        while True:  # mid-turn: the text streamed, the turn still runs (the server hangs)
            row = core.repos.session_messages.get_message(assistant_id)
            if row.status == "pending" and row.runtime_resume_token and window.text_for(assistant_id):
                break
            await asyncio.sleep(0.01)
        print("CRASHING", assistant_id, row.runtime_resume_token, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

    asyncio.run(main(sys.argv[1], sys.argv[2]))
""")


async def test_a_crash_during_the_first_turn_still_resumes(
        open_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path) -> None:
    model_server.enqueue(HangReply(text_before="I will remember kumquat."), text("The word was kumquat."))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", FIRST_RUN, str(tmp_path / "data"), model_server.base_url,
        stdout=asyncio.subprocess.PIPE, cwd=str(REPO), env=env)
    try:
        out, _ = await asyncio.wait_for(child.communicate(), TURN_LIMIT_S * 2)
    finally:
        if child.returncode is None:  # it never got to crash: do not leave it running
            child.kill()
            await child.wait()
    assert child.returncode == -9, out
    _, assistant_id, token = out.decode().split()[-3:]

    app = await open_app()
    # Boot recovery: the orphaned row is an interrupted error that keeps the token.
    row = app.row(assistant_id)
    assert row.status == "error" and row.runtime_resume_token == token
    assert app.core.repos.session_messages.get_last_runtime_resume_token(app.session_id) == token
    result = await app.send("what was the word?")
    await until(lambda: app.driver.process_manager.alive_pids(), limit=TURN_LIMIT_S)
    assert f"--resume={token}" in cli_cmdline(app)
    second = await app.finished(result.placeholder_ids[0])
    assert second.status == "success" and row_text(second) == "The word was kumquat."
    assert "remember the word kumquat" in model_server.last_model_request().all_text()
