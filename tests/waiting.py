"""The one way a test waits for a condition: `until()`.

The deadline is only there so that a hang fails the test instead of stalling the run; it is
never a speed assertion (give it room). It polls on whatever loop is running, plain asyncio or
qasync (under qasync the sleep lets Qt process its events too).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

POLL_S = 0.005


async def until(cond: Callable[[], Any], *, limit: float = 5.0, what: str | None = None) -> None:
    """Wait until `cond()` is truthy; fail naming the condition when it is not within `limit` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not cond():
        if loop.time() > deadline:
            raise AssertionError(f"condition never held within {limit:g} s: {what or describe(cond)}")
        await asyncio.sleep(POLL_S)


def describe(cond: Callable[[], Any]) -> str:
    """The condition's source line (a lambda) or name, and where it is."""
    code = getattr(cond, "__code__", None)
    where = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    try:
        source = " ".join(inspect.getsource(cond).split())
    except (OSError, TypeError):
        source = getattr(cond, "__qualname__", repr(cond))
    return f"{source}{where}"
