"""Tie a pi child to the app's life (Linux: its own process group plus PR_SET_PDEATHSIG).

Kept apart on purpose: the process engineer's shared "tie child to app life" helper replaces
`tie_child_to_app_life` here without touching the driver. pi exits on stdin EOF when idle, but
with a model request in flight a child could keep pulling the reply after a SIGKILLed app; the
kernel's parent-death signal ends it regardless. The own process group lets `close()` signal pi
and anything pi's bash tool started, by group id, never by name.
"""

from __future__ import annotations

import ctypes
import signal
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def _linux_preexec() -> None:  # pragma: no cover - runs in the forked child
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def tie_child_to_app_life() -> dict[str, object]:
    """Keyword arguments for `asyncio.create_subprocess_exec` that tie the child to the app.

    Linux: a new session (own process group) and SIGKILL when the app's thread that spawned it
    dies. Elsewhere: a new process group only (POSIX) or nothing (Windows).
    """
    if sys.platform.startswith("linux"):
        preexec: Callable[[], None] = _linux_preexec
        return {"start_new_session": True, "preexec_fn": preexec}
    if sys.platform != "win32":
        return {"start_new_session": True}
    return {}
