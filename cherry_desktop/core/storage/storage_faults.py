"""Storage faults as one typed error: what went wrong with the app's files, never a traceback.

`StorageError.fault` says which (`StorageFault`); the UI turns it into words (a dialog, one
line on stderr). `classify` maps what SQLite, peewee and the OS raise onto it; the app's start
(`app.py`) and `doctor` use it. Nothing here deletes, recreates or "repairs" a file: a fault
stops the app before it writes, so what is stored stays as it was.
"""

from __future__ import annotations

import errno
import sqlite3
from enum import StrEnum
from pathlib import Path


class StorageFault(StrEnum):
    READ_ONLY = "read-only"  # the data folder or a file in it cannot be written
    DISK_FULL = "disk-full"
    CORRUPT = "corrupt"  # SQLite found a damaged page ("malformed")
    NOT_A_DATABASE = "not-a-database"  # truncated, or another kind of file
    SCHEMA_TOO_NEW = "schema-too-new"  # written by a newer Cherry Desktop
    UNAVAILABLE = "unavailable"  # cannot be opened (permissions, a missing mount, ...)


class StorageError(RuntimeError):
    """A storage fault on `path` (`detail`: what the library or OS said)."""

    def __init__(self, fault: StorageFault, path: Path | None, detail: str = "") -> None:
        super().__init__(f"{fault.value}: {path}: {detail}" if path else f"{fault.value}: {detail}")
        self.fault = fault
        self.path = path
        self.detail = detail


_OS_FAULTS = {
    errno.EROFS: StorageFault.READ_ONLY,
    errno.EACCES: StorageFault.READ_ONLY,
    errno.EPERM: StorageFault.READ_ONLY,
    errno.ENOSPC: StorageFault.DISK_FULL,
    errno.EDQUOT: StorageFault.DISK_FULL,
}

#: SQLite's messages, lower-cased, in the order they are checked.
_SQLITE_FAULTS = (
    ("disk is full", StorageFault.DISK_FULL),
    ("readonly database", StorageFault.READ_ONLY),
    ("read-only file system", StorageFault.READ_ONLY),
    ("file is not a database", StorageFault.NOT_A_DATABASE),
    ("file is encrypted", StorageFault.NOT_A_DATABASE),
    ("malformed", StorageFault.CORRUPT),
    ("corrupt", StorageFault.CORRUPT),
    ("unable to open database file", StorageFault.UNAVAILABLE),
    ("disk i/o error", StorageFault.UNAVAILABLE),
)


def classify(exc: BaseException, path: Path | None = None) -> StorageError | None:
    """The storage fault `exc` is (or the error it was raised while handling: a failed commit
    is often reported as the rollback that followed it), or None when it is not one."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        fault = _classify_one(current, path)
        if fault is not None:
            return fault
        current = current.__cause__ or current.__context__
    return None


def _classify_one(exc: BaseException, path: Path | None) -> StorageError | None:
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, OSError) and exc.errno in _OS_FAULTS:
        where = Path(exc.filename) if isinstance(exc.filename, str) else path
        return StorageError(_OS_FAULTS[exc.errno], where, exc.strerror or str(exc))
    if _is_database_error(exc):
        text = str(exc).lower()
        for needle, fault in _SQLITE_FAULTS:
            if needle in text:
                return StorageError(fault, path, str(exc))
    return None


def _is_database_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return True
    import peewee

    return isinstance(exc, peewee.DatabaseError)


__all__ = ["StorageError", "StorageFault", "classify"]
