"""What may be attached: the types (sniffed from the bytes, not the name), sizes and count.

Images are PNG, JPEG, WebP or GIF, recognised by their signature; anything else that decodes
as UTF-8 without NUL bytes is a text file. The limits are the providers' common ground:
Anthropic's Messages API refuses an image above 5 MB (OpenAI allows 20 MB), and a text file
is inlined into the prompt, where a megabyte is already ~250 000 tokens.
"""

from __future__ import annotations

import codecs
import enum
import mimetypes
from dataclasses import dataclass
from pathlib import Path, PurePath

#: Per image file (Anthropic's limit per image).
MAX_IMAGE_BYTES = 5 * 1024 * 1024
#: Per text file.
MAX_TEXT_BYTES = 1024 * 1024
#: Files per message.
MAX_ATTACHMENTS = 10

IMAGE_MEDIA_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")
_IMAGE_EXTENSIONS = {"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp", "image/gif": ".gif"}
#: Non-`text/*` types that are text all the same (kept as the file's media type).
_TEXT_LIKE = frozenset({"application/json", "application/xml", "application/x-yaml", "application/yaml",
                        "application/toml", "application/javascript", "application/x-sh", "application/sql"})


class AttachmentErrorCode(enum.Enum):
    TOO_LARGE = "too-large"
    TOO_MANY = "too-many"
    UNSUPPORTED_TYPE = "unsupported-type"
    EMPTY = "empty"
    UNREADABLE = "unreadable"
    #: A stored attachment's file is gone (removed by hand, a restored backup without it).
    MISSING = "missing"
    #: The file could not be written under the data dir (disk full, read-only).
    STORAGE = "storage"
    #: This conversation's owner id cannot name a folder (never a user's doing).
    BAD_SCOPE = "bad-scope"


class AttachmentError(Exception):
    """A file that cannot be attached (or read back); the UI words `code`.

    Attributes:
        code: why.
        filename: the file's name ("" when not about one file).
        limit: the limit that was exceeded (bytes for TOO_LARGE, files for TOO_MANY), else 0.
    """

    def __init__(self, code: AttachmentErrorCode, filename: str = "", limit: int = 0, detail: str = "") -> None:
        super().__init__(detail or f"{code.value}: {filename}".rstrip(": "))
        self.code = code
        self.filename = filename
        self.limit = limit


@dataclass(frozen=True)
class AttachmentCandidate:
    """A file the user picked, checked, not stored yet (the composer holds it until sent)."""

    filename: str
    media_type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_image(self) -> bool:
        return is_image_type(self.media_type)


def is_image_type(media_type: str) -> bool:
    return media_type in IMAGE_MEDIA_TYPES


def sniff_image_type(data: bytes) -> str | None:
    """The media type of a PNG / JPEG / WebP / GIF by its signature, else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def decode_text(data: bytes) -> str | None:
    """The text of a UTF-8 file (a BOM dropped), or None for anything binary."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def text_media_type(filename: str) -> str:
    guessed, _ = mimetypes.guess_type(filename, strict=False)
    if guessed and (guessed.startswith("text/") or guessed in _TEXT_LIKE):
        return guessed
    return "text/plain"


def extension_for(media_type: str, filename: str) -> str:
    """The stored file's extension: the image type's own, else the name's (sanitised)."""
    if media_type in _IMAGE_EXTENSIONS:
        return _IMAGE_EXTENSIONS[media_type]
    suffix = PurePath(filename).suffix.lower()
    return suffix if suffix and len(suffix) <= 10 and suffix[1:].isalnum() else ".txt"


def check_attachment(filename: str, data: bytes, *, already: int = 0) -> AttachmentCandidate:
    """Check one file against the type, size and count limits.

    Args:
        filename: the name shown to the user (no folders).
        data: the file's bytes.
        already: how many files the message holds before this one.

    Raises:
        AttachmentError: TOO_MANY, EMPTY, UNSUPPORTED_TYPE or TOO_LARGE.
    """
    name = PurePath(filename).name or "file"
    if already >= MAX_ATTACHMENTS:
        raise AttachmentError(AttachmentErrorCode.TOO_MANY, name, MAX_ATTACHMENTS)
    if not data:
        raise AttachmentError(AttachmentErrorCode.EMPTY, name)
    image = sniff_image_type(data)
    if image is not None:
        if len(data) > MAX_IMAGE_BYTES:
            raise AttachmentError(AttachmentErrorCode.TOO_LARGE, name, MAX_IMAGE_BYTES)
        return AttachmentCandidate(name, image, data)
    # Decoding a huge binary only to refuse it is wasted work: size first for non-images.
    if len(data) > MAX_TEXT_BYTES:
        raise _too_large_or_unsupported(name, data[:_HEAD_BYTES])
    if decode_text(data) is None:
        raise AttachmentError(AttachmentErrorCode.UNSUPPORTED_TYPE, name)
    return AttachmentCandidate(name, text_media_type(name), data)


_HEAD_BYTES = 4096


def _too_large_or_unsupported(name: str, head: bytes) -> AttachmentError:
    """A file over every limit that applies to it: too large if its head is an image or text."""
    if sniff_image_type(head) is not None:
        return AttachmentError(AttachmentErrorCode.TOO_LARGE, name, MAX_IMAGE_BYTES)
    if b"\x00" not in head:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        except UnicodeDecodeError:
            pass
        else:
            return AttachmentError(AttachmentErrorCode.TOO_LARGE, name, MAX_TEXT_BYTES)
    return AttachmentError(AttachmentErrorCode.UNSUPPORTED_TYPE, name)


def load_attachment(path: Path, *, already: int = 0) -> AttachmentCandidate:
    """Read and check a file from disk; a file over the limits is refused from its head, never
    read whole (a 4 GB video dropped by mistake costs one small read).

    Raises:
        AttachmentError: as `check_attachment`, or UNREADABLE (gone, a folder, no permission).
    """
    name = path.name or "file"
    if already >= MAX_ATTACHMENTS:
        raise AttachmentError(AttachmentErrorCode.TOO_MANY, name, MAX_ATTACHMENTS)
    try:
        if not path.is_file():
            raise AttachmentError(AttachmentErrorCode.UNREADABLE, name, detail=f"{path} is not a file")
        with path.open("rb") as f:
            if path.stat().st_size > max(MAX_IMAGE_BYTES, MAX_TEXT_BYTES):
                raise _too_large_or_unsupported(name, f.read(_HEAD_BYTES))
            data = f.read()
    except OSError as exc:
        raise AttachmentError(AttachmentErrorCode.UNREADABLE, name, detail=str(exc)) from exc
    return check_attachment(name, data, already=already)
