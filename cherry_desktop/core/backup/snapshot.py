"""What a backup holds, taken in two steps: `take_snapshot` (inside the write hold: a read
transaction pins the database, the files are listed with their sizes) and `write_archive`
(after the hold: the snapshot is copied with SQLite's backup API, the files up to the sizes
listed, all into `<target>.partial-<pid>`, renamed to the target only when complete).

Never in a backup: provider keys and the gateway key (the OS keyring holds them), the
instance lock, logs, caches, traces and the pi installation (reinstalled, not user data).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop import __version__
from cherry_desktop.core.backup.archive import DB_MEMBER, ArchiveWriter, Manifest, Progress
from cherry_desktop.core.backup.errors import BackupError, BackupFault, from_os_error, from_sqlite_error
from cherry_desktop.core.storage.paths import PathRegistry
from cherry_desktop.core.storage.private_files import create_private_file
from cherry_desktop.core.storage.settings import SETTINGS_FILE

#: The folders of the path registry a backup holds, whole.
BACKED_UP_FOLDERS = (
    "feature.agents.data",  # persona and memory files per agent
    "feature.agents.workspaces",  # Cherry-managed workspaces
    "feature.attachments",
    "feature.agents.pi.sessions",  # pi's session files (resume tokens name them)
)
#: Single files of the registry's folders: (path name, file name).
BACKED_UP_FILES = (("app.config", SETTINGS_FILE),)
PARTIAL_MARK = ".partial-"
_PARTIAL_RE = re.compile(r"\.partial-(\d+)(\.db)?$")


@dataclass(frozen=True)
class Source:
    name: str  # the archive member
    path: Path
    size: int


@dataclass
class Snapshot:
    """The database pinned by an open read transaction, and the files as they were then."""

    connection: sqlite3.Connection
    schema_version: int
    files: list[Source]
    taken_at: float

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.connection.close()


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size: int
    files: int
    schema_version: int


def claude_config_dir() -> Path:
    """Where Claude Code keeps its transcripts (`projects/<cwd slug>/<session>.jsonl`)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured) if configured else Path.home() / ".claude"


def _walk(root: Path, prefix: str) -> Iterator[Source]:
    if not root.is_dir():
        return
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs.sort()
        base = Path(folder)
        for name in sorted(names):
            path = base / name
            try:
                st = path.lstat()
            except OSError:
                continue
            if not path.is_symlink() and path.is_file():
                rel = path.relative_to(root).as_posix()
                yield Source(f"{prefix}/{rel}", path, st.st_size)


def _claude_transcripts(connection: sqlite3.Connection) -> Iterator[Source]:
    rows = connection.execute(
        "SELECT DISTINCT m.runtime_resume_token FROM agent_session_message m "
        "JOIN agent_session s ON s.id = m.session_id JOIN agent a ON a.id = s.agent_id "
        "WHERE a.type = 'claude-code' AND m.runtime_resume_token IS NOT NULL").fetchall()
    projects = claude_config_dir() / "projects"
    for (token,) in rows:
        if not re.fullmatch(r"[A-Za-z0-9-]{8,64}", str(token)):
            continue
        for path in sorted(projects.glob(f"*/{token}.jsonl")):
            with contextlib.suppress(OSError):
                yield Source(f"claude/projects/{path.parent.name}/{path.name}", path, path.stat().st_size)


def take_snapshot(paths: PathRegistry) -> Snapshot:
    """Pin the database and list the files (fast: no content is read). Runs in the hold."""
    db_file = paths.database_file
    try:
        connection = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True, isolation_level=None,
                                     check_same_thread=False)
        connection.execute("BEGIN")
        schema = int(connection.execute("PRAGMA user_version").fetchone()[0])
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the read snapshot
    except sqlite3.Error as exc:
        raise BackupError(BackupFault.UNAVAILABLE, db_file, str(exc)) from exc
    try:
        files: list[Source] = []
        for key in BACKED_UP_FOLDERS:
            files.extend(_walk(paths.get(key), f"files/{key}"))
        for key, name in BACKED_UP_FILES:
            path = paths.get(key) / name
            with contextlib.suppress(OSError):
                files.append(Source(f"files/{key}/{name}", path, path.stat().st_size))
        files.extend(_claude_transcripts(connection))
    except BaseException:
        connection.close()
        raise
    return Snapshot(connection, schema, files, time.time())


