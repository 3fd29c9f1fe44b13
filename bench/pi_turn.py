"""Benchmark: a pi turn through the whole app core vs a bare pi RPC client, and the saving of
a prewarmed first turn.

Both sides talk to the same `ScriptedModelServer` on 127.0.0.1 (same reply, same process):

- app: `dispatch_stream_request` -> AiStreamManager -> AgentSessionRuntimeService ->
  PiRuntimeDriver -> pi, on the pi demo records (`ensure_pi_demo_records`), timed at a
  window-like subscriber (first text delta, terminal);
- bare: one pi child started with exactly the argv and env the driver builds for that
  session (`PiRuntimeDriver.launch_for`: same home, gate, prompts, tools), driven by a minimal
  JSON-lines client: ``prompt`` -> first ``text_delta`` -> ``agent_end``.

Both keep their pi between turns (the steady state); untimed turns warm both up, then timed
turns alternate (which side goes first alternates too), in two runs:

- `turn_time_ratio` (target <= 1.05): a paced reply, 10 ms per 8-character delta (~0.7 s a turn:
  a model's pace, still faster than any real one). This is the turn a person waits for.
- `turn_time_ratio_burst`: every delta at once. pi itself then needs only ~5-7 ms, so the
  app's fixed work per turn, which the spec makes part of the turn, weighs 15-30 %: before pi
  gets the prompt, the session validated (two queries and the workspace's realpath) and the
  user and pending assistant rows saved in one transaction (with their search-index triggers),
  then the turn begun; after pi's ``agent_end``, the final row written and the terminal told to
  windows after it is saved. `app_fixed_ms` is that cost (app minus bare, burst medians) and
  `app_dispatch_ms` its part before the prompt. The stream itself costs the app no more than
  the bare client: `driver_turn_time_ratio` (the driver alone, no host) is ~0.97-1.02.

The warm figure drives a separate `PiRuntimeDriver`: a cold first turn (`connect` spawns pi on
the resume token) against one whose pi `on_session_idle` prewarmed, both timed from `connect`
to turn-complete.

Prints figures and one JSON line {"turn_time_ratio", "turn_time_ratio_burst", "app_fixed_ms",
"first_chunk_overhead_ms", "warm_first_turn_saving_ms", "app_dispatch_ms", ...} (medians;
ratios app / bare).
Run: .venv/bin/python bench/pi_turn.py [--reps 200] [--warm-up 20] [--warm-reps 10] [--paced-reps 20]
     [--pi-prefix DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import AppSide, TurnTiming, connect_input_of, driver_first_turn

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.gate import is_key_request, key_answer
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation, find_pi
from cherry_desktop.core.ai.runtime.pi.rpc import PiRpcProcess
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput, RuntimeSendInput
from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import Reply, ScriptedModelServer, TextBlock
from cherry_desktop.demo.bootstrap import ensure_demo_records, ensure_pi_demo_records

TURN_TIMEOUT_S = 60.0
BURST = Reply(blocks=(TextBlock("The quick brown fox jumps over the lazy dog. " * 12),), chunk_size=8)
#: Still far faster than a real model: 10 ms per delta.
PACED = Reply(blocks=BURST.blocks, chunk_size=8, delay_s=0.01)


class DriverSide:
    """The driver alone (no host): a `PiConnection` of its own pi, send -> turn-complete, events
    read from `events()`. Splits the app's overhead into the driver's and the host's."""

    def __init__(self, driver: PiRuntimeDriver, connect_input: RuntimeConnectInput) -> None:
        self.driver = driver
        self.connect_input = connect_input
        self.connection: Any = None
        self.events: Any = None

    async def start(self) -> None:
        self.connection = await self.driver.connect(self.connect_input)
        self.events = self.connection.events()

    async def turn(self, prompt: str) -> TurnTiming:
        t0 = time.perf_counter()
        first: float | None = None
        await self.connection.send(RuntimeSendInput(message=UIMessage.user_text(prompt)))
        async with asyncio.timeout(TURN_TIMEOUT_S):
            async for event in self.events:
                if first is None and event.type == "chunk" and event.chunk.type == "text-delta":
                    first = time.perf_counter()
                if event.type in ("turn-complete", "error"):
                    break
        end = time.perf_counter()
        if first is None:
            raise RuntimeError("the driver turn streamed no text")
        return TurnTiming((first - t0) * 1000, (end - t0) * 1000)


