"""The host's background tasks, and the launches the write quiesce drains.

Every task the host starts goes through `HostTasks.spawn` (so `stop` can finish or cancel it);
a launch of a turn the host starts on its own (a queued successor, a steer continuation) is
also *in flight* from its admission through its placeholder write and hand-off to the broker:
`drain_in_flight` awaits those and names the stragglers (`list_active_work` lists them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TypeVar

from cherry_desktop.core.ai.stream.types import ActiveWork
from cherry_desktop.core.state.topics import session_topic_id

T = TypeVar("T")


@dataclass(frozen=True)
class DrainResult:
    straggler_ids: list[str]


class HostTasks:
    def __init__(self) -> None:
        self.running: set[asyncio.Task[object]] = set()
        self.in_flight: dict[asyncio.Task[object], str] = {}

    def spawn(self, coro: Coroutine[object, object, T], *, in_flight: str | None = None) -> asyncio.Task[T]:
        task = asyncio.get_running_loop().create_task(coro)
        self.running.add(task)
        task.add_done_callback(self.running.discard)
        if in_flight is not None:
            self.in_flight[task] = in_flight
            task.add_done_callback(lambda t: self.in_flight.pop(t, None))
        return task

    async def drain_in_flight(self, timeout_ms: float) -> DrainResult:
        pending = dict(self.in_flight)
        if not pending:
            return DrainResult(straggler_ids=[])
        _, still = await asyncio.wait(pending.keys(), timeout=max(0.0, timeout_ms) / 1000.0)
        return DrainResult(straggler_ids=sorted(pending[t] for t in still))

    def list_active_work(self) -> list[ActiveWork]:
        return [ActiveWork(id=label, topic_id=session_topic_id(label.split(":", 1)[-1]), model_id="",
                           anchor_message_id=None, started_at=0.0)
                for task, label in self.in_flight.items() if not task.done()]

    async def finish(self, timeout_s: float) -> None:
        """Let the tasks under way finish (bounded), then cancel what is left."""
        pending = {t for t in self.running if not t.done() and t is not asyncio.current_task()}
        if pending:
            await asyncio.wait(pending, timeout=timeout_s)

    def cancel_all(self) -> None:
        for task in list(self.running):
            if not task.done():
                task.cancel()
