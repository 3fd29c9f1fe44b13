"""The agent's tool servers as an ACP agent takes them: Cherry serves each `ToolServer` itself,
over MCP Streamable HTTP on 127.0.0.1, and hands the agent only their addresses in
``session/new``'s ``mcpServers`` (``McpServerHttp``). The agent spawns no user server and never
holds a server secret: every call is relayed to Cherry's own client of the server
(`ToolServer.call`), its `ToolResult` mapped back (content, is_error).

One relay per connection: one path per server (``/mcp/<key>``), served under the server's key
as its ACP name, so the agent names each tool ``mcp__<key>__<tool>`` as the other runtimes do.
A random per-connection bearer token rides in the ``McpServerHttp`` headers (over the stdio
pipe, never in the child's environment); a request without it is refused (401). The server
stops with the connection (`close`).

The relay is stateless JSON (no session, no stream): each request is one MCP exchange.
A failure in a relayed call is a tool error the model reads, never a relay failure.

The token reaches the agent's own child in its argv (claude-agent-acp hands the servers to the
CLI as ``--mcp-config``), so the token alone runs nothing Cherry did not let run: each call is
first put to `admit` (the connection's approvals), which refuses a denied or disabled tool and
an ask-tool whose call Cherry did not approve (matched by the call's ``claudecode/toolUseId``,
else by its tool name).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from cherry_desktop.core.mcp.config import mcp_tool_name
from cherry_desktop.core.mcp.toolset import ToolResult, ToolServer
from cherry_desktop.core.net.request_keys import asgi_headers, key_matches, presented_key

if TYPE_CHECKING:
    from acp import schema
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp_types import CallToolResult

    from cherry_desktop.core.net.http_server import LoopbackHttpServer

log = logging.getLogger(__name__)

_Scope = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

#: Decides one relayed call before it runs: None runs it, a text refuses it (the model reads it).
#: Called with the agent's tool name (``mcp__<server>__<tool>``) and the call's tool-use id.
Admit = Callable[[str, "str | None"], "str | None"]

#: Where Claude Code names the tool use an MCP call serves (`tools/call`'s ``_meta``).
TOOL_USE_META = "claudecode/toolUseId"
PATH_PREFIX = "/mcp/"
STOP_GRACE_S = 1.0


def call_result(result: ToolResult) -> CallToolResult:
    """A `ToolResult` as MCP's tools/call answer."""
    from mcp_types import CallToolResult

    return CallToolResult.model_validate({"content": [dict(block) for block in result.content],
                                          "isError": result.is_error})


def _manager(server: ToolServer, admit: Admit | None) -> StreamableHTTPSessionManager:
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    tools = [types.Tool(name=t.name, description=t.description or None, input_schema=dict(t.input_schema))
             for t in server.tools]
    known = {t.name for t in server.tools}

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in known:
            return call_result(ToolResult.error(f"Cherry has no tool {params.name!r} on {server.key}."))
        if admit is not None:
            use_id = (params.meta or {}).get(TOOL_USE_META)
            refusal = admit(mcp_tool_name(server.key, params.name), use_id if isinstance(use_id, str) else None)
            if refusal is not None:
                return call_result(ToolResult.error(refusal))
        try:
            result = await server.call(params.name, dict(params.arguments or {}))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a relay never takes the connection down
            log.warning("a relayed tool call failed", exc_info=True)
            result = ToolResult.error(f"The tool failed: {exc}")
        return call_result(result)

    app: Server[Any] = Server(server.key, on_list_tools=list_tools, on_call_tool=call_tool)
    return StreamableHTTPSessionManager(app, json_response=True, stateless=True)


