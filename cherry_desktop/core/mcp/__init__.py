"""MCP servers owned by Cherry: the registry, one client connection per server (the hub and its
cached catalog), tool naming, and the one approval policy of every tool.

Importing this package imports no `mcp`: the hub imports it when it first connects.
"""

from cherry_desktop.core.mcp.config import (
    CHERRY_TOOLS_SERVER,
    DuplicateToolError,
    McpSecrets,
    McpServerConfig,
    McpToolSpec,
    McpTransport,
    ToolPolicy,
    ToolSetting,
    mcp_tool_name,
    normalise_name,
    split_mcp_tool_name,
)
from cherry_desktop.core.mcp.hub import (
    HubTimeouts,
    MaterialisedServer,
    McpConnectError,
    McpHub,
    ServerState,
    ServerStatus,
)
from cherry_desktop.core.mcp.policy import RuleSource, ToolApprovalPolicy, ToolClass, Verdict
from cherry_desktop.core.mcp.registry import McpConfigError, McpServerRepository, SecretStore, secrets_key_name

__all__ = [
    "CHERRY_TOOLS_SERVER",
    "DuplicateToolError",
    "HubTimeouts",
    "MaterialisedServer",
    "McpConfigError",
    "McpConnectError",
    "McpHub",
    "McpSecrets",
    "McpServerConfig",
    "McpServerRepository",
    "McpToolSpec",
    "McpTransport",
    "RuleSource",
    "SecretStore",
    "ServerState",
    "ServerStatus",
    "ToolApprovalPolicy",
    "ToolClass",
    "ToolPolicy",
    "ToolSetting",
    "Verdict",
    "mcp_tool_name",
    "normalise_name",
    "secrets_key_name",
    "split_mcp_tool_name",
]
