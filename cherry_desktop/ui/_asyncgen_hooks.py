"""Async-generator finalization on the qasync loop.

`asyncio`'s own `run_forever` installs `sys.set_asyncgen_hooks` so that an async generator
left suspended (a consumer that `break`s out of `async for`) is closed *on the loop*. qasync's
`run_forever` does not. Without the hooks the garbage collector closes such a generator
synchronously, off the loop: httpx/httpcore cannot await their cleanup there, print
"async generator ignored GeneratorExit", and leave the pooled connection checked out. Every
chat reply through an HTTP provider ends that way (the provider stops reading at `[DONE]`).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any


class AsyncgenHooks:
    """Points the thread's async-generator hooks at `loop` until `restore()`."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # built before the loop runs: nothing to point at
                loop = None
        self._previous: Any = sys.get_asyncgen_hooks()
        firstiter = getattr(loop, "_asyncgen_firstiter_hook", None)
        finalizer = getattr(loop, "_asyncgen_finalizer_hook", None)
        self.installed = firstiter is not None and finalizer is not None
        if self.installed:
            sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)

    def restore(self) -> None:
        if self.installed:
            sys.set_asyncgen_hooks(*self._previous)
            self.installed = False
