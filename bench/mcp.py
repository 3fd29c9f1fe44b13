"""Benchmark: what Cherry's MCP servers cost an agent, each figure against its floor measured in
the same run.

- `turn_start_overhead_ms`: a Claude Code connection's start (connect -> send -> the model's
  first request reaching the scripted server), with the agent's toolset holding 3 healthy
  servers (`mcp-server-time`, over stdio, through the hub), 1 dead (a command that does not
  exist) and 1 hanging (a process that never answers `initialize`) besides Cherry's own tools,
  minus the same start with none of those servers (Cherry's own tools only, as every Claude
  Code connection has them); medians, runs alternate. Target <= 50.
  `turn_start_cherry_tools_ms`: Cherry's own tools vs no toolset at all (no ``--mcp-config``):
  what having MCP at all costs, the CLI's handshake with its in-process servers.
- `tool_call_overhead_ms`: `get_current_time` called through Cherry's relay (the in-process
  SDK MCP server Claude Code talks to -> the hub -> the server) minus the same call on a
  direct client of the same server binary (median per call). Target <= 5.
- `idle_rss_after_agent_turn_mb`: the app process (a child running the real core, one Claude
  Code turn against the scripted server, then idle 3 s) with two servers configured and used
  by the agent; floor `idle_rss_after_agent_turn_floor_mb`, the same child with none. Target
  <= 140 (`idle_rss_mcp_overhead_mb` is the difference).

Prints figures and one JSON line. Run: .venv/bin/python bench/mcp.py [--reps 12] [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file's name would shadow the `mcp` package: its folder goes last on the path.
_BENCH_DIR = sys.path.pop(0)
sys.path.append(_BENCH_DIR)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_SCRATCH = Path(tempfile.mkdtemp(prefix="cherry-bench-mcp-"))
os.environ["HOME"] = str(_SCRATCH / "home")
(_SCRATCH / "home").mkdir(exist_ok=True)

from tests.waiting import until  # noqa: E402

TIME_SERVER = str(Path(sys.executable).parent / "mcp-server-time")
HANGING = "import sys, time\nsys.stdin.readline()\ntime.sleep(3600)\n"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def hub_with_servers(root: Path, healthy: int, *, dead: bool, hanging: bool) -> tuple[Any, list[str]]:
    from cherry_desktop.core.data.database import open_database
    from cherry_desktop.core.mcp import HubTimeouts, McpHub, McpServerConfig, McpServerRepository, ServerStatus

    open_database(root / "cherry.db")
    repository = McpServerRepository(None)
    configs = [McpServerConfig(id="", name=f"time{i}", command=TIME_SERVER) for i in range(healthy)]
    if dead:
        configs.append(McpServerConfig(id="", name="dead", command=str(root / "no-such-server")))
    if hanging:
        script = root / "hang.py"
        script.write_text(HANGING)
        configs.append(McpServerConfig(id="", name="hanging", command=sys.executable, args=(str(script),)))
    ids = [repository.save(c).id for c in configs]
    hub = McpHub(repository, HubTimeouts(connect_s=600.0, backoff_first_s=600.0))
    hub.start()
    await until(lambda: sum(hub.state(i).status is ServerStatus.READY for i in ids) >= healthy, limit=60)
    return hub, ids


async def turn_start(reps: int) -> dict[str, float]:
    from cherry_desktop.core.ai.runtime.cherry_tools import CHERRY_TOOL_CLASSES, cherry_tools_server
    from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
    from cherry_desktop.core.ai.runtime.types import RuntimeSendInput
    from cherry_desktop.core.mcp.toolset import AgentToolset, build_toolset
    from cherry_desktop.core.messages import UIMessage
    from cherry_desktop.demo import ScriptedModelServer, text
    from tests.integration.claude_driver_helpers import Harness

    root = _SCRATCH / "turn-start"
    root.mkdir()
    hub, ids = await hub_with_servers(root, 3, dead=True, hanging=True)
    workspace = root / "ws"
    workspace.mkdir()
    timings: dict[str, list[float]] = {"none": [], "cherry": [], "servers": []}
    materialise: list[float] = []
    async with ScriptedModelServer() as server:
        harness = Harness(server, root, workspace)
        driver = ClaudeCodeRuntimeDriver()

        def toolset(kind: str) -> AgentToolset:
            if kind == "none":
                return AgentToolset()
            cherry = [cherry_tools_server(workspace=workspace, data_dir=root / "agent-data")]
            t0 = time.perf_counter()
            built = build_toolset(hub, ids if kind == "servers" else [], cherry, CHERRY_TOOL_CLASSES)
            if kind == "servers":
                materialise.append((time.perf_counter() - t0) * 1000)
            return built

        for rep in range(reps + 1):
            for kind in ("none", "cherry", "servers") if rep % 2 else ("servers", "cherry", "none"):
                connect_input = harness.connect_input(permission_mode="default")
                t0 = time.perf_counter()
                connect_input.tools = toolset(kind)
                before = len(server.message_requests())
                server.enqueue(text("ok"))
                connection = await driver.connect(connect_input)
                events = connection.events()
                await connection.send(RuntimeSendInput(message=UIMessage.user_text("hi")))
                await until(lambda b=before: len(server.message_requests()) > b, limit=60)
                elapsed = (time.perf_counter() - t0) * 1000
                async with asyncio.timeout(60):
                    async for event in events:
                        if event.type in ("turn-complete", "error"):
                            break
                await connection.close()
                if rep:  # the first round warms up
                    timings[kind].append(elapsed)
        await driver.shutdown()
    await hub.stop()
    none, cherry, servers = (median(timings[k]) for k in ("none", "cherry", "servers"))
    return {"turn_start_none_ms": none, "turn_start_cherry_ms": cherry, "turn_start_servers_ms": servers,
            "turn_start_overhead_ms": servers - cherry, "turn_start_cherry_tools_ms": cherry - none,
            "toolset_materialise_ms": median(materialise)}


async def tool_call(calls: int) -> dict[str, float]:
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from cherry_desktop.core.ai.runtime.claude_code.mcp_relay import sdk_server
    from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
    from cherry_desktop.core.mcp.connect import StderrTail, prepare_client_import
    from cherry_desktop.core.mcp.toolset import build_toolset

    load_sdk()
    prepare_client_import()
    root = _SCRATCH / "tool-call"
    root.mkdir()
    hub, ids = await hub_with_servers(root, 1, dead=False, hanging=False)
    [server] = build_toolset(hub, ids).servers
    relay = sdk_server(server)["instance"]
    args = {"timezone": "Etc/UTC"}
    relayed: list[float] = []
    direct: list[float] = []
    stderr = StderrTail()
    params = StdioServerParameters(command=TIME_SERVER)
    async with Client(relay, cache=None) as via_cherry, Client(stdio_client(params, errlog=stderr.file),
                                                              cache=None) as plain:
        for i in range(calls + 20):
            for name, client, out in (("relay", via_cherry, relayed), ("direct", plain, direct))[::1 - 2 * (i % 2)]:
                t0 = time.perf_counter()
                result = await client.call_tool("get_current_time", args)
                elapsed = (time.perf_counter() - t0) * 1000
                assert not result.is_error, name
                if i >= 20:
                    out.append(elapsed)
    stderr.close()
    await hub.stop()
    return {"tool_call_relay_ms": median(relayed), "tool_call_direct_ms": median(direct),
            "tool_call_overhead_ms": median(relayed) - median(direct)}


def idle_rss() -> dict[str, float]:
    out = {}
    for servers, key in ((2, "idle_rss_after_agent_turn_mb"), (0, "idle_rss_after_agent_turn_floor_mb")):
        proc = subprocess.run([sys.executable, __file__, "--child", str(servers)], capture_output=True, text=True,
                              timeout=180, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        lines = [line for line in proc.stdout.splitlines() if line.startswith("RSS ")]
        if not lines:
            raise RuntimeError(f"the RSS child failed: {proc.stderr[-2000:]}")
        out[key] = float(lines[-1].split()[1])
    out["idle_rss_mcp_overhead_mb"] = out["idle_rss_after_agent_turn_mb"] - out["idle_rss_after_agent_turn_floor_mb"]
    return out


async def child(servers: int) -> None:
    """One app core, `servers` MCP servers for the demo agent, one Claude Code turn, idle."""
    import psutil
    from _harness import TimingSubscriber

    from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.mcp import McpServerConfig, ServerStatus
    from cherry_desktop.core.messages import TextPart
    from cherry_desktop.core.state.topics import session_topic_id
    from cherry_desktop.core.storage.paths import build_path_registry
    from cherry_desktop.demo import ScriptedModelServer, text
    from cherry_desktop.demo.bootstrap import ensure_demo_records

    data = Path(tempfile.mkdtemp(prefix="cherry-bench-mcp-rss-"))
    async with ScriptedModelServer() as model:
        core = await start_core(build_path_registry(data))
        agent_id, session_id, _ws = ensure_demo_records(core.repos, core.paths.get("feature.agents.workspaces"),
                                                        model.base_url)
        ids = [core.mcp.repository.save(McpServerConfig(id="", name=f"time{i}", command=TIME_SERVER)).id
               for i in range(servers)]
        for server_id in ids:
            core.mcp.hub.reload(server_id)
        await until(lambda: sum(core.mcp.hub.state(i).status is ServerStatus.READY for i in ids) >= servers,
                    limit=60)
        agent = core.repos.agents.get_agent(agent_id)
        core.repos.agents.update_agent(agent_id, config={**agent.config, "mcps": ids})
        model.enqueue(text("ok"))
        subscriber = TimingSubscriber()
        subscriber.reset()
        request = AiStreamOpenRequest(topic_id=session_topic_id(session_id),
                                      user_message_parts=[TextPart(text="hi", state="done")])
        await dispatch_stream_request(core.stream_manager, subscriber, request)  # type: ignore[arg-type]
        async with asyncio.timeout(60):
            await subscriber.done.wait()
        await asyncio.sleep(3.0)
        print(f"RSS {psutil.Process().memory_info().rss / 2**20:.1f} status={subscriber.status}", flush=True)
        await core.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=12)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--child", type=int, default=None)
    args = parser.parse_args()
    if args.child is not None:
        from _harness import run_qasync

        run_qasync(lambda: child(args.child))
        return
    figures: dict[str, float] = {}
    figures.update(asyncio.run(tool_call(args.calls)))
    figures.update(asyncio.run(turn_start(args.reps)))
    figures.update(idle_rss())
    for key, value in figures.items():
        print(f"{key:40s} {value:10.2f}")
    print(json.dumps({k: round(v, 2) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
