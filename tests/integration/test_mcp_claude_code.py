"""MCP servers through the whole app core, in each runtime (the real Claude Code CLI: an
in-process SDK server; the real pi: Cherry's relay extension; the real claude-agent-acp:
Cherry's MCP relay over HTTP): the registry's `mcp-server-time` (PyPI, over stdio, Cherry's one
client of it), the scripted model asking for ``mcp__time__get_current_time``; the approval card
approves (or denies) it, the server's answer reaches the model and the tool row is persisted.
The per-tool policy (allow, deny) and a dead server selected too."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.mcp import McpServerConfig, ServerStatus, ToolPolicy, ToolSetting
from cherry_desktop.core.messages import ToolPart
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]

TIME_TOOL = "mcp__time__get_current_time"


def time_server_command() -> str:
    command = Path(sys.executable).parent / "mcp-server-time"
    assert command.is_file(), "mcp-server-time comes with the test extra"
    return str(command)


async def add_server(app: App[Any], config: McpServerConfig) -> str:
    """Save `config` in the registry, select it for the demo agent, wait for its status."""
    mcp = app.core.mcp
    saved = mcp.repository.save(config)
    mcp.hub.reload(saved.id)
    agent_id = app.core.repos.sessions.get_session(app.session_id).agent_id
    agent = app.core.repos.agents.get_agent(agent_id)
    selected = [*agent.config.get("mcps", []), saved.id]
    app.core.repos.agents.update_agent(agent_id, config={**agent.config, "mcps": selected})
    await until(lambda: mcp.hub.state(saved.id).status in (ServerStatus.READY, ServerStatus.FAILED),
                limit=TURN_LIMIT_S)
    return saved.id


async def add_time_server(app: App[Any]) -> str:
    server_id = await add_server(app, McpServerConfig(id="", name="time", command=time_server_command()))
    assert app.core.mcp.hub.state(server_id).status is ServerStatus.READY
    return server_id


def tool_parts(app: App[Any], row_id: str) -> list[ToolPart]:
    return [p for p in app.row(row_id).parts if isinstance(p, ToolPart)]


def tool_results_sent(model_server: ScriptedModelServer) -> list[str]:
    """The text of every tool_result block the CLI sent the model."""
    out = []
    for request in model_server.message_requests():
        for message in request.messages:
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "tool_result":
                    inner = block.get("content")
                    out.append(json.dumps(inner) if not isinstance(inner, str) else inner)
    return out


async def test_an_mcp_tool_call_is_approved_on_the_card_runs_on_the_server_and_is_persisted(
        open_runtime_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    await add_time_server(app)
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Etc/UTC"}), text("It is time."))
    result = await app.send("what time is it?")
    row_id = result.placeholder_ids[0]
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    asked = [c for _, c in app.subscriber.chunks if c.type == "tool-approval-request"]  # type: ignore[attr-defined]
    # The card's tool (the chunks that started the call name it).
    named = {getattr(c, "tool_name", None) for _, c in app.subscriber.chunks  # type: ignore[attr-defined]
             if getattr(c, "tool_call_id", None) == asked[-1].tool_call_id} - {None}
    assert named == {TIME_TOOL}
    assert await app.core.agent_runtime.respond_tool_approval(
        app.session_id, app.approval_ids()[-1], ApprovalDecision(approved=True))
    row = await app.finished(row_id)
    assert row.status == "success"
    [part] = [p for p in tool_parts(app, row_id) if p.tool_name == TIME_TOOL]
    assert part.state == "output-available"
    assert "Etc/UTC" in json.dumps(part.output) and "day_of_week" in json.dumps(part.output)
    # What the server answered is what the model read.
    assert any("day_of_week" in sent for sent in tool_results_sent(model_server))


async def test_a_denied_call_never_reaches_the_server(open_runtime_app: OpenApp,
                                                      model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    await add_time_server(app)
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Etc/UTC"}), text("no time"))
    result = await app.send("what time is it?")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert await app.core.agent_runtime.respond_tool_approval(
        app.session_id, app.approval_ids()[-1], ApprovalDecision(approved=False))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success"
    assert not any("day_of_week" in sent for sent in tool_results_sent(model_server))


async def test_allow_runs_without_asking_and_deny_never_runs(open_runtime_app: OpenApp,
                                                             model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    server_id = await add_time_server(app)
    repository, hub = app.core.mcp.repository, app.core.mcp.hub
    repository.set_tool(server_id, "get_current_time", ToolSetting(policy=ToolPolicy.ALLOW))
    hub.reload(server_id)
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Etc/UTC"}), text("allowed"))
    row = await app.turn("what time is it?")
    assert row.status == "success" and not app.approval_ids()
    assert any("day_of_week" in sent for sent in tool_results_sent(model_server))

    # Tightened on the live connection: the next call is refused without asking, and the
    # server is never called.
    repository.set_tool(server_id, "get_current_time", ToolSetting(policy=ToolPolicy.DENY))
    hub.reload(server_id)
    before = len(tool_results_sent(model_server))
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Asia/Tokyo"}), text("denied"))
    row = await app.turn("and in Tokyo?")
    assert row.status == "success" and not app.approval_ids()
    sent = tool_results_sent(model_server)[before:]
    assert sent and not any("Asia/Tokyo" in s and "day_of_week" in s for s in sent)


async def test_a_dead_server_is_failed_and_the_turn_runs_with_the_others(open_runtime_app: OpenApp,
                                                                         model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    dead = await add_server(app, McpServerConfig(id="", name="dead", command=str(app.workspace / "no-such-server")))
    state = app.core.mcp.hub.state(dead)
    assert state.status is ServerStatus.FAILED and "not found" in state.error
    await add_time_server(app)
    repository = app.core.mcp.repository
    time_id = next(c.id for c in repository.list() if c.name == "time")
    repository.set_default_policy(time_id, ToolPolicy.ALLOW)
    app.core.mcp.hub.reload(time_id)
    model_server.enqueue(tool_use(TIME_TOOL, {"timezone": "Etc/UTC"}), text("done"))
    row = await app.turn("what time is it?")
    assert row.status == "success"
    assert any("day_of_week" in sent for sent in tool_results_sent(model_server))
