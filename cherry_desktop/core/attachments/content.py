"""Attachments on their way to a model: stored parts become inline `FilePart`s (data URLs, in
memory only), and a file part becomes what every API takes: an image (media type + base64) or
a text file (its name and text).

Chat providers and agent runtimes read only `file_contents` / `text_file_block`; none of them
touches the attachments folder.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes
from xml.sax.saxutils import quoteattr

from cherry_desktop.core.attachments.limits import AttachmentError, decode_text, is_image_type
from cherry_desktop.core.attachments.store import AttachmentStore
from cherry_desktop.core.messages import AttachmentPart, FilePart, MessagePart, TextPart, UIMessage, message_text
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ImageContent:
    media_type: str
    data_base64: str
    filename: str = ""


@dataclass(frozen=True)
class TextFileContent:
    filename: str
    text: str


FileContent = ImageContent | TextFileContent


def text_file_block(filename: str, text: str) -> str:
    """How a text file reads inside a prompt: tagged with its name, so the model can tell the
    file from the question (and from another file)."""
    return f"<attached_file name={quoteattr(filename)}>\n{text}\n</attached_file>"


def missing_file_note(filename: str) -> str:
    return f"[The attached file {filename!r} is no longer available.]"


def has_attachments(messages: list[UIMessage]) -> bool:
    return any(isinstance(p, AttachmentPart) for m in messages for p in m.parts)


def inline_part(store: AttachmentStore, part: AttachmentPart) -> MessagePart:
    """A stored attachment as an inline file part; a file that is gone becomes a note saying
    so (the turn goes on: the rest of the message still reaches the model)."""
    try:
        data = store.read(part)
    except AttachmentError:
        log.warning("attachment %s (%s) is missing; the model gets a note instead", part.stored_name, part.filename)
        return TextPart(text=missing_file_note(part.filename), state="done")
    encoded = base64.b64encode(data).decode("ascii")
    return FilePart(media_type=part.media_type, url=f"data:{part.media_type};base64,{encoded}",
                    filename=part.filename)


def inline_message(store: AttachmentStore, message: UIMessage) -> UIMessage:
    if not any(isinstance(p, AttachmentPart) for p in message.parts):
        return message
    parts = [inline_part(store, p) if isinstance(p, AttachmentPart) else p for p in message.parts]
    return message.model_copy(update={"parts": parts})


async def inline_attachments(store: AttachmentStore, messages: list[UIMessage]) -> list[UIMessage]:
    """The messages with their stored attachments inline (files read off the loop)."""
    if not has_attachments(messages):
        return messages
    return await asyncio.to_thread(lambda: [inline_message(store, m) for m in messages])


def _split_data_url(url: str) -> tuple[str, bool, str] | None:
    """(media type, is base64, payload) of a `data:` URL; None for any other URL."""
    if not url.startswith("data:") or "," not in url:
        return None
    header, payload = url[5:].split(",", 1)
    media_type, _, params = header.partition(";")
    return media_type, "base64" in params.split(";"), payload


def file_content(part: FilePart) -> FileContent | None:
    """An inline file part as an image or a text file; None for what no API here takes (a
    remote URL, a binary that is no image, a damaged data URL)."""
    split = _split_data_url(part.url)
    if split is None:
        return None
    url_type, is_base64, payload = split
    media_type = part.media_type or url_type
    name = part.filename or "file"
    if is_image_type(media_type) and is_base64:
        return ImageContent(media_type, payload, name)  # already what the APIs take
    try:
        data = base64.b64decode(payload, validate=True) if is_base64 else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
    if is_image_type(media_type):
        return ImageContent(media_type, base64.b64encode(data).decode("ascii"), name)
    text = decode_text(data)
    return TextFileContent(name, text) if text is not None else None


def file_contents(message: UIMessage) -> list[FileContent]:
    """Every inline file of the message that an API can take, in order."""
    out: list[FileContent] = []
    for part in message.parts:
        if isinstance(part, FilePart):
            content = file_content(part)
            if content is not None:
                out.append(content)
    return out


def anthropic_image_block(image: ImageContent) -> JsonObject:
    """An image as the Anthropic Messages API (and Claude Code's input) takes it."""
    return {"type": "image", "source": {"type": "base64", "media_type": image.media_type, "data": image.data_base64}}


def api_content(message: UIMessage, image: Callable[[ImageContent], JsonObject], *,
                text: str | None = None) -> str | list[JsonValue]:
    """A message's content for a model API: its text, or (a user message with files) parts:
    the text, then each file: an image as `image(...)` makes it, a text file as a text part
    (`text_file_block`). Assistant messages keep their text only. `text` replaces the
    message's own text (a driver's wrapped prompt)."""
    text = message_text(message) if text is None else text
    files = file_contents(message) if message.role == "user" else []
    if not files:
        return text
    parts: list[JsonValue] = [{"type": "text", "text": text}] if text else []
    for f in files:
        parts.append(image(f) if isinstance(f, ImageContent)
                     else {"type": "text", "text": text_file_block(f.filename, f.text)})
    return parts
