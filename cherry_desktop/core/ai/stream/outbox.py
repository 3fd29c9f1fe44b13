"""`TerminalOutbox`: the subscribers of a topic hear its terminal events in order.

A terminal dispatched from inside another's persistence phase (the agent host ending a held
topic from its turn listener) or concurrently with it (multi-model) reserves its place when
its dispatch begins; subscribers hear each result only once every earlier one was heard.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any


class TerminalOutbox:
    __slots__ = ("draining", "slots")

    def __init__(self) -> None:
        self.slots: list[list[Any]] = []
        self.draining = False

    def reserve(self) -> list[Any]:
        """A place in line, taken when a terminal dispatch begins."""
        slot: list[Any] = [None]
        self.slots.append(slot)
        return slot

    async def fill(self, slot: list[Any], result: Any, deliver: Callable[[Any], Awaitable[None]]) -> None:
        """`result` is ready: deliver every ready result at the head of the line, in order."""
        slot[0] = result
        if self.draining:
            return  # the drain in progress reaches it
        self.draining = True
        try:
            while self.slots and self.slots[0][0] is not None:
                await deliver(self.slots.pop(0)[0])
        finally:
            self.draining = False
