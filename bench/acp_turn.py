"""Benchmark: an ACP agent's turn through the whole app core vs the same agent driven by a bare
ACP client, in the same run, on the same scripted model server (claude-agent-acp, pinned).

- app: `dispatch_stream_request` -> AiStreamManager -> AgentSessionRuntimeService ->
  AcpRuntimeDriver -> claude-agent-acp, on the ACP demo records (`ensure_acp_demo_records`),
  timed at a window-like subscriber (first text delta, terminal);
- bare: one claude-agent-acp child started with exactly the argv and env the driver builds for
  that session (`AcpRuntimeDriver.launch_for`), driven by the `agent-client-protocol` client
  with a minimal client object: ``initialize``, ``authenticate``, ``session/new`` once, then per
  turn ``session/prompt`` -> first text chunk -> the prompt's response.

Both keep their agent between turns (the steady state); untimed turns warm both up, then timed
turns alternate (which side goes first alternates too):

- `turn_time_ratio` (target <= 1.05): a paced reply, 10 ms per 8-character delta (~0.7 s a
  turn, a model's pace): the turn a person waits for;
- `app_fixed_ms`: app minus bare on a burst reply (every delta at once), the app's own work per
  turn (session validated, rows saved, the final row and the terminal).

Prints figures and one JSON line {"turn_time_ratio", "app_fixed_ms", ...} (medians).
Run: .venv/bin/python bench/acp_turn.py [--reps 30] [--paced-reps 20] [--warm-up 5] [--acp-root DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import acp
from _harness import TURN_TIMEOUT_S, AppSide, TurnTiming, connect_input_of
from _harness import median as _med
from acp import schema

from cherry_desktop.core.ai.runtime.acp.driver import AcpRuntimeDriver
from cherry_desktop.core.ai.runtime.acp.install import find_agent
from cherry_desktop.core.ai.runtime.acp.process import AcpProcess
from cherry_desktop.core.ai.runtime.acp_presets import CLAUDE_AGENT_ACP, AgentChoice
from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import Reply, ScriptedModelServer, TextBlock
from cherry_desktop.demo.bootstrap import ensure_acp_demo_records, ensure_demo_records

BURST = Reply(blocks=(TextBlock("The quick brown fox jumps over the lazy dog. " * 12),), chunk_size=8)
#: Still far faster than a real model: 10 ms per delta.
PACED = Reply(blocks=BURST.blocks, chunk_size=8, delay_s=0.01)


class _BareClient:
    """The least an ACP client must be for a text turn: it stamps the first text chunk."""

    def __init__(self) -> None:
        self.first: float | None = None

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        is_text = getattr(update, "session_update", None) == "agent_message_chunk"
        if self.first is None and is_text and getattr(update.content, "text", ""):
            self.first = time.perf_counter()

    async def request_permission(self, *args: Any, **kwargs: Any) -> schema.RequestPermissionResponse:
        raise RuntimeError("the bare turn asked for a tool")


class BareSide:
    def __init__(self, driver: AcpRuntimeDriver, connect_input: Any, root: Path) -> None:
        installation = find_agent(AgentChoice(preset=CLAUDE_AGENT_ACP), root)
        self.launch = driver.launch_for(connect_input, installation)
        self.process = AcpProcess(self.launch.argv, cwd=self.launch.cwd, env=self.launch.env)
        self.client = _BareClient()
        self.conn: Any = None
        self.session_id = ""

    async def start(self) -> None:
        stdin, stdout = await self.process.start()
        self.conn = acp.connect_to_agent(self.client, stdin, stdout)  # type: ignore[arg-type]
        caps = schema.ClientCapabilities(auth=schema.AuthCapabilities(field_meta={"gateway": True}))
        await self.conn.initialize(protocol_version=acp.PROTOCOL_VERSION, client_capabilities=caps)
        await self.conn.authenticate(method_id="gateway", **(self.launch.auth_meta or {}))
        session = await self.conn.new_session(cwd=str(self.launch.cwd), mcp_servers=[],
                                              systemPrompt=self.launch.system_prompt)
        self.session_id = session.session_id

    async def turn(self, prompt: str) -> TurnTiming:
        self.client.first = None
        t0 = time.perf_counter()
        async with asyncio.timeout(TURN_TIMEOUT_S):
            response = await self.conn.prompt(session_id=self.session_id,
                                              prompt=[schema.TextContentBlock(type="text", text=prompt)])
        end = time.perf_counter()
        if self.client.first is None or response.stop_reason != "end_turn":
            raise RuntimeError(f"the bare turn failed: {response.stop_reason}")
        return TurnTiming((self.client.first - t0) * 1000, (end - t0) * 1000)

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        await self.process.terminate()


async def _alternate(sides: list[tuple[Any, list[TurnTiming]]], reps: int, label: str) -> None:
    for i in range(reps):
        for side, out in sides if i % 2 == 0 else list(reversed(sides)):
            out.append(await side.turn(f"{label} {i}"))


async def bench(reps: int, paced_reps: int, warm_up: int, root: Path | None) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="cherry-bench-acp-"))
    server = ScriptedModelServer(default=BURST)
    await server.start()
    core = await start_core(build_path_registry(scratch / "data"))
    bare: BareSide | None = None
    try:
        workspaces = core.paths.get("feature.agents.workspaces")
        ensure_demo_records(core.repos, workspaces, server.base_url)
        _, session_id, _ = ensure_acp_demo_records(core.repos, workspaces)
        driver = core.agent_runtime.registry.get("acp")
        assert isinstance(driver, AcpRuntimeDriver)
        install_root = root or driver.install_root
        driver.install_root = install_root
        app = AppSide(core, session_id)
        bare = BareSide(driver, connect_input_of(core, session_id, None), install_root)
        await bare.start()
        await _alternate([(app, []), (bare, [])], warm_up, "warm-up")
        app_b: list[TurnTiming] = []
        bare_b: list[TurnTiming] = []
        await _alternate([(app, app_b), (bare, bare_b)], reps, "turn")
        server.default = PACED
        app_p: list[TurnTiming] = []
        bare_p: list[TurnTiming] = []
        await _alternate([(app, app_p), (bare, bare_p)], paced_reps, "paced turn")
        return {"app": app_b, "bare": bare_b, "app_paced": app_p, "bare_paced": bare_p}
    finally:
        if bare is not None:
            await bare.close()
        await core.stop()
        await server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=30, help="timed burst turns per side")
    parser.add_argument("--paced-reps", type=int, default=20, help="timed paced turns per side")
    parser.add_argument("--warm-up", type=int, default=5, help="untimed turns per side first")
    parser.add_argument("--acp-root", type=Path, default=None,
                        help="the install root holding claude-agent-acp (default: the app's runtime folder)")
    args = parser.parse_args()
    raw = asyncio.run(bench(args.reps, args.paced_reps, args.warm_up, args.acp_root))
    app_turn, bare_turn = _med([t.turn_ms for t in raw["app"]]), _med([t.turn_ms for t in raw["bare"]])
    app_first, bare_first = _med([t.first_chunk_ms for t in raw["app"]]), _med([t.first_chunk_ms for t in raw["bare"]])
    paced_app, paced_bare = _med([t.turn_ms for t in raw["app_paced"]]), _med([t.turn_ms for t in raw["bare_paced"]])
    print(f"claude-agent-acp {CLAUDE_AGENT_ACP.version}: {len(raw['app_paced'])} paced turns per side "
          "(10 ms per delta)")
    print(f"  turn:  app {paced_app:8.1f}   bare {paced_bare:8.1f}   turn_time_ratio {paced_app / paced_bare:.3f}")
    print(f"{len(raw['app'])} burst turns per side (medians, ms)")
    print(f"  turn:  app {app_turn:8.1f}   bare {bare_turn:8.1f}   app's fixed work {app_turn - bare_turn:.2f}")
    print(f"  first chunk: app {app_first:8.1f}   bare {bare_first:8.1f}")
    print(json.dumps({
        "turn_time_ratio": round(paced_app / paced_bare, 4),
        "app_fixed_ms": round(app_turn - bare_turn, 2),
        "turn_time_ratio_burst": round(app_turn / bare_turn, 4),
        "app_turn_paced_ms": round(paced_app, 1), "bare_turn_paced_ms": round(paced_bare, 1),
        "app_turn_ms": round(app_turn, 2), "bare_turn_ms": round(bare_turn, 2),
        "first_chunk_overhead_ms": round(app_first - bare_first, 2),
        "app_dispatch_ms": round(_med([t.dispatch_ms or 0.0 for t in raw["app"]]), 2),
        "reps": len(raw["app"]), "paced_reps": len(raw["app_paced"]), "agent": CLAUDE_AGENT_ACP.spec,
    }))


if __name__ == "__main__":
    main()