class BareSide:
    """A pi child started as the app would start it, driven by a minimal RPC client."""

    def __init__(self, driver: PiRuntimeDriver, connect_input: RuntimeConnectInput) -> None:
        self.launch = driver.launch_for(connect_input, None)
        self.process = PiRpcProcess(self.launch.argv, cwd=self.launch.cwd, env=self.launch.env,
                                    on_record=self._on_record)
        self.first: float | None = None
        self.end: float | None = None
        self.done = asyncio.Event()
        self.error = ""

    def _on_record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "message_update" and self.first is None:
            event = record.get("assistantMessageEvent") or {}
            if event.get("type") == "text_delta":
                self.first = time.perf_counter()
        elif kind == "agent_end":
            # Stamped where it is heard, as the app's subscriber stamps its terminal.
            self.end = time.perf_counter()
            self.done.set()
        elif is_key_request(record):  # Cherry's gate asks for the provider's key, as of the app
            self.process.send_record(key_answer(str(record["id"]), self.launch.api_key))
        elif kind == "extension_ui_request" and record.get("method") == "input":
            self.error = "the bare turn called a tool"

    async def start(self) -> None:
        await self.process.start()
        await self.process.command({"type": "set_auto_retry", "enabled": False})

    async def turn(self, prompt: str) -> TurnTiming:
        self.first = self.end = None
        self.done.clear()
        t0 = time.perf_counter()
        self.process.send_record({"type": "prompt", "message": prompt})
        await asyncio.wait_for(self.done.wait(), TURN_TIMEOUT_S)
        if self.first is None or self.end is None or self.error:
            raise RuntimeError(f"the bare turn failed {self.error}")
        return TurnTiming((self.first - t0) * 1000, (self.end - t0) * 1000)

    async def close(self) -> None:
        await self.process.terminate()
        shutil.rmtree(self.launch.home, ignore_errors=True)


async def warm_vs_cold(core: CoreServices, installation: PiInstallation, session_id: str, token: str,
                       reps: int) -> dict[str, list[float]]:
    driver = PiRuntimeDriver(RuntimeDriverDeps(paths=core.paths), installation=installation)
    cold: list[float] = []
    warm: list[float] = []
    try:
        for i in range(reps):
            ms, token = await driver_first_turn(driver, connect_input_of(core, session_id, token), f"cold {i}")
            cold.append(ms)
            await driver.on_session_idle(connect_input_of(core, session_id, token))
            if not driver.has_warm(session_id):
                raise RuntimeError("prewarm failed")
            await asyncio.sleep(0.3)  # idle time
            ms, token = await driver_first_turn(driver, connect_input_of(core, session_id, token), f"warm {i}")
            if driver.has_warm(session_id):
                raise RuntimeError("the warm pi was not taken")
            warm.append(ms)
    finally:
        await driver.shutdown()
    return {"cold_first_turn_ms": cold, "warm_first_turn_ms": warm}


