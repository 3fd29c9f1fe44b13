"""The agent's tool servers as Claude Code takes them: in-process SDK MCP servers
(`create_sdk_mcp_server`, the SDK's ``sdk`` configs) whose every call is relayed to Cherry's
own client of the server (`ToolServer.call`), so the CLI spawns no user server of its own and
holds no server secret. An abort cancels the relayed call; a failure is a tool error.

Call once the SDK is loaded (at connect or prewarm).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from cherry_desktop.core.mcp.toolset import ToolServer

if TYPE_CHECKING:
    from claude_agent_sdk.types import McpSdkServerConfig, McpServerConfig


def _handler(server: ToolServer, tool: str) -> Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]:
    async def handle(arguments: dict[str, Any]) -> dict[str, Any]:
        result = await server.call(tool, arguments)
        return {"content": [dict(block) for block in result.content], "is_error": result.is_error}

    return handle


def sdk_server(server: ToolServer) -> McpSdkServerConfig:
    from claude_agent_sdk import SdkMcpTool, create_sdk_mcp_server

    tools = [SdkMcpTool(name=t.name, description=t.description, input_schema=dict(t.input_schema),
                        handler=_handler(server, t.name)) for t in server.tools]
    return create_sdk_mcp_server(server.key, tools=tools)


def sdk_mcp_servers(servers: Sequence[ToolServer]) -> dict[str, McpServerConfig]:
    """`ClaudeAgentOptions.mcp_servers` for `servers` (keyed as ``--mcp-config`` names them)."""
    return {server.key: sdk_server(server) for server in servers}
