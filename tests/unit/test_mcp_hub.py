"""The MCP registry, the hub and the one approval policy, on a real SQLite file, the real keyring
API (in-memory backend) and real MCP servers: `mcp-server-time` (PyPI) over stdio, a small
server written here with the `mcp` package (a duplicate tool, a hanging call, a 10 MB result,
a bad schema), a command that does not exist, one that exits at once and one that prints
garbage."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.mcp import (
    DuplicateToolError,
    HubTimeouts,
    McpConfigError,
    McpConnectError,
    McpHub,
    McpSecrets,
    McpServerConfig,
    McpServerRepository,
    ServerStatus,
    ToolApprovalPolicy,
    ToolClass,
    ToolPolicy,
    ToolSetting,
    Verdict,
    mcp_tool_name,
    secrets_key_name,
)
from cherry_desktop.core.mcp.toolset import build_toolset
from cherry_desktop.core.storage.credentials import CredentialStore
from tests.waiting import until

pytestmark = pytest.mark.timeout(120)

TIME = str(Path(sys.executable).parent / "mcp-server-time")

SMALL_SERVER = '''
import asyncio, sys
from mcp.server.mcpserver import MCPServer
server = MCPServer("small")

@server.tool()
def echo(text: str) -> str:
    return text

@server.tool(name="echo.v2")
def echo_v2(text: str) -> str:
    return text

@server.tool(name="echo_v2")
def echo_v2b(text: str) -> str:
    return text

@server.tool()
async def hang() -> str:
    await asyncio.sleep(3600)
    return "never"

@server.tool()
def huge() -> str:
    return "x" * 10_000_000

@server.tool()
def crash() -> str:
    import os
    os._exit(1)

server.run()
'''


@pytest.fixture
def registry(repos: Repositories) -> McpServerRepository:
    return McpServerRepository(CredentialStore())


@pytest.fixture
async def hub(registry: McpServerRepository) -> AsyncIterator[McpHub]:
    hub = McpHub(registry, HubTimeouts(connect_s=20.0, call_s=1.0, backoff_first_s=30.0))
    yield hub
    await hub.stop()


async def ready(hub: McpHub, server_id: str) -> None:
    hub.reload(server_id)
    await until(lambda: hub.state(server_id).status in (ServerStatus.READY, ServerStatus.FAILED), limit=30)


def test_names_are_normalised_and_secrets_live_in_the_keyring_only(registry: McpServerRepository,
                                                                    db_path: Path) -> None:
    assert mcp_tool_name("my server", "get.time") == "mcp__my_server__get_time"
    saved = registry.save(McpServerConfig(id="", name="web", command="x"),
                          McpSecrets(env={"API_TOKEN": "s3cret-env"}, headers={"Authorization": "Bearer s3cret-h"}))
    assert saved.env_names == ("API_TOKEN",) and saved.header_names == ("Authorization",)
    assert registry.secrets(saved.id).env == {"API_TOKEN": "s3cret-env"}
    assert "s3cret" not in repr(registry.secrets(saved.id))
    database_proxy.execute_sql("PRAGMA wal_checkpoint(FULL)")
    for file in db_path.parent.iterdir():
        assert b"s3cret" not in file.read_bytes(), file
    with pytest.raises(McpConfigError) as taken:
        registry.save(McpServerConfig(id="", name="web", command="y"))
    assert taken.value.code == "name-taken"
    with pytest.raises(McpConfigError):
        registry.save(McpServerConfig(id="", name="no command"))
    registry.delete(saved.id)
    assert CredentialStore().try_get(secrets_key_name(saved.id)) is None
    assert registry.list() == []


def test_one_policy_for_every_class_of_tool() -> None:
    class Rules:
        def rule_for(self, name: str) -> ToolPolicy | None:
            return {"mcp__s__allowed": ToolPolicy.ALLOW, "mcp__s__denied": ToolPolicy.DENY}.get(name)

    disabled: set[str] = {"Bash"}
    policy = ToolApprovalPolicy(disabled=disabled, rules=Rules(), cherry_classes={
        "mcp__cherry-tools__report_artifacts": ToolClass.CHERRY_SAFE,
        "mcp__cherry-tools__risky": ToolClass.CHERRY_APPROVAL})
    assert policy.verdict("mcp__s__allowed", "default") is Verdict.ALLOW
    assert policy.verdict("mcp__s__allowed", "plan") is Verdict.MODE
    assert policy.verdict("mcp__s__denied", "bypassPermissions") is Verdict.DENY
    assert policy.verdict("mcp__s__other", "default") is Verdict.MODE
    assert policy.verdict("mcp__cherry-tools__report_artifacts", "default") is Verdict.ALLOW
    assert policy.verdict("mcp__cherry-tools__risky", "bypassPermissions") is Verdict.ASK
    assert policy.verdict("Bash", "bypassPermissions") is Verdict.DENY
    assert policy.verdict("Read", "default") is Verdict.MODE
    # disabled_tools hard-blocks every class, live.
    disabled.add("mcp__cherry-tools__report_artifacts")
    assert policy.verdict("mcp__cherry-tools__report_artifacts", "default") is Verdict.DENY


async def test_a_real_server_lists_and_calls_and_a_policy_change_is_live(
        hub: McpHub, registry: McpServerRepository) -> None:
    saved = registry.save(McpServerConfig(id="", name="time", command=TIME))
    assert [t.name for t in await hub.test(saved)] == ["get_current_time", "convert_time"]
    await ready(hub, saved.id)
    assert hub.state(saved.id).status is ServerStatus.READY
    result = await hub.call_tool(saved.id, "get_current_time", {"timezone": "Etc/UTC"})
    assert not result.is_error and "day_of_week" in result.text()
    bad = await hub.call_tool(saved.id, "get_current_time", {"timezone": "Not/AZone"})
    assert bad.is_error
    assert hub.rule_for("mcp__time__get_current_time") is ToolPolicy.ASK
    registry.set_tool(saved.id, "get_current_time", ToolSetting(enabled=False))
    hub.reload(saved.id)
    assert hub.rule_for("mcp__time__get_current_time") is ToolPolicy.DENY
    assert [t.name for s in hub.materialise([saved.id]) for t in s.tools] == ["convert_time"]
    assert (await hub.call_tool(saved.id, "get_current_time", {"timezone": "Etc/UTC"})).is_error


async def test_bad_servers_end_in_a_clear_status(hub: McpHub, registry: McpServerRepository, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.py"
    garbage.write_text("import sys, time\nprint('hello, not json')\nsys.stdout.flush()\ntime.sleep(60)\n")
    cases = {
        "missing": McpServerConfig(id="", name="missing", command=str(tmp_path / "nope")),
        "exits": McpServerConfig(id="", name="exits", command=sys.executable, args=("-c", "import sys; sys.exit(3)")),
    }
    for name, config in cases.items():
        saved = registry.save(config)
        await ready(hub, saved.id)
        state = hub.state(saved.id)
        assert state.status is ServerStatus.FAILED and state.error, name
        with pytest.raises(McpConnectError):
            await hub.test(saved)
    assert "not found" in hub.state(registry.list()[0].id).error
    hub.timeouts = HubTimeouts(connect_s=2.0)
    noisy = registry.save(McpServerConfig(id="", name="noisy", command=sys.executable, args=(str(garbage),)))
    with pytest.raises(McpConnectError):
        await hub.test(noisy)
    # No turn reads anything but the cache: none of them is in a toolset.
    toolset = build_toolset(hub, [c.id for c in registry.list()])
    assert toolset.servers == () and toolset.error is None


async def test_duplicates_hangs_and_huge_results(hub: McpHub, registry: McpServerRepository, tmp_path: Path) -> None:
    script = tmp_path / "small.py"
    script.write_text(SMALL_SERVER)
    saved = registry.save(McpServerConfig(id="", name="small", command=sys.executable, args=(str(script),)))
    await ready(hub, saved.id)
    assert hub.state(saved.id).status is ServerStatus.READY, hub.state(saved.id).error
    # echo.v2 and echo_v2 are one runtime name: ambiguous, the toolset fails closed.
    with pytest.raises(DuplicateToolError):
        hub.materialise([saved.id])
    assert build_toolset(hub, [saved.id]).error is not None
    registry.set_tool(saved.id, "echo.v2", ToolSetting(enabled=False))
    hub.reload(saved.id)
    [server] = build_toolset(hub, [saved.id]).servers
    assert "mcp__small__echo_v2" in server.tool_names()
    hung = await server.call("hang", {})
    assert hung.is_error and "did not answer" in hung.text()
    hub.timeouts = HubTimeouts(call_s=60.0)  # 10 MB takes its time over a pipe on a busy machine
    huge = await server.call("huge", {})
    assert len(huge.text()) < 200_000 and "cut this tool result" in huge.text()
    assert (await server.call("echo", {"text": "still fine"})).text() == "still fine"


async def test_stop_ends_the_servers(hub: McpHub, registry: McpServerRepository) -> None:
    saved = registry.save(McpServerConfig(id="", name="time", command=TIME))
    await ready(hub, saved.id)
    await asyncio.wait_for(hub.stop(), 10)


def test_a_server_added_after_the_sdk_was_imported_still_connects(tmp_path: Path) -> None:
    """The SDK's import leaves mcp's server stack and jsonschema deferred; the hub's first
    connection after it (a server added after a Claude Code turn) must still list tools."""
    import subprocess

    script = f"""
