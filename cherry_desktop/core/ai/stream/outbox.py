"""`TerminalOutbox`: the subscribers of a topic hear its terminal events in order.

A terminal dispatched from inside another's persistence phase (the agent host ending a held
topic from its turn listener) or concurrently with it (multi-model) reserves its place when
its dispatch begins; subscribers hear each result only once every earlier one was heard.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from cherry_desktop.core.ai.stream.types import StreamTerminalResult


class OutboxSlot:
    """One place in line; `result` is set once its dispatch knows what subscribers hear."""

    __slots__ = ("result",)

    def __init__(self) -> None:
        self.result: StreamTerminalResult | None = None


class TerminalOutbox:
    __slots__ = ("draining", "slots")

    def __init__(self) -> None:
        self.slots: list[OutboxSlot] = []
        self.draining = False

    def reserve(self) -> OutboxSlot:
        """A place in line, taken when a terminal dispatch begins."""
        slot = OutboxSlot()
        self.slots.append(slot)
        return slot

    async def fill(self, slot: OutboxSlot, result: StreamTerminalResult,
                   deliver: Callable[[StreamTerminalResult], Awaitable[None]]) -> None:
        """`result` is ready: deliver every ready result at the head of the line, in order."""
        slot.result = result
        if self.draining:
            return  # the drain in progress reaches it
        self.draining = True
        try:
            while self.slots:
                ready = self.slots[0].result
                if ready is None:
                    break
                self.slots.pop(0)
                await deliver(ready)
        finally:
            self.draining = False
