"""`McpHub`: Cherry's one client connection per MCP server, and the catalog read from it.

Each enabled server has a background task (its warmer) that connects, lists the tools into the
cache, keeps the connection, re-lists now and then (which also notices a dead server) and
reconnects with backoff after a failure. Everything a turn reads is the cache (`state`,
`materialise`): starting a turn never waits on a server, so a dead, slow or hanging one only
shows as failed (or connecting) and its tools are absent from that connection. A call
(`call_tool`) goes over the live client, bounded in time; every failure is a tool error the
model reads, never an exception into the runtime.

The policy of each tool is read live from the hub's configs (`rule_for`): an edit saved through
`reload` tightens a running connection at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from cherry_desktop.core.mcp.config import (
    DuplicateToolError,
    McpSecrets,
    McpServerConfig,
    McpToolSpec,
    ToolPolicy,
    mcp_tool_name,
    normalise_name,
    split_mcp_tool_name,
)
from cherry_desktop.core.mcp.toolset import ToolResult

if TYPE_CHECKING:
    # Types only: `core.messages` loads pydantic and its models (not before the first paint).
    from mcp.client.client import Client

    from cherry_desktop.core.mcp.registry import McpServerRepository
    from cherry_desktop.core.messages.json_value import JsonObject

log = logging.getLogger(__name__)


class ServerStatus(StrEnum):
    DISABLED = "disabled"
    CONNECTING = "connecting"
    READY = "ready"
    FAILED = "failed"


@dataclass(frozen=True)
class ServerState:
    """What the UI and a turn know of one server: status, cached tools, the failure's reason."""

    server_id: str
    status: ServerStatus
    tools: tuple[McpToolSpec, ...] = ()
    error: str = ""


@dataclass(frozen=True)
class MaterialisedServer:
    """One server as a connection gets it: its key (the ``<server>`` of its tools' names), and
    the enabled tools of the cache at that moment."""

    server_id: str
    key: str
    tools: tuple[McpToolSpec, ...]


@dataclass(frozen=True)
class HubTimeouts:
    connect_s: float = 30.0
    call_s: float = 120.0
    refresh_s: float = 60.0
    backoff_first_s: float = 1.0
    backoff_max_s: float = 300.0
    stop_s: float = 5.0


@dataclass
class _Live:
    client: Client | None = None
    task: asyncio.Task[None] | None = None
    broken: asyncio.Event = field(default_factory=asyncio.Event)


Listener = Callable[[ServerState], None]