async def bench(reps: int, warm_up: int, warm_reps: int, paced_reps: int, prefix: Path | None) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="cherry-bench-pi-"))
    server = ScriptedModelServer(default=BURST)
    await server.start()
    core = await start_core(build_path_registry(scratch / "data"))
    bare: BareSide | None = None
    try:
        root = core.paths.get("feature.agents.workspaces")
        ensure_demo_records(core.repos, root, server.base_url)
        _, session_id, _ = ensure_pi_demo_records(core.repos, root)
        driver = core.agent_runtime.registry.get("pi")
        assert isinstance(driver, PiRuntimeDriver)
        installation = find_pi(prefix or core.paths.get("feature.agents.pi.install"))
        driver.use_installation(installation)
        app = AppSide(core, session_id)
        bare = BareSide(driver, connect_input_of(core, session_id, None))
        await bare.start()
        only_driver = DriverSide(driver, connect_input_of(core, session_id, None))
        await only_driver.start()
        for i in range(warm_up):
            await app.turn(f"warm-up {i}")
            await bare.turn(f"warm-up {i}")
            await only_driver.turn(f"warm-up {i}")
        app_t: list[TurnTiming] = []
        bare_t: list[TurnTiming] = []
        driver_t: list[TurnTiming] = []
        for i in range(reps):
            sides: list[tuple[Any, list[TurnTiming]]] = [(app, app_t), (bare, bare_t), (only_driver, driver_t)]
            for side, out in sides[i % 3:] + sides[:i % 3]:
                out.append(await side.turn(f"turn {i}"))
        await only_driver.connection.close()
        server.default = PACED
        app_p: list[TurnTiming] = []
        bare_p: list[TurnTiming] = []
        for i in range(paced_reps):
            sides = [(app, app_p), (bare, bare_p)]
            for side, out in sides if i % 2 == 0 else reversed(sides):
                out.append(await side.turn(f"paced turn {i}"))
        token = core.repos.session_messages.get_last_runtime_resume_token(session_id) or ""
        warm = await warm_vs_cold(core, installation, session_id, token, warm_reps)
        return {"app": app_t, "bare": bare_t, "driver": driver_t, "app_paced": app_p, "bare_paced": bare_p, **warm,
                "pi": installation.version}
    finally:
        if bare is not None:
            await bare.close()
        await core.stop()
        await server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def _med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=200, help="timed steady-state turns per side")
    parser.add_argument("--warm-up", type=int, default=20, help="untimed turns per side first")
    parser.add_argument("--warm-reps", type=int, default=10, help="cold and prewarmed first turns each")
    parser.add_argument("--paced-reps", type=int, default=20, help="timed turns per side with a paced reply")
    parser.add_argument("--pi-prefix", type=Path, default=None,
                        help="an npm --prefix holding the pinned pi (default: the app's runtime folder)")
    args = parser.parse_args()
    raw = asyncio.run(bench(args.reps, args.warm_up, args.warm_reps, args.paced_reps, args.pi_prefix))
    app, bare = raw["app"], raw["bare"]
    app_turn, bare_turn = _med([t.turn_ms for t in app]), _med([t.turn_ms for t in bare])
    app_first, bare_first = _med([t.first_chunk_ms for t in app]), _med([t.first_chunk_ms for t in bare])
    cold, warm = _med(raw["cold_first_turn_ms"]), _med(raw["warm_first_turn_ms"])
    paced_ratio = _med([t.turn_ms for t in raw["app_paced"]]) / _med([t.turn_ms for t in raw["bare_paced"]])
    paced_app = _med([t.turn_ms for t in raw["app_paced"]])
    paced_bare = _med([t.turn_ms for t in raw["bare_paced"]])
    print(f"pi {raw['pi']}: {len(raw['app_paced'])} steady-state turns per side, paced reply (10 ms per delta)")
    print(f"  turn:        app {paced_app:8.1f}   bare {paced_bare:8.1f}   turn_time_ratio {paced_ratio:.3f}")
    print(f"{len(app)} steady-state turns per side, burst reply (medians, ms)")
    print(f"  turn:        app {app_turn:8.1f}   bare {bare_turn:8.1f}   ratio {app_turn / bare_turn:.3f}"
          f"   app's fixed work {app_turn - bare_turn:.2f}")
    driver_turn = _med([t.turn_ms for t in raw["driver"]])
    print(f"  driver alone (no host): {driver_turn:.1f}   ratio to bare {driver_turn / bare_turn:.3f}")
    print(f"  first chunk: app {app_first:8.1f}   bare {bare_first:8.1f}   overhead {app_first - bare_first:+.1f}")
    block = max(1, len(app) // 5)
    blocks = [round(_med([t.turn_ms for t in app[i:i + block]]) / _med([t.turn_ms for t in bare[i:i + block]]), 3)
              for i in range(0, len(app) - block + 1, block)]
    print(f"  ratio per block of {block} turns, in order: {blocks}")
    driver_blocks = [round(_med([t.turn_ms for t in raw["driver"][i:i + block]])
                           / _med([t.turn_ms for t in bare[i:i + block]]), 3)
                     for i in range(0, len(app) - block + 1, block)]
    print(f"  driver alone, per block: {driver_blocks}")
    print(f"  app dispatch: {_med([t.dispatch_ms or 0.0 for t in app]):.1f}")
    print(f"first turn through the driver (connect -> turn-complete): cold {cold:.1f}, prewarmed {warm:.1f}")
    print(json.dumps({
        "turn_time_ratio": round(paced_ratio, 4),
        "turn_time_ratio_burst": round(app_turn / bare_turn, 4),
        "app_fixed_ms": round(app_turn - bare_turn, 2),
        "app_turn_paced_ms": round(paced_app, 1), "bare_turn_paced_ms": round(paced_bare, 1),
        "driver_turn_time_ratio": round(driver_turn / bare_turn, 4),
        "first_chunk_overhead_ms": round(app_first - bare_first, 2),
        "warm_first_turn_saving_ms": round(cold - warm, 1),
        "app_turn_ms": round(app_turn, 2), "bare_turn_ms": round(bare_turn, 2),
        "app_dispatch_ms": round(_med([t.dispatch_ms or 0.0 for t in app]), 2),
        "cold_first_turn_ms": round(cold, 1), "warm_first_turn_ms": round(warm, 1),
        "reps": len(app), "paced_reps": len(raw["app_paced"]), "pi": raw["pi"],
    }))


if __name__ == "__main__":
    main()
