"""Threads still running once the app's loop has closed (`lingering_threads`).

A Python thread still running when the interpreter finalizes is ended by CPython 3.11 with
`pthread_exit` as soon as it asks for the GIL; inside Qt (a PySide signal emit, as
`loop.call_soon_threadsafe` is on the app's loop) that unwinding reaches C++ destructors and
aborts the process ("terminate called without an active exception", exit code -6). The app
joins what is left after its orderly stop and, if a thread still runs, exits without
finalizing (`cherry_desktop.app`); `cherry_desktop.ui.shell.event_loop` says which thread did.
"""

from __future__ import annotations

import threading
import time

#: After the loop closed, threads still running get this long (in all) to end.
THREAD_SETTLE_S = 1.0


def lingering_threads(timeout_s: float = THREAD_SETTLE_S) -> list[threading.Thread]:
    """Join the other Python threads still running (within `timeout_s` in all); those that did
    not end. Threads Python did not start (Qt's, seen as dummies) cannot be joined and are not
    counted: the loop's own (qasync's executor) were joined when it closed."""
    deadline = time.monotonic() + timeout_s
    current = threading.current_thread()
    lingering: list[threading.Thread] = []
    for thread in threading.enumerate():
        if thread is current:
            continue
        try:
            thread.join(max(0.0, deadline - time.monotonic()))
        except (AssertionError, RuntimeError):  # "cannot join a dummy thread" (3.11 asserts)
            continue
        if thread.is_alive():
            lingering.append(thread)
    return lingering
