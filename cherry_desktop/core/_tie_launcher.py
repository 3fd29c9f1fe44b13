"""The tie launcher: ties a runtime child's life to the app, then becomes that child (exec).

Run as a script by path (``python -I -S _tie_launcher.py MODE APP_PID -- argv...``), so it
imports nothing from the app and starts in ~10 ms; a frozen app runs ``main()`` itself. It:

1. moves into its own process group (a Ctrl+C in the app's terminal reaches the app only,
   which then stops its children in order; the group lets the app end the child's own
   children too);
2. ties itself to the app, by MODE:
   - ``pdeathsig`` (Linux): ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the child the
     moment the app dies, however it dies (SIGKILL included). The flag survives ``exec``.
   - ``watchdog`` (macOS and other POSIX without PDEATHSIG): a forked watcher that waits for
     the app to die (kqueue on macOS/BSD, else polling ``kill(pid, 0)`` twice a second) and then
     SIGKILLs the child's process group; it exits by itself when the child ends.
3. checks the app is still its parent (the app may have died before the tie was armed);
4. ``exec``s the real command: same pid, same pipes, so the SDK's handle is the child itself.

Windows gets no launcher: the app puts each child in a job object that kills it when the
app's handle closes (`cherry_desktop.core.process_tie`).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

PR_SET_PDEATHSIG = 1
WATCH_POLL_S = 0.5


def _arm_pdeathsig() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _wait_for_exit(app_pid: int, child_pid: int) -> bool:
    """Block until the app dies (True) or the child does (False)."""
    import select

    sel: Any = select  # kqueue exists on macOS/BSD only
    if hasattr(sel, "kqueue"):
        queue = sel.kqueue()
        try:
            queue.control([sel.kevent(app_pid, sel.KQ_FILTER_PROC, sel.KQ_EV_ADD, sel.KQ_NOTE_EXIT)], 0)
        except OSError:
            return True  # the app is already gone
        while True:
            if queue.control(None, 1, WATCH_POLL_S):
                return True
            if os.getppid() != child_pid:
                return False
    while True:
        try:
            os.kill(app_pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass
        if os.getppid() != child_pid:  # the child (our parent) ended: reparented
            return False
        time.sleep(WATCH_POLL_S)


def _fork_watchdog(app_pid: int) -> None:
    child_pid = os.getpid()  # after exec, the runtime child keeps this pid and group
    if os.fork() != 0:
        return
    # The watcher: hold none of the child's pipes, or the SDK would never see EOF.
    try:
        os.closerange(0, 1024)
        os.setsid()
        if _wait_for_exit(app_pid, child_pid):
            try:
                os.killpg(child_pid, signal.SIGKILL)
            except OSError:
                pass
    finally:
        os._exit(0)


def main(args: list[str]) -> None:
    mode, app_pid_text, separator, *command = args
    if separator != "--" or not command:
        raise SystemExit("usage: _tie_launcher.py MODE APP_PID -- COMMAND...")
    app_pid = int(app_pid_text)
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    if mode == "pdeathsig" and not _arm_pdeathsig():
        mode = "watchdog"
    if mode == "watchdog":
        _fork_watchdog(app_pid)
    if os.getppid() != app_pid:
        os._exit(1)  # the app died before the tie was armed
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
