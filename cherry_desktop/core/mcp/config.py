"""What an MCP server is to Cherry: its configuration, its tools' choices and their names.

A server's tools reach every runtime under one name, ``mcp__<server>__<tool>`` (Claude Code's
own convention), each part normalised to what the runtimes accept (letters, digits, ``_`` and
``-``). Two tools that normalise to the same name would make approval and routing ambiguous:
`tool_identity` callers refuse them (`DuplicateToolError`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Types only: `core.messages` loads pydantic and its models (not before the first paint).
    from cherry_desktop.core.messages.json_value import JsonObject


MCP_PREFIX = "mcp__"
#: The in-process server of Cherry's own tools (`report_artifacts`, the agent's memory).
CHERRY_TOOLS_SERVER = "cherry-tools"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class McpTransport(StrEnum):
    STDIO = "stdio"
    HTTP = "http"  # Streamable HTTP
    SSE = "sse"


class ToolPolicy(StrEnum):
    """A tool's approval choice. ASK follows the agent's permission mode (asks in the default
    mode); ALLOW runs without asking; DENY never runs."""

    ASK = "ask"
    ALLOW = "allow"
    DENY = "deny"


def parse_policy(value: object, default: ToolPolicy = ToolPolicy.ASK) -> ToolPolicy:
    try:
        return ToolPolicy(str(value))
    except ValueError:
        return default


@dataclass(frozen=True)
class ToolSetting:
    enabled: bool = True
    policy: ToolPolicy | None = None  # None: the server's default policy


@dataclass(frozen=True)
class McpServerConfig:
    """One server of the user's registry (secret values not included: `McpSecrets`)."""

    id: str
    name: str
    transport: McpTransport = McpTransport.STDIO
    command: str = ""
    args: tuple[str, ...] = ()
    cwd: str = ""
    url: str = ""
    env_names: tuple[str, ...] = ()
    header_names: tuple[str, ...] = ()
    enabled: bool = True
    default_policy: ToolPolicy = ToolPolicy.ASK
    tools: Mapping[str, ToolSetting] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The server's part of its tools' names."""
        return normalise_name(self.name)

    def tool_setting(self, tool: str) -> ToolSetting:
        return self.tools.get(tool, ToolSetting())

    def tool_policy(self, tool: str) -> ToolPolicy:
        setting = self.tool_setting(tool)
        if not setting.enabled:
            return ToolPolicy.DENY
        return setting.policy or self.default_policy


@dataclass(frozen=True)
class McpSecrets:
    """The values of a server's env variables and headers (only ever in the keyring)."""

    env: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # never a value in a log line
        return f"McpSecrets(env={sorted(self.env)}, headers={sorted(self.headers)})"


@dataclass(frozen=True)
class McpToolSpec:
    """A tool as its server listed it: its own name, what it says it does, its input schema."""

    name: str
    description: str = ""
    input_schema: JsonObject = field(default_factory=dict)


class DuplicateToolError(ValueError):
    """Two tools would reach the runtime under one name (ambiguous approval and routing)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"two tools are named {name!r} once normalised")
        self.name = name


def normalise_name(name: str) -> str:
    """A server's or tool's name as part of a runtime tool name (never empty)."""
    return _UNSAFE.sub("_", name.strip()) or "_"


def mcp_tool_name(server: str, tool: str) -> str:
    """``mcp__<server>__<tool>``, both parts normalised."""
    return f"{MCP_PREFIX}{normalise_name(server)}__{normalise_name(tool)}"


def split_mcp_tool_name(name: str) -> tuple[str, str] | None:
    """(server key, tool key) of an ``mcp__`` name; None for any other tool."""
    if not name.startswith(MCP_PREFIX):
        return None
    server, sep, tool = name[len(MCP_PREFIX):].partition("__")
    return (server, tool) if sep and server and tool else None
