"""Export a chat or an agent session to Markdown (File menu): text as written, tool calls as
fenced blocks, a fence inside a message never ends the export's own fence early."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAction

from cherry_desktop.core.messages import TextPart, ToolPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.ui.shell import fenced
from tests.gui.conftest import seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    assert fenced("print(1)", "python") == "```python\nprint(1)\n```"
    assert fenced("a\n```\nb").startswith("````\n") and fenced("a\n```\nb").endswith("\n````")


async def test_export_a_session_with_tool_calls(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    _, session_id = seed_agent_session(ui_core.repos, name="Release notes", turns=2)
    repos = ui_core.repos
    repos.session_messages.create_message(session_id=session_id, role="user", parts=[TextPart(text="and a steer")],
                                          metadata={"steer": True})
    repos.session_messages.create_message(session_id=session_id, role="assistant", parts=[
        ToolPart(tool_call_id="e1", tool_name="Bash", state="output-error", input={"command": "make"},
                 error_text="exit 2")])
    window = controller.open_window(session_topic_id(session_id))
    await until(lambda: len(window.message_view.rows()) == 6)
    action = window.findChild(QAction, "exportMarkdown")
    assert action is not None and action.shortcut().toString() == "Ctrl+Shift+E"
    out = window.export_markdown(tmp_path / "notes.md")
    assert out is not None
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Release notes\n\n## You\n\nQuestion 0?\n\n## Assistant\n\nAnswer **0**.")
    assert "```python\nprint(0)\n```" in text  # the message's own code, as written
    assert '**Tool: Read**\n\n```json\n{\n  "file_path": "README.md"\n}\n```\n\n```text\n# hello\n```' in text
    assert "## You (steer)\n\nand a steer" in text
    assert "```text\noutput-error: exit 2\n```" in text
    assert "Exported" in window.statusBar().currentMessage()
    assert window.export_markdown(tmp_path / "missing-dir" / "x.md") is None  # a clear error, no raise
    assert "Could not export" in window.statusBar().currentMessage()
