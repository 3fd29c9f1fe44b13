"""Benchmark: the API gateway in front of the scripted model server, each figure beside its floor
measured in the same run (machines differ by 2-5x; compare within a run).

- `first_byte_overhead_ms`: an Anthropic ``/v1/messages`` stream through the gateway onto the
  scripted server's OpenAI-compatible side (translated, the Claude Code case) vs the same reply
  asked of the scripted server directly; medians of alternating requests, time to the first
  byte of the first event. Floor: `first_byte_control_ms`, the same difference between two direct series
  (what chance alone gives). Target <= 5.
- `chunks_per_s` through the gateway (a burst of single-character deltas); floor: the scripted
  server's own rate, direct (`chunks_per_s_direct`: the gateway cannot beat its upstream).
- `turn_time_ratio`: a paced Claude Code turn (the real CLI, 10 ms per delta) through the gateway
  onto the OpenAI-compatible upstream vs the CLI straight at the Anthropic endpoint; medians of
  alternating turns of warm CLIs. Floor: `turn_time_ratio_control`, a second direct CLI vs the
  first. Target <= 1.05.
- `idle_rss_mb` of `cherry-desktop serve` a few seconds after it listens; floor:
  `idle_rss_core_mb`, a process that starts the same core without the gateway.

Prints the figures and one JSON line. Run: .venv/bin/python bench/gateway.py [--requests 200]
[--chunks 20000] [--turns 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_SCRATCH = Path(tempfile.mkdtemp(prefix="cherry-bench-gateway-"))
os.environ["HOME"] = str(_SCRATCH / "home")
os.environ["CHERRY_DESKTOP_DATA_DIR"] = str(_SCRATCH / "data")
(_SCRATCH / "home").mkdir()

import httpx  # noqa: E402
import keyring  # noqa: E402
import psutil  # noqa: E402
from _harness import run_qasync  # noqa: E402

from cherry_desktop.core.data import DatabaseService  # noqa: E402
from cherry_desktop.core.gateway import ApiGateway, GatewayKeyCheck  # noqa: E402
from cherry_desktop.core.storage.credentials import CredentialStore  # noqa: E402
from cherry_desktop.demo import Reply, ScriptedModelServer, TextBlock, build_cli_env  # noqa: E402

KEY = "cs-sk-bench"
ANSWER = " ".join(f"word{i}" for i in range(120))
PACED_REPLY = Reply(blocks=(TextBlock(ANSWER),), chunk_size=12, delay_s=0.01)
SHORT_REPLY = Reply(blocks=(TextBlock("Hello there, this is a short reply."),), chunk_size=8)


class _MemoryKeyring(keyring.backend.KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


async def first_byte_ms(client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str]) -> float:
    """Milliseconds to the first byte of the first SSE event. (A direct server sends its
    headers before its first event; the gateway sends nothing before the upstream's first chunk,
    on purpose: the first event's byte is what both can be compared by.)"""
    t0 = time.perf_counter()
    elapsed = 0.0
    async with client.stream("POST", url, json=body, headers=headers) as response:
        async for piece in response.aiter_raw():
            if not elapsed and b"data:" in piece:
                elapsed = (time.perf_counter() - t0) * 1000
    return elapsed


async def first_byte(server: ScriptedModelServer, gateway: ApiGateway, requests: int) -> dict[str, float]:
    anthropic = {"model": "oai:m1", "max_tokens": 50, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    direct = {"model": "m1", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    samples: dict[str, list[float]] = {"gateway": [], "direct": [], "direct_b": []}
    async with httpx.AsyncClient(timeout=30) as client:
        for i in range(requests + 20):
            order = [("gateway", gateway.base_url + "/v1/messages", anthropic, {"x-api-key": KEY}),
                     ("direct", server.base_url + "/v1/chat/completions", direct, {}),
                     ("direct_b", server.base_url + "/v1/chat/completions", direct, {})]
            for name, url, body, headers in order if i % 2 else reversed(order):
                server.enqueue(SHORT_REPLY)
                ms = await first_byte_ms(client, url, body, headers)
                if i >= 20:  # warm-up
                    samples[name].append(ms)
    med = {name: statistics.median(values) for name, values in samples.items()}
    return {"first_byte_overhead_ms": med["gateway"] - med["direct"], "first_byte_direct_ms": med["direct"],
            "first_byte_control_ms": abs(med["direct_b"] - med["direct"])}


async def chunks_rate(client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str]) -> float:
    t0 = time.perf_counter()
    count = 0
    async with client.stream("POST", url, json=body, headers=headers) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                count += 1
    return count / (time.perf_counter() - t0)


async def throughput(server: ScriptedModelServer, gateway: ApiGateway, chunks: int) -> dict[str, float]:
    burst = Reply(blocks=(TextBlock("x" * chunks),), chunk_size=1)
    anthropic = {"model": "oai:m1", "max_tokens": 50, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    direct = {"model": "m1", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    rates: dict[str, list[float]] = {"gateway": [], "direct": []}
    async with httpx.AsyncClient(timeout=120) as client:
        for _ in range(3):
            server.enqueue(burst)
            rates["direct"].append(await chunks_rate(client, server.base_url + "/v1/chat/completions", direct, {}))
            server.enqueue(burst)
            rates["gateway"].append(await chunks_rate(client, gateway.base_url + "/v1/messages", anthropic,
                                                      {"x-api-key": KEY}))
    return {"chunks_per_s": statistics.median(rates["gateway"]),
            "chunks_per_s_direct": statistics.median(rates["direct"])}


class Cli:
    """One warm Claude Code CLI (the real one), at `base_url` with `model`."""

    def __init__(self, base_url: str, model: str, api_key: str, workspace: Path) -> None:
        from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

        env = build_cli_env(base_url, home=_SCRATCH / "home", api_key=api_key)
        self.client = ClaudeSDKClient(ClaudeAgentOptions(cwd=str(workspace), env=env, model=model,
                                                         permission_mode="bypassPermissions",
                                                         include_partial_messages=True, stderr=lambda _: None))

    async def turn(self) -> float:
        t0 = time.perf_counter()
        await self.client.query("count")
        async for message in self.client.receive_response():
            if type(message).__name__ == "ResultMessage":
                if getattr(message, "is_error", False):
                    raise RuntimeError(f"the turn failed: {getattr(message, 'result', '')}")
                return (time.perf_counter() - t0) * 1000
        raise RuntimeError("no result")


async def turn_ratio(server: ScriptedModelServer, gateway: ApiGateway, turns: int) -> dict[str, float]:
    workspace = _SCRATCH / "ws"
    workspace.mkdir(exist_ok=True)
    sides = {"gateway": Cli(gateway.base_url, "oai:m1", KEY, workspace),
             "direct": Cli(server.base_url, "claude-demo", "sk-ant-demo-offline", workspace),
             "direct_b": Cli(server.base_url, "claude-demo", "sk-ant-demo-offline", workspace)}
    times: dict[str, list[float]] = {name: [] for name in sides}
    for side in sides.values():
        await side.client.connect()
    try:
        for side in sides.values():
            await side.turn()  # warm-up
        for i in range(turns):
            names = list(sides) if i % 2 else list(reversed(sides))
            for name in names:
                times[name].append(await sides[name].turn())
    finally:
        for side in sides.values():
            await side.client.disconnect()
    med = {name: statistics.median(values) for name, values in times.items()}
    return {"turn_time_ratio": med["gateway"] / med["direct"], "turn_ms_direct": med["direct"],
            "turn_time_ratio_control": med["direct_b"] / med["direct"]}


_CORE_ONLY = """
import asyncio, sys
from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.storage.paths import build_path_registry
async def main():
    core = await start_core(build_path_registry(sys.argv[1]))
    print("ready", flush=True)
    await asyncio.sleep(3600)
asyncio.run(main())
"""


def idle_rss(wait_s: float = 3.0) -> dict[str, float]:
    def measure(args: list[str]) -> float:
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout is not None
            proc.stdout.readline()
            time.sleep(wait_s)
            return float(psutil.Process(proc.pid).memory_info().rss) / 2**20
        finally:
            proc.terminate()
            proc.wait(10)

    serve = measure([sys.executable, "-m", "cherry_desktop", "serve", "--data-dir", str(_SCRATCH / "serve"),
                     "--port", "0", "--key", KEY])
    core = measure([sys.executable, "-c", _CORE_ONLY, str(_SCRATCH / "core")])
    return {"idle_rss_mb": serve, "idle_rss_core_mb": core}


async def main(args: argparse.Namespace) -> dict[str, float]:
    keyring.set_keyring(_MemoryKeyring())
    database = DatabaseService(_SCRATCH / "bench.db")
    await database.on_init(None)  # type: ignore[arg-type]
    repos = database.repos
    server = ScriptedModelServer(default=PACED_REPLY, script_all=False)
    await server.start()
    repos.providers.upsert_provider(id="oai", name="Scripted", type="openai-compatible",
                                    base_url=server.base_url + "/v1", settings={"demo": True})
    gateway = ApiGateway(repos, CredentialStore(), GatewayKeyCheck(fixed_key=KEY), port=0)
    await gateway.start()
    figures: dict[str, float] = {}
    try:
        server.script_all = True
        figures.update(await first_byte(server, gateway, args.requests))
        figures.update(await throughput(server, gateway, args.chunks))
        server.script_all = False
        figures.update(await turn_ratio(server, gateway, args.turns))
    finally:
        await gateway.stop()
        await server.stop()
        await database.on_stop()
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--chunks", type=int, default=20000)
    parser.add_argument("--turns", type=int, default=10)
    arguments = parser.parse_args()
    result = run_qasync(lambda: main(arguments))
    result.update(idle_rss())
    for name, value in result.items():
        print(f"{name:32s} {value:10.2f}")
    print(json.dumps({k: round(v, 3) for k, v in result.items()}))
