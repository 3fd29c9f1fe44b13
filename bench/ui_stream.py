"""3 windows attached to one topic streaming 2 000 chunks/s for 10 s (real AiStreamManager).

The reply is Markdown: bold, inline code, links, quotes, lists and fenced Python blocks
(highlighted with Pygments when each fence closes).
Prints figures, then one JSON line: loop_lag_p99_ms (target <= 8), windows_identical (true),
cpu_percent. Usage: python bench/ui_stream.py [--seconds 10] [--rate 2000] [--windows 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any

from _harness import LagProbe, run_qasync, start_test_core, stream_text_from, text_turn

if TYPE_CHECKING:
    from cherry_desktop.core.messages import UIMessageChunk

WORDS = ("stream ", "token ", "window ", "cherry ", "render ", "frame ", "chunk ", "agent ", "**bold** ", "`code` ")


def _delta(i: int) -> str:
    if i % 97 == 96:
        return "\n\n"
    if i % 503 == 0 and i:
        return ("\n\n```python\nimport sys\n\ndef block(n: int) -> list[str]:\n"
                "    return [str(k) for k in range(n)]  # a comment\n\nprint(block(3), file=sys.stderr)\n```\n\n")
    if i % 211 == 0 and i:
        return "\n\n> a quoted line with a [link](https://example.com)\n\n- one\n- two\n\n"
    return WORDS[i % len(WORDS)]


async def paced(chunks: Iterable[UIMessageChunk], rate: int) -> AsyncIterator[UIMessageChunk]:
    """`chunks` with their text deltas at `rate` per second, in bursts every 2 ms (as network
    reads of a fast model arrive); other chunks pass at once."""
    loop = asyncio.get_running_loop()
    start = 0.0
    sent = due = 0
    for chunk in chunks:
        if chunk.type == "text-delta":
            if not sent:
                start = loop.time()
            while sent >= due:  # this burst is out; the next is what came due meanwhile
                await asyncio.sleep(0.002)
                due = int((loop.time() - start) * rate)
            sent += 1
        yield chunk


async def bench(seconds: float, rate: int, n_windows: int) -> dict[str, Any]:
    import psutil

    from cherry_desktop.core.ai.stream import AiStreamManager, PersistentChatContextProvider
    from cherry_desktop.ui import UiController

    total = int(seconds * rate)
    stream_text = stream_text_from(
        lambda request: paced(text_turn(map(_delta, range(total)), message_id=request.message_id), rate))

    core = await start_test_core()
    manager = AiStreamManager(stream_text=stream_text, shared_cache=core.shared_cache)
    manager.set_context_providers([PersistentChatContextProvider(core.repos, default_model_id="bench::m")])
    core.stream_manager = manager
    topic_id = core.repos.topics.create_topic(name="bench", model="bench::m").id
    controller = UiController(core)
    windows = [controller.open_window(topic_id) for _ in range(n_windows)]
    await asyncio.sleep(0.3)
    proc = psutil.Process()
    probe = LagProbe()
    probe.start()
    proc.cpu_percent(None)
    t0 = time.perf_counter()
    await windows[0].submit("go", "send")
    while any(w.live_text_at_terminal is None for w in windows):  # noqa: ASYNC110
        await asyncio.sleep(0.05)
    elapsed = time.perf_counter() - t0
    cpu = proc.cpu_percent(None)
    await probe.stop()
    final = "".join(p.text for p in core.repos.messages.branch(topic_id)[-1].parts if p.type == "text")
    texts = [w.live_text_at_terminal for w in windows]
    flushes = [w.listener.flush_count if w.listener else 0 for w in windows]
    await controller.aclose()
    await manager.shutdown()
    await core.stop()
    return {
        "windows": n_windows, "chunks": total, "seconds": round(elapsed, 2),
        "loop_lag_p50_ms": round(probe.p(0.5), 2), "loop_lag_p99_ms": round(probe.p(0.99), 2),
        "loop_lag_max_ms": round(max(probe.samples, default=0.0), 2),
        "frames_per_window": flushes, "windows_identical": all(t == final for t in texts) and len(final) > 0,
        "cpu_percent": round(cpu, 1), "final_chars": len(final),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=2000)
    parser.add_argument("--windows", type=int, default=3)
    args = parser.parse_args()
    result = run_qasync(lambda: bench(args.seconds, args.rate, args.windows))
    for key, value in result.items():
        print(f"{key:>20}: {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
