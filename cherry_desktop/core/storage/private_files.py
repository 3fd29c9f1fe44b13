"""The app's files are the user's alone (POSIX): folders 0700, the database and logs 0600.

Conversations, agent memory and logs are private; other local users must not read them. New
folders and files are created so, and an existing install is tightened at every start (an
older build left them 0755 / 0644). Only the app's own folders (the path registry) and files
are touched: never a user's workspace, never the process umask (the agent runtimes create the
user's project files and must keep the user's usual modes).

SQLite gives the `-wal` and `-shm` files the main database file's mode, so creating that file
0600 before SQLite opens it is enough; the log handler makes each log file 0600 as it opens
it (`logging_setup`). On Windows nothing is changed: the profile's ACLs already keep these
folders to their user.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)

FOLDER_MODE = 0o700
FILE_MODE = 0o600
#: The registry's roots: a registered folder's parents are tightened up to one of these.
ROOTS = ("app.data", "app.config", "app.logs", "app.cache")
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def applies() -> bool:
    return os.name == "posix"


def make_private_folder(path: Path) -> None:
    """Create `path` (and missing parents) 0700, or tighten it if it exists."""
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    tighten(path, FOLDER_MODE)


def tighten(path: Path, mode: int) -> None:
    """Remove group/other access from `path` (it keeps the owner's bits; never loosens)."""
    if not applies():
        return
    try:
        current = stat.S_IMODE(path.stat().st_mode)
        if current & 0o077:
            path.chmod((current & 0o700) | (mode & 0o700))
    except FileNotFoundError:
        pass
    except OSError as exc:  # not ours to change (another owner, a read-only disk): say so, go on
        log.warning("could not make %s private: %s", path, exc.strerror or exc)


def private_folders(registry_paths: dict[str, Path]) -> list[Path]:
    """Every registered folder, plus the folders between it and its root (e.g. `Agents/`)."""
    roots = [registry_paths[name] for name in ROOTS if name in registry_paths]
    out: set[Path] = set(roots)
    for name, path in registry_paths.items():
        folder = path.parent if name.startswith("file.") else path
        out.add(folder)
        for parent in folder.parents:
            if any(parent.is_relative_to(root) for root in roots):
                out.add(parent)
    return sorted(out)


def ensure_private_folders(registry_paths: dict[str, Path]) -> None:
    for folder in private_folders(registry_paths):
        make_private_folder(folder)


def create_private_file(path: Path) -> None:
    """Create `path` 0600 if missing (before a library opens it with the umask's mode)."""
    if not applies():
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    tighten(path, FILE_MODE)


def tighten_database_files(database: Path) -> None:
    """The database and its SQLite side files, 0600 (those that exist)."""
    for path in (database, *(database.with_name(database.name + s) for s in SQLITE_SIDE_FILES)):
        tighten(path, FILE_MODE)


def tighten_files(paths: Iterable[Path]) -> None:
    for path in paths:
        tighten(path, FILE_MODE)


__all__ = ["FILE_MODE", "FOLDER_MODE", "create_private_file", "ensure_private_folders", "make_private_folder",
           "private_folders", "tighten", "tighten_database_files", "tighten_files"]
