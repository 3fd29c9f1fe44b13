"""An agent's tools beyond its runtime's own (the spec's ``buildAgentMcpServers``): the agent's
selected MCP servers from the hub's cache, plus Cherry's own tools, as runtime-neutral
`ToolServer`s that every runtime exposes under the same names and relays the same way.

A server that is not ready is left out (its tools reach the next connection); a duplicate
normalised tool identity fails the whole toolset (`AgentToolset.error`), and the connection
fails closed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.mcp.config import DuplicateToolError, McpToolSpec, ToolPolicy, mcp_tool_name
from cherry_desktop.core.mcp.policy import RuleSource, ToolApprovalPolicy, ToolClass

if TYPE_CHECKING:
    # Types only: `core.messages` loads pydantic and its models (not before the first paint).
    from cherry_desktop.core.messages.json_value import JsonObject

log = logging.getLogger(__name__)

#: An agent's config key: the ids of the registry servers it uses.
AGENT_MCP_SERVERS_KEY = "mcps"


@dataclass(frozen=True)
class ToolResult:
    """A tool call's outcome as every runtime hands it on: MCP content blocks (text, image)."""

    content: tuple[JsonObject, ...]
    is_error: bool = False

    @staticmethod
    def error(text: str) -> ToolResult:
        return ToolResult(({"type": "text", "text": text},), is_error=True)

    @staticmethod
    def text_result(text: str) -> ToolResult:
        return ToolResult(({"type": "text", "text": text},))

    def text(self) -> str:
        return "\n".join(str(block.get("text", "")) for block in self.content if block.get("type") == "text")


#: Calls one tool of a server by its own name.
ToolCall = Callable[[str, "JsonObject"], Awaitable["ToolResult"]]


@dataclass(frozen=True)
class ToolServer:
    """One server as a runtime exposes it: ``mcp__<key>__<tool>`` for each of its tools."""

    key: str
    tools: tuple[McpToolSpec, ...]
    call: ToolCall = field(compare=False, repr=False)

    def tool_names(self) -> list[str]:
        return [mcp_tool_name(self.key, t.name) for t in self.tools]


@dataclass(frozen=True)
class AgentToolset:
    """What one connection gets: its tool servers, where their policies live, Cherry's tools'
    classes, and `error` when the toolset could not be built (the connection fails closed)."""

    servers: tuple[ToolServer, ...] = ()
    rules: RuleSource | None = field(default=None, compare=False, repr=False)
    cherry_classes: Mapping[str, ToolClass] = field(default_factory=dict)
    error: str | None = None
    #: The folders of the skills the agent enabled (Cherry-managed; nothing else is offered).
    skills: tuple[Path, ...] = ()

    def policy(self, disabled: set[str], skill_names: Iterable[str] = ()) -> ToolApprovalPolicy:
        return ToolApprovalPolicy(disabled=disabled, rules=self.rules, cherry_classes=self.cherry_classes,
                                  skills=frozenset(skill_names))

    def tool_names(self) -> list[str]:
        return [name for server in self.servers for name in server.tool_names()]

    def signature(self) -> str:
        """A digest of the tools a runtime is started with (a change needs a new one)."""
        facts = [[(s.key, [(t.name, t.description, t.input_schema) for t in s.tools]) for s in self.servers],
                 [str(p) for p in self.skills]]
        return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()[:16]


class ReadyServer(Protocol):
    @property
    def server_id(self) -> str: ...

    @property
    def key(self) -> str: ...

    @property
    def tools(self) -> tuple[McpToolSpec, ...]: ...


class ToolCatalog(Protocol):
    """The servers' cached catalog and their relay (`McpHub`)."""

    def materialise(self, server_ids: Iterable[str]) -> Sequence[ReadyServer]: ...

    def call_tool(self, server_id: str, tool: str, arguments: JsonObject) -> Awaitable[ToolResult]: ...

    def rule_for(self, tool_name: str) -> ToolPolicy | None: ...


def agent_server_ids(config: Mapping[str, object]) -> list[str]:
    value = config.get(AGENT_MCP_SERVERS_KEY)
    return [str(v) for v in value] if isinstance(value, list) else []


def hub_servers(hub: ToolCatalog, server_ids: Iterable[str]) -> list[ToolServer]:
    """The ready servers among `server_ids`, relaying each call to the hub's client."""
    servers = []
    for materialised in hub.materialise(server_ids):
        server_id = materialised.server_id

        def call(tool: str, arguments: JsonObject, _id: str = server_id) -> Awaitable[ToolResult]:
            return hub.call_tool(_id, tool, arguments)

        servers.append(ToolServer(materialised.key, materialised.tools, call))
    return servers


def build_toolset(hub: ToolCatalog | None, server_ids: Iterable[str], cherry: Iterable[ToolServer] = (),
                  cherry_classes: Mapping[str, ToolClass] | None = None) -> AgentToolset:
    """The agent's toolset: Cherry's own servers first, then its registry servers (cache only)."""
    servers = list(cherry)
    try:
        if hub is not None:
            servers += hub_servers(hub, server_ids)
        names: set[str] = set()
        for server in servers:
            for name in server.tool_names():
                if name in names:
                    raise DuplicateToolError(name)
                names.add(name)
    except DuplicateToolError as exc:
        log.warning("the agent's tools cannot be exposed: %s", exc)
        return AgentToolset(error=str(exc))
    return AgentToolset(servers=tuple(servers), rules=hub, cherry_classes=dict(cherry_classes or {}))


class AgentToolProvider(Protocol):
    """What the runtime host asks for an agent's toolset at each connect (`AgentTools`): the
    tool servers when the runtime takes them, the skills when it takes those."""

    def toolset(self, *, agent_config: Mapping[str, object], agent_data_dir: Path, workspace: Path | None,
                tools: bool = True, skills: bool = True) -> AgentToolset: ...


class CherryToolsFactory(Protocol):
    """Cherry's own tool server for one connection (`cherry_tools.cherry_tools_server`)."""

    def __call__(self, *, workspace: Path | None, data_dir: Path) -> ToolServer: ...


class AgentTools:
    """The app's `AgentToolProvider`: Cherry's own tools, then the hub's servers the agent
    selected (cache only)."""

    def __init__(self, hub: ToolCatalog | None, *, cherry: CherryToolsFactory | None = None,
                 cherry_classes: Mapping[str, ToolClass] | None = None,
                 skill_paths: Callable[[Iterable[str]], tuple[Path, ...]] | None = None) -> None:
        self.hub = hub
        self._cherry = cherry
        self._cherry_classes = dict(cherry_classes or {})
        self._skill_paths = skill_paths

    def toolset(self, *, agent_config: Mapping[str, object], agent_data_dir: Path, workspace: Path | None,
                tools: bool = True, skills: bool = True) -> AgentToolset:
        toolset = AgentToolset()
        if tools:
            cherry = [self._cherry(workspace=workspace, data_dir=agent_data_dir)] if self._cherry else []
            toolset = build_toolset(self.hub, agent_server_ids(agent_config), cherry, self._cherry_classes)
        if skills and self._skill_paths is not None:
            toolset = replace(toolset, skills=self._skill_paths(agent_skill_names(agent_config)))
        return toolset


def agent_skill_names(config: Mapping[str, object]) -> list[str]:
    """The names of the skills an agent enabled (its config's ``skills``)."""
    value = config.get("skills")
    return [str(v) for v in value] if isinstance(value, list) else []
