"""A tool call in readable form: its arguments as fields (not a JSON string), a unified diff
for a file edit, the command for a shell call (which calls those are comes from the runtime's
descriptor and ACP's kind: `bridge.tool_view`); long text folds.

`tool_input_html` is shared by the tool card in the message and the approval card.
"""

from __future__ import annotations

import difflib
import html
import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from cherry_desktop.ui.bridge import tool_view
from cherry_desktop.ui.common import Json

FOLD_LINES = 12
FIELD_LIMIT = 20_000
# Translucent, so the same tints read on the light and the dark theme.
ADDED_BG = "#402ea043"
REMOVED_BG = "#40f85149"
HUNK_FG = "#8250df"
MONO = "font-family: 'DejaVu Sans Mono', monospace;"


def _text(value: Json) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def display_tool_name(name: str) -> str:
    """A tool's name as a card shows it: an MCP tool (``mcp__<server>__<tool>``) names its
    server; any other tool keeps the runtime's own name."""
    from PySide6.QtCore import QCoreApplication

    if name.startswith("mcp__"):
        server, sep, tool = name[len("mcp__"):].partition("__")
        if sep and server and tool:
            return QCoreApplication.translate("ToolView", "%1 (MCP server %2)").replace("%1", tool).replace(
                "%2", server)
    return name


def tool_diff(tool_name: str, tool_input: Json, provider_metadata: Json = None) -> list[str] | None:
    """Unified diff lines of a file-changing tool call, or None for other tools."""
    view = tool_view(tool_name, tool_input, provider_metadata)
    if view.category != "write" or not view.edits:
        return None
    lines: list[str] = []
    rel = (view.path or "file").lstrip("/")
    for old, new in view.edits:
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{rel}", f"b/{rel}",
                                    lineterm="", n=3)
        body = list(diff)
        lines.extend(body[2:] if lines else body)  # one file header for all edits
    return lines


def diff_html(lines: list[str]) -> str:
    out = []
    for line in lines:
        if line.startswith(("--- ", "+++ ")):
            continue  # the card names the file above the diff
        escaped = html.escape(line) or "&nbsp;"
        if line.startswith("+") and not line.startswith("+++"):
            out.append(f'<div style="background-color:{ADDED_BG}">{escaped}</div>')
        elif line.startswith("-") and not line.startswith("---"):
            out.append(f'<div style="background-color:{REMOVED_BG}">{escaped}</div>')
        elif line.startswith("@@"):
            out.append(f'<div style="color:{HUNK_FG}">{escaped}</div>')
        else:
            out.append(f"<div>{escaped}</div>")
    return f'<div style="{MONO} white-space:pre;">' + "".join(out) + "</div>"


def readable_output(value: Json) -> str:
    """A tool's output as text: content blocks joined, stdout and stderr, else JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(v, dict) and "text" in v for v in value):
        text = "\n".join(str(v["text"]) for v in value)
    elif isinstance(value, dict) and ("stdout" in value or "stderr" in value):
        text = "\n".join(str(value[k]) for k in ("stdout", "stderr") if value.get(k))
    else:
        text = _text(value)
    if len(text) > FIELD_LIMIT:
        text = text[:FIELD_LIMIT] + "\n…"
    return text


def _label(key: str) -> str:
    return key.replace("_", " ").strip().capitalize()


def _value_html(value: Json) -> str:
    text = _text(value)
    if len(text) > FIELD_LIMIT:
        text = text[:FIELD_LIMIT] + "\n…"
    escaped = html.escape(text)
    if "\n" in text or not isinstance(value, str):
        return f'<div style="{MONO} white-space:pre-wrap;">{escaped}</div>'
    return escaped


def tool_input_html(tool_name: str, tool_input: Json, *, diff_keys: bool = True,
                    provider_metadata: Json = None) -> str:
    """The arguments as labelled fields; a diff for file edits; `$ command` for shell calls."""
    if tool_input in (None, "", {}):
        return ""
    if not isinstance(tool_input, dict):
        return _value_html(tool_input)
    rows: list[str] = []
    view = tool_view(tool_name, tool_input, provider_metadata)
    diff = tool_diff(tool_name, tool_input, provider_metadata) if diff_keys else None
    skip = set(view.consumed) if diff is not None else set()
    if view.command is not None:
        rows.append(f'<div style="{MONO} white-space:pre-wrap;">$ {html.escape(view.command)}</div>')
        skip.add("command")
    for key, value in tool_input.items():
        if key in skip or value in (None, ""):
            continue
        rows.append(f"<div><b>{html.escape(_label(key))}</b>: {_value_html(value)}</div>")
    if diff:
        rows.append(diff_html(diff))
    return "".join(rows)


class FoldingText(QWidget):
    """Monospace text (a tool's output) that folds past `FOLD_LINES` lines."""

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.label = QLabel(self)
        self.label.setObjectName(object_name)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("foldToggle")
        self.toggle.clicked.connect(self._flip)
        layout.addWidget(self.label)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.full = ""
        self.folded = True
        self.set_text("")

    def set_text(self, text: str) -> None:
        self.full = text
        self._show()

    def text(self) -> str:
        return self.label.text()

    def _flip(self) -> None:
        self.folded = not self.folded
        self._show()

    def _show(self) -> None:
        lines = self.full.splitlines()
        long = len(lines) > FOLD_LINES
        shown = "\n".join(lines[:FOLD_LINES]) + "\n…" if long and self.folded else self.full
        self.label.setText(shown)
        self.toggle.setVisible(long)
        if long:
            self.toggle.setText(self.tr("Show all %1 lines").replace("%1", str(len(lines))) if self.folded
                                else self.tr("Show less"))
        self.setVisible(bool(self.full))
