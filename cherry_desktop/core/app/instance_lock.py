"""One app instance per data directory: an OS file lock next to the database.

The first instance takes the lock before boot recovery (which would otherwise mark a live
instance's streaming rows as interrupted) and holds it for its whole life. The lock is an
advisory OS lock on `cherry.lock` (`flock` on POSIX, `msvcrt.locking` on Windows): the OS
drops it when its holder dies, however it dies, so a crashed instance's lock is simply taken
over by the next start (the file stays; its content, the holder's pid, is only informative).

`instance_channel_name(data_dir)` names the local socket on which the first instance takes
requests from later launches (the UI's `QLocalServer`); it is derived from the data dir, so
two data dirs run two independent instances.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from enum import StrEnum
from pathlib import Path
from typing import IO

from cherry_desktop.core.storage.private_files import FILE_MODE, tighten


class LockState(StrEnum):
    """What `InstanceLock.acquire` found."""

    ACQUIRED = "acquired"  # ours now (a crashed holder's stale lock included)
    HELD = "held"  # another live instance holds it
    UNAVAILABLE = "unavailable"  # the lock file cannot be created or opened (read-only dir, ...)


class InstanceLock:
    """The data directory's instance lock (not reentrant; one per process)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None
        self.error: OSError | None = None

    @property
    def held(self) -> bool:
        return self._file is not None

    def acquire(self) -> LockState:
        """Try once, without waiting."""
        try:
            handle = self._open()
        except OSError as exc:
            self.error = exc
            return LockState.UNAVAILABLE
        try:
            _lock(handle)
        except OSError:
            handle.close()
            return LockState.HELD
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle
        return LockState.ACQUIRED

    def _open(self) -> IO[str]:
        flags = os.O_RDWR | os.O_CREAT
        fd = os.open(self.path, flags, FILE_MODE)
        tighten(self.path, FILE_MODE)  # an older build's lock file
        return os.fdopen(fd, "r+", encoding="utf-8")

    def holder_pid(self) -> int | None:
        """The pid the current holder wrote (informative; None if unknown)."""
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def release(self) -> None:
        handle, self._file = self._file, None
        if handle is not None:
            with contextlib.suppress(OSError):
                _unlock(handle)
            handle.close()

    def probe(self) -> LockState:
        """Whether another instance holds the lock now (takes and drops it if free)."""
        if self.held:
            return LockState.ACQUIRED
        state = self.acquire()
        if state is LockState.ACQUIRED:
            self.release()
        return state


def instance_channel_name(data_dir: Path) -> str:
    """The local-socket name of the instance that owns `data_dir` (short: socket paths are)."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode("utf-8")).hexdigest()[:20]
    return f"cherry-desktop-{digest}"


if os.name == "nt":  # pragma: no cover - Windows
    import msvcrt

    def _lock(handle: IO[str]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]

    def _unlock(handle: IO[str]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
else:
    import fcntl

    def _lock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


__all__ = ["InstanceLock", "LockState", "instance_channel_name"]
