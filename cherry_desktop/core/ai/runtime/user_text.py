"""The text a user `UIMessage` sends to a runtime (shared by every driver)."""

from __future__ import annotations

from cherry_desktop.core.messages import UIMessage


def runtime_input_text(message: UIMessage) -> str:
    """Text parts joined by blank lines; attached files by name."""
    pieces: list[str] = []
    for part in message.parts:
        kind = getattr(part, "type", "")
        if kind == "text":
            pieces.append(str(getattr(part, "text", "")))
        elif kind == "file":
            name = getattr(part, "filename", None) or getattr(part, "url", "")
            pieces.append(f"[attached file: {name}]")
    return "\n\n".join(p for p in pieces if p)
