"""Attachments: files the user sends with a message (images and text files).

`limits` says what may be attached, `store` keeps the files under the data dir, `content`
turns them into what the models take (import it from there: it loads the message models,
which this package must not do before the first window is painted), and `cleanup` removes
them with their messages.
"""

from cherry_desktop.core.attachments.limits import (
    IMAGE_MEDIA_TYPES,
    MAX_ATTACHMENTS,
    MAX_IMAGE_BYTES,
    MAX_TEXT_BYTES,
    AttachmentCandidate,
    AttachmentError,
    AttachmentErrorCode,
    check_attachment,
    is_image_type,
    load_attachment,
)
from cherry_desktop.core.attachments.store import AttachmentStore, scope_of

__all__ = [
    "IMAGE_MEDIA_TYPES",
    "MAX_ATTACHMENTS",
    "MAX_IMAGE_BYTES",
    "MAX_TEXT_BYTES",
    "AttachmentCandidate",
    "AttachmentError",
    "AttachmentErrorCode",
    "AttachmentStore",
    "check_attachment",
    "is_image_type",
    "load_attachment",
    "scope_of",
]
