"""Benchmark: a Claude Code turn through the whole app core vs the bare SDK, and the saving of
a prewarmed first turn.

Both sides talk to the same `ScriptedModelServer` on 127.0.0.1 (same reply, same process):

- app: `dispatch_stream_request` -> AiStreamManager -> AgentSessionRuntimeService ->
  ClaudeCodeRuntimeDriver -> CLI, on the demo records (`ensure_demo_records`), timed at a
  window-like subscriber (first text delta, terminal);
- sdk: one `ClaudeSDKClient` built with the options the driver built for that session (same
  cwd, model, system prompt, env, partial messages, and a `can_use_tool` callback: an app
  that asks the user before tools, as ours does, must pass one, and with it the CLI offers
  three more tools (AskUserQuestion, EnterPlanMode, ExitPlanMode: ~11 KB more per request);
  no Cherry hooks), timed from `query()` to the first text delta StreamEvent and to the
  ResultMessage. The bench checks that both sides offered the model the same tools.

Both keep their CLI between turns (the steady state); one untimed turn each warms up, then
turns alternate app / sdk, first with a *burst* reply (every delta at once: all of our
per-turn and per-chunk work is on the clock; `turn_time_ratio`, `first_chunk_overhead_ms`),
then with a *paced* one (10 ms per delta, still faster than a real model;
`turn_time_ratio_paced`). `app_dispatch_ms` is the part spent in `dispatch_stream_request`
(session validation, user + pending assistant rows saved, turn begun).

The warm-query figure drives a separate `ClaudeCodeRuntimeDriver`: a cold first turn
(`connect` spawns the CLI with `--resume`) against one whose query the warm query manager
prewarmed while the session was idle, both timed from `connect` to the end of the turn.

Prints figures and one JSON line:
{"first_chunk_overhead_ms", "turn_time_ratio", "warm_first_turn_saving_ms",
 "turn_time_ratio_paced", "app_dispatch_ms", ...} (medians; ratios app / sdk).
Targets: turn_time_ratio <= 1.05, warm_first_turn_saving_ms >= 250.
`turn_time_ratio_trimmed_mean` compares the means of the middle 80 % of turns instead of
the medians (turn times here are sometimes bimodal, where a median is fragile).
`turn_time_ratio_ci95` is a bootstrap 95 % interval of the median ratio that resamples whole
blocks (a block's turns share their CLI processes' luck, so single turns are not independent):
turn times here spread widely (a busy 2-core machine runs both CLIs, the server and the app).
The burst turns run in `--spawns` blocks: in each, both sides are in new sessions with fresh CLI
processes, warmed by `--block-warm-up` untimed turns each (which side starts its CLI first
alternates, the app's being first in the first block). How fast one CLI process runs is luck of
the draw, by several per cent (see `steady_state`).
`--control` puts a second bare SDK side where the app was: the ratio chance alone gives.
Run: .venv/bin/python bench/claude_turn.py [--reps 800] [--spawns 8] [--block-warm-up 20] [--paced-reps 8]
     [--warm-reps 20] [--control]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# A throwaway HOME before anything reads it: the CLI keeps its config and transcripts there.
_SCRATCH = Path(tempfile.mkdtemp(prefix="cherry-bench-claude-"))
os.environ["HOME"] = str(_SCRATCH / "home")
os.environ["CHERRY_DESKTOP_DATA_DIR"] = str(_SCRATCH / "data")
(_SCRATCH / "home").mkdir()

from _harness import TimingSubscriber, TurnTiming, connect_input_of, driver_first_turn  # noqa: E402

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver  # noqa: E402
from cherry_desktop.core.ai.runtime.claude_code.query_builder import (  # noqa: E402
    QueryRequest,
    build_claude_code_query_request,
    system_prompt_option,
)
from cherry_desktop.core.ai.stream import (  # noqa: E402
    AiStreamOpenRequest,
    dispatch_stream_request,
)
from cherry_desktop.core.app.bootstrap import CoreServices, start_core  # noqa: E402
from cherry_desktop.core.messages import TextPart  # noqa: E402
from cherry_desktop.core.state.topics import session_topic_id  # noqa: E402
from cherry_desktop.core.storage.paths import build_path_registry  # noqa: E402
from cherry_desktop.demo import Reply, ScriptedModelServer, TextBlock  # noqa: E402
from cherry_desktop.demo.bootstrap import ensure_demo_records  # noqa: E402

#: The answer of every timed turn: ~70 text deltas.
ANSWER = " ".join(f"word{i}" for i in range(120))
#: All at once (the worst case for the ratio: every chunk of our pipeline is on the clock).
BURST_REPLY = Reply(blocks=(TextBlock(ANSWER),), chunk_size=12)
#: Paced like a fast model (~100 deltas/s), still far quicker than a real one.
PACED_DELAY_S = 0.01
PACED_REPLY = Reply(blocks=(TextBlock(ANSWER),), chunk_size=12, delay_s=PACED_DELAY_S)
TURN_TIMEOUT_S = 60.0
IDLE_S = float(os.environ.get("BENCH_IDLE_S", "0.3"))


@dataclass
class AppSide:
    core: CoreServices
    session_id: str
    subscriber: TimingSubscriber = field(default_factory=TimingSubscriber)

    @property
    def topic(self) -> str:
        return session_topic_id(self.session_id)

    @property
    def driver(self) -> ClaudeCodeRuntimeDriver:
        driver = self.core.agent_runtime.registry.get("claude-code")
        assert isinstance(driver, ClaudeCodeRuntimeDriver)
        return driver

    def busy(self) -> bool:
        return not self.core.agent_runtime.is_session_settled(self.session_id)

    async def respawn(self) -> None:
        """Go on in a new session of the same agent, workspace and model (a fresh CLI, history
        from nothing, as the SDK side's): the old session's connection closes through the host's
        idle close, and the CLI its warm query manager then prewarms is closed too."""
        runtime = self.core.agent_runtime
        entry = runtime.get_entry(self.session_id)
        if entry is not None:
            await entry.close_idle()
        await self.driver.warm_queries.close(self.session_id)
        old = self.core.repos.sessions.get_session(self.session_id)
        self.session_id = self.core.repos.sessions.create_session(
            agent_id=old.agent_id or "", workspace_id=old.workspace_id, name=f"{old.name} (bench block)",
            model=old.model).id

    async def turn(self, prompt: str) -> TurnTiming:
        sub = self.subscriber
        request = AiStreamOpenRequest(topic_id=self.topic, user_message_parts=[TextPart(text=prompt, state="done")])
        sub.reset()
        result = await dispatch_stream_request(self.core.stream_manager, sub, request)
        dispatched = time.perf_counter()
        if result.mode != "started":
            raise RuntimeError(f"the app turn did not start: {result}")
        await asyncio.wait_for(sub.done.wait(), TURN_TIMEOUT_S)
        if sub.status != "success" or sub.first is None or sub.end is None:
            raise RuntimeError(f"the app turn failed: {sub.status}")
        timing = TurnTiming((sub.first - sub.t0) * 1000, (sub.end - sub.t0) * 1000, (dispatched - sub.t0) * 1000)
        # Untimed: the runtime hands the session back before the next turn.
        while self.busy():  # noqa: ASYNC110 (no event to wait on: poll the host's state)
            await asyncio.sleep(0.005)
        return timing


class SdkSide:
    """One `ClaudeSDKClient` with the options the driver built for the app's session."""

    def __init__(self, request: QueryRequest) -> None:
        self.request = request
        self.client = self._new_client()

    def _new_client(self) -> Any:
        from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, PermissionResultAllow

        request = self.request

        async def can_use_tool(_name: str, _input: dict[str, Any], _context: Any) -> Any:
            return PermissionResultAllow()  # never asked: the timed replies call no tool

        options = ClaudeAgentOptions(
            cwd=request.cwd, model=request.model, permission_mode=request.permission_mode,  # type: ignore[arg-type]
            disallowed_tools=list(request.disabled_tools), system_prompt=system_prompt_option(request.prompt),
            env=dict(request.env), include_partial_messages=True, setting_sources=["project"],
            stderr=lambda line: None,  # as the driver: CLI stderr is not printed
            can_use_tool=can_use_tool,
        )
        return ClaudeSDKClient(options=options)

    async def respawn(self) -> None:
        """A fresh CLI in a new session (history from nothing, as the app side's)."""
        await self.client.disconnect()
        self.client = self._new_client()
        await self.client.connect()

    async def turn(self, prompt: str) -> TurnTiming:
        t0 = time.perf_counter()
        first: float | None = None
        await self.client.query(prompt)
        async for message in self.client.receive_response():
            kind = type(message).__name__
            if first is None and kind == "StreamEvent":
                event = getattr(message, "event", {}) or {}
                delta = event.get("delta") or {}
                if event.get("type") == "content_block_delta" and delta.get("type") == "text_delta":
                    first = time.perf_counter()
            if kind == "ResultMessage":
                end = time.perf_counter()
                if getattr(message, "is_error", False):
                    raise RuntimeError(f"the sdk turn failed: {getattr(message, 'result', '')}")
                assert first is not None
                return TurnTiming((first - t0) * 1000, (end - t0) * 1000)
        raise RuntimeError("the sdk turn ended without a result")


async def warm_vs_cold(core: CoreServices, session_id: str, token: str, reps: int) -> dict[str, Any]:
    """First turn of a session whose CLI is cold vs one the warm query manager prewarmed."""
    driver = ClaudeCodeRuntimeDriver()
    cold: list[float] = []
    warm: list[float] = []
    try:
        for i in range(reps):
            connect_input = connect_input_of(core, session_id, token)
            ms, token = await driver_first_turn(driver, connect_input, f"cold turn {i}")
            cold.append(ms)

            connect_input = connect_input_of(core, session_id, token)
            request = build_claude_code_query_request(connect_input, token)
            if not await driver.prewarm(session_id, request):
                raise RuntimeError("prewarm failed")
            await asyncio.sleep(IDLE_S)  # idle time: the prewarmed CLI settles as it would while idle
            ms, token = await driver_first_turn(driver, connect_input, f"warm turn {i}")
            if driver.warm_queries.has(session_id):
                raise RuntimeError("the warm query was not consumed")
            warm.append(ms)
    finally:
        await driver.shutdown()
    return {"cold_first_turn_ms": cold, "warm_first_turn_ms": warm}


def _tools_offered(server: ScriptedModelServer, prompt: str) -> list[str]:
    """The tool names of the model request that carried `prompt`."""
    for request in server.requests_for_model_turns():
        if prompt in json.dumps(request.messages):
            return sorted(str(tool.get("name")) for tool in request.json.get("tools", []))
    raise RuntimeError(f"no model request carried {prompt!r}")


def _med(values: list[float]) -> float:
    return statistics.median(values)


def _trimmed_mean(values: list[float], cut: float = 0.1) -> float:
    """The mean of the middle 80 %: turn times here are sometimes bimodal (~35 ms and ~50 ms
    modes), where a median jumps with the share of turns in each mode."""
    ordered = sorted(values)
    k = int(len(ordered) * cut)
    return statistics.fmean(ordered[k:len(ordered) - k] or ordered)


def _ratio_ci95(app: list[float], sdk: list[float], blocks: list[float], resamples: int = 2000) -> list[float]:
    """A bootstrap 95 % interval of median(app) / median(sdk): how far the ratio of this run
    could move by chance alone. Whole blocks are drawn (turn i of each side is in block
    `blocks[i]`); with a single block, single turns are."""
    rng = random.Random(7)
    groups: dict[float, list[int]] = {}
    for i, block in enumerate(blocks):
        groups.setdefault(block, []).append(i)
    units = list(groups.values()) if len(groups) > 1 else [[i] for i in range(len(app))]
    ratios = []
    for _ in range(resamples):
        picked = [i for unit in rng.choices(units, k=len(units)) for i in unit]
        ratios.append(_med([app[i] for i in picked]) / _med([sdk[i] for i in picked]))
    ratios.sort()
    return [round(ratios[int(0.025 * resamples)], 3), round(ratios[int(0.975 * resamples) - 1], 3)]


def _fmt(values: list[float]) -> str:
    return (f"median {_med(values):7.1f}  min {min(values):7.1f}  max {max(values):7.1f}  "
            f"(n={len(values)})")


async def _warm_up(app: AppSide | SdkSide, sdk: SdkSide, label: str, turns: int, app_first: bool) -> None:
    """`turns` untimed turns per side, alternating: a fresh CLI runs its first dozens of turns
    slower (node compiles its hot code as it goes: ~80-110 ms a turn at first, ~55 ms after 20
    or 30 here), and the steady state is what is measured."""
    sides: list[tuple[str, AppSide | SdkSide]] = [("app", app), ("sdk", sdk)]
    if not app_first:
        sides.reverse()
    for i in range(turns):
        for name, side in sides if i % 2 == 0 else sides[::-1]:
            await side.turn(f"{name} {label} warm-up {i}")


async def _respawn(app: AppSide | SdkSide, sdk: SdkSide, label: str, app_first: bool, warm_up: int) -> None:
    """Fresh sessions and CLIs for both sides, then `warm_up` untimed turns each; `app_first`
    says which side starts its CLI first: blocks alternate, as the first block has the app's."""
    for side in (app, sdk) if app_first else (sdk, app):
        await side.respawn()
    await _warm_up(app, sdk, label, max(1, warm_up), app_first)


async def steady_state(server: ScriptedModelServer, app: AppSide | SdkSide, sdk: SdkSide, reply: Reply,
                       reps: int, label: str, spawns: int = 1, warm_up: int = 0) -> dict[str, list[float]]:
    """`reps` turns per side with `reply`, alternating which side goes first, in `spawns` blocks:
    each block has both sides in new sessions with fresh CLI processes, warmed by `warm_up`
    untimed turns each, so the blocks are alike and independent.

    Why several processes: one CLI process runs its whole life a few per cent faster or slower
    than the next one started the same way (node's JIT and memory layout differ per process).
    Two bare SDK sides measured against each other gave median-turn ratios from 0.94 to 1.11
    between process pairs, more than the app's whole overhead; one process pair per side let
    that luck decide the ratio. `--control` runs this comparison. Why new sessions: a session's
    history is re-sent every turn, so turns slow as it grows; restarting it per block keeps the
    turns of every block alike (and short, which is the hard case for the ratio).
    """
    server.default = reply
    app_t: list[TurnTiming] = []
    sdk_t: list[TurnTiming] = []
    block = -(-reps // max(1, spawns))
    if warm_up:
        await _warm_up(app, sdk, label, warm_up, app_first=True)
    for i in range(reps):
        if i and i % block == 0:
            await _respawn(app, sdk, f"{label} turn {i}", (i // block) % 2 == 0, warm_up)
        # Alternate the order so drift (GC, history growth, the other CLI's idle work) hits both.
        if i % 2 == 0:
            app_t.append(await app.turn(f"app {label} turn {i}"))
            sdk_t.append(await sdk.turn(f"sdk {label} turn {i}"))
        else:
            sdk_t.append(await sdk.turn(f"sdk {label} turn {i}"))
            app_t.append(await app.turn(f"app {label} turn {i}"))
    return {
        "block": [float(i // block) for i in range(reps)],
        "app_dispatch_ms": [t.dispatch_ms or 0.0 for t in app_t],
        "app_first_chunk_ms": [t.first_chunk_ms for t in app_t],
        "sdk_first_chunk_ms": [t.first_chunk_ms for t in sdk_t],
        "app_turn_ms": [t.turn_ms for t in app_t],
        "sdk_turn_ms": [t.turn_ms for t in sdk_t],
    }


async def bench(reps: int, paced_reps: int, warm_reps: int, spawns: int = 1, control: bool = False,
                block_warm_up: int = 0) -> dict[str, Any]:
    server = ScriptedModelServer(default=BURST_REPLY)
    base_url = await server.start()
    core = await start_core(build_path_registry(_SCRATCH / "data"))
    try:
        _, session_id, _ = ensure_demo_records(core.repos, core.paths.get("feature.agents.workspaces"), base_url)
        core_side = AppSide(core, session_id)
        await core_side.turn("warm-up (app)")  # spawns the app's CLI; not timed
        # The exact spawn facts of the app's live connection (prompt, env, cwd, model).
        request = core_side.driver.connections[0]._request
        sdk = SdkSide(request)
        # --control: a second bare SDK side stands where the app was (an A/A comparison).
        app: AppSide | SdkSide = SdkSide(request) if control else core_side
        try:
            if isinstance(app, SdkSide):  # started first, as the app's CLI is
                await app.client.connect()
                await app.turn("warm-up (app)")
            await sdk.client.connect()
            await sdk.turn("warm-up (sdk)")
            app_tools, sdk_tools = (_tools_offered(server, side) for side in ("warm-up (app)", "warm-up (sdk)"))
            if app_tools != sdk_tools:
                raise RuntimeError(f"the two sides offer different tools: app {app_tools}, sdk {sdk_tools}")
            burst = await steady_state(server, app, sdk, BURST_REPLY, reps, "burst", spawns, block_warm_up)
            paced = await steady_state(server, app, sdk, PACED_REPLY, paced_reps, "paced")
        finally:
            await sdk.client.disconnect()
            if isinstance(app, SdkSide):
                await app.client.disconnect()
        server.default = BURST_REPLY
        token = core.repos.session_messages.get_last_runtime_resume_token(session_id)
        assert token
        warm = await warm_vs_cold(core, session_id, token, warm_reps)
    finally:
        await core.stop()
        await server.stop()
    return {"burst": burst, "paced": paced, **warm}


def _report(title: str, figures: dict[str, list[float]]) -> None:
    print(title)
    for key, values in figures.items():
        if key != "block":
            print(f"  {key:<22} {_fmt(values)}")
    blocks = sorted(set(figures.get("block", [])))
    if len(blocks) > 1:
        per_block = [_med([a for a, b in zip(figures["app_turn_ms"], figures["block"], strict=True) if b == k])
                     / _med([s for s, b in zip(figures["sdk_turn_ms"], figures["block"], strict=True) if b == k])
                     for k in blocks]
        print("  median ratio per block  " + " ".join(f"{r:.3f}" for r in per_block))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=800,
                        help="steady-state turns per side, burst reply (two bare SDK sides, 60 turns on one "
                             "CLI each, came out anywhere from 0.94 to 1.11 of each other)")
    parser.add_argument("--paced-reps", type=int, default=8, help="steady-state turns per side, paced reply")
    parser.add_argument("--warm-reps", type=int, default=20, help="cold and prewarmed first turns each")
    parser.add_argument("--spawns", type=int, default=8,
                        help="blocks of the burst turns, each with new sessions and fresh CLIs for both sides: "
                             "one CLI process's speed is luck, see steady_state")
    parser.add_argument("--block-warm-up", type=int, default=20,
                        help="untimed turns per side before each block's timed ones (fresh CLIs run their "
                             "first dozens of turns slower)")
    parser.add_argument("--control", action="store_true",
                        help="A/A control: a second bare SDK side instead of the app, to see the ratio that "
                             "chance alone gives with these settings")
    args = parser.parse_args()
    try:
        raw = asyncio.run(bench(args.reps, args.paced_reps, args.warm_reps, args.spawns, args.control,
                                args.block_warm_up))
    finally:
        shutil.rmtree(_SCRATCH, ignore_errors=True)
    burst, paced = raw["burst"], raw["paced"]
    if args.control:
        print("CONTROL RUN: the 'app' side is a second bare SDK client; ratios show chance alone.")
    _report(f"steady-state turn, burst reply ({args.spawns} blocks: new sessions, fresh CLIs), milliseconds:",
            burst)
    _report(f"steady-state turn, paced reply ({PACED_DELAY_S * 1000:.0f} ms per delta), milliseconds:", paced)
    _report("first turn through the driver (connect -> turn-complete), milliseconds:",
            {k: raw[k] for k in ("cold_first_turn_ms", "warm_first_turn_ms")})
    result = {
        "first_chunk_overhead_ms": round(_med(burst["app_first_chunk_ms"]) - _med(burst["sdk_first_chunk_ms"]), 1),
        "turn_time_ratio": round(_med(burst["app_turn_ms"]) / _med(burst["sdk_turn_ms"]), 3),
        "turn_time_ratio_ci95": _ratio_ci95(burst["app_turn_ms"], burst["sdk_turn_ms"], burst["block"]),
        "turn_time_ratio_trimmed_mean": round(
            _trimmed_mean(burst["app_turn_ms"]) / _trimmed_mean(burst["sdk_turn_ms"]), 3),
        "warm_first_turn_saving_ms": round(_med(raw["cold_first_turn_ms"]) - _med(raw["warm_first_turn_ms"]), 1),
        "turn_time_ratio_paced": round(_med(paced["app_turn_ms"]) / _med(paced["sdk_turn_ms"]), 3),
        "first_chunk_overhead_paced_ms": round(
            _med(paced["app_first_chunk_ms"]) - _med(paced["sdk_first_chunk_ms"]), 1),
        "app_dispatch_ms": round(_med(burst["app_dispatch_ms"]), 1),
        "app_turn_ms": round(_med(burst["app_turn_ms"]), 1),
        "sdk_turn_ms": round(_med(burst["sdk_turn_ms"]), 1),
        "cold_first_turn_ms": round(_med(raw["cold_first_turn_ms"]), 1),
        "warm_first_turn_ms": round(_med(raw["warm_first_turn_ms"]), 1),
        "reps": args.reps,
        "paced_reps": args.paced_reps,
        "warm_reps": args.warm_reps,
        "spawns": args.spawns,
        "block_warm_up": args.block_warm_up,
        "control": args.control,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
