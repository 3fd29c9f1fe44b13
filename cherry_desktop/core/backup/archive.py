"""The backup file: a tar archive, manifest first, checksums last.

Members, in order:
- `manifest.json`: `format` ("cherry-desktop-backup"), `format_version`, `app_version`,
  `schema_version` (the database's `user_version`), `created_at`, and `entries` (name, size);
- the contents: `db/cherry.db` (a snapshot made with SQLite's backup API), `files/<path
  name>/...` (a folder of the path registry), `claude/...` (Claude Code transcripts);
- `checksums.json`: the sha256 of every member before it.

An archive without its checksums member is truncated; a member whose digest differs is
corrupt; a manifest of a newer `format_version` is refused. Only regular files with relative,
clean names are accepted, so an archive cannot write outside the staging folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tarfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

from cherry_desktop.core.backup.errors import BackupError, BackupFault, from_os_error

FORMAT = "cherry-desktop-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
CHECKSUMS = "checksums.json"
DB_MEMBER = "db/cherry.db"
#: The prefixes a content member may have.
CONTENT_PREFIXES = ("db/", "files/", "claude/")
CHUNK = 1 << 20

#: Called with the bytes done so far.
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Manifest:
    app_version: str
    schema_version: int
    created_at: float
    entries: tuple[tuple[str, int], ...]
    format_version: int = FORMAT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total_bytes(self) -> int:
        return sum(size for _, size in self.entries)

    def to_json(self) -> bytes:
        return json.dumps({
            "format": FORMAT, "format_version": self.format_version, "app_version": self.app_version,
            "schema_version": self.schema_version, "created_at": self.created_at,
            "entries": [{"name": n, "size": s} for n, s in self.entries], **self.extra,
        }, indent=1).encode("utf-8")

    @classmethod
    def from_json(cls, raw: bytes, path: Path) -> Manifest:
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("not our format")
            version = int(data["format_version"])
            if version > FORMAT_VERSION:
                raise BackupError(BackupFault.TOO_NEW, path,
                                  f"archive format {version}, this build reads up to {FORMAT_VERSION}")
            entries = tuple((str(e["name"]), int(e["size"])) for e in data["entries"])
            known = {"format", "format_version", "app_version", "schema_version", "created_at", "entries"}
            return cls(app_version=str(data["app_version"]), schema_version=int(data["schema_version"]),
                       created_at=float(data["created_at"]), entries=entries, format_version=version,
                       extra={k: v for k, v in data.items() if k not in known})
        except BackupError:
            raise
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise BackupError(BackupFault.NOT_AN_ARCHIVE, path, "no valid manifest") from exc


class _HashingReader(io.RawIOBase):
    """Reads at most `limit` bytes of `source`, hashing them, reporting progress, and
    honouring `cancel` between chunks."""

    def __init__(self, source: IO[bytes], limit: int, on_bytes: Callable[[int], None],
                 cancel: threading.Event | None) -> None:
        self.source, self.left, self.on_bytes, self.cancel = source, limit, on_bytes, cancel
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.cancel is not None and self.cancel.is_set():
            raise BackupError(BackupFault.CANCELLED)
        want = self.left if size < 0 else min(size, self.left)
        data = self.source.read(want) if want > 0 else b""
        self.left -= len(data)
        self.digest.update(data)
        self.on_bytes(len(data))
        return data


class ArchiveWriter:
    """Writes one archive to an open binary file (the caller owns its name and its fate)."""

    def __init__(self, out: IO[bytes], manifest: Manifest, *, progress: Progress | None = None,
                 cancel: threading.Event | None = None) -> None:
        self.tar = tarfile.open(  # noqa: SIM115 - closed by `close()`
            fileobj=out, mode="w|", format=tarfile.PAX_FORMAT, bufsize=CHUNK)
        self.sums: dict[str, str] = {}
        self.done = 0
        self.progress, self.cancel = progress, cancel
        self._add_bytes(MANIFEST, manifest.to_json())

    def _count(self, n: int) -> None:
        self.done += n
        if self.progress is not None and n:
            self.progress(self.done)

    def _add_bytes(self, name: str, data: bytes) -> None:
        info = tarfile.TarInfo(name)
        info.size, info.mode = len(data), 0o600
        self.tar.addfile(info, io.BytesIO(data))
        self.sums[name] = hashlib.sha256(data).hexdigest()

    def add_file(self, name: str, path: Path, size: int) -> None:
        """Add the first `size` bytes of `path` (its size when the snapshot listed it: an
        append-only log is taken as it was then)."""
        with path.open("rb") as src:
            info = tarfile.TarInfo(name)
            info.size, info.mode = size, 0o600
            reader = _HashingReader(src, size, self._count, self.cancel)
            self.tar.addfile(info, reader)
            self.sums[name] = reader.digest.hexdigest()

    def abort(self) -> None:
        """Close without the checksums (the caller discards the file)."""
        with contextlib.suppress(Exception):
            self.tar.close()

    def close(self) -> None:
        self._add_bytes(CHECKSUMS, json.dumps(self.sums, indent=1).encode("utf-8"))
        self.tar.close()


def clean_member_name(name: str) -> PurePosixPath | None:
    """The member's relative path when it is one we accept (no absolute path, no `..`)."""
    pure = PurePosixPath(name)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts or "\\" in name:
        return None
    if name in (MANIFEST, CHECKSUMS) or name.startswith(CONTENT_PREFIXES):
        return pure
    return None


