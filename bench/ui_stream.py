"""Streaming into windows against bare Qt, measured in the same run.

Stress: 3 windows attached to one topic streaming 2 000 chunks/s (real AiStreamManager, real
`ChatWindow`s); its floor: 3 bare `QTextBrowser` windows appending the same deltas with the same
pacing and the same frame coalescing (one flush per 16 ms). Realistic: one window at a model's
pace (~100 deltas/s) with code blocks and tables; its floor: one bare `QTextBrowser`.

The app and its floor run alternately in this process (`--repeats` pairs), so both see the same
machine in the same minutes; each figure is the median of the runs with its range, and each
ratio is taken pair by pair.

The stress reply is Markdown: bold, inline code, links, quotes, lists and fenced Python blocks
(highlighted with Pygments when each fence closes).

Prints figures, then one JSON line: loop_lag_p99_ms, floor_loop_lag_p99_ms, loop_lag_ratio
(bar <= 2), realistic_lag_p99_ms, floor_realistic_lag_p99_ms, realistic_lag_over_floor_ms
(bar <= 2), windows_identical (true), cpu_percent.
Usage: python bench/ui_stream.py [--seconds 10] [--rate 2000] [--windows 3] [--repeats 3] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterable
from typing import TYPE_CHECKING, Any

from _harness import (
    describe,
    measured_loop,
    paired_ratio,
    run_qasync,
    spread,
    start_test_core,
    stream_text_from,
    text_turn,
)

if TYPE_CHECKING:
    from cherry_desktop.core.messages import UIMessageChunk

WORDS = ("stream ", "token ", "window ", "cherry ", "render ", "frame ", "chunk ", "agent ", "**bold** ", "`code` ")
FRAME_MS = 16
REALISTIC_RATE = 100


def _delta(i: int) -> str:
    if i % 97 == 96:
        return "\n\n"
    if i % 503 == 0 and i:
        return ("\n\n```python\nimport sys\n\ndef block(n: int) -> list[str]:\n"
                "    return [str(k) for k in range(n)]  # a comment\n\nprint(block(3), file=sys.stderr)\n```\n\n")
    if i % 211 == 0 and i:
        return "\n\n> a quoted line with a [link](https://example.com)\n\n- one\n- two\n\n"
    return WORDS[i % len(WORDS)]


_CODE = ["```python\n", "def ", "parse", "(line", ": str)", " -> dict", "[str, int]:\n", "    ", "key, ", "_, value",
         " = line", ".partition", "(\"=\")\n", "    return ", "{key", ".strip(): ", "int(value)}", "\n```\n\n"]
_TABLE = ["| name ", "| size ", "| kind |\n", "|---|---|---|\n", "| core ", "| 12 kB ", "| module |\n",
          "| ui ", "| 40 kB ", "| package |\n", "| bench ", "| 3 kB ", "| script |\n\n"]


def _realistic_delta(i: int) -> str:
    """A model's reply as it streams: prose in ~4-character tokens, a fenced code block every
    ~120 tokens and a table every ~200."""
    if i % 120 == 60:
        return "".join(_CODE)  # a fence arrives over a few frames anyway at this pace
    if i % 200 == 150:
        return "".join(_TABLE)
    if i % 40 == 39:
        return ".\n\n"
    return ("The ", "parser ", "reads ", "each ", "line, ", "splits ", "on ", "the ", "first ", "`=` ")[i % 10]


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


async def run_app(seconds: float, rate: int, n_windows: int, delta: Callable[[int], str]) -> dict[str, Any]:
    from cherry_desktop.core.ai.stream import AiStreamManager, PersistentChatContextProvider
    from cherry_desktop.ui import UiController

    total = int(seconds * rate)
    stream_text = stream_text_from(
        lambda request: paced(text_turn(map(delta, range(total)), message_id=request.message_id), rate))

    core = await start_test_core()
    manager = AiStreamManager(stream_text=stream_text, shared_cache=core.shared_cache)
    manager.set_context_providers([PersistentChatContextProvider(core.repos, default_model_id="bench::m")])
    core.stream_manager = manager
    topic_id = core.repos.topics.create_topic(name="bench", model="bench::m").id
    controller = UiController(core)
    windows = [controller.open_window(topic_id) for _ in range(n_windows)]
    async with measured_loop() as figures:
        await windows[0].submit("go", "send")
        while any(w.live_text_at_terminal is None for w in windows):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    final = "".join(p.text for p in core.repos.messages.branch(topic_id)[-1].parts if p.type == "text")
    texts = [w.live_text_at_terminal for w in windows]
    flushes = [w.listener.flush_count if w.listener else 0 for w in windows]
    await controller.aclose()
    await manager.shutdown()
    await core.stop()
    return {**figures, "frames": flushes, "identical": all(t == final for t in texts) and len(final) > 0,
            "chars": len(final)}


async def run_floor(seconds: float, rate: int, n_windows: int, delta: Callable[[int], str]) -> dict[str, Any]:
    """Bare Qt: `n_windows` `QTextBrowser`s fed the same paced deltas, each appending what
    came in the frame once per 16 ms (a single-shot timer armed by the first delta, as the
    app's listener does)."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QTextBrowser

    class Window:
        def __init__(self) -> None:
            self.view = QTextBrowser()
            self.view.resize(1100, 720)
            self.view.show()
            self.buffer: list[str] = []
            self.text: list[str] = []
            self.frames = 0
            self.timer = QTimer()
            self.timer.setSingleShot(True)
            self.timer.setTimerType(Qt.TimerType.PreciseTimer)
            self.timer.timeout.connect(self.flush)

        def feed(self, text: str) -> None:
            self.buffer.append(text)
            if not self.timer.isActive():
                self.timer.start(FRAME_MS)

        def flush(self) -> None:
            if not self.buffer:
                return
            piece = "".join(self.buffer)
            self.buffer.clear()
            self.text.append(piece)
            self.frames += 1
            self.view.moveCursor(QTextCursor.MoveOperation.End)
            self.view.insertPlainText(piece)

    total = int(seconds * rate)
    windows = [Window() for _ in range(n_windows)]
    async with measured_loop() as figures:
        async for chunk in paced(text_turn(map(delta, range(total))), rate):
            if chunk.type == "text-delta":
                for window in windows:
                    window.feed(chunk.delta)
        for window in windows:
            window.timer.stop()
            window.flush()
    frames = [w.frames for w in windows]
    for window in windows:
        window.view.close()
        window.view.deleteLater()
    return {**figures, "frames": frames}


async def bench(seconds: float, rate: int, n_windows: int, repeats: int, realistic_s: float) -> dict[str, Any]:
    app: list[dict[str, Any]] = []
    floor: list[dict[str, Any]] = []
    real_app: list[dict[str, Any]] = []
    real_floor: list[dict[str, Any]] = []
    for i in range(repeats):
        # Alternate which goes first, so neither always runs on a warmer (or busier) machine.
        pair = [run_app(seconds, rate, n_windows, _delta), run_floor(seconds, rate, n_windows, _delta)]
        first, second = (0, 1) if i % 2 == 0 else (1, 0)
        results: list[dict[str, Any]] = [{}, {}]
        results[first] = await pair[first]
        results[second] = await pair[second]
        app.append(results[0])
        floor.append(results[1])
        real_app.append(await run_app(realistic_s, REALISTIC_RATE, 1, _realistic_delta))
        real_floor.append(await run_floor(realistic_s, REALISTIC_RATE, 1, _realistic_delta))

    def col(runs: list[dict[str, Any]], key: str) -> list[float]:
        return [float(r[key]) for r in runs]

    real_over = [a - f for a, f in zip(col(real_app, "p99"), col(real_floor, "p99"), strict=True)]
    figures = {
        "loop_lag_p99_ms": col(app, "p99"), "floor_loop_lag_p99_ms": col(floor, "p99"),
        "loop_lag_ratio": paired_ratio(col(app, "p99"), col(floor, "p99")),
        "loop_lag_p50_ms": col(app, "p50"), "floor_loop_lag_p50_ms": col(floor, "p50"),
        "loop_lag_max_ms": col(app, "max"), "floor_loop_lag_max_ms": col(floor, "max"),
        "cpu_percent": col(app, "cpu"), "floor_cpu_percent": col(floor, "cpu"),
        "realistic_lag_p99_ms": col(real_app, "p99"), "floor_realistic_lag_p99_ms": col(real_floor, "p99"),
        "realistic_lag_over_floor_ms": real_over,
    }
    for name, values in figures.items():
        print(describe(name, values))
    result: dict[str, Any] = {name: spread(values)["median"] for name, values in figures.items()}
    result["spread"] = {name: spread(values) for name, values in figures.items()}
    result.update({"windows": n_windows, "chunks": int(seconds * rate), "rate": rate, "repeats": repeats,
                   "frames_per_window": app[-1]["frames"], "floor_frames_per_window": floor[-1]["frames"],
                   "windows_identical": all(r["identical"] for r in app + real_app),
                   "final_chars": app[-1]["chars"]})
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=2000)
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--realistic-seconds", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="CI: 2 pairs of 3 s runs")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeats, args.realistic_seconds = 3.0, 2, 3.0
    result = run_qasync(lambda: bench(args.seconds, args.rate, args.windows, args.repeats, args.realistic_seconds))
    for key in ("windows_identical", "frames_per_window", "floor_frames_per_window", "final_chars"):
        print(f"{key:>32}: {result[key]}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
