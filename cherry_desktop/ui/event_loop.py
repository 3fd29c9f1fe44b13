"""The app's asyncio loop on Qt: qasync's `QEventLoop` plus async-generator finalization.

`asyncio`'s own `run_forever` installs `sys.set_asyncgen_hooks` so that an async generator
left suspended (a consumer that `break`s out of `async for`) is closed *on the loop*. qasync's
`run_forever` does not. Without the hooks the garbage collector closes such a generator
synchronously, off the loop: httpx/httpcore cannot await their cleanup there, print
"async generator ignored GeneratorExit", and leave the pooled connection checked out (every
chat reply through an HTTP provider ends that way: the provider stops reading at `[DONE]`).
`CherryEventLoop.run_forever` installs them for as long as it runs, as asyncio's does.
"""

from __future__ import annotations

import sys
from typing import Any

import qasync
from PySide6.QtCore import QCoreApplication


class CherryEventLoop(qasync.QEventLoop):  # type: ignore[misc]
    """qasync's loop whose `run_forever` points the async-generator hooks at itself."""

    def run_forever(self) -> Any:
        previous = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(firstiter=self._asyncgen_firstiter_hook,
                               finalizer=self._asyncgen_finalizer_hook)
        try:
            return super().run_forever()
        finally:
            sys.set_asyncgen_hooks(*previous)


def new_event_loop(app: QCoreApplication | None = None) -> CherryEventLoop:
    """The loop for `app` (the running QApplication by default)."""
    return CherryEventLoop(app or QCoreApplication.instance())