def check_target(paths: PathRegistry, target: Path) -> None:
    """Refuse a target that is the database (or a side file), or inside a folder the backup
    holds: it would overwrite the data, or back itself up next time."""
    where = target.expanduser().absolute().resolve()
    db = paths.database_file.resolve()
    if where.parent == db.parent and where.name.startswith(db.name):
        raise BackupError(BackupFault.INSIDE_DATA, target)
    for key in BACKED_UP_FOLDERS:
        if where.is_relative_to(paths.get(key).resolve()):
            raise BackupError(BackupFault.INSIDE_DATA, target)
    if any(where == (paths.get(key) / name).resolve() for key, name in BACKED_UP_FILES):
        raise BackupError(BackupFault.INSIDE_DATA, target)


def partial_name(target: Path) -> Path:
    return target.with_name(f"{target.name}{PARTIAL_MARK}{os.getpid()}")


def remove_stale_partials(folder: Path) -> None:
    """Leftovers of a backup whose process died (kill -9): never a "latest" backup."""
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            match = _PARTIAL_RE.search(path.name)
            if match and not _pid_alive(int(match.group(1))):
                with contextlib.suppress(OSError):
                    path.unlink()


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # ours are from an earlier, finished attempt of this process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def write_archive(snapshot: Snapshot, target: Path, *, progress: Progress | None = None,
                  cancel: threading.Event | None = None,
                  extra: dict[str, object] | None = None) -> BackupResult:
    """Write the archive of `snapshot` to `target` (atomically: complete or absent)."""
    target = target.expanduser().absolute()
    folder = target.parent
    if not folder.is_dir():
        raise BackupError(BackupFault.UNAVAILABLE, folder, "no such folder")
    remove_stale_partials(folder)
    partial = partial_name(target)
    db_copy = partial.with_name(partial.name + ".db")
    try:
        # The archive's file first: a read-only folder fails here, with its own words. It
        # holds every conversation: 0600, like the database (the rename keeps the mode).
        create_private_file(partial)
        with partial.open("wb") as out:
            create_private_file(db_copy)
            _copy_database(snapshot, db_copy)
            snapshot.close()  # the copy is taken: let SQLite checkpoint its WAL again
            sources = [Source(DB_MEMBER, db_copy, db_copy.stat().st_size), *snapshot.files]
            manifest = Manifest(app_version=__version__, schema_version=snapshot.schema_version,
                                created_at=snapshot.taken_at, entries=tuple((s.name, s.size) for s in sources),
                                extra=dict(extra or {}))
            writer = ArchiveWriter(out, manifest, progress=progress, cancel=cancel)
            try:
                for source in sources:
                    _add(writer, source)
            except BaseException:
                writer.abort()
                raise
            writer.close()
            out.flush()
            os.fsync(out.fileno())
        partial.replace(target)
        _fsync_folder(folder)
    except OSError as exc:
        raise from_os_error(exc, target) from exc
    finally:
        for leftover in (partial, db_copy):
            with contextlib.suppress(OSError):
                leftover.unlink()
    return BackupResult(target, target.stat().st_size, len(snapshot.files), snapshot.schema_version)


def _add(writer: ArchiveWriter, source: Source) -> None:
    try:
        size = min(source.size, source.path.stat().st_size)
    except FileNotFoundError:
        return  # deleted since the snapshot (with its row, or the row is newer than it)
    if source.name.endswith(".jsonl"):
        size = _whole_lines(source.path, size)
    writer.add_file(source.name, source.path, size)


def _whole_lines(path: Path, size: int) -> int:
    """`size` cut back to the end of its last whole line: a transcript being appended to is
    taken without the record that was half written at the snapshot."""
    with path.open("rb") as handle:
        end = size
        while end > 0:
            start = max(0, end - (64 << 10))
            handle.seek(start)
            block = handle.read(end - start)
            newline = block.rfind(b"\n")
            if newline >= 0:
                return start + newline + 1
            end = start
    return 0


def _copy_database(snapshot: Snapshot, target: Path) -> None:
    try:
        out = sqlite3.connect(target)
        try:
            snapshot.connection.backup(out)
        finally:
            out.close()
    except sqlite3.Error as exc:
        raise from_sqlite_error(exc, target.parent) from exc


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
