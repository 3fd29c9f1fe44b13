"""The hub over the network transports, against a real server written here with the `mcp`
package (run by uvicorn in a child process): Streamable HTTP and SSE, each behind a header the
server requires. The header's value comes from the keyring (never the database); without it the
server refuses and the status says why."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.mcp import (
    HubTimeouts,
    McpConnectError,
    McpHub,
    McpSecrets,
    McpServerConfig,
    McpServerRepository,
    McpTransport,
    ServerStatus,
)
from cherry_desktop.core.storage.credentials import CredentialStore
from tests.waiting import until

pytestmark = pytest.mark.timeout(120)

SERVER = '''
import sys, uvicorn
from mcp.server.mcpserver import MCPServer
server = MCPServer("web")

@server.tool()
def shout(text: str) -> str:
    return text.upper()

inner = server.sse_app() if sys.argv[2] == "sse" else server.streamable_http_app()

async def app(scope, receive, send):
    if scope["type"] == "http" and dict(scope["headers"]).get(b"x-token") != b"s3cret":
        await send({"type": "http.response.start", "status": 401, "headers": []})
        await send({"type": "http.response.body", "body": b"no token"})
        return
    await inner(scope, receive, send)

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error")
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(params=["http", "sse"])
def web_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    script = tmp_path / "web.py"
    script.write_text(SERVER)
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(script), str(port), request.param])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        path = "/sse" if request.param == "sse" else "/mcp"
        yield request.param, f"http://127.0.0.1:{port}{path}"
    finally:
        proc.terminate()
        proc.wait(10)


async def test_a_network_server_with_a_header_from_the_keyring(web_server: tuple[str, str], repos: Repositories,
                                                               db_path: Path) -> None:
    kind, url = web_server
    registry = McpServerRepository(CredentialStore())
    transport = McpTransport.SSE if kind == "sse" else McpTransport.HTTP
    saved = registry.save(McpServerConfig(id="", name="web", transport=transport, url=url),
                          McpSecrets(headers={"X-Token": "s3cret"}))
    hub = McpHub(registry, HubTimeouts(connect_s=20.0, backoff_first_s=60.0))
    try:
        assert [t.name for t in await hub.test(saved)] == ["shout"]
        with pytest.raises(McpConnectError):
            await hub.test(saved, McpSecrets())
        hub.start()
        await until(lambda: hub.state(saved.id).status is ServerStatus.READY, limit=30)
        result = await hub.call_tool(saved.id, "shout", {"text": "hello"})
        assert result.text() == "HELLO"
    finally:
        await hub.stop()
    for file in db_path.parent.iterdir():
        assert b"s3cret" not in file.read_bytes()