def _members(tar: tarfile.TarFile, path: Path) -> Iterator[tarfile.TarInfo]:
    try:
        yield from tar
    except tarfile.ReadError as exc:
        raise BackupError(BackupFault.TRUNCATED, path, str(exc)) from exc


def read_archive(path: Path, into: Path | None, *, progress: Progress | None = None,
                 cancel: threading.Event | None = None) -> Manifest:
    """Verify `path` (manifest, names, every checksum); with `into`, extract its contents
    there as it goes (the caller discards `into` when this raises)."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise BackupError(BackupFault.UNAVAILABLE, path, exc.strerror or str(exc)) from exc
    done = 0

    def count(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None and n:
            progress(done)

    with handle:
        try:
            tar = tarfile.open(fileobj=handle, mode="r|", bufsize=CHUNK)  # noqa: SIM115 - `with tar` below
        except tarfile.ReadError as exc:
            raise BackupError(BackupFault.NOT_AN_ARCHIVE, path, str(exc)) from exc
        with tar:
            return _read_members(tar, path, into, count, cancel)


def _read_members(tar: tarfile.TarFile, path: Path, into: Path | None, count: Callable[[int], None],
                  cancel: threading.Event | None) -> Manifest:
    manifest: Manifest | None = None
    sums: dict[str, str] = {}
    checked: dict[str, str] | None = None
    for info in _members(tar, path):
        if checked is not None:
            raise BackupError(BackupFault.CORRUPT, path, f"member after the checksums: {info.name}")
        name = clean_member_name(info.name)
        if name is None or not info.isfile():
            if manifest is None:
                raise BackupError(BackupFault.NOT_AN_ARCHIVE, path, f"unexpected member {info.name!r}")
            raise BackupError(BackupFault.CORRUPT, path, f"refused member {info.name!r}")
        source = tar.extractfile(info)
        if source is None:  # pragma: no cover - regular files always have one
            raise BackupError(BackupFault.CORRUPT, path, info.name)
        if manifest is None:
            if info.name != MANIFEST or info.size > 64 << 20:
                raise BackupError(BackupFault.NOT_AN_ARCHIVE, path, "no manifest first")
            raw = _read_all(source, info, path)
            manifest = Manifest.from_json(raw, path)
            sums[MANIFEST] = hashlib.sha256(raw).hexdigest()
            continue
        if info.name == CHECKSUMS:
            checked = _parse_sums(_read_all(source, info, path), path)
            continue
        reader = _HashingReader(source, info.size, count, cancel)
        if into is None:
            while reader.read(CHUNK):
                pass
        else:
            _extract(reader, into / name, path)
        if reader.left:
            raise BackupError(BackupFault.TRUNCATED, path, info.name)
        sums[info.name] = reader.digest.hexdigest()
    if manifest is None:
        raise BackupError(BackupFault.NOT_AN_ARCHIVE, path, "empty")
    if checked is None:
        raise BackupError(BackupFault.TRUNCATED, path, "no checksums at the end")
    if checked != sums:
        bad = sorted(n for n in set(checked) | set(sums) if checked.get(n) != sums.get(n))
        raise BackupError(BackupFault.CORRUPT, path, "checksum mismatch: " + ", ".join(bad[:5]))
    return manifest


def _read_all(source: IO[bytes], info: tarfile.TarInfo, path: Path) -> bytes:
    try:
        data = source.read()
    except (tarfile.ReadError, OSError) as exc:
        raise BackupError(BackupFault.TRUNCATED, path, str(exc)) from exc
    if len(data) != info.size:
        raise BackupError(BackupFault.TRUNCATED, path, info.name)
    return data


def _parse_sums(raw: bytes, path: Path) -> dict[str, str]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise BackupError(BackupFault.CORRUPT, path, "unreadable checksums") from exc
    if not isinstance(data, dict):
        raise BackupError(BackupFault.CORRUPT, path, "unreadable checksums")
    return {str(k): str(v) for k, v in data.items()}


def _extract(reader: _HashingReader, target: Path, archive: Path) -> None:
    try:
        # The user's files, private as the app's own (folders 0700, files 0600).
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            while True:
                try:
                    data = reader.read(CHUNK)
                except (tarfile.ReadError, EOFError) as exc:
                    raise BackupError(BackupFault.TRUNCATED, archive, str(exc)) from exc
                if not data:
                    break
                out.write(data)
    except OSError as exc:
        raise from_os_error(exc, target) from exc
