"""Runtime children die with the app: one helper for every runtime that spawns a process.

A runtime child (the Claude Code CLI today, the pi runtime next) must not outlive the app:
a CLI left behind keeps pulling the model's reply, at the user's cost, while a restarted app
resumes the same conversation in a second one. Closing its stdin is not enough (the CLI
finishes its in-flight request first), so the OS ends it. What each OS gets:

- Linux: the child runs in its own process group and with ``PR_SET_PDEATHSIG`` = SIGTERM, set
  by a tiny launcher that then ``exec``s the real command (same pid, same pipes). The kernel
  signals the child the moment the app dies, SIGKILL of the app included. A watcher forked by
  the launcher (sleeping on pidfds) gives it ``KILL_GRACE_S`` (0.5 s) to exit, then SIGKILLs
  its group and what the child started: the agent CLI runs its tools in sessions of their own,
  found by a mark the child's environment passes on. SIGTERM first because the Claude Code CLI
  writes its session transcript (what ``--resume`` reads) on SIGTERM, not on SIGKILL.
- macOS and other POSIX: its own process group and the same watcher, which waits for the
  app's death (kqueue ``NOTE_EXIT``), SIGTERMs the child's group, then SIGKILLs as above.
- Windows: a job object with ``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`` holding each child; the
  app holds the job's only handle, which the OS closes when the app dies, killing the child.

Use: spawn ``tied_command(argv)`` instead of ``argv``, then ``adopt(pid)`` the new child
(a no-op off Windows); ``kill_tree(pid)`` ends a child and its process group.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path

from cherry_desktop.core.storage.assets import is_frozen

log = logging.getLogger(__name__)

#: First argument of a frozen app's executable that runs the launcher instead of the app.
FROZEN_LAUNCHER_ARG = "--cherry-tie-exec"


class TieMode(StrEnum):
    """How a child is tied to the app (see the module docstring)."""

    PDEATHSIG = "pdeathsig"
    WATCHDOG = "watchdog"
    JOB_OBJECT = "job-object"


def default_mode() -> TieMode:
    if sys.platform.startswith("linux"):
        return TieMode.PDEATHSIG
    if os.name == "nt":
        return TieMode.JOB_OBJECT
    return TieMode.WATCHDOG


def launcher_prefix(mode: TieMode | None = None) -> list[str]:
    """The words put before a command so the launcher ties it (empty on Windows)."""
    mode = mode or default_mode()
    if mode is TieMode.JOB_OBJECT:
        return []
    if is_frozen():
        # No interpreter to run a script with: the app's own executable runs the launcher.
        return [sys.executable, FROZEN_LAUNCHER_ARG, mode.value, str(os.getpid()), "--"]
    script = Path(__file__).with_name("_tie_launcher.py")
    # -I -S: no site, no user paths: the launcher starts in ~10 ms and imports only the stdlib.
    return [sys.executable, "-I", "-S", str(script), mode.value, str(os.getpid()), "--"]


def tied_command(command: Sequence[str], mode: TieMode | None = None) -> list[str]:
    """`command` wrapped so the child it starts dies with this process."""
    return [*launcher_prefix(mode), *command]


def adopt(pid: int) -> None:
    """Windows: put the new child in the app's kill-on-close job. Elsewhere nothing to do."""
    if os.name == "nt":  # pragma: no cover - not testable on this build machine
        _windows_job().assign(pid)


def kill_tree(pid: int, sig: int = signal.SIGTERM) -> None:
    """Signal a tied child's process group (the child and what it started), else the child."""
    if os.name == "nt":  # pragma: no cover
        with contextlib.suppress(OSError):
            os.kill(pid, sig)
        return
    try:
        if os.getpgid(pid) == pid:
            os.killpg(pid, sig)
            return
    except OSError:
        pass
    with contextlib.suppress(OSError):
        os.kill(pid, sig)


def run_frozen_launcher_if_asked(argv: Sequence[str]) -> None:
    """In a frozen app, `argv[1] == FROZEN_LAUNCHER_ARG` means: run the launcher (never returns)."""
    if len(argv) > 1 and argv[1] == FROZEN_LAUNCHER_ARG:
        from cherry_desktop.core.process import _tie_launcher

        _tie_launcher.main(list(argv[2:]))


class _WindowsJob:  # pragma: no cover - Windows only
    """A job object that kills its processes when the app's handle to it closes."""

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]

        class _Basic(ctypes.Structure):
            _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
                        ("LimitFlags", wintypes.DWORD), ("MinimumWorkingSetSize", ctypes.c_size_t),
                        ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", wintypes.DWORD),
                        ("Affinity", ctypes.c_size_t), ("PriorityClass", wintypes.DWORD),
                        ("SchedulingClass", wintypes.DWORD)]

        class _Io(ctypes.Structure):
            _fields_ = [(name, ctypes.c_uint64) for name in (
                "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
                "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]

        class _Extended(ctypes.Structure):
            _fields_ = [("BasicLimitInformation", _Basic), ("IoInfo", _Io),
                        ("ProcessMemoryLimit", ctypes.c_size_t), ("JobMemoryLimit", ctypes.c_size_t),
                        ("PeakProcessMemoryUsed", ctypes.c_size_t), ("PeakJobMemoryUsed", ctypes.c_size_t)]

        job_object_extended_limit_information = 9
        kill_on_job_close = 0x2000
        self._kernel32 = kernel32
        self._handle = kernel32.CreateJobObjectW(None, None)
        info = _Extended()
        info.BasicLimitInformation.LimitFlags = kill_on_job_close
        kernel32.SetInformationJobObject(self._handle, job_object_extended_limit_information,
                                         ctypes.byref(info), ctypes.sizeof(info))

    def assign(self, pid: int) -> None:
        process_set_quota_and_terminate = 0x0100 | 0x0001
        handle = self._kernel32.OpenProcess(process_set_quota_and_terminate, False, pid)
        if not handle:
            log.warning("could not open child %d to tie it to the app", pid)
            return
        try:
            if not self._kernel32.AssignProcessToJobObject(self._handle, handle):
                log.warning("could not put child %d in the app's job object", pid)
        finally:
            self._kernel32.CloseHandle(handle)


_JOB: _WindowsJob | None = None


def _windows_job() -> _WindowsJob:  # pragma: no cover - Windows only
    global _JOB
    if _JOB is None:
        _JOB = _WindowsJob()
    return _JOB


__all__ = ["FROZEN_LAUNCHER_ARG", "TieMode", "adopt", "default_mode", "kill_tree", "launcher_prefix",
           "run_frozen_launcher_if_asked", "tied_command"]
