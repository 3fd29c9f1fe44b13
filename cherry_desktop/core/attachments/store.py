"""`AttachmentStore`: attached files under the data dir, one private folder per conversation.

Layout: `<attachments>/chat-<topic id>/<attachment id><ext>` for chats and
`<attachments>/session-<session id>/...` for agent sessions (files 0600, folders 0700, as
every private file of the app). A message refers to its file by `stored_name`, the path
relative to the attachments folder.

Nothing deletes a file because a message said so: `collect_garbage` removes the files no
row refers to any more (a deleted message, topic, session or agent, an edit that dropped
them, a send that never saved its row) and the folders of conversations that are gone.
Files staged for a send still on its way are in flight and left alone until released.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cherry_desktop.core.attachments.limits import (
    AttachmentCandidate,
    AttachmentError,
    AttachmentErrorCode,
    extension_for,
)
from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.core.storage.private_files import FILE_MODE, make_private_folder

if TYPE_CHECKING:
    # The message models (pydantic) load with the stream services, after the first paint.
    from cherry_desktop.core.messages import AttachmentPart

log = logging.getLogger(__name__)

CHAT_SCOPE_PREFIX = "chat-"
SESSION_SCOPE_PREFIX = "session-"
_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
# Windows opens files in text mode unless told otherwise; the flag exists there only.
if sys.platform == "win32":
    _O_BINARY = os.O_BINARY
else:
    _O_BINARY = 0
#: A file younger than this and not in flight is kept by a sweep. Zero: one instance owns a
#: data dir (`InstanceLock`), and its sends keep their files in flight until their row is saved.
DEFAULT_GRACE_S = 0.0

#: `referenced(scope)`: the stored names rows of that conversation refer to, or None when the
#: conversation is gone.
ReferencedNames = Callable[[str], "set[str] | None"]


def scope_of(topic_id: str) -> str:
    """The folder name of a topic's attachments ("chat-<id>" / "session-<id>")."""
    session_id = session_id_from_topic(topic_id)
    owner, prefix = (session_id, SESSION_SCOPE_PREFIX) if session_id is not None else (topic_id, CHAT_SCOPE_PREFIX)
    if not owner or not _SAFE_ID.match(owner):
        raise AttachmentError(AttachmentErrorCode.BAD_SCOPE, detail=f"topic id {topic_id!r} names no folder")
    return prefix + owner


def parse_scope(scope: str) -> tuple[str, str] | None:
    """("chat", topic id) or ("session", session id) of a folder name; None for a stranger."""
    for kind, prefix in (("chat", CHAT_SCOPE_PREFIX), ("session", SESSION_SCOPE_PREFIX)):
        if scope.startswith(prefix) and _SAFE_ID.match(scope[len(prefix):]):
            return kind, scope[len(prefix):]
    return None


class AttachmentStore:
    """Writes, reads and sweeps the attachments folder (see module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._in_flight: set[str] = set()

    # -- writing ---------------------------------------------------------------------------------
    def stage(self, topic_id: str, candidate: AttachmentCandidate) -> AttachmentPart:
        """Copy a checked file into the topic's folder; the part is in flight until `release`.

        Raises:
            AttachmentError: STORAGE when the file cannot be written (nothing is left behind),
                BAD_SCOPE for a topic id that names no folder.
        """
        from cherry_desktop.core.messages import AttachmentPart, new_id

        scope = scope_of(topic_id)
        attachment_id = new_id()
        stored_name = f"{scope}/{attachment_id}{extension_for(candidate.media_type, candidate.filename)}"
        path = self.root / stored_name
        try:
            make_private_folder(path.parent)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY, FILE_MODE)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(candidate.data)
            except BaseException:
                with contextlib.suppress(OSError):
                    path.unlink()
                raise
        except OSError as exc:
            raise AttachmentError(AttachmentErrorCode.STORAGE, candidate.filename, detail=str(exc)) from exc
        self._in_flight.add(stored_name)
        return AttachmentPart(id=attachment_id, media_type=candidate.media_type, filename=candidate.filename,
                              size=candidate.size, stored_name=stored_name)

    def stage_all(self, topic_id: str, candidates: Iterable[AttachmentCandidate]) -> list[AttachmentPart]:
        """Stage every file, or none: a failure removes the ones already written."""
        parts: list[AttachmentPart] = []
        try:
            for candidate in candidates:
                parts.append(self.stage(topic_id, candidate))
        except AttachmentError:
            self.discard(parts)
            raise
        return parts

    def release(self, parts: Iterable[AttachmentPart]) -> None:
        """The send these parts were staged for is over (its row saved, or not): a sweep may
        now judge them by the rows."""
        for part in parts:
            self._in_flight.discard(part.stored_name)

    def discard(self, parts: Iterable[AttachmentPart]) -> None:
        """Remove staged files no row was saved with."""
        for part in parts:
            self._in_flight.discard(part.stored_name)
            with contextlib.suppress(OSError, AttachmentError):
                self.path_of(part.stored_name).unlink(missing_ok=True)

    # -- reading ---------------------------------------------------------------------------------
    def path_of(self, stored_name: str) -> Path:
        """The file of a stored name; a name that leaves the folder is refused (MISSING)."""
        path = (self.root / stored_name).resolve()
        root = self.root.resolve()
        if not stored_name or path == root or not path.is_relative_to(root):
            raise AttachmentError(AttachmentErrorCode.MISSING, stored_name, detail=f"{stored_name!r} is outside")
        return path

    def read(self, part: AttachmentPart) -> bytes:
        """The bytes of a stored attachment.

        Raises:
            AttachmentError: MISSING when its file is gone or unreadable.
        """
        try:
            return self.path_of(part.stored_name).read_bytes()
        except OSError as exc:
            raise AttachmentError(AttachmentErrorCode.MISSING, part.filename, detail=str(exc)) from exc

    def exists(self, part: AttachmentPart) -> bool:
        try:
            return self.path_of(part.stored_name).is_file()
        except AttachmentError:
            return False

    # -- sweeping --------------------------------------------------------------------------------
    def scopes(self) -> list[str]:
        try:
            return sorted(p.name for p in self.root.iterdir() if p.is_dir())
        except OSError:
            return []

    def collect_garbage(self, referenced: ReferencedNames, scopes: Iterable[str] | None = None, *,
                        grace_s: float = DEFAULT_GRACE_S) -> int:
        """Remove the files of `scopes` (default: every folder) that no row refers to, and the
        folders of conversations that are gone. Returns how many files went."""
        removed = 0
        now = time.time()
        for scope in sorted(set(self.scopes() if scopes is None else scopes)):
            folder = self.root / scope
            if parse_scope(scope) is None or not folder.is_dir():
                continue
            try:
                names = referenced(scope)
                files = [p for p in folder.iterdir() if p.is_file()]
            except Exception:
                log.exception("sweeping attachments of %s failed", scope)
                continue
            if names is None:
                removed += len(files)
                shutil.rmtree(folder, ignore_errors=True)
                continue
            for path in files:
                stored_name = f"{scope}/{path.name}"
                if stored_name in names or stored_name in self._in_flight:
                    continue
                with contextlib.suppress(OSError):
                    if now - path.stat().st_mtime < grace_s:
                        continue
                    path.unlink()
                    removed += 1
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty
        if removed:
            log.info("removed %d attachment file(s) no message refers to", removed)
        return removed