import asyncio
from pathlib import Path
from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
load_sdk()
from cherry_desktop.core.data.database import open_database
from cherry_desktop.core.mcp import McpHub, McpServerConfig, McpServerRepository
open_database(Path({str(tmp_path / 'c.db')!r}))
repo = McpServerRepository(None)
config = repo.save(McpServerConfig(id="", name="time", command={TIME!r}))
print(sorted(t.name for t in asyncio.run(McpHub(repo).test(config))))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['convert_time', 'get_current_time']", out.stderr[-2000:]


async def test_a_server_that_dies_is_reconnected_with_backoff(registry: McpServerRepository, tmp_path: Path) -> None:
    script = tmp_path / "small.py"
    script.write_text(SMALL_SERVER)
    saved = registry.save(McpServerConfig(id="", name="small", command=sys.executable, args=(str(script),),
                                          tools={"echo.v2": ToolSetting(enabled=False)}))
    hub = McpHub(registry, HubTimeouts(connect_s=20.0, call_s=10.0, backoff_first_s=0.2))
    seen: list[ServerStatus] = []
    hub.subscribe(lambda state: seen.append(state.status))
    try:
        await ready(hub, saved.id)
        crashed = await hub.call_tool(saved.id, "crash", {})
        assert crashed.is_error, crashed.text()
        await until(lambda: ServerStatus.FAILED in seen, limit=30)
        await until(lambda: hub.state(saved.id).status is ServerStatus.READY, limit=30)
        assert (await hub.call_tool(saved.id, "echo", {"text": "back"})).text() == "back"
    finally:
        await hub.stop()