class McpHub:
    """The servers' connections and their cached catalog (the one writer of both)."""

    def __init__(self, repository: McpServerRepository, timeouts: HubTimeouts | None = None, *,
                 prepare_import: Callable[[], None] | None = None) -> None:
        self._repository = repository
        self.timeouts = timeouts or HubTimeouts()
        # Run once before mcp is first imported (the app's: the SDK's own import deferrals,
        # so that mcp's package init does not import its whole server stack).
        self._prepare_import = prepare_import
        self._configs: dict[str, McpServerConfig] = {}
        self._states: dict[str, ServerState] = {}
        self._live: dict[str, _Live] = {}
        self._listeners: list[Listener] = []
        self._stopped = False

    # ---- configs -------------------------------------------------------------------------

    def start(self) -> None:
        """Read the registry and warm every enabled server (in the background)."""
        self._stopped = False
        for config in self._repository.list():
            self._configs[config.id] = config
            self._apply(config, None)

    def reload(self, server_id: str, *, reconnect: bool = False) -> None:
        """The registry row changed (or is gone): take the new config; a changed way of
        reaching the server (or `reconnect`: new secrets) reconnects it, a policy change
        applies at once."""
        old = self._configs.get(server_id)
        config = self._repository.find(server_id)
        if config is None:
            self._configs.pop(server_id, None)
            self._states.pop(server_id, None)
            self._spawn_stop(server_id)
            return
        self._configs[server_id] = config
        if reconnect:
            self._spawn_stop(server_id)
        self._apply(config, old)

    def _apply(self, config: McpServerConfig, old: McpServerConfig | None) -> None:
        if not config.enabled:
            self._spawn_stop(config.id)
            self._set(ServerState(config.id, ServerStatus.DISABLED))
            return
        reach_changed = old is not None and _reach(old) != _reach(config)
        if reach_changed:
            self._spawn_stop(config.id)
        live = self._live.get(config.id)
        if live is None or live.task is None or live.task.done():
            self.warm(config.id)
        elif config.id in self._states:
            self._notify(self._states[config.id])

    def configs(self) -> list[McpServerConfig]:
        return sorted(self._configs.values(), key=lambda c: c.name.lower())

    def config(self, server_id: str) -> McpServerConfig | None:
        return self._configs.get(server_id)

    # ---- states --------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def state(self, server_id: str) -> ServerState:
        config = self._configs.get(server_id)
        if config is None:
            return ServerState(server_id, ServerStatus.FAILED, error="unknown server")
        return self._states.get(server_id, ServerState(server_id, ServerStatus.CONNECTING if config.enabled
                                                        else ServerStatus.DISABLED))

    def _set(self, state: ServerState) -> None:
        self._states[state.server_id] = state
        self._notify(state)

    def _notify(self, state: ServerState) -> None:
        for listener in list(self._listeners):
            try:
                listener(state)
            except Exception:
                log.exception("an MCP status listener failed")

    # ---- the catalog (cache only) ----------------------------------------------------------

    def materialise(self, server_ids: Iterable[str]) -> list[MaterialisedServer]:
        """The ready servers among `server_ids` with their enabled tools, from the cache (never
        waits). Raises `DuplicateToolError` when two tools would share a runtime name."""
        out: list[MaterialisedServer] = []
        names: set[str] = set()
        for server_id in dict.fromkeys(server_ids):
            config = self._configs.get(server_id)
            state = self._states.get(server_id)
            if config is None or not config.enabled or state is None or state.status is not ServerStatus.READY:
                continue
            tools = tuple(t for t in state.tools if config.tool_policy(t.name) is not ToolPolicy.DENY)
            for tool in tools:
                name = mcp_tool_name(config.name, tool.name)
                if name in names:
                    raise DuplicateToolError(name)
                names.add(name)
            out.append(MaterialisedServer(server_id, config.key, tools))
        return out

    def rule_for(self, tool_name: str) -> ToolPolicy | None:
        """The live policy of an ``mcp__<server>__<tool>`` name of a registry server (None:
        not one of them)."""
        parts = split_mcp_tool_name(tool_name)
        if parts is None:
            return None
        server_key, tool_key = parts
        for config in self._configs.values():
            if config.key == server_key:
                if not config.enabled:
                    return ToolPolicy.DENY
                for tool in self._states.get(config.id, ServerState(config.id, ServerStatus.FAILED)).tools:
                    if normalise_name(tool.name) == tool_key:
                        return config.tool_policy(tool.name)
                return config.default_policy
        return None

    # ---- calls -----------------------------------------------------------------------------

    async def call_tool(self, server_id: str, tool: str, arguments: JsonObject) -> ToolResult:
        """Call a tool over the server's live client; every failure is a tool error."""
        from cherry_desktop.core.mcp.connect import failure_reason, tool_result

        config = self._configs.get(server_id)
        live = self._live.get(server_id)
        if config is None or live is None or live.client is None:
            return ToolResult.error(f"The MCP server {config.name if config else server_id!r} is not connected.")
        if config.tool_policy(tool) is ToolPolicy.DENY:
            return ToolResult.error(f"The MCP tool {tool!r} is turned off in Settings.")
        try:
            async with asyncio.timeout(self.timeouts.call_s):
                result = await live.client.call_tool(tool, dict(arguments))
        except TimeoutError:
            return ToolResult.error(f"The MCP tool {tool!r} did not answer within {self.timeouts.call_s:g} s.")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if _connection_lost(exc):
                live.broken.set()
            return ToolResult.error(f"The MCP tool {tool!r} failed: {failure_reason(exc)}")
        return tool_result(result)

    # ---- test ------------------------------------------------------------------------------

    async def test(self, config: McpServerConfig, secrets: McpSecrets | None = None) -> tuple[McpToolSpec, ...]:
        """Connect once with `config` (not saved), list its tools and close. Raises
        `McpConnectError` with the reason."""
        from cherry_desktop.core.mcp.connect import StderrTail, failure_reason, list_tool_specs, open_client

        if self._prepare_import is not None:
            self._prepare_import()
            self._prepare_import = None
        if secrets is None:
            secrets = self._repository.secrets(config.id) if config.id else McpSecrets()
        stderr = StderrTail()
        try:
            async with asyncio.timeout(self.timeouts.connect_s), open_client(config, secrets, stderr) as client:
                return await list_tool_specs(client)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            if not isinstance(exc, Exception | BaseExceptionGroup):
                raise
            raise McpConnectError(failure_reason(exc, stderr)) from None
        finally:
            stderr.close()

    # ---- the warmers -----------------------------------------------------------------------

    def warm(self, server_id: str) -> None:
        """Start the server's warmer unless it runs (the caller never waits for it)."""
        if self._stopped:
            return
        if self._prepare_import is not None:
            self._prepare_import()
            self._prepare_import = None
        live = self._live.setdefault(server_id, _Live())
        if live.task is None or live.task.done():
            live.task = asyncio.get_running_loop().create_task(self._run(server_id), name=f"mcp-{server_id}")

    async def _run(self, server_id: str) -> None:
        from cherry_desktop.core.mcp.connect import StderrTail, failure_reason, list_tool_specs, open_client

        delay = self.timeouts.backoff_first_s
        while not self._stopped:
            config = self._configs.get(server_id)
            if config is None or not config.enabled:
                return
            previous = self._states.get(server_id)
            self._set(ServerState(server_id, ServerStatus.CONNECTING, previous.tools if previous else ()))
            live = self._live.setdefault(server_id, _Live())
            live.broken = asyncio.Event()
            stderr = StderrTail()
            try:
                async with contextlib.AsyncExitStack() as stack:
                    async with asyncio.timeout(self.timeouts.connect_s):
                        client = await stack.enter_async_context(
                            open_client(config, self._repository.secrets(server_id), stderr))
                        tools = await list_tool_specs(client)
                    live.client = client
                    self._set(ServerState(server_id, ServerStatus.READY, tools))
                    delay = self.timeouts.backoff_first_s
                    await self._keep(server_id, client, live)
                reason = "the server closed the connection"
            except asyncio.CancelledError:
                raise
            except BaseException as exc:
                if not isinstance(exc, Exception | BaseExceptionGroup):
                    raise
                reason = failure_reason(exc, stderr)
            finally:
                live.client = None
                stderr.close()
            if self._stopped:
                return
            log.info("MCP server %s failed: %s (retrying in %.0f s)", config.name, reason, delay)
            self._set(ServerState(server_id, ServerStatus.FAILED, error=reason))
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.timeouts.backoff_max_s)

    async def _keep(self, server_id: str, client: Client, live: _Live) -> None:
        """Hold the connection; re-list the tools every `refresh_s` (a dead server fails it)."""
        from cherry_desktop.core.mcp.connect import list_tool_specs

        while not self._stopped:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.broken.wait(), self.timeouts.refresh_s)
            if live.broken.is_set():
                return
            async with asyncio.timeout(self.timeouts.connect_s):
                tools = await list_tool_specs(client)
            if tools != self.state(server_id).tools:
                self._set(ServerState(server_id, ServerStatus.READY, tools))

    def _spawn_stop(self, server_id: str) -> None:
        live = self._live.pop(server_id, None)
        if live is not None and live.task is not None and not live.task.done():
            live.task.cancel()

    async def stop(self) -> None:
        """Close every connection (bounded in time; the stdio children are stopped)."""
        self._stopped = True
        tasks = [live.task for live in self._live.values() if live.task is not None and not live.task.done()]
        self._live.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=self.timeouts.stop_s)
            if pending:
                log.warning("%d MCP connection(s) did not close within %.1f s", len(pending), self.timeouts.stop_s)


class McpConnectError(Exception):
    """Testing a server failed; the message is the reason."""


def _reach(config: McpServerConfig) -> tuple[object, ...]:
    """What reaching the server depends on (a change reconnects it)."""
    return (config.transport, config.command, config.args, config.cwd, config.url, config.env_names,
            config.header_names)


#: JSON-RPC's "connection closed" (`mcp_types.CONNECTION_CLOSED`): the server went away.
_CONNECTION_CLOSED = -32000


def _connection_lost(exc: BaseException) -> bool:
    import anyio
    from mcp.shared.exceptions import MCPError

    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return exc.code == _CONNECTION_CLOSED
    return isinstance(exc, anyio.ClosedResourceError | anyio.BrokenResourceError | ConnectionError | EOFError)

