"""What a user `UIMessage` sends to a runtime (shared by every driver).

The host inlines a message's stored attachments before a driver sees it (`FilePart`s with
data URLs); a driver then sends the text, the images its runtime takes, and each text file
as a tagged block (`text_file_block`).
"""

from __future__ import annotations

from cherry_desktop.core.attachments.content import (
    ImageContent,
    TextFileContent,
    anthropic_image_block,
    api_content,
    file_content,
    file_contents,
    text_file_block,
)
from cherry_desktop.core.messages import AttachmentPart, FilePart, TextPart, UIMessage
from cherry_desktop.core.messages.json_value import JsonValue


def typed_text(message: UIMessage) -> str:
    """The text parts joined by blank lines; a file no runtime can take, by its name."""
    pieces: list[str] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            pieces.append(part.text)
        elif isinstance(part, AttachmentPart):
            pieces.append(f"[attached file: {part.filename}]")
        elif isinstance(part, FilePart) and file_content(part) is None:
            pieces.append(f"[attached file: {part.filename or part.url}]")
    return "\n\n".join(p for p in pieces if p)


def runtime_input_text(message: UIMessage) -> str:
    """The typed text, then each attached text file as a tagged block (images left out: see
    `runtime_input_images`)."""
    blocks = [text_file_block(f.filename, f.text) for f in file_contents(message) if isinstance(f, TextFileContent)]
    return "\n\n".join(p for p in (typed_text(message), *blocks) if p)


def runtime_input_images(message: UIMessage) -> list[ImageContent]:
    return [f for f in file_contents(message) if isinstance(f, ImageContent)]


def anthropic_user_blocks(message: UIMessage, text: str) -> list[JsonValue] | None:
    """Anthropic-format content blocks of a message with files (None without any): `text`
    (the typed text, wrapped as the driver needs), then an `image` block per image and a text
    block per text file."""
    content = api_content(message, anthropic_image_block, text=text)
    return content if isinstance(content, list) else None