def test_a_stdio_server_dies_with_the_app_even_when_the_app_is_sigkilled(tmp_path: Path) -> None:
    """A server that ignores its stdin closing (it never reads it) still ends: the hub starts
    it tied to the app (`process_tie`)."""
    import os
    import signal
    import subprocess
    import time

    import psutil

    pid_file = tmp_path / "server.pid"
    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)\n")
    app = f"""
import asyncio, sys
from pathlib import Path
from cherry_desktop.core.data.database import open_database
from cherry_desktop.core.mcp import McpHub, McpServerConfig, McpServerRepository
open_database(Path({str(tmp_path / 'c.db')!r}))
repo = McpServerRepository(None)
repo.save(McpServerConfig(id="", name="stubborn", command=sys.executable, args=({str(stubborn)!r},)))
async def main():
    McpHub(repo).start()
    await asyncio.sleep(300)
asyncio.run(main())
"""
    proc = subprocess.Popen([sys.executable, "-c", app])
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the server never started"
            time.sleep(0.05)
        server_pid = int(pid_file.read_text())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 5
        while psutil.pid_exists(server_pid) and psutil.Process(server_pid).status() != psutil.STATUS_ZOMBIE:
            if time.monotonic() > deadline:
                psutil.Process(server_pid).kill()
                raise AssertionError("the MCP server outlived the app")
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            proc.kill()
