"""Benchmark of AiStreamManager's hot paths.

- Fan-out: pre-built chunks from an async source through `send` to 3 listeners, with the
  accumulator running (chunks/s over the whole stream, per-chunk dispatch p99 measured from
  the source's yield to the last listener's return).
- Attach: compact replay of a 10 000-chunk ring buffer (`attach` on a live stream).
- Abort latency of a silent upstream (manager cancel path).

Prints figures and one JSON line: {"chunks_per_s", "dispatch_p99_us", "replay_10k_ms", ...}.
Run: .venv/bin/python bench/stream_manager.py
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import time
from collections.abc import AsyncIterator
from typing import Any

from _harness import stream_text_from, text_turn  # first: puts the checkout on sys.path

from cherry_desktop.core.ai.stream import AiStreamManager, AiStreamRequest, ModelDispatch, SendInput
from cherry_desktop.core.messages import StartChunk, UIMessageChunk

N_CHUNKS = 300_000
BARE_JOIN_MS: list[float] = []
LISTENERS = 3


class CountingListener:
    def __init__(self, idx: int, stamps: list[int] | None = None) -> None:
        self._id = f"bench:{idx}"
        self.count = 0
        self.stamps = stamps
        self.done = asyncio.Event()

    @property
    def id(self) -> str:
        return self._id

    def is_alive(self) -> bool:
        return True

    def on_chunk(self, chunk: Any, source_model_id: Any = None, anchor_message_id: Any = None) -> None:
        self.count += 1
        if self.stamps is not None:
            self.stamps.append(time.perf_counter_ns())

    async def on_done(self, result: Any) -> None:
        self.done.set()

    async def on_paused(self, result: Any) -> None:
        self.done.set()

    async def on_error(self, result: Any) -> None:
        self.done.set()


def build_chunks(n: int) -> list[UIMessageChunk]:
    return list(text_turn(["tok "] * (n - 4)))


async def fan_out(chunks: list[UIMessageChunk], *, measure: bool) -> tuple[float, list[float]]:
    yield_stamps: list[int] = []
    done_stamps: list[int] = []

    async def source() -> AsyncIterator[UIMessageChunk]:
        if measure:
            append, clock = yield_stamps.append, time.perf_counter_ns
            for c in chunks:
                append(clock())
                yield c
        else:
            for c in chunks:
                yield c

    mgr = AiStreamManager(stream_text=stream_text_from(lambda _request: source()), max_buffer_chunks=10_000)
    listeners = [CountingListener(i, done_stamps if (measure and i == LISTENERS - 1) else None)
                 for i in range(LISTENERS)]
    gc.collect()
    t0 = time.perf_counter()
    mgr.send(SendInput(topic_id="bench", models=[ModelDispatch("p::m", AiStreamRequest(model_id="p::m"))],
                       listeners=list(listeners)))
    await listeners[-1].done.wait()
    elapsed = time.perf_counter() - t0
    assert all(lst.count == len(chunks) for lst in listeners)
    snap = mgr.inspect("bench")
    assert snap is not None and snap.executions[0].final_message is not None
    lat = [(d - y) / 1000.0 for y, d in zip(yield_stamps, done_stamps, strict=True)] if measure else []
    return elapsed, lat


async def replay_10k() -> list[float]:
    gate = asyncio.Event()
    chunks = build_chunks(10_000)

    async def source() -> AsyncIterator[UIMessageChunk]:
        for c in chunks:
            yield c
        await gate.wait()

    mgr = AiStreamManager(stream_text=stream_text_from(lambda _request: source()), max_buffer_chunks=10_000)
    mgr.send(SendInput(topic_id="r", models=[ModelDispatch("p::m", AiStreamRequest(model_id="p::m"))], listeners=[]))
    while (s := mgr.inspect("r")) is None or s.executions[0].buffer_size < 10_000:  # noqa: ASYNC110
        await asyncio.sleep(0.001)
    times: list[float] = []
    for i in range(30):
        gc.collect()
        t0 = time.perf_counter()
        resp = mgr.attach(CountingListener(100 + i), "r")
        times.append((time.perf_counter() - t0) * 1000.0)
        assert resp.status == "streaming" and len(resp.replays[0].chunks) == 5
    buf = list(mgr.registry.get("r").executions["p::m"].buffer)
    join_times: list[float] = []
    for _ in range(30):
        gc.collect()
        t0 = time.perf_counter()
        "".join(c.delta for c in buf[2:-2])  # type: ignore[union-attr]
        join_times.append((time.perf_counter() - t0) * 1000.0)
    BARE_JOIN_MS.append(statistics.median(join_times))
    gate.set()
    mgr.abort("r")
    await mgr.drain_in_flight(2000)
    return times


async def abort_latency() -> list[float]:
    out: list[float] = []
    for _ in range(20):
        started = asyncio.Event()

        async def source(started: asyncio.Event = started) -> AsyncIterator[UIMessageChunk]:
            yield StartChunk()
            started.set()
            await asyncio.Event().wait()  # a silent upstream
            yield StartChunk()

        mgr = AiStreamManager(stream_text=stream_text_from(lambda _request, src=source: src()))
        lst = CountingListener(0)
        mgr.send(SendInput(topic_id="a", models=[ModelDispatch("p::m", AiStreamRequest(model_id="p::m"))],
                           listeners=[lst]))
        await started.wait()
        t0 = time.perf_counter()
        mgr.abort("a")
        await lst.done.wait()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def main() -> None:
    replay = await replay_10k()
    replay_ms = statistics.median(replay)
    chunks = build_chunks(N_CHUNKS)
    await fan_out(chunks[:20_000], measure=False)  # warm-up
    runs = [await fan_out(chunks, measure=False) for _ in range(3)]
    best = min(e for e, _ in runs)
    chunks_per_s = len(chunks) / best
    _, lat = await fan_out(chunks, measure=True)
    dispatch_p99 = p99(lat)
    aborts = await abort_latency()
    print(f"fan-out: {len(chunks)} chunks -> {LISTENERS} listeners + accumulator: "
          f"{chunks_per_s:,.0f} chunks/s (best of 3: {best * 1000:.1f} ms)")
    print(f"per-chunk dispatch (yield -> last listener): p50 {statistics.median(lat):.2f} us, "
          f"p99 {dispatch_p99:.2f} us, max {max(lat):.1f} us")
    print(f"attach compact replay of 10k chunks: median {replay_ms:.3f} ms, max {max(replay):.3f} ms "
          f"(a bare join of the same deltas here: {BARE_JOIN_MS[0]:.3f} ms)")
    print(f"abort of a silent upstream -> on_paused: median {statistics.median(aborts):.3f} ms, "
          f"max {max(aborts):.3f} ms")
    print(json.dumps({"chunks_per_s": round(chunks_per_s), "dispatch_p99_us": round(dispatch_p99, 2),
                      "replay_10k_ms": round(replay_ms, 3), "abort_ms_max": round(max(aborts), 3)}))


if __name__ == "__main__":
    asyncio.run(main())
