"""What can go wrong with a backup or a restore: one typed error, never a traceback.

`BackupError.kind` says which (`BackupFault`); the UI turns it into words, the CLI prints
`describe()`. Whatever the fault, the current data is untouched and no half archive is left
under the name the user chose.
"""

from __future__ import annotations

import errno
from enum import StrEnum
from pathlib import Path


class BackupFault(StrEnum):
    DISK_FULL = "disk-full"  # the target (or the staging folder) ran out of space
    READ_ONLY = "read-only"  # the target folder cannot be written
    NOT_AN_ARCHIVE = "not-an-archive"  # a foreign file: not a Cherry Desktop backup
    TRUNCATED = "truncated"  # the archive ends before its checksums
    CORRUPT = "corrupt"  # a checksum or SQLite's integrity check failed
    TOO_NEW = "too-new"  # written by a newer Cherry Desktop (archive format or schema)
    DRAIN_TIMEOUT = "drain-timeout"  # writes still in flight after the timeout (`stragglers`)
    CANCELLED = "cancelled"
    BUSY = "busy"  # another backup or restore is running
    INSTANCE_RUNNING = "instance-running"  # an app instance owns the data dir (restore staged)
    UNAVAILABLE = "unavailable"  # the archive or a folder cannot be read
    INSIDE_DATA = "inside-data"  # the target would overwrite or sit inside the data backed up


_WORDS = {
    BackupFault.DISK_FULL: "the disk is full",
    BackupFault.READ_ONLY: "the folder cannot be written",
    BackupFault.NOT_AN_ARCHIVE: "this is not a Cherry Desktop backup",
    BackupFault.TRUNCATED: "the backup is incomplete (truncated)",
    BackupFault.CORRUPT: "the backup is damaged",
    BackupFault.TOO_NEW: "the backup was made by a newer Cherry Desktop; update the app to restore it",
    BackupFault.DRAIN_TIMEOUT: "writes still running did not finish in time; nothing was written",
    BackupFault.CANCELLED: "cancelled; nothing was written",
    BackupFault.BUSY: "another backup or restore is running",
    BackupFault.INSTANCE_RUNNING: "Cherry Desktop is running on this data folder",
    BackupFault.UNAVAILABLE: "the file cannot be read",
    BackupFault.INSIDE_DATA: "choose a file outside the app's data (it would overwrite or be backed up itself)",
}


class BackupError(RuntimeError):
    """A backup or restore fault (`detail`: what the library or OS said; `stragglers`: the
    work still writing when a drain timed out)."""

    def __init__(self, kind: BackupFault, path: Path | None = None, detail: str = "",
                 stragglers: tuple[str, ...] = ()) -> None:
        super().__init__(f"{kind.value}: {path or ''}: {detail}")
        self.kind = kind
        self.path = path
        self.detail = detail
        self.stragglers = stragglers

    def describe(self) -> str:
        """One English line (the CLI's; the UI has its own words per `kind`)."""
        parts = [_WORDS[self.kind]]
        if self.path is not None:
            parts.append(str(self.path))
        if self.stragglers:
            parts.append("still running: " + ", ".join(self.stragglers))
        elif self.detail:
            parts.append(self.detail)
        return ": ".join(parts)


_OS_FAULTS = {
    errno.ENOSPC: BackupFault.DISK_FULL,
    errno.EDQUOT: BackupFault.DISK_FULL,
    errno.EROFS: BackupFault.READ_ONLY,
    errno.EACCES: BackupFault.READ_ONLY,
    errno.EPERM: BackupFault.READ_ONLY,
}


def from_os_error(exc: OSError, path: Path | None = None) -> BackupError:
    """The fault an OS error while writing is (a full disk, a read-only folder, ...)."""
    kind = _OS_FAULTS.get(exc.errno or 0, BackupFault.UNAVAILABLE)
    where = Path(exc.filename) if isinstance(exc.filename, str) else path
    return BackupError(kind, where, exc.strerror or str(exc))


def from_sqlite_error(exc: Exception, path: Path | None = None) -> BackupError:
    text = str(exc).lower()
    if "disk is full" in text or "database or disk is full" in text:
        return BackupError(BackupFault.DISK_FULL, path, str(exc))
    if "readonly" in text or "read-only" in text:
        return BackupError(BackupFault.READ_ONLY, path, str(exc))
    if "unable to open" in text or "i/o error" in text:
        return BackupError(BackupFault.UNAVAILABLE, path, str(exc))
    return BackupError(BackupFault.CORRUPT, path, str(exc))
