"""Restore: verify and stage an archive, then promote it at the next start through a journal.

`stage_restore` reads the whole archive into `<data>/restore-staging/` (manifest, names and
every checksum verified; the database snapshot checked with `PRAGMA integrity_check` and its
schema compared with this build's: a newer one is refused, an older one is migrated when the
app opens it) and writes the journal `<data>/restore-journal.json` as `prepared`. The staged
copy's managed workspaces follow this data dir, and its agents stay off until the user allows
them. The data in use is not touched.

`promote_staged_restore` runs at start, before the database opens, with the instance lock
held: `prepared` -> `promoting` (each item of the data moved aside into `restore-previous/`,
the staged one renamed into its place; every step is a rename and is redone from the journal
after a crash) -> the new database is proven (quick_check, schema) -> `done`. When it is not
proven, everything moved aside is put back (the old data, complete). The replaced data stays
in `restore-previous/` until the next start after that (`done` -> removed).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

from cherry_desktop.core.backup.archive import DB_MEMBER, Manifest, Progress, read_archive
from cherry_desktop.core.backup.errors import BackupError, BackupFault, from_os_error
from cherry_desktop.core.backup.snapshot import BACKED_UP_FILES, BACKED_UP_FOLDERS, claude_config_dir
from cherry_desktop.core.data.database import SCHEMA_VERSION
from cherry_desktop.core.data.records import RESTORE_UNCONFIRMED
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from cherry_desktop.core.storage.paths import PathRegistry
from cherry_desktop.core.storage.private_files import SQLITE_SIDE_FILES
from cherry_desktop.core.storage.storage_faults import StorageError, StorageFault, classify

log = logging.getLogger(__name__)

STAGING = "restore-staging"
PREVIOUS = "restore-previous"
JOURNAL = "restore-journal.json"


@dataclass(frozen=True)
class StagedRestore:
    manifest: Manifest
    #: Enabled providers of the backup whose key this machine's keyring does not hold.
    keys_to_enter: tuple[str, ...] = ()
    #: The restored agents, off until the user allows them.
    agents_held: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromoteResult:
    state: str  # "promoted" | "rolled-back" | "failed" (nothing moved, still staged) | "cleaned" | "none"
    detail: str = ""
    moved: list[str] = field(default_factory=list)
    #: Providers whose keys the user enters again (keys are never in a backup).
    keys_to_enter: tuple[str, ...] = ()


def _data(paths: PathRegistry) -> Path:
    return paths.get("app.data")


def journal_path(paths: PathRegistry) -> Path:
    return _data(paths) / JOURNAL


def read_journal(paths: PathRegistry) -> dict[str, object] | None:
    try:
        data = json.loads(journal_path(paths).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        log.warning("restore journal unreadable: left as it is")
        return None
    return data if isinstance(data, dict) else None


def _write_journal(paths: PathRegistry, state: str, **extra: object) -> None:
    path = journal_path(paths)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        json.dump({"state": state, **extra}, out)
        out.flush()
        os.fsync(out.fileno())
    tmp.replace(path)


def _items(paths: PathRegistry) -> list[tuple[str, Path]]:
    """(staged name, live path) for everything a restore replaces, the database first."""
    items = [(DB_MEMBER, paths.database_file)]
    items += [(f"files/{key}", paths.get(key)) for key in BACKED_UP_FOLDERS]
    items += [(f"files/{key}/{name}", paths.get(key) / name) for key, name in BACKED_UP_FILES]
    return items


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def stage_restore(paths: PathRegistry, archive: Path, *, progress: Progress | None = None,
                  cancel: threading.Event | None = None,
                  credentials: CredentialStore | None = None) -> StagedRestore:
    """Verify `archive` and stage it for the next start; raises `BackupError`, leaving the
    data in use (and any earlier prepared restore) as they were."""
    data = _data(paths)
    staging = data / (STAGING + ".new")
    with contextlib.suppress(OSError):
        _remove(staging)
    try:
        staging.mkdir(parents=True)
        manifest = read_archive(archive, staging, progress=progress, cancel=cancel)
        db = staging / DB_MEMBER
        if not db.is_file():
            raise BackupError(BackupFault.CORRUPT, archive, "no database in the archive")
        _check_database(db, archive)
        for name, _ in _items(paths)[1:]:
            if name.count("/") == 1:  # a folder: present even when the backup had none
                (staging / name).mkdir(parents=True, exist_ok=True)
        _make_private(staging)
        keys = _keys_to_enter(manifest, credentials)
        slugs = _rebase_workspaces(db, manifest, paths)
        held = _hold_restored_agents(db)
        final = data / STAGING
        if read_journal(paths) is not None and (read_journal(paths) or {}).get("state") != "prepared":
            raise BackupError(BackupFault.BUSY, journal_path(paths), "a restore is being promoted")
        with contextlib.suppress(OSError):
            _remove(final)
        staging.replace(final)
        _write_journal(paths, "prepared", archive=str(archive), schema_version=manifest.schema_version,
                       keys_to_enter=list(keys), claude_slugs=slugs)
    except OSError as exc:
        with contextlib.suppress(OSError):
            _remove(staging)
        raise from_os_error(exc, staging) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            _remove(staging)
        raise
    return StagedRestore(manifest, keys, held)


def _database_problem(db: Path, check: str) -> tuple[BackupFault, str] | None:
    """What is wrong with the database file `db` for this build (`check`: the PRAGMA that
    checks its pages), or None."""
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            result = connection.execute(f"PRAGMA {check}").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        return BackupFault.CORRUPT, f"the database does not open: {exc}"
    if version > SCHEMA_VERSION:
        return BackupFault.TOO_NEW, f"database schema {version}, this build knows up to {SCHEMA_VERSION}"
    if version < 1:
        return BackupFault.CORRUPT, "not a Cherry Desktop database"
    return None if result == "ok" else (BackupFault.CORRUPT, f"database check: {result}")


def _make_private(root: Path) -> None:
    """Folders 0700 and files 0600 (POSIX), as the app keeps its own: what was extracted."""
    if os.name != "posix":
        return
    root.chmod(0o700)
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            (Path(folder) / name).chmod(0o700)
        for name in files:
            (Path(folder) / name).chmod(0o600)


def _check_database(db: Path, archive: Path) -> None:
    problem = _database_problem(db, "integrity_check")
    if problem is not None:
        raise BackupError(problem[0], archive, problem[1])


def _keys_to_enter(manifest: Manifest, credentials: CredentialStore | None) -> tuple[str, ...]:
    """The providers that had a key where the backup was made and have none here."""
    raw = manifest.extra.get("providers_with_keys")
    providers = [(str(p[0]), str(p[1])) for p in raw if isinstance(p, list) and len(p) == 2] \
        if isinstance(raw, list) else []
    missing = []
    for provider_id, name in providers:
        held = None
        if credentials is not None:
            with contextlib.suppress(Exception):
                held = credentials.try_get(provider_key_name(provider_id))
        if not held:
            missing.append(name)
    return tuple(missing)


def restore_pending(paths: PathRegistry) -> bool:
    """Whether a staged restore waits for the next start."""
    journal = read_journal(paths)
    return journal is not None and journal.get("state") in ("prepared", "promoting")


def cancel_staged_restore(paths: PathRegistry) -> bool:
    """Drop a prepared (not yet promoting) restore."""
    journal = read_journal(paths)
    if journal is None or journal.get("state") != "prepared":
        return False
    journal_path(paths).unlink()
    with contextlib.suppress(OSError):
        _remove(_data(paths) / STAGING)
    return True


def promote_staged_restore(paths: PathRegistry) -> PromoteResult:
    """At start, with the instance lock held and before the database opens: finish what the
    journal says (see the module's docstring). An OS fault before anything moved keeps the
    data in use and the restore staged ("failed"); one while moving puts the old data back
    ("rolled-back"); only when that fails too is a `StorageError` raised (the app stops
    with its storage-fault message rather than open a mix)."""
    data = _data(paths)
    with contextlib.suppress(OSError):
        _remove(data / (STAGING + ".new"))  # a staging that was killed mid-way
    journal = read_journal(paths)
    if journal is None:
        return PromoteResult("none")
    state = journal.get("state")
    raw_keys = journal.get("keys_to_enter")
    keys = tuple(str(k) for k in raw_keys) if isinstance(raw_keys, list) else ()
    raw_slugs = journal.get("claude_slugs")
    slugs = {str(k): str(v) for k, v in raw_slugs.items()} if isinstance(raw_slugs, dict) else {}
    if state == "done":
        try:
            _remove(data / PREVIOUS)
            journal_path(paths).unlink()
        except OSError as exc:
            log.warning("could not remove the data a restore replaced: %s", exc)
        return PromoteResult("cleaned")
    if state == "prepared":
        try:
            if not (data / STAGING / DB_MEMBER).is_file():
                journal_path(paths).unlink()  # the staging was lost: keep the data in use
                return PromoteResult("none", "staging missing")
            with contextlib.suppress(OSError):
                _remove(data / PREVIOUS)
            (data / PREVIOUS).mkdir(parents=True)
            _write_journal(paths, "promoting", keys_to_enter=list(keys), claude_slugs=slugs)
        except OSError as exc:
            log.error("restore not promoted (the data in use is kept, the restore stays staged): %s", exc)
            return PromoteResult("failed", from_os_error(exc, data).describe())
        state = "promoting"
    if state != "promoting":
        return PromoteResult("none", f"unknown journal state {state!r}")
    try:
        moved = _move_in(paths)
        problem = _prove(paths.database_file)
        if problem is None:
            try:  # before `done`: a crash here copies them again at the next start
                _copy_claude(data / STAGING / "claude", slugs)
            except OSError as exc:  # outside the data dir: the restore stands, resumes start anew
                log.warning("Claude Code transcripts not restored: %s", exc)
            _write_journal(paths, "done")
    except OSError as exc:
        problem = from_os_error(exc, data).describe()
    if problem is not None:
        return _roll_back_or_stop(paths, problem)
    with contextlib.suppress(OSError):
        _remove(data / STAGING)
    log.info("restore promoted (%d item(s))", len(moved))
    return PromoteResult("promoted", moved=moved, keys_to_enter=keys)


def _roll_back_or_stop(paths: PathRegistry, problem: str) -> PromoteResult:
    try:
        _roll_back(paths)
        journal_path(paths).unlink()
    except OSError as exc:
        fault = classify(exc, _data(paths))
        raise fault if fault is not None else StorageError(StorageFault.UNAVAILABLE, _data(paths), str(exc)) from exc
    log.error("restore rolled back: %s", problem)
    return PromoteResult("rolled-back", problem)


def _move_in(paths: PathRegistry) -> list[str]:
    data = _data(paths)
    staging, previous = data / STAGING, data / PREVIOUS
    moved = []
    for name, live in _items(paths):
        staged = staging / name
        if not staged.exists():
            continue  # moved in before a crash (or not in this backup)
        aside = [live] + ([live.with_name(live.name + s) for s in SQLITE_SIDE_FILES] if name == DB_MEMBER else [])
        for path in aside:
            if path.exists() or path.is_symlink():
                keep = previous / name if path == live else previous / (name + path.name[len(live.name):])
                keep.parent.mkdir(parents=True, exist_ok=True)
                if keep.exists():
                    # Moved aside before a crash; what is here now was created since (the
                    # start's empty folders): the old data is already kept.
                    _remove(path)
                else:
                    path.replace(keep)
        live.parent.mkdir(parents=True, exist_ok=True)
        staged.replace(live)
        moved.append(name)
    return moved


def _prove(db: Path) -> str | None:
    problem = _database_problem(db, "quick_check")
    return None if problem is None else f"the restored database: {problem[1]}"


def _roll_back(paths: PathRegistry) -> None:
    previous = _data(paths) / PREVIOUS
    for name, live in _items(paths):
        kept = previous / name
        sides = [(previous / (name + s), live.with_name(live.name + s))
                 for s in SQLITE_SIDE_FILES] if name == DB_MEMBER else []
        if kept.exists():
            if live.exists():
                _remove(live)
            kept.replace(live)
        for kept_side, live_side in sides:
            with contextlib.suppress(FileNotFoundError):
                live_side.unlink()
            if kept_side.exists():
                kept_side.replace(live_side)


def claude_project_slug(cwd: str) -> str:
    """The folder Claude Code keeps a workspace's transcripts in (`projects/<slug>`)."""
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


def _rebase_workspaces(db: Path, manifest: Manifest, paths: PathRegistry) -> dict[str, str]:
    """Cherry-managed workspaces follow the data dir: rows under the backup's managed root
    are moved under this one. Returns the Claude Code project folders that move with them."""
    old_root = str(manifest.extra.get("workspaces_root") or "")
    new_root = str(paths.get("feature.agents.workspaces"))
    if not old_root or old_root == new_root:
        return {}
    slugs: dict[str, str] = {}
    connection = sqlite3.connect(db)
    try:
        with connection:
            rows = connection.execute("SELECT id, path FROM agent_workspace").fetchall()
            for row_id, path in rows:
                if path == old_root or str(path).startswith(old_root + "/"):
                    moved = new_root + str(path)[len(old_root):]
                    connection.execute("UPDATE agent_workspace SET path = ? WHERE id = ?", (moved, row_id))
                    slugs[claude_project_slug(str(path))] = claude_project_slug(moved)
    finally:
        connection.close()
    return slugs


def _hold_restored_agents(db: Path) -> tuple[str, ...]:
    """Every restored agent stays off until the user allows it: the archive may come from
    another machine, and an agent runs commands (`RESTORE_UNCONFIRMED`)."""
    connection = sqlite3.connect(db)
    try:
        with connection:
            connection.execute(
                "UPDATE agent SET config = json_set(CASE WHEN json_valid(config) THEN config ELSE '{}' END, "
                f"'$.{RESTORE_UNCONFIRMED}', json('true'))")
            names = tuple(str(r[0]) for r in connection.execute("SELECT name FROM agent ORDER BY name"))
    finally:
        connection.close()
    return names


def _copy_claude(staged: Path, slugs: dict[str, str]) -> None:
    """Claude Code transcripts go back under its config dir (outside the data dir: copied),
    in the project folder of the workspace's path here."""
    if not staged.is_dir():
        return
    target = claude_config_dir()
    for path in sorted(staged.rglob("*")):
        if path.is_file():
            rel = path.relative_to(staged)
            if len(rel.parts) >= 3 and rel.parts[0] == "projects" and rel.parts[1] in slugs:
                rel = Path("projects", slugs[rel.parts[1]], *rel.parts[2:])
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
