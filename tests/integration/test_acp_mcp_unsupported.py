"""An ACP agent that takes no MCP servers over HTTP (no ``mcpCapabilities.http``), through the
whole app core: a small real agent (the `acp` library's agent side, as a custom command) that
answers each prompt and notes the ``mcpServers`` it was given. With an MCP server the user
chose, the connection fails closed with a clear error row (the agent never gets the session);
without one it runs, without Cherry's own tools (none offered, none served)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cherry_desktop.demo import ScriptedModelServer
from tests.integration.app_core import App, OpenApp
from tests.integration.test_acp_faults import _custom_agent_session
from tests.integration.test_mcp_claude_code import add_time_server

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

AGENT = '''
import asyncio, json, sys
import acp
from acp import schema

LOG = sys.argv[1]

class Agent:
    def on_connect(self, conn):
        self.conn = conn

    async def initialize(self, protocol_version, client_capabilities=None, client_info=None, **kwargs):
        return schema.InitializeResponse(protocol_version=protocol_version,
                                         agent_capabilities=schema.AgentCapabilities())

    async def new_session(self, cwd, additional_directories=None, mcp_servers=None, **kwargs):
        with open(LOG, "a") as log:
            log.write(json.dumps([s.model_dump(mode="json") for s in mcp_servers or []]) + "\\n")
        return schema.NewSessionResponse(session_id="s-1")

    async def prompt(self, session_id, prompt, **kwargs):
        await self.conn.session_update(session_id, acp.update_agent_message_text("plain answer"))
        return schema.PromptResponse(stop_reason="end_turn")

    async def cancel(self, session_id, **kwargs):
        return None

asyncio.run(acp.run_agent(Agent()))
'''


async def test_an_agent_without_http_mcp_fails_closed_with_servers_and_runs_without(
        open_acp_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path) -> None:
    script, log = tmp_path / "agent.py", tmp_path / "mcp-servers.jsonl"
    script.write_text(AGENT)
    base = await open_acp_app()
    session_id = _custom_agent_session(base, [sys.executable, str(script), str(log)], tmp_path)
    app = App(core=base.core, agent_type="acp", session_id=session_id, workspace=tmp_path / "custom-ws")

    row = await app.turn("hello")
    assert row.status == "success", row.parts
    assert [json.loads(line) for line in log.read_text().splitlines()] == [[]]

    await add_time_server(app)
    result = await app.send("and now with a server")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error" and "acp-mcp-unsupported" in str(row.parts[-1]), row.parts
    assert len(log.read_text().splitlines()) == 1  # no session was opened without the tools
    assert app.driver.alive_pids() == []
