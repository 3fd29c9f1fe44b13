"""The bridge's attachments facet: check a file the user offers, store a message's files when
it is sent, settle them once the send is over, and find a stored file to show.

Widgets reach core's `core.attachments` only through here (`Bridges.attachments`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from cherry_desktop.core.attachments import (
    MAX_ATTACHMENTS,
    MAX_IMAGE_BYTES,
    MAX_TEXT_BYTES,
    AttachmentCandidate,
    AttachmentError,
    AttachmentErrorCode,
    AttachmentStore,
    check_attachment,
    is_image_type,
    load_attachment,
    scope_of,
)
from cherry_desktop.ui.bridge._base import CoreBridge

if TYPE_CHECKING:
    from cherry_desktop.core.messages import AttachmentPart

log = logging.getLogger(__name__)

__all__ = [
    "MAX_ATTACHMENTS",
    "MAX_IMAGE_BYTES",
    "MAX_TEXT_BYTES",
    "AttachmentCandidate",
    "AttachmentError",
    "AttachmentErrorCode",
    "AttachmentsBridge",
    "candidate_from_bytes",
    "candidate_from_path",
    "is_image_type",
]


def candidate_from_path(path: Path, *, already: int) -> AttachmentCandidate:
    """A file from disk, checked (raises `AttachmentError`)."""
    return load_attachment(path, already=already)


def candidate_from_bytes(filename: str, data: bytes, *, already: int) -> AttachmentCandidate:
    """Bytes from the clipboard, checked (raises `AttachmentError`)."""
    return check_attachment(filename, data, already=already)


class AttachmentsBridge(CoreBridge):
    """Stores and finds the files of messages (see module docstring).

    Signals:
        (none: a send settles its own files)
    """

    @property
    def store(self) -> AttachmentStore:
        store = self.core.attachments
        if store is None:  # a core composed without the folder (some tests): one of its own
            store = self.core.attachments = AttachmentStore(self.core.paths.get("feature.attachments"))
        return store

    def stage(self, topic_id: str, candidates: list[AttachmentCandidate]) -> list[AttachmentPart]:
        """Copy the files under the data dir for a send; returns their `AttachmentPart`s (in
        flight until `settle`). Raises `AttachmentError` (nothing is left behind then)."""
        return self.store.stage_all(topic_id, candidates)

    def settle(self, topic_id: str, parts: list[AttachmentPart]) -> bool:
        """The send is over: the files stay if a saved row refers to them, else they go.
        Returns whether they were kept (False: the message was not saved)."""
        if not parts:
            return True
        store = self.store
        store.release(parts)
        from cherry_desktop.core.attachments.cleanup import referenced_names

        try:
            store.collect_garbage(referenced_names, {scope_of(topic_id)})
        except AttachmentError:
            log.exception("settling the attachments of %s failed", topic_id)
        return all(store.exists(p) for p in parts)

    def path_of(self, part: AttachmentPart) -> Path | None:
        """The stored file of an attachment part, None when it is gone."""
        try:
            path = self.store.path_of(str(part.stored_name))
        except AttachmentError:
            return None
        return path if path.is_file() else None
