"""Opening one client connection to an MCP server (the `mcp` package), and reading it.

`open_client` speaks the server's transport: stdio (its command as a child with only mcp's
default environment plus the server's own env), Streamable HTTP or SSE (with its headers).
`list_tool_specs` reads the tool list, leaving out (and logging) a tool whose input schema is
not a JSON Schema object; `tool_result` turns a call's result into plain content blocks, cut
to a size a model can take.

`mcp` is imported here only: the hub imports this module when it first connects (mcp's client
stack costs tens of MB, and a user without servers never pays it).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, TextIO, cast

from cherry_desktop.core.mcp.config import McpSecrets, McpServerConfig, McpToolSpec, McpTransport
from cherry_desktop.core.mcp.toolset import ToolResult

if TYPE_CHECKING:
    # Types only: `core.messages` loads pydantic and its models (not before the first paint).
    from mcp.client.client import Client
    from mcp.types import CallToolResult

    from cherry_desktop.core.messages.json_value import JsonObject

log = logging.getLogger(__name__)

#: A tool result longer than this (characters of text) is cut, with a note the model reads.
MAX_RESULT_CHARS = 100_000
#: The most pages of a tool list read (a server that pages forever is cut off).
MAX_TOOL_PAGES = 20
#: How much of a stdio server's stderr a failure quotes.
STDERR_TAIL_BYTES = 400


class StderrTail:
    """A stdio server's stderr, kept in a temporary file so a failure can quote its end."""

    def __init__(self) -> None:
        # Closed by `close()`: it outlives the connection it was opened for.
        self.file = cast(TextIO, tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"))  # noqa: SIM115

    def tail(self) -> str:
        try:
            self.file.flush()
            size = self.file.seek(0, 2)
            self.file.seek(max(0, size - STDERR_TAIL_BYTES))
            return self.file.read().strip()
        except (OSError, ValueError):
            return ""

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()


#: Imported by mcp's client module only to tell its own high-level server apart
#: (``isinstance(server, MCPServer)``), which pulls in starlette, uvicorn and the server stack
#: (~15 MB, ~0.3 s here); Cherry never hands it one.
_CLIENT_ONLY_IMPORTS = ("mcp.server.mcpserver",)


class _NoMcpServer:
    """Stands in for `mcp.server.mcpserver.MCPServer` in the client's isinstance check."""


def prepare_client_import() -> None:
    """Before the first import of mcp's client: leave its server stack unimported (deferred: it
    runs if anything looks a real name up in it). Anything unexpected imports it whole."""
    from cherry_desktop.core.lifecycle.deferred_import import defer_module

    for name in _CLIENT_ONLY_IMPORTS:
        if name in sys.modules:
            continue
        try:
            defer_module(name)
            vars(sys.modules[name])["MCPServer"] = _NoMcpServer
        except Exception:
            log.debug("importing %s whole", name, exc_info=True)
            sys.modules.pop(name, None)


def _transport(config: McpServerConfig, secrets: McpSecrets, stderr: StderrTail, stack: contextlib.AsyncExitStack,
               ) -> Any:
    if config.transport is McpTransport.STDIO:
        from mcp.client.stdio import StdioServerParameters, stdio_client

        from cherry_desktop.core.process.process_tie import tied_command

        command = shutil.which(config.command, path=secrets.env.get("PATH")) or ""
        if not command:
            raise FileNotFoundError(errno.ENOENT, "command not found", config.command)
        # Tied to the app: the server ends when the app does, however it ends (SIGKILL too).
        argv = tied_command([command, *config.args])
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(secrets.env) or None,
                                       cwd=config.cwd or None)
        return stdio_client(params, errlog=stderr.file)
    import httpx2

    if config.transport is McpTransport.SSE:
        from mcp.client.sse import sse_client

        return sse_client(config.url, headers=dict(secrets.headers))
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers=dict(secrets.headers), timeout=httpx2.Timeout(30.0, read=300.0))
    stack.push_async_callback(http.aclose)
    return streamable_http_client(config.url, http_client=http)


@contextlib.asynccontextmanager
async def open_client(config: McpServerConfig, secrets: McpSecrets, stderr: StderrTail) -> AsyncIterator[Client]:
    """A connected (initialised) client of the server, closed (its child stopped) on exit."""
    prepare_client_import()
    from mcp.client.client import Client

    async with contextlib.AsyncExitStack() as stack:
        transport = _transport(config, secrets, stderr, stack)
        client = Client(transport, cache=None)
        yield await stack.enter_async_context(client)


def _valid_schema(schema: object) -> bool:
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return False
    # Through the package's names: the SDK's import may have left `jsonschema` deferred, which
    # a name lookup runs (a direct submodule import would find it half initialised).
    import jsonschema

    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.exceptions.SchemaError:
        return False
    return True


async def list_tool_specs(client: Client) -> tuple[McpToolSpec, ...]:
    """Every tool the server lists whose schema is usable."""
    specs: list[McpToolSpec] = []
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            schema = dict(tool.input_schema or {"type": "object"})
            if not _valid_schema(schema):
                log.warning("MCP tool %r has an input schema that is not a JSON Schema object; left out", tool.name)
                continue
            schema.setdefault("type", "object")
            schema.setdefault("properties", {})
            specs.append(McpToolSpec(name=tool.name, description=tool.description or "", input_schema=schema))
        cursor = page.next_cursor
        if not cursor:
            break
    return tuple(specs)


def _cut(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    return f"{text[:budget]}\n\n[Cherry cut this tool result: {len(text)} characters, {budget} kept]"


def tool_result(result: CallToolResult, max_chars: int = MAX_RESULT_CHARS) -> ToolResult:
    """A `CallToolResult` as content blocks: text and images kept, resources as their text,
    structured content as JSON text when there is no other content; text cut to `max_chars`."""
    import json

    blocks: list[JsonObject] = []
    budget = max_chars
    for item in result.content or []:
        data = item.model_dump(mode="json", by_alias=True, exclude_none=True)
        kind = data.get("type")
        if kind == "text":
            text = _cut(str(data.get("text", "")), max(budget, 0))
            budget -= len(text)
            blocks.append({"type": "text", "text": text})
        elif kind == "image" and len(str(data.get("data", ""))) <= max_chars * 10:
            blocks.append({"type": "image", "data": data.get("data", ""), "mimeType": data.get("mimeType", "")})
        elif kind == "resource" and isinstance(data.get("resource"), dict) and "text" in data["resource"]:
            text = _cut(str(data["resource"]["text"]), max(budget, 0))
            budget -= len(text)
            blocks.append({"type": "text", "text": text})
        else:
            blocks.append({"type": "text", "text": f"[{kind} content left out]"})
    structured = result.structured_content
    if not blocks and structured is not None:
        blocks.append({"type": "text", "text": _cut(json.dumps(structured, ensure_ascii=False), max_chars)})
    return ToolResult(tuple(blocks), is_error=bool(result.is_error))


def failure_reason(exc: BaseException, stderr: StderrTail | None = None) -> str:
    """One line for the status: the innermost error of an exception group, and the end of the
    server's stderr when it has one."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        reason = f"command not found: {exc.filename or exc}"
    elif isinstance(exc, TimeoutError):
        reason = "the server did not answer in time"
    else:
        reason = str(exc) or type(exc).__name__
    tail = stderr.tail() if stderr is not None else ""
    if tail:
        reason = f"{reason} (stderr: {tail.splitlines()[-1][:200]})"
    return reason
