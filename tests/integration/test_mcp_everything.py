"""The hub against `@modelcontextprotocol/server-everything` (npm), the protocol's reference
server, over stdio and Streamable HTTP: its tools listed and called (text, an image, a sum),
an env value from the keyring reaching the server only, a long-running call cut by the hub's
call timeout into a tool error."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.mcp import (
    HubTimeouts,
    McpHub,
    McpSecrets,
    McpServerConfig,
    McpServerRepository,
    McpTransport,
    ServerStatus,
)
from cherry_desktop.core.storage.credentials import CredentialStore
from tests.integration.mcp_everything import everything_command
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def everything() -> tuple[str, list[str]]:
    return everything_command()


@pytest.fixture
def http_everything(everything: tuple[str, list[str]]) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    node, args = everything
    proc = subprocess.Popen([node, *args, "streamableHttp"], env={**os.environ, "PORT": str(port)},
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "server-everything did not listen"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(10)


async def test_over_stdio(everything: tuple[str, list[str]], repos: Repositories) -> None:
    node, args = everything
    registry = McpServerRepository(CredentialStore())
    saved = registry.save(McpServerConfig(id="", name="everything", command=node, args=tuple(args)),
                          McpSecrets(env={"CHERRY_TEST_TOKEN": "tok-123"}))
    hub = McpHub(registry, HubTimeouts(connect_s=60.0, call_s=2.0, backoff_first_s=60.0))
    try:
        hub.start()
        await until(lambda: hub.state(saved.id).status in (ServerStatus.READY, ServerStatus.FAILED), limit=60)
        state = hub.state(saved.id)
        assert state.status is ServerStatus.READY, state.error
        names = {t.name for t in state.tools}
        assert {"echo", "get-sum", "get-tiny-image", "get-env", "trigger-long-running-operation"} <= names
        assert (await hub.call_tool(saved.id, "echo", {"message": "hi"})).text().endswith("hi")
        assert "5" in (await hub.call_tool(saved.id, "get-sum", {"a": 2, "b": 3})).text()
        image = await hub.call_tool(saved.id, "get-tiny-image", {})
        assert any(block.get("type") == "image" for block in image.content)
        assert "tok-123" in (await hub.call_tool(saved.id, "get-env", {})).text()
        slow = await hub.call_tool(saved.id, "trigger-long-running-operation", {"duration": 30, "steps": 3})
        assert slow.is_error and "did not answer" in slow.text()
        assert (await hub.call_tool(saved.id, "echo", {"message": "after"})).text().endswith("after")
    finally:
        await hub.stop()


async def test_over_streamable_http(http_everything: str, repos: Repositories) -> None:
    registry = McpServerRepository(CredentialStore())
    saved = registry.save(McpServerConfig(id="", name="everything", transport=McpTransport.HTTP, url=http_everything))
    hub = McpHub(registry, HubTimeouts(connect_s=30.0, backoff_first_s=60.0))
    try:
        assert "echo" in {t.name for t in await hub.test(saved)}
        hub.start()
        await until(lambda: hub.state(saved.id).status is ServerStatus.READY, limit=30)
        assert "7" in (await hub.call_tool(saved.id, "get-sum", {"a": 3, "b": 4})).text()
    finally:
        await hub.stop()
