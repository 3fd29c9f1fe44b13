"""End to end through the whole app core (`start_core` -> AiStreamManager ->
AgentSessionRuntimeService -> AcpRuntimeDriver -> the real claude-agent-acp, pinned, from npm)
against the scripted model server: rows, tool calls approved on the card, as the user sees them
in the database. The core and its helpers: `tests/integration/app_core.py`."""

from __future__ import annotations

import pytest

from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.messages import ToolPart
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.integration.app_core import TURN_LIMIT_S, OpenApp, row_text
from tests.unit.agent_session.harness import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


async def test_a_fresh_text_turn(open_acp_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_acp_app()
    model_server.enqueue(text("Hello from the ACP agent."))
    row = await app.turn("say hello")
    assert row.status == "success"
    assert row_text(row) == "Hello from the ACP agent."
    assert row.runtime_resume_token  # the agent's ACP session id
    assert "say hello" in model_server.last_model_request().all_text()


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
