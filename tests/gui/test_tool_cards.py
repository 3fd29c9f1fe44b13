"""Tool cards and the approval card in readable form: fields instead of JSON strings, a coloured
unified diff for Edit / MultiEdit / Write, Bash's command and output, long outputs folded, and
"Always allow <tool> in this session" through the runtime's approval API."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.runtime.events import ChunkEvent, ToolApprovalRequestEvent
from cherry_desktop.core.messages import ToolInputAvailableChunk, ToolInputStartChunk, ToolPart
from cherry_desktop.ui.chat import ADDED_BG, REMOVED_BG, MessageRow, ToolCard, tool_diff
from cherry_desktop.ui.session import ApprovalCard
from cherry_desktop.ui.shell import apply_theme
from tests.gui.conftest import save_screenshot, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui

EDIT = {"file_path": "src/app.py", "old_string": "def greet():\n    print('hi')\n",
        "new_string": "def greet(name):\n    print(f'hi {name}')\n"}


def _card(qtbot: Any, **fields: Any) -> ToolCard:
    card = ToolCard({"tool_call_id": "c", "state": "output-available", **fields})
    qtbot.addWidget(card)
    card.resize(640, 400)
    return card


def test_edit_shows_a_coloured_unified_diff_not_json(qtbot: Any) -> None:
    card = _card(qtbot, tool_name="Edit", input=EDIT, output="The file was updated.")
    html = card.input_label.text()
    assert "\\n" not in html and "old_string" not in html  # no JSON string with escapes
    assert "File path" in html and "src/app.py" in html
    assert ADDED_BG in html and REMOVED_BG in html
    lines = tool_diff("Edit", EDIT)
    assert lines is not None and lines[:2] == ["--- a/src/app.py", "+++ b/src/app.py"]
    assert "-def greet():" in lines and "+def greet(name):" in lines


def test_multiedit_and_write_diffs() -> None:
    multi = tool_diff("MultiEdit", {"file_path": "a.py", "edits": [
        {"old_string": "x = 1", "new_string": "x = 2"}, {"old_string": "y = 1", "new_string": "y = 3"}]})
    assert multi is not None
    assert [ln for ln in multi if ln[:1] in "+-" and ln[:3] not in ("+++", "---")] == \
        ["-x = 1", "+x = 2", "-y = 1", "+y = 3"]
    assert sum(ln.startswith("+++") for ln in multi) == 1  # one file header
    write = tool_diff("Write", {"file_path": "n.md", "content": "# Notes\nline\n"})
    assert write is not None and write[-2:] == ["+# Notes", "+line"]
    assert tool_diff("Read", {"file_path": "x"}) is None


def test_bash_shows_the_command_and_a_folded_output(qtbot: Any) -> None:
    output = "\n".join(f"line {i}" for i in range(40))
    card = _card(qtbot, tool_name="Bash", input={"command": "ls -la\necho done", "description": "List files"},
                 output={"stdout": output, "stderr": ""})
    assert "$ ls -la\necho done" in card.input_label.text()
    assert "Description" in card.input_label.text()
    folded = card.result_label
    assert folded.toggle.isVisibleTo(card) and "line 39" not in folded.text() and "line 0" in folded.text()
    qtbot.mouseClick(folded.toggle, Qt.MouseButton.LeftButton)
    assert "line 39" in folded.text()
    qtbot.mouseClick(folded.toggle, Qt.MouseButton.LeftButton)
    assert "line 39" not in folded.text()


def test_content_block_outputs_read_as_text(qtbot: Any) -> None:
    card = _card(qtbot, tool_name="Read", input={"file_path": "README.md"},
                 output=[{"type": "text", "text": "# Title\nbody"}])
    assert card.result_label.text() == "# Title\nbody"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_of_a_diff_card_and_an_approval_card(qtbot: Any, qapp: Any, theme: str) -> None:
    apply_theme(qapp, theme)
    try:
        row = MessageRow("a", "assistant")
        row.set_parts([ToolPart(tool_call_id="c1", tool_name="Edit", state="output-available", input=EDIT,
                                output="The file src/app.py has been updated."),
                       ToolPart(tool_call_id="c2", tool_name="Bash", state="output-available",
                                input={"command": "pytest -q"}, output="\n".join(f"test {i} ok" for i in range(30)))])
        qtbot.addWidget(row)
        save_screenshot(row, f"diff_card_{theme}")
        card = ApprovalCard()
        qtbot.addWidget(card)
        card.show_approval({"approval_id": "ap", "tool_name": "Edit", "input": EDIT})
        save_screenshot(card, f"approval_card_{theme}")
        assert card.always_button.objectName() == "alwaysAllowButton" and "Edit" in card.always_button.text()
    finally:
        apply_theme(qapp, "light")


async def test_always_allow_goes_through_the_runtime_approval_api(controller: Any, ui_core: Any, qtbot: Any,
                                                                  tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = controller.open_window(topic_id)
    conn = await send_turn(qtbot, window, driver, "fix it")
    conn.emit(ChunkEvent(ToolInputStartChunk(tool_call_id="c1", tool_name="Edit")),
              ChunkEvent(ToolInputAvailableChunk(tool_call_id="c1", tool_name="Edit", input=EDIT)),
              ToolApprovalRequestEvent(approval_id="ap-1", tool_call_id="c1", tool_name="Edit", input=EDIT))
    card = window.approval_card
    await until(lambda: window.approval_waiting() and card.armed)
    assert "src/app.py" in card.input_label.text() and ADDED_BG in card.input_label.text()
    qtbot.mouseClick(card.always_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    approval_id, decision = conn.approvals[0]
    assert approval_id == "ap-1" and decision.approved and decision.always_allow
    assert "Edit" in window.statusBar().currentMessage()  # shown in the session
    await until(lambda: not window.approval_waiting())
    conn.complete("ok")
    await until(lambda: not window.is_streaming())


def test_pi_edit_and_bash_and_an_acp_diff_render_as_diff_and_command_cards(qtbot: Any) -> None:
    """By the descriptor and ACP's kind, not Claude Code's names: pi's ``edit`` shows its diff,
    pi's ``bash`` its ``$ command``, an ACP agent's edit the diff the agent sent."""
    pi = {"cherry": {"transport": "pi"}}
    edit = _card(qtbot, tool_name="edit", provider_metadata=pi, output="Edited.",
                 input={"path": "src/app.py", "edits": [{"oldText": "x = 1", "newText": "x = 2"}]})
    html = edit.input_label.text()
    assert ADDED_BG in html and REMOVED_BG in html and "oldText" not in html
    bash = _card(qtbot, tool_name="bash", provider_metadata=pi, input={"command": "make test"}, output="ok")
    assert "$ make test" in bash.input_label.text()
    acp = {"cherry": {"transport": "acp", "kind": "edit", "title": "Edit a.txt",
                      "content": [{"type": "diff", "path": "a.txt", "old_text": "one\n", "new_text": "two\n"}]}}
    patch = _card(qtbot, tool_name="apply_patch", provider_metadata=acp, input={"patch": "*** a.txt"}, output="")
    assert ADDED_BG in patch.input_label.text() and REMOVED_BG in patch.input_label.text()
    save_screenshot(edit, "pi_edit_diff_card", width=560)
