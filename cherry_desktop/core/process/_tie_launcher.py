"""The tie launcher: ties a runtime child's life to the app, then becomes that child (exec).

Run as a script by path (``python -I -S _tie_launcher.py MODE APP_PID -- argv...``), so it
imports nothing from the app and starts in ~10 ms; a frozen app runs ``main()`` itself. It:

1. moves into its own process group (a Ctrl+C in the app's terminal reaches the app only,
   which then stops its children in order; the group lets the app end the child's own
   children too);
2. ties itself to the app, by MODE:
   - ``pdeathsig`` (Linux): ``prctl(PR_SET_PDEATHSIG, SIGTERM)``: the kernel signals the child
     the moment the app dies, however it dies (SIGKILL included). The flag survives ``exec``.
   - ``watchdog`` (macOS and other POSIX without PDEATHSIG): the watcher below signals it.
   In both modes it forks a watcher (no CPU: it sleeps on pidfds / kqueue; polling twice a
   second elsewhere) that waits for the app's exit, SIGTERMs the child's process group, gives
   the child `KILL_GRACE_S` to exit, then SIGKILLs the group and every process the child
   started, found by a unique mark in their environment (Linux /proc), since the agent CLI
   starts its tools in sessions of their own; it exits when the child ends.
   SIGTERM first, not SIGKILL: the Claude Code CLI keeps the session transcript it resumes
   from (``~/.claude/projects/.../<session>.jsonl``) in memory for a few hundred ms before
   writing it, and writes it on SIGTERM/SIGINT/SIGHUP (then exits, ~40 ms, even with the model
   API stalled). SIGKILLed during a session's first turn it leaves no transcript, and the next
   run's ``--resume`` finds "No conversation found";
3. checks the app is still its parent (the app may have died before the tie was armed);
4. ``exec``s the real command: same pid, same pipes, so the SDK's handle is the child itself.

Windows gets no launcher: the app puts each child in a job object that kills it when the
app's handle closes (`cherry_desktop.core.process.process_tie`).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable

# `Any`: the stdlib `select` module, whose members differ per platform (poll, kqueue); the
# launcher uses the ones its platform has.
from typing import Any

PR_SET_PDEATHSIG = 1
WATCH_POLL_S = 0.5
#: How long the child has to exit after SIGTERM (flushing what it must) before SIGKILL.
KILL_GRACE_S = 0.5
#: How long the watcher, seeing the child exit first, still waits for the app's exit (see
#: `_exit_waiter`).
CHILD_FIRST_GRACE_S = 1.0
#: Environment variable marking a tied child and everything it starts (value: a unique token).
MARK_ENV = "CHERRY_DESKTOP_TIED"


def _arm_pdeathsig() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _exit_waiter(app_pid: int, child_pid: int) -> Callable[[], str]:
    """A `wait() -> "app" | "child"`: which of the two exited first (pidfds on Linux, kqueue on
    macOS/BSD, else polling twice a second). Exit, not reaping: a dead app its own parent has
    not waited for yet counts as gone."""
    import select

    sel: Any = select
    pidfd_open = getattr(os, "pidfd_open", None)  # Linux 5.3+ only: the launcher probes the platform
    if pidfd_open is not None:
        try:
            app_fd = pidfd_open(app_pid)
        except OSError:
            return lambda: "app"  # already gone
        try:
            child_fd = pidfd_open(child_pid)
        except OSError:
            return lambda: "child"
        poller = sel.poll()
        poller.register(app_fd, sel.POLLIN)
        poller.register(child_fd, sel.POLLIN)

        def wait_pidfds() -> str:
            ready = {fd for fd, _ in poller.poll()}
            if app_fd in ready:
                return "app"
            # The child can die of the parent-death signal a moment before the app's own exit
            # shows: give the app that moment (on every path below too), or what the child
            # started (the agent CLI an ACP agent runs) would be left behind.
            app_only = sel.poll()
            app_only.register(app_fd, sel.POLLIN)
            return "app" if app_only.poll(int(CHILD_FIRST_GRACE_S * 1000)) else "child"

        return wait_pidfds
    if hasattr(sel, "kqueue"):
        queue = sel.kqueue()
        try:
            queue.control([sel.kevent(app_pid, sel.KQ_FILTER_PROC, sel.KQ_EV_ADD, sel.KQ_NOTE_EXIT)], 0)
        except OSError:
            return lambda: "app"

        def wait_kqueue() -> str:
            while True:
                if queue.control(None, 1, WATCH_POLL_S):
                    return "app"
                if os.getppid() != child_pid:  # the child first: the app's moment (see above)
                    return "app" if queue.control(None, 1, CHILD_FIRST_GRACE_S) else "child"

        return wait_kqueue

    def app_gone() -> bool:
        try:
            os.kill(app_pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass
        return False

    def wait_polling() -> str:
        while True:
            if app_gone():
                return "app"
            if os.getppid() != child_pid:  # the child (our parent) ended: we were reparented
                deadline = time.monotonic() + CHILD_FIRST_GRACE_S  # the app's moment (see above)
                while time.monotonic() < deadline:
                    if app_gone():
                        return "app"
                    time.sleep(0.05)
                return "child"
            time.sleep(WATCH_POLL_S)

    return wait_polling


def _marked_processes(marker: bytes) -> list[int]:
    """Live processes whose environment holds `marker` (Linux /proc; empty elsewhere). The
    child and everything it starts inherit the mark, wherever they were reparented to: the
    agent CLI starts its tools in sessions of their own, and they outlive it when it is killed."""
    from pathlib import Path  # here, not at the top: the launcher's start stays short

    me = os.getpid()
    found: list[int] = []
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:
        return found
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            if marker in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _child_exit_waiter(child_pid: int) -> Callable[[float], bool]:
    """A `wait(timeout) -> bool`: whether the child (the watcher's parent) exited in time."""
    pidfd_open = getattr(os, "pidfd_open", None)  # Linux 5.3+ only: the launcher probes the platform
    if pidfd_open is not None:
        import select

        try:
            child_fd = pidfd_open(child_pid)
        except OSError:
            return lambda timeout: True  # already gone
        poller = select.poll()
        poller.register(child_fd, select.POLLIN)
        return lambda timeout: bool(poller.poll(int(timeout * 1000)))

    def wait_polling(timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while os.getppid() == child_pid:  # reparented the moment the child exits
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    return wait_polling


def _watch(app_pid: int, child_pid: int, marker: bytes, *, term_sent: bool) -> None:
    """Until the app or the child ends. When the app ends first: SIGTERM the child's group
    (unless the kernel's parent-death signal already did: `term_sent`), give the child
    `KILL_GRACE_S` to exit, then SIGKILL its group and every process carrying its mark."""
    child_exited = _child_exit_waiter(child_pid)
    if _exit_waiter(app_pid, child_pid)() != "app":
        return
    if not term_sent:
        try:
            os.killpg(child_pid, signal.SIGTERM)
        except OSError:
            pass
    child_exited(KILL_GRACE_S)
    try:
        os.killpg(child_pid, signal.SIGKILL)
    except OSError:
        pass
    for pid in _marked_processes(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _fork_watcher(app_pid: int, *, term_sent: bool) -> None:
    child_pid = os.getpid()  # after exec, the runtime child keeps this pid and group
    token = f"{app_pid}-{child_pid}-{time.time_ns()}"
    os.environ[MARK_ENV] = token  # inherited by the child (exec) and all it starts
    marker = f"{MARK_ENV}={token}\0".encode()
    if os.fork() != 0:
        return
    # The watcher: hold none of the child's pipes, or the SDK would never see EOF; its own
    # session, so the child's group being signalled at a normal stop does not end it first.
    try:
        os.closerange(0, 1024)
        os.setsid()
        _watch(app_pid, child_pid, marker, term_sent=term_sent)
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
    # Both modes fork the watcher: with PDEATHSIG it SIGKILLs the child if SIGTERM did not end
    # it, and what the child started (its tools); as a watchdog it also sends the SIGTERM.
    _fork_watcher(app_pid, term_sent=mode == "pdeathsig")
    if os.getppid() != app_pid:
        os._exit(1)  # the app died before the tie was armed
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