class AcpMcpRelay:
    """Cherry's tool servers for one ACP connection (see the module doc)."""

    def __init__(self, servers: tuple[ToolServer, ...], admit: Admit | None = None) -> None:
        self.servers = servers
        self._admit = admit
        self.token = secrets.token_urlsafe(32)
        self.port: int | None = None
        self._managers: dict[str, StreamableHTTPSessionManager] = {}
        self._http: LoopbackHttpServer | None = None
        self._holder: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None

    # ---- the ASGI app --------------------------------------------------------------------

    async def _app(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            return
        if not key_matches(presented_key(asgi_headers(scope.get("headers"))), self.token):
            await _plain(send, 401, b"unauthorized")
            return
        path = str(scope.get("path", ""))
        manager = self._managers.get(path[len(PATH_PREFIX):].rstrip("/")) if path.startswith(PATH_PREFIX) else None
        if manager is None:
            await _plain(send, 404, b"no such server")
            return
        if scope.get("method") == "GET":
            # No server-initiated stream (the MCP spec's 405 for it): every exchange is one
            # POST. Its SSE response would start sse-starlette's loop-wide shutdown watcher, a
            # task that outlives the relay.
            await _plain(send, 405, b"no server-initiated stream")
            return
        await manager.handle_request(scope, receive, send)

    # ---- start / stop --------------------------------------------------------------------

    async def start(self) -> None:
        """Serve on a free port of 127.0.0.1 until `close`."""
        from cherry_desktop.core.net.http_server import LoopbackHttpServer

        self._managers = {server.key: _manager(server, self._admit) for server in self.servers}
        entered = asyncio.Event()
        self._stop = asyncio.Event()
        self._holder = asyncio.get_running_loop().create_task(self._hold(entered, self._stop),
                                                              name="acp-mcp-relay")
        try:
            waiter = asyncio.ensure_future(entered.wait())
            try:
                await asyncio.wait({waiter, self._holder}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
            if not entered.is_set():
                self._holder.result()  # the managers failed to start: their error
                raise RuntimeError("Cherry's MCP relay stopped before it started")

            async def app(scope: _Scope, receive: _Receive, send: _Send) -> None:
                # A plain coroutine function: uvicorn takes it as ASGI 3 (a bound method not).
                await self._app(scope, receive, send)

            self._http = LoopbackHttpServer(app, grace_s=STOP_GRACE_S)
            await self._http.start()
            self.port = self._http.port
        except BaseException:
            await self.close()
            raise

    async def _hold(self, entered: asyncio.Event, stop: asyncio.Event) -> None:
        # The managers' task groups are entered and left in this one task (anyio's rule).
        async with contextlib.AsyncExitStack() as stack:
            for manager in self._managers.values():
                await stack.enter_async_context(manager.run())
            entered.set()
            await stop.wait()

    @property
    def running(self) -> bool:
        return self._http is not None and self._http.running

    def url(self, server: ToolServer) -> str:
        return f"http://127.0.0.1:{self.port}{PATH_PREFIX}{quote(server.key, safe='')}"

    def mcp_servers(self) -> list[schema.HttpMcpServer]:
        """``session/new``'s ``mcpServers``: one http server per tool server, named by its key."""
        from acp import schema

        header = schema.HttpHeader(name="Authorization", value=f"Bearer {self.token}")
        return [schema.HttpMcpServer(type="http", name=server.key, url=self.url(server), headers=[header])
                for server in self.servers]

    async def close(self) -> None:
        """Stop serving (idempotent): the agent's next request finds no server."""
        http, holder, stop = self._http, self._holder, self._stop
        self._http, self._holder, self._stop = None, None, None
        if http is not None:
            await http.stop()
        if stop is not None:
            stop.set()
        if holder is not None:
            try:
                await asyncio.wait_for(holder, STOP_GRACE_S)
            except (TimeoutError, Exception):
                log.warning("Cherry's MCP relay did not stop cleanly", exc_info=True)
        self._managers.clear()


async def _plain(send: _Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@contextlib.asynccontextmanager
async def serving(servers: tuple[ToolServer, ...], admit: Admit | None = None) -> AsyncIterator[AcpMcpRelay]:
    """A started relay for `servers`, closed on exit (the unit tests' and tools' way)."""
    relay = AcpMcpRelay(servers, admit)
    await relay.start()
    try:
        yield relay
    finally:
        await relay.close()
