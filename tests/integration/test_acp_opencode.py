"""A second ACP agent, opencode (npm `opencode-ai`, pinned), through the whole app core against
the scripted server's OpenAI-compatible endpoint: one runtime, another agent, chosen by the
agent's own setting (`config["acp_agent"]`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.messages import ToolPart
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.integration.acp_helpers import opencode_session
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


async def _opencode_app(open_app: OpenApp, model_server: ScriptedModelServer, root: Path, tmp_path: Path) -> App:
    base = await open_app()
    workspace = tmp_path / "oc-workspace"
    session_id = opencode_session(base.core, model_server.base_url, workspace)
    app = App(core=base.core, agent_type="acp", session_id=session_id, workspace=workspace)
    app.driver.install_root = root
    return app


async def test_opencode_text_turn_and_an_approved_write(open_app: OpenApp, model_server: ScriptedModelServer,
                                                        opencode_root: Path, tmp_path: Path) -> None:
    app = await _opencode_app(open_app, model_server, opencode_root, tmp_path)
    model_server.enqueue(text("Hello from opencode."))
    row = await app.turn("say hello")
    assert row.status == "success", row
    assert row_text(row) == "Hello from opencode."
    assert row.runtime_resume_token
    assert {r.json["model"] for r in model_server.requests_for_model_turns()} == {"demo-openai"}

    target = app.workspace / "note.txt"
    model_server.enqueue(tool_use("write", {"filePath": str(target), "content": "hello"}), text("Written."))
    result = await app.send("write a note")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert not target.exists()
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[-1],
                                                              ApprovalDecision(approved=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success"
    assert target.read_text() == "hello"
    tools = [p for p in row.parts if isinstance(p, ToolPart)]
    assert len(tools) == 1 and tools[0].state == "output-available"
    assert (tools[0].provider_metadata or {}).get("cherry", {}).get("transport") == "acp"
