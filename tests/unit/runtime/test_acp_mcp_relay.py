"""The ACP runtime's MCP relay against the real `mcp` client over real HTTP on 127.0.0.1: it
lists each server's tools, relays a call to the `ToolServer` and maps its result back (an error
too), refuses a request without the connection's token, runs no call its gate refuses, and is
gone once closed."""

from __future__ import annotations

import socket

import httpx2
import pytest

from cherry_desktop.core.ai.runtime.acp.mcp_relay import AcpMcpRelay, serving
from cherry_desktop.core.mcp.config import McpSecrets, McpServerConfig, McpToolSpec, McpTransport
from cherry_desktop.core.mcp.connect import StderrTail, failure_reason, list_tool_specs, open_client, tool_result
from cherry_desktop.core.mcp.toolset import ToolResult, ToolServer
from cherry_desktop.core.messages.json_value import JsonObject

pytestmark = pytest.mark.timeout(60)

ECHO = McpToolSpec(name="echo", description="Echoes its text.",
                   input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
FAIL = McpToolSpec(name="fail", description="Always fails.", input_schema={"type": "object", "properties": {}})


def echo_server(calls: list[tuple[str, JsonObject]]) -> ToolServer:
    async def call(tool: str, arguments: JsonObject) -> ToolResult:
        calls.append((tool, arguments))
        if tool == "fail":
            raise RuntimeError("boom")
        return ToolResult.text_result(f"echo: {arguments.get('text')}")

    return ToolServer("echoes", (ECHO, FAIL), call)


def client_config(relay: AcpMcpRelay, server: ToolServer) -> tuple[McpServerConfig, McpSecrets]:
    [spec] = [s for s in relay.mcp_servers() if s.name == server.key]
    headers = {h.name: h.value for h in spec.headers}
    return (McpServerConfig(id="relay", name=server.key, transport=McpTransport.HTTP, url=spec.url),
            McpSecrets(headers=headers))


async def test_tools_are_listed_and_calls_relayed_with_their_results() -> None:
    calls: list[tuple[str, JsonObject]] = []
    server = echo_server(calls)
    async with serving((server,)) as relay:
        [spec] = relay.mcp_servers()
        assert spec.name == "echoes" and spec.url.startswith("http://127.0.0.1:")
        config, secrets = client_config(relay, server)
        async with open_client(config, secrets, StderrTail()) as client:
            tools = await list_tool_specs(client)
            assert [(t.name, t.description) for t in tools] == [("echo", "Echoes its text."), ("fail", "Always fails.")]
            assert tools[0].input_schema["required"] == ["text"]
            result = tool_result(await client.call_tool("echo", {"text": "hi"}))
            assert not result.is_error and result.text() == "echo: hi"
            failed = tool_result(await client.call_tool("fail", {}))
            assert failed.is_error and "boom" in failed.text()
    assert calls == [("echo", {"text": "hi"}), ("fail", {})]


async def test_a_request_without_the_token_is_refused_and_never_relayed() -> None:
    calls: list[tuple[str, JsonObject]] = []
    server = echo_server(calls)
    async with serving((server,)) as relay:
        url = relay.url(server)
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "x"}}}
        headers = {"Accept": "application/json, text/event-stream"}
        async with httpx2.AsyncClient() as http:
            missing = await http.post(url, json=body, headers=headers)
            wrong = await http.post(url, json=body, headers={**headers, "Authorization": "Bearer nope"})
            elsewhere = await http.post(url.replace("/echoes", "/other"), json=body,
                                        headers={**headers, "Authorization": f"Bearer {relay.token}"})
        assert (missing.status_code, wrong.status_code, elsewhere.status_code) == (401, 401, 404)
        config, _ = client_config(relay, server)
        bad = McpSecrets(headers={"Authorization": "Bearer nope"})
        with pytest.raises(BaseException) as refused:
            async with open_client(config, bad, StderrTail()) as client:
                await list_tool_specs(client)
        assert "error response" in failure_reason(refused.value)
    assert calls == []


async def test_a_call_cherry_did_not_admit_is_a_tool_error_and_never_runs() -> None:
    calls: list[tuple[str, JsonObject]] = []
    asked: list[tuple[str, str | None]] = []
    server = echo_server(calls)

    def admit(tool_name: str, tool_use_id: str | None) -> str | None:
        asked.append((tool_name, tool_use_id))
        return "Cherry did not approve this tool call."

    async with serving((server,), admit) as relay:
        config, secrets = client_config(relay, server)
        async with open_client(config, secrets, StderrTail()) as client:
            result = tool_result(await client.call_tool("echo", {"text": "hi"}))
    assert result.is_error and "did not approve" in result.text()
    assert asked == [("mcp__echoes__echo", None)] and calls == []


async def test_the_server_is_gone_after_close() -> None:
    relay = AcpMcpRelay((echo_server([]),))
    await relay.start()
    port = relay.port
    assert port is not None and relay.running
    socket.create_connection(("127.0.0.1", port), timeout=5).close()
    await relay.close()
    await relay.close()  # idempotent
    assert not relay.running
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
