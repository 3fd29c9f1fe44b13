"""Shared set-up for the benchmarks: a real core on a temp data dir, on a qasync loop; scripted
`stream_text` sources that stand in for a model."""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cherry_desktop.core.ai.stream import (
        AiStreamRequest,
        StreamDoneResult,
        StreamErrorResult,
        StreamPausedResult,
    )
    from cherry_desktop.core.messages import UIMessageChunk

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# bench/ goes last: its mcp.py would otherwise shadow the `mcp` package the app imports (an ACP
# connection's tool relay, the MCP hub), as bench/mcp.py does for itself.
_BENCH_DIR = Path(__file__).resolve().parent
for _entry in [e for e in sys.path if e and Path(e).resolve() == _BENCH_DIR]:
    sys.path.remove(_entry)
sys.path.append(str(_BENCH_DIR))


def run_qasync(main: Callable[[], Awaitable[Any]]) -> Any:
    from PySide6.QtWidgets import QApplication

    from cherry_desktop.ui.shell.event_loop import new_event_loop

    loop = new_event_loop(QApplication.instance() or QApplication([]))
    asyncio.set_event_loop(loop)
    with loop:
        return loop.run_until_complete(main())


async def start_test_core(data_dir: str | None = None) -> Any:
    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.storage.paths import build_path_registry

    return await start_core(build_path_registry(data_dir or tempfile.mkdtemp(prefix="cherry-bench-")))


def stream_text_from(
    source: Callable[[AiStreamRequest], AsyncIterator[UIMessageChunk]],
) -> Callable[[AiStreamRequest], Awaitable[AsyncIterator[UIMessageChunk]]]:
    """An `AiService.stream_text` stand-in that answers each request with `source(request)`."""

    async def stream_text(request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        return source(request)

    return stream_text


def text_turn(deltas: Iterable[str], *, message_id: str | None = None, part_id: str = "t") -> Iterator[UIMessageChunk]:
    """One text reply as chunks, built as they are taken: start, text-start, a text-delta per
    item of `deltas`, text-end, finish.

    The deltas skip pydantic validation (`model_construct`): the benchmarks time our pipeline,
    not the building of their input.
    """
    from cherry_desktop.core.messages import FinishChunk, StartChunk, TextDeltaChunk, TextEndChunk, TextStartChunk

    yield StartChunk(message_id=message_id)
    yield TextStartChunk(id=part_id)
    for delta in deltas:
        yield TextDeltaChunk.model_construct(type="text-delta", id=part_id, delta=delta)
    yield TextEndChunk(id=part_id)
    yield FinishChunk(finish_reason="stop")


class LagProbe:
    """Measures event-loop lag: how late a 10 ms sleep wakes up."""

    def __init__(self, period_s: float = 0.01) -> None:
        self.period_s = period_s
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(self.period_s)
            self.samples.append(max(0.0, (loop.time() - t0 - self.period_s) * 1000))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def p(self, q: float) -> float:
        if not self.samples:
            return 0.0
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def mean(self) -> float:
        return statistics.fmean(self.samples) if self.samples else 0.0


@dataclass
class TurnTiming:
    first_chunk_ms: float
    turn_ms: float
    # app only: `dispatch_stream_request` returned (rows saved, session validated, turn begun).
    dispatch_ms: float | None = None


class TimingSubscriber:
    """A window-like listener stamping the first text delta and the terminal."""

    def __init__(self) -> None:
        self.t0 = 0.0
        self.first: float | None = None
        self.done = asyncio.Event()
        self.end: float | None = None
        self.status = ""

    def reset(self) -> None:
        self.t0 = time.perf_counter()
        self.first = self.end = None
        self.done.clear()
        self.status = ""

    @property
    def id(self) -> str:
        return "bench:window"

    def is_alive(self) -> bool:
        return True

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: str | None = None,
                 anchor_message_id: str | None = None) -> None:
        if self.first is None and chunk.type == "text-delta":
            self.first = time.perf_counter()

    def _terminal(self, status: str) -> None:
        self.end = time.perf_counter()
        self.status = status
        self.done.set()

    async def on_done(self, result: StreamDoneResult) -> None:
        self._terminal("success")

    async def on_paused(self, result: StreamPausedResult) -> None:
        self._terminal("paused")

    async def on_error(self, result: StreamErrorResult) -> None:
        self._terminal(f"error: {result.error.message}")


