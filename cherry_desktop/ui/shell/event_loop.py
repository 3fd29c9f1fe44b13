"""The app's asyncio loop on Qt: qasync's `QEventLoop` plus async-generator finalization.

`asyncio`'s own `run_forever` installs `sys.set_asyncgen_hooks` so that an async generator
left suspended (a consumer that `break`s out of `async for`) is closed *on the loop*. qasync's
`run_forever` does not. Without the hooks the garbage collector closes such a generator
synchronously, off the loop: httpx/httpcore cannot await their cleanup there, print
"async generator ignored GeneratorExit", and leave the pooled connection checked out (every
chat reply through an HTTP provider ends that way: the provider stops reading at `[DONE]`).
`CherryEventLoop.run_forever` installs them for as long as it runs, as asyncio's does.

No thread may be inside Qt when the interpreter finalizes. `loop.call_soon_threadsafe` is a
PySide signal emit: C++ that drops the GIL while Qt posts the event and takes it back after.
A daemon thread that takes it back once finalization began is ended by CPython 3.11 with
`pthread_exit`, whose unwinding through PySide's C++ destructors calls `std::terminate`
("terminate called without an active exception", exit code -6). asyncio's default child
watcher on Python 3.11 is such a thread per child process (`asyncio-waitpid-N`): it emits the
child's exit into the loop, and the app's stop ends right after the last CLI exited, so a
thread starved by CPU load could still be in that emit while the app finalized.
`watch_children_on(loop)` watches children with pidfds on the loop itself (no thread; what
asyncio does by itself from 3.12); after the loop closed the app joins what is left and exits
without finalizing when a thread still runs (`cherry_desktop.core.app.lingering_threads`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import qasync
from PySide6.QtCore import QCoreApplication

#: How soon a task step that came due inside another task's nested Qt loop tries again.
NESTED_STEP_RETRY_S = 0.005


class CherryEventLoop(qasync.QEventLoop):  # type: ignore[misc]
    """qasync's loop whose `run_forever` points the async-generator hooks at itself, and whose
    task steps wait out a nested Qt event loop.

    A nested Qt loop run inside a task's step (a modal dialog's or a menu's ``exec()``, a
    ``processEvents()``) runs the loop's due callbacks from within that step. For a plain
    callback that is fine, but a task step there fails: asyncio refuses to enter a task while
    another one runs ("Cannot enter into task ... while another task ... is being executed"),
    the failure goes to the exception handler and the task never wakes again, so whatever
    awaits it hangs (a turn's end, an app's stop). Such a step waits instead: it is tried again
    every `NESTED_STEP_RETRY_S` until the outer step has returned.
    """

    def call_later(self, delay: float, callback: Any, *args: Any, context: Any = None) -> Any:
        # A task schedules its steps and wakeups as its own bound methods (C or Python tasks
        # alike): the only way to tell them from other callbacks.
        if isinstance(getattr(callback, "__self__", None), asyncio.Task):
            return super().call_later(delay, self._step_when_free, callback, args, context, context=context)
        return super().call_later(delay, callback, *args, context=context)

    def _step_when_free(self, step: Any, args: tuple[Any, ...], context: Any) -> None:
        if asyncio.current_task(self) is not None:  # inside another task's step: a nested Qt loop
            super().call_later(NESTED_STEP_RETRY_S, self._step_when_free, step, args, context, context=context)
            return
        step(*args)

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


def attach_pidfd_watcher(loop: asyncio.AbstractEventLoop) -> bool:
    """Python 3.11 on Linux: from now on child processes are watched with pidfds on `loop` (no
    thread); False (nothing changed) on 3.12+ or where pidfds do not work. The caller restores
    the previous watcher if it needs to (`watch_children_on` does)."""
    if sys.version_info >= (3, 12) or not _pidfd_works():
        return False
    watcher = asyncio.PidfdChildWatcher()
    watcher.attach_loop(loop)
    asyncio.set_child_watcher(watcher)
    return True


def _pidfd_works() -> bool:
    try:
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError):
        return False
    return True


@contextlib.contextmanager
def watch_children_on(loop: asyncio.AbstractEventLoop) -> Iterator[bool]:
    """Python 3.11 on Linux: child processes are watched with pidfds on `loop` (no thread) while
    the block runs; yields whether it did. Elsewhere asyncio's own watcher stays (3.12+ uses
    pidfds by itself where it can; other systems keep a thread: `core.app.lingering_threads`)."""
    if sys.version_info >= (3, 12) or not _pidfd_works():
        yield False
        return
    previous = asyncio.get_child_watcher()  # asyncio's default (made now if not yet: no thread)
    attach_pidfd_watcher(loop)
    try:
        yield True
    finally:
        # A child still running (a CLI sent SIGTERM at stop) is the OS's to end (`process_tie`):
        # detaching from it is expected, not worth asyncio's RuntimeWarning.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            asyncio.set_child_watcher(previous)
