"""Cherry's own tools in the real window with the real Claude Code CLI: the model declares its
deliverables with ``mcp__cherry-tools__report_artifacts``; it runs without a card (Cherry-safe),
the transcript shows the artifacts card with the accepted file as a link (a file outside the
workspace is refused, so never openable), and the prompt told the model about the tool.
Screenshot: artifacts/mcp_artifacts_card.png."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import ensure_demo_records
from cherry_desktop.ui.chat import ArtifactsCard
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


async def test_report_artifacts_shows_the_card_with_openable_files(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer, tmp_path: Path) -> None:
    _agent_id, session_id, workspace = ensure_demo_records(
        ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    report = Path(workspace) / "report.md"
    report.write_text("# The report\n")
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("not a deliverable")
    server.enqueue(tool_use("mcp__cherry-tools__report_artifacts", {
        "summary": "The report is written.",
        "artifacts": [{"path": "report.md", "description": "what was found"},
                      {"path": str(outside), "description": "outside"}]}, preamble="Done; declaring it."),
        text("The report is in your workspace."))
    window = controller.open_window(session_topic_id(session_id))
    window.composer.editor.setPlainText("write the report")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: not window.is_streaming()
                and "The report is in your workspace." in window.message_view.rows()[-1].text(), limit=60)
    assert not window.approval_waiting()
    [card] = window.message_view.rows()[-1].findChildren(ArtifactsCard)
    assert card.paths == [str(report.resolve())]
    assert "report.md" in card.input_label.text() and "elsewhere.txt" not in card.input_label.text()
    assert card.header.text() == "Deliverables (1)"
    system = json.dumps(server.message_requests()[0].json.get("system"))
    assert "report_artifacts" in system
    window.resize(1000, 700)
    await asyncio.sleep(0.3)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "mcp_artifacts_card.png"))