async def driver_first_turn(driver: Any, connect_input: Any, prompt: str,
                            timeout_s: float = 60.0) -> tuple[float, str]:
    """A runtime driver's first turn: connect -> send -> turn-complete; returns (ms, the newest
    resume token)."""
    from cherry_desktop.core.ai.runtime.types import RuntimeSendInput
    from cherry_desktop.core.messages import UIMessage

    t0 = time.perf_counter()
    connection = await driver.connect(connect_input)
    events = connection.events()
    await connection.send(RuntimeSendInput(message=UIMessage.user_text(prompt)))
    token = connect_input.resume_token or ""
    async with asyncio.timeout(timeout_s):
        async for event in events:
            if event.type == "resume-token":
                token = event.token
            if event.type == "error":
                raise RuntimeError(f"driver turn failed: {event.message}")
            if event.type == "turn-complete":
                break
    elapsed = (time.perf_counter() - t0) * 1000
    await connection.close()
    return elapsed, token


# -- figures against their floor -------------------------------------------------------------------

def spread(values: list[float], digits: int = 2) -> dict[str, float]:
    """The median of several runs with its range: what each printed figure is."""
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits)}


def describe(name: str, values: list[float], unit: str = "") -> str:
    s = spread(values)
    return f"{name:>32}: {s['median']}{unit} (range {s['min']}-{s['max']}, {len(values)} runs)"


def paired_ratio(app: list[float], floor: list[float]) -> list[float]:
    """Each run's app figure over the floor measured right next to it (same minutes, same load)."""
    return [a / f if f > 0 else float("inf") for a, f in zip(app, floor, strict=True)]


@asynccontextmanager
async def measured_loop(settle_s: float = 0.3) -> AsyncIterator[dict[str, Any]]:
    """Loop lag (p50, p99, max, in ms), CPU % and seconds of what runs inside, after `settle_s`
    for the windows to show; the figures land in the yielded dict on exit."""
    import psutil

    await asyncio.sleep(settle_s)
    proc = psutil.Process()
    probe = LagProbe()
    probe.start()
    proc.cpu_percent(None)
    figures: dict[str, Any] = {}
    t0 = time.perf_counter()
    try:
        yield figures
    finally:
        figures["seconds"] = time.perf_counter() - t0
        figures["cpu"] = proc.cpu_percent(None)
        await probe.stop()
        figures.update(p50=probe.p(0.5), p99=probe.p(0.99), max=max(probe.samples, default=0.0))
TURN_TIMEOUT_S = 60.0


@dataclass
class AppSide:
    """The app's side of a turn benchmark: `dispatch_stream_request` on a session."""

    core: Any
    session_id: str
    subscriber: TimingSubscriber = field(default_factory=TimingSubscriber)

    async def turn(self, prompt: str) -> TurnTiming:
        """One turn through the whole core, timed at a window-like subscriber."""
        from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
        from cherry_desktop.core.messages import TextPart
        from cherry_desktop.core.state.topics import session_topic_id

        sub = self.subscriber
        request = AiStreamOpenRequest(topic_id=session_topic_id(self.session_id),
                                      user_message_parts=[TextPart(text=prompt, state="done")])
        sub.reset()
        result = await dispatch_stream_request(self.core.stream_manager, sub, request)
        dispatched = time.perf_counter()
        if result.mode != "started":
            raise RuntimeError(f"the app turn did not start: {result}")
        await asyncio.wait_for(sub.done.wait(), TURN_TIMEOUT_S)
        if sub.status != "success" or sub.first is None or sub.end is None:
            raise RuntimeError(f"the app turn failed: {sub.status}")
        timing = TurnTiming((sub.first - sub.t0) * 1000, (sub.end - sub.t0) * 1000, (dispatched - sub.t0) * 1000)
        while not self.core.agent_runtime.is_session_settled(self.session_id):  # noqa: ASYNC110 (untimed)
            await asyncio.sleep(0.005)
        return timing


def connect_input_of(core: Any, session_id: str, resume: str | None) -> Any:
    """The connect input the host would build for `session_id` (no keyring: the demo's key)."""
    from cherry_desktop.core.ai.agent_session.connections import provider_child_env
    from cherry_desktop.core.ai.agent_session.validation import resolve_session_context
    from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput

    context = resolve_session_context(session_id, repos=core.repos, paths=core.paths,
                                      registry=core.agent_runtime.registry)
    return RuntimeConnectInput(context=context, resume_token=resume, permission_mode="default",
                               disabled_tools=frozenset(), get_api_key=lambda: None,
                               get_last_resume_token=lambda: None, extra_env=provider_child_env(context.provider))


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")
