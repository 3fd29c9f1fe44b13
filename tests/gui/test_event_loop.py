"""The app's loop (`cherry_desktop.ui.event_loop`) finalizes abandoned async generators on
the loop, as asyncio's own loop does and qasync's alone does not: a provider that stops
reading an HTTP stream must get its `finally` (the connection's release) awaited."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import AsyncIterator

import pytest

from cherry_desktop.ui.event_loop import CherryEventLoop

pytestmark = pytest.mark.gui


async def test_abandoned_async_generator_is_closed_on_the_loop() -> None:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, CherryEventLoop)
    assert sys.get_asyncgen_hooks().finalizer is not None
    released: list[str] = []

    async def reply() -> AsyncIterator[str]:
        try:
            for word in ("a", "b", "c"):
                yield word
        finally:
            await asyncio.sleep(0)  # an awaited cleanup, like releasing a pooled connection
            released.append("released")

    async for word in reply():
        if word == "a":
            break  # the consumer stops early (a provider at `[DONE]`)
    gc.collect()
    for _ in range(5):
        await asyncio.sleep(0)
    assert released == ["released"]


def test_hooks_are_restored_when_the_loop_stops(qapp: object) -> None:
    before = sys.get_asyncgen_hooks()
    loop = CherryEventLoop(qapp)
    try:
        seen = loop.run_until_complete(_hooks_inside())
    finally:
        loop.close()
    assert seen is not None
    assert sys.get_asyncgen_hooks() == before


async def _hooks_inside() -> object:
    return sys.get_asyncgen_hooks().finalizer
