"""The scripted server says what files it received: the demo shows that an attachment reached
the model, and tests read the same words (and `ModelRequest.received_files`)."""

from __future__ import annotations

from typing import Any

from cherry_desktop.demo.replies import AnyReply, text
from cherry_desktop.demo.request_log import ModelRequest


def describe_files(files: list[dict[str, Any]]) -> str:
    """"I received 1 image (image/png, 68 bytes) and the file notes.txt (2 lines)." or ""."""
    if not files:
        return ""
    words = []
    for f in files:
        if f["kind"] == "image":
            words.append(f"an image ({f['media_type']}, {f['bytes']} bytes)")
        else:
            words.append(f"the file {f['name']} ({len(str(f['text']).splitlines())} lines)")
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"I received {listed}."


def attachment_echo(request: ModelRequest) -> AnyReply | None:
    """The reply to a chat request whose last user message carries files; None otherwise."""
    said = describe_files(request.received_files())
    return text(said) if said else None
