"""Cards for agent tools with a shape of their own: Claude Code's TodoWrite as a live checklist,
ExitPlanMode's plan as Markdown, Cherry's report_artifacts as the deliverables with each file
openable; and the compaction divider (`data-compaction` parts)."""

from __future__ import annotations

import html
import json
import re

from PySide6.QtCore import QLocale, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from cherry_desktop.ui.bridge import is_todo_list
from cherry_desktop.ui.chat._blocks import ToolCard
from cherry_desktop.ui.common import Json, JsonObject

TODO_TOOL = "TodoWrite"
PLAN_TOOL = "ExitPlanMode"
ARTIFACTS_TOOL = "mcp__cherry-tools__report_artifacts"
_MARKS = {"completed": "☑", "in_progress": "◐", "pending": "☐"}


def todos_of(tool_input: Json) -> list[dict[str, str]]:
    """TodoWrite's items ({content, status, activeForm}); [] for anything else."""
    items = tool_input.get("todos") if isinstance(tool_input, dict) else None
    if not isinstance(items, list):
        return []
    out = []
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("content"), str):
            status = item.get("status") if item.get("status") in _MARKS else "pending"
            out.append({"content": item["content"], "status": str(status),
                        "active_form": str(item.get("activeForm") or item["content"])})
    return out


def todo_html(todos: list[dict[str, str]]) -> str:
    lines = []
    for t in todos:
        mark = _MARKS[t["status"]]
        if t["status"] == "completed":
            lines.append(f"{mark} <s>{html.escape(t['content'])}</s>")
        elif t["status"] == "in_progress":
            lines.append(f"{mark} <b>{html.escape(t['active_form'])}</b>")
        else:
            lines.append(f"{mark} {html.escape(t['content'])}")
    return "<br>".join(lines)


class TodoCard(ToolCard):
    """TodoWrite: the checklist its input holds, updated as the input streams in."""

    def __init__(self, fields: JsonObject, parent: QWidget | None = None) -> None:
        super().__init__(fields, parent)
        self.setObjectName("todoCard")

    def update_fields(self, fields: JsonObject) -> None:
        super().update_fields(fields)
        todos = todos_of(self.fields.get("input"))
        self.todos = todos
        done = sum(1 for t in todos if t["status"] == "completed")
        self.header.setText(self.tr("Todo list · %1 of %2 done").replace("%1", str(done))
                            .replace("%2", str(len(todos))))
        self.input_label.setTextFormat(Qt.TextFormat.RichText)
        self.input_label.setText(todo_html(todos))
        self.input_label.setVisible(bool(todos))
        self.result_label.setVisible(self.fields.get("state") in ("output-error", "output-denied"))


def split_plan_heading(plan: str) -> tuple[str, str]:
    """A plan that opens with a Markdown heading: (the heading's text, the rest); the card's
    title is then that heading rather than a "Plan" title over the plan's own "# Plan"."""
    first, _, rest = plan.lstrip().partition("\n")
    match = re.fullmatch(r"#{1,6}\s+(.+?)\s*#*\s*", first)
    if match is None:
        return "", plan
    return match.group(1), rest.lstrip("\n")


class PlanCard(ToolCard):
    """ExitPlanMode: the plan, as Markdown, titled by its heading (the approval card under the
    transcript asks to approve it and points here rather than repeating it)."""

    def __init__(self, fields: JsonObject, parent: QWidget | None = None) -> None:
        super().__init__(fields, parent)
        self.setObjectName("planCard")

    def update_fields(self, fields: JsonObject) -> None:
        super().update_fields(fields)
        tool_input = self.fields.get("input")
        plan = tool_input.get("plan") if isinstance(tool_input, dict) else None
        if isinstance(plan, str):
            heading, body = split_plan_heading(plan)
            self.header.setText(heading or self.tr("Plan"))
            self.input_label.setTextFormat(Qt.TextFormat.MarkdownText)
            self.input_label.setText(body)
        if self.fields.get("state") == "output-available":
            self.result_label.setVisible(False)


