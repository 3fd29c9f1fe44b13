"""The agent's tool servers in pi (which has no MCP of its own): a Cherry-owned inline extension
registers each tool under its runtime name (``mcp__<server>__<tool>``, the same as Claude
Code's) and relays each call to Cherry over the connection's RPC pipe (an ``input`` titled
`RELAY_TITLE`, like the approval gate's), where `PiToolRelay` runs it on the `ToolServer`
(Cherry's own tools, the hub's client of an MCP server) and answers with the result.

The extension is written per connection and passed with ``-e`` (never discovered). Every call
still passes the approval gate first (pi fires ``tool_call`` before ``execute``). A failure is
a tool error the model reads; a Stop or close answers every call still running with an error.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cherry_desktop.core.mcp.config import mcp_tool_name
from cherry_desktop.core.mcp.toolset import ToolResult, ToolServer

if TYPE_CHECKING:
    from cherry_desktop.core.messages.json_value import JsonObject

log = logging.getLogger(__name__)

RELAY_FILE_NAME = "cherry-tool-relay.ts"
RELAY_TITLE = "cherry-tool-call"


def relay_source(servers: tuple[ToolServer, ...]) -> str:
    """The extension: one ``registerTool`` per tool, each relaying to Cherry."""
    tools = [{"name": mcp_tool_name(server.key, tool.name), "server": server.key, "tool": tool.name,
              "description": tool.description or tool.name, "parameters": dict(tool.input_schema)}
             for server in servers for tool in server.tools]
    return f"""// Written by Cherry Desktop for each pi connection; do not edit.
const TOOLS = {json.dumps(tools)};
export default function (pi) {{
  for (const spec of TOOLS) {{
    pi.registerTool({{
      name: spec.name,
      label: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      async execute(toolCallId, params, _signal, _onUpdate, ctx) {{
        const request = JSON.stringify({{ toolCallId, server: spec.server, tool: spec.tool, input: params }});
        const answer = await ctx.ui.input({json.dumps(RELAY_TITLE)}, request);
        let result;
        try {{ result = JSON.parse(answer); }} catch {{ result = null; }}
        if (!result || !Array.isArray(result.content)) throw new Error("Cherry did not answer this tool call.");
        const text = result.content.filter((b) => b.type === "text").map((b) => b.text).join("\\n");
        if (result.isError) throw new Error(text || "The tool failed.");
        return {{ content: result.content, details: {{}} }};
      }},
    }});
  }}
}}
"""


def write_relay(directory: Path, servers: tuple[ToolServer, ...]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / RELAY_FILE_NAME
    path.write_text(relay_source(servers), encoding="utf-8")
    return path


def relay_tool_names(servers: tuple[ToolServer, ...]) -> list[str]:
    return [name for server in servers for name in server.tool_names()]


class PiToolRelay:
    """Runs the relayed calls of one pi connection (see the module doc)."""

    def __init__(self, servers: tuple[ToolServer, ...], send: Callable[[JsonObject], None]) -> None:
        self._servers = {server.key: server for server in servers}
        self._send = send
        self._running: dict[str, asyncio.Task[None]] = {}

    def on_ui_request(self, record: JsonObject) -> bool:
        """Take the extension's request (True), or leave another UI request alone (False)."""
        if record.get("method") != "input" or record.get("title") != RELAY_TITLE:
            return False
        ui_request_id = str(record.get("id"))
        try:
            payload = json.loads(str(record.get("placeholder") or ""))
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            self._answer(ui_request_id, ToolResult.error("Cherry could not read this tool call."))
            return True
        server = self._servers.get(str(payload.get("server")))
        arguments = payload.get("input")
        if server is None:
            self._answer(ui_request_id, ToolResult.error("Cherry has no such tool for this agent."))
            return True
        arguments = arguments if isinstance(arguments, dict) else {}
        task = asyncio.get_running_loop().create_task(
            self._run(ui_request_id, server, str(payload.get("tool")), arguments))
        self._running[ui_request_id] = task
        return True

    async def _run(self, ui_request_id: str, server: ToolServer, tool: str, arguments: JsonObject) -> None:
        try:
            result = await server.call(tool, arguments)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a relay never takes the connection down
            log.warning("a relayed tool call failed", exc_info=True)
            result = ToolResult.error(f"The tool failed: {exc}")
        finally:
            self._running.pop(ui_request_id, None)
        self._answer(ui_request_id, result)

    def _answer(self, ui_request_id: str, result: ToolResult) -> None:
        value = json.dumps({"content": list(result.content), "isError": result.is_error}, ensure_ascii=False)
        self._send({"type": "extension_ui_response", "id": ui_request_id, "value": value})

    def cancel_all(self, reason: str) -> None:
        """Stop, close, pi's exit: every call still running ends as an error now."""
        running, self._running = self._running, {}
        for ui_request_id, task in running.items():
            task.cancel()
            self._answer(ui_request_id, ToolResult.error(reason))
