"""Export a chat or an agent session to Markdown: each message under its author, text as
written, reasoning quoted, tool calls as fenced blocks (input, then output or error)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMainWindow

from cherry_desktop.ui.common import Json

if TYPE_CHECKING:
    from cherry_desktop.core.messages import ToolPart
    from cherry_desktop.ui.bridge import ChatsBridge, StoredMessage


def fenced(body: str, language: str = "") -> str:
    """`body` in a code fence longer than any backtick run inside it."""
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{body.rstrip(chr(10))}\n{fence}"


def _json(value: Json) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _tool_markdown(part: ToolPart) -> str:
    from cherry_desktop.ui.chat import readable_output

    name = part.tool_name or "?"  # a `ToolPart` (the caller checked its type)
    label = QCoreApplication.translate("Export", "Tool")
    out = [f"**{label}: {name}**", "", fenced(_json(part.input or {}), "json")]
    state = part.state
    if state == "output-available":
        out += ["", fenced(readable_output(part.output), "text")]
    elif state in ("output-error", "output-denied"):
        out += ["", fenced(f"{state}: {part.error_text or ''}", "text")]
    return "\n".join(out)


def conversation_markdown(title: str, messages: list[StoredMessage]) -> str:
    """The conversation as one Markdown document."""
    from cherry_desktop.core.messages import ReasoningPart, TextPart, ToolPart  # loaded with the rows

    blocks = ["# " + (title or QCoreApplication.translate("Export", "Conversation"))]
    you, assistant = QCoreApplication.translate("Export", "You"), QCoreApplication.translate("Export", "Assistant")
    steer_label = QCoreApplication.translate("Export", "steer")
    for message in messages:
        steer = bool(message.metadata.get("steer") or message.metadata.get("is_steer"))
        author = you if message.role == "user" else assistant
        blocks.append(f"## {author}" + (f" ({steer_label})" if steer else ""))
        for part in message.parts:
            if isinstance(part, TextPart) and part.text.strip():
                blocks.append(part.text.strip("\n"))
            elif isinstance(part, ReasoningPart) and part.text.strip():
                blocks.append("\n".join("> " + line for line in part.text.strip().splitlines()))
            elif isinstance(part, ToolPart):  # "dynamic-tool" and "tool-<name>" alike
                blocks.append(_tool_markdown(part))
    return "\n\n".join(blocks) + "\n"


def export_topic(window: QMainWindow, chats: ChatsBridge, topic_id: str | None,
                 path: Path | None = None) -> Path | None:
    """Write the conversation of `topic_id` to `path` (asked for when None, the dialog over
    `window`, whose status bar says how it went); returns the path."""
    if topic_id is None:
        return None
    title = chats.topic_title(topic_id)
    if path is None:
        name, _ = QFileDialog.getSaveFileName(
            window, QCoreApplication.translate("Export", "Export to Markdown"), f"{title or 'conversation'}.md",
            QCoreApplication.translate("Export", "Markdown (*.md)"))
        if not name:
            return None
        path = Path(name)
    try:
        path.write_text(conversation_markdown(title, chats.load_messages(topic_id)), encoding="utf-8")
    except OSError as exc:
        window.statusBar().showMessage(
            QCoreApplication.translate("Export", "Could not export: %1").replace("%1", exc.strerror or str(exc)), 8000)
        return None
    window.statusBar().showMessage(
        QCoreApplication.translate("Export", "Exported to %1").replace("%1", str(path)), 6000)
    return path