def accepted_artifacts(output: Json) -> JsonObject:
    """What Cherry's report_artifacts answered: {artifacts: [{path, name, description}],
    rejected, summary}; {} when the output is not its answer."""
    texts = [str(b.get("text", "")) for b in output if isinstance(b, dict)] if isinstance(output, list) else [
        output if isinstance(output, str) else ""]
    for text in texts:
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("artifacts"), list):
            return value
    return {}


class ArtifactsCard(ToolCard):
    """report_artifacts: the deliverables, each file a link that opens it. Only the files Cherry
    accepted (inside the workspace or the agent's data folder) are links."""

    def __init__(self, fields: JsonObject, parent: QWidget | None = None) -> None:
        self.paths: list[str] = []
        super().__init__(fields, parent)
        self.setObjectName("artifactsCard")
        self.input_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                                 | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.input_label.linkActivated.connect(self.open_artifact)

    def update_fields(self, fields: JsonObject) -> None:
        super().update_fields(fields)
        answer = accepted_artifacts(self.fields.get("output"))
        items = [a for a in answer.get("artifacts", []) if isinstance(a, dict)]
        self.paths = [str(a.get("path")) for a in items]
        self.header.setText(self.tr("Deliverables (%1)").replace("%1", str(len(items))))
        if not answer:
            return
        lines = [f"<i>{html.escape(str(answer['summary']))}</i>"] if answer.get("summary") else []
        for index, item in enumerate(items):
            description = html.escape(str(item.get("description") or ""))
            lines.append(f'<a href="artifact:{index}">{html.escape(str(item.get("name")))}</a>'
                         + (f" — {description}" if description else ""))
        self.input_label.setTextFormat(Qt.TextFormat.RichText)
        self.input_label.setText("<br>".join(lines))
        self.input_label.setVisible(bool(lines))
        self.result_label.setVisible(self.fields.get("state") != "output-available")

    def open_artifact(self, link: str) -> None:
        """Open one accepted file with the system's app for it."""
        _, _, index = link.partition(":")
        if index.isdigit() and int(index) < len(self.paths):
            QDesktopServices.openUrl(QUrl.fromLocalFile(self.paths[int(index)]))


def make_tool_card(fields: JsonObject) -> ToolCard:
    """The card for a tool part (by its tool name, and its kind: an ACP agent's plan)."""
    name = fields.get("tool_name")
    if is_todo_list(str(name), fields.get("provider_metadata")):
        return TodoCard(fields)
    if name == PLAN_TOOL:
        return PlanCard(fields)
    if name == ARTIFACTS_TOOL:
        return ArtifactsCard(fields)
    return ToolCard(fields)


class CompactionDivider(QFrame):
    """A divider where the runtime compacted the conversation's context."""

    def __init__(self, data: Json, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compactionDivider")
        h = QHBoxLayout(self)
        h.setContentsMargins(0, 4, 0, 4)
        self.label = QLabel(self)
        self.label.setObjectName("compactionLabel")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        h.addWidget(self.label, 1)
        self.update_data(data)

    def update_data(self, data: Json) -> None:
        state = data.get("state") if isinstance(data, dict) else None
        self.setProperty("state", state or "")
        if state == "compacting":
            self.label.setText(self.tr("— Compacting the conversation's context… —"))
        elif state == "error":
            message = str(data.get("message") or "")
            self.label.setText(self.tr("— Compacting the context failed: %1 —").replace("%1", message))
        else:
            self.label.setText(self._done_text(data if isinstance(data, dict) else {}))
        self.style().unpolish(self)
        self.style().polish(self)

    def _done_text(self, data: JsonObject) -> str:
        """What was compacted: the context's size before, and why, where the runtime said."""
        tokens = data.get("tokens_before")
        if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens <= 0:
            return self.tr("— Earlier messages were compacted into a summary to free context —")
        size = QLocale().toString(tokens)
        if data.get("trigger") == "auto":
            text = self.tr("— The context was full: %1 tokens of earlier messages were compacted into a summary —")
        elif data.get("trigger") == "manual":
            text = self.tr("— As asked, %1 tokens of earlier messages were compacted into a summary —")
        else:
            text = self.tr("— %1 tokens of earlier messages were compacted into a summary to free context —")
        return text.replace("%1", size)

