"""The same MCP tools under the same names in every runtime (the real Claude Code CLI: in-process
SDK servers; the real pi: Cherry's relay extension), through the whole app core against the
scripted server: `mcp-server-time` asks on the approval card and, approved, runs on Cherry's
client of the server and its answer is persisted; Cherry's own report_artifacts runs without a
card; a tool turned off in Settings never runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.mcp import McpServerConfig, ToolPolicy, ToolSetting
from cherry_desktop.core.messages import ToolPart
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp
from tests.integration.test_mcp_claude_code import TIME_TOOL, add_server, add_time_server, tool_results_sent
from tests.unit.test_mcp_hub import SMALL_SERVER
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]


def tool_part(app: App[Any], row_id: str, name: str) -> ToolPart:
    [part] = [p for p in app.row(row_id).parts if isinstance(p, ToolPart) and p.tool_name == name]
    return part


async def test_an_mcp_tool_asks_runs_and_is_persisted_in_each_runtime(
        open_runtime_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    await add_time_server(app)
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Etc/UTC"}), text("It is time."))
    result = await app.send("what time is it?")
    row_id = result.placeholder_ids[0]
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert await app.core.agent_runtime.respond_tool_approval(
        app.session_id, app.approval_ids()[-1], ApprovalDecision(approved=True))
    row = await app.finished(row_id)
    assert row.status == "success"
    assert "day_of_week" in json.dumps(tool_part(app, row_id, TIME_TOOL).output)
    assert any("day_of_week" in sent for sent in tool_results_sent(model_server))


async def test_report_artifacts_runs_without_asking_and_a_tool_turned_off_never_runs(
        open_runtime_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    server_id = await add_time_server(app)
    (app.workspace / "out.md").write_text("# out\n")
    model_server.enqueue(tool_use("mcp__cherry-tools__report_artifacts",
                                  {"artifacts": [{"path": "out.md", "description": "the result"}]}), text("declared"))
    result = await app.send("declare it")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success" and not app.approval_ids()
    output = json.dumps(tool_part(app, result.placeholder_ids[0], "mcp__cherry-tools__report_artifacts").output)
    assert "out.md" in output and "the result" in output

    app.core.mcp.repository.set_tool(server_id, "get_current_time", ToolSetting(policy=ToolPolicy.DENY))
    app.core.mcp.hub.reload(server_id)
    before = len(tool_results_sent(model_server))
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Asia/Tokyo"}), text("refused"))
    row = await app.turn("and in Tokyo?")
    assert row.status == "success" and not app.approval_ids()
    assert not any("day_of_week" in s for s in tool_results_sent(model_server)[before:])


async def test_two_tools_with_one_name_fail_the_connection_closed(
        open_runtime_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path) -> None:
    """`echo.v2` and `echo_v2` are one runtime name: the connection never starts (no model
    request), the row says why; turning one off lets the next turn run."""
    app = await open_runtime_app()
    script = tmp_path / "small.py"
    script.write_text(SMALL_SERVER)
    server_id = await add_server(app, McpServerConfig(id="", name="small", command=sys.executable,
                                                      args=(str(script),)))
    result = await app.send("hi")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error"
    errors = [p.data for p in row.parts if getattr(p, "type", "") == "data-error"]
    assert errors and errors[-1]["code"] == "mcp-tools-ambiguous"
    assert model_server.requests_for_model_turns() == []
    app.core.mcp.repository.set_tool(server_id, "echo.v2", ToolSetting(enabled=False))
    app.core.mcp.hub.reload(server_id)
    model_server.enqueue(text("fine now"))
    assert (await app.turn("again")).status == "success"
