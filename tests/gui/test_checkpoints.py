"""A turn's Changes and "Restore files" in the real window, with the real core, the real Claude
Code CLI writing and editing files and running a shell command against the scripted model
server, real git and real files: the answer's Changes dialog lists the three files with their
diffs, the header counts them, the user message's Restore shows the plan (naming the file the
user edited by hand) and changes nothing until Restore is pressed, and Undo restore puts the
files back. Screenshots: artifacts/checkpoint_*.png."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import ScriptedModelServer, text, tool_use, tool_uses
from cherry_desktop.demo.bootstrap import ensure_demo_records
from cherry_desktop.ui.chat import ADDED_BG
from cherry_desktop.ui.session import ChangesDialog, RewindDialog
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


def _row(window: Any, role: str) -> Any:
    return next(r for r in window.message_view.rows() if r.role == role)


async def test_changes_dialog_and_restore_files_in_the_window(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer) -> None:
    _, session_id, ws = ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"),
                                            server.base_url)
    (ws / "notes.md").write_text("# Notes\n\n- buy milk\n- call Ada\n")
    (ws / "todo.txt").write_text("nothing yet\n")
    ui_core.repos.sessions.update_always_allowed_tools(session_id, add=["Read", "Write", "Edit", "Bash"])
    window = controller.open_window(session_topic_id(session_id))
    window.resize(1000, 700)
    server.enqueue(
        tool_uses([("Read", {"file_path": str(ws / "notes.md")})]),
        tool_uses([("Write", {"file_path": str(ws / "plan.md"), "content": "# Plan\n\n1. Milk\n2. Ada\n"}),
                   ("Edit", {"file_path": str(ws / "notes.md"), "old_string": "- call Ada",
                             "new_string": "- call Ada (done)"}),
                   ("Bash", {"command": f"date +%Y > {ws / 'stamp.txt'}", "description": "stamp"})]),
        text("I wrote a plan, ticked off Ada and stamped the year."))
    window.composer.editor.setPlainText("plan my day")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: not window.is_streaming() and any(r.role == "assistant" and r.status == "success"
                                                           for r in window.message_view.rows()), limit=60)
    assert (ws / "plan.md").exists() and (ws / "stamp.txt").exists()
    header = window.session_header
    await until(lambda: header.changes_button.isVisibleTo(window), limit=10)
    assert header.changes_button.text() == "Changes: 3 file(s)"

    # The answer's Changes: three files, each with its diff.
    answer = _row(window, "assistant")
    actions = window.message_view.row_actions
    window.message_view.hover.show_over(answer)
    assert actions.changes_button.isVisibleTo(window) and not actions.rewind_button.isVisibleTo(window)
    qtbot.mouseClick(actions.changes_button, Qt.MouseButton.LeftButton)
    await until(lambda: isinstance(window.checkpoint_actions.dialog, ChangesDialog))
    dialog = window.checkpoint_actions.dialog
    items = [dialog.file_list.item(i).text() for i in range(dialog.file_list.count())]
    assert items == ["notes.md  ·  modified  ·  +1 −1", "plan.md  ·  added  ·  +4 −0",
                     "stamp.txt  ·  added  ·  +1 −0"]
    await until(lambda: "(done)" in dialog.diff_view.toPlainText())
    assert "-- call Ada" in dialog.diff_view.toPlainText()
    dialog.file_list.setCurrentRow(1)
    await until(lambda: "# Plan" in dialog.diff_view.toPlainText())
    assert ADDED_BG in dialog.diff_view.toHtml() or "+# Plan" in dialog.diff_view.toPlainText()
    ARTIFACTS.mkdir(exist_ok=True)
    await asyncio.sleep(0.05)
    assert dialog.grab().save(str(ARTIFACTS / "checkpoint_changes.png"))
    dialog.close()

    # The user edits a file by hand; Restore files on the user message shows the plan first.
    (ws / "todo.txt").write_text("my own edit\n")
    question = _row(window, "user")
    window.message_view.hover.show_over(question)
    assert actions.rewind_button.isVisibleTo(window) and not actions.changes_button.isVisibleTo(window)
    qtbot.mouseClick(actions.rewind_button, Qt.MouseButton.LeftButton)
    await until(lambda: isinstance(window.checkpoint_actions.dialog, RewindDialog))
    rewind = window.checkpoint_actions.dialog
    assert rewind.file_list.count() == 4
    assert "todo.txt" in rewind.warning.text()
    assert rewind.cancel_button.isDefault() and not rewind.restore_button.isDefault()
    await asyncio.sleep(0.05)
    assert rewind.grab().save(str(ARTIFACTS / "checkpoint_rewind.png"))
    assert (ws / "plan.md").exists()              # nothing changed before the user confirms
    qtbot.mouseClick(rewind.restore_button, Qt.MouseButton.LeftButton)
    # The restore is over once the window says so (git writes the files one by one).
    await until(lambda: "Restored" in window.statusBar().currentMessage())
    assert not (ws / "plan.md").exists()
    assert (ws / "notes.md").read_text() == "# Notes\n\n- buy milk\n- call Ada\n"
    assert (ws / "todo.txt").read_text() == "nothing yet\n" and not (ws / "stamp.txt").exists()
    await until(lambda: header.undo_rewind_button.isVisibleTo(window))
    await until(lambda: not header.changes_button.isVisibleTo(window))   # the session's total is 0 again
    assert "Restored 4 file(s)" in window.statusBar().currentMessage()
    await asyncio.sleep(0.05)
    assert window.grab().save(str(ARTIFACTS / "checkpoint_window_after_restore.png"))

    qtbot.mouseClick(header.undo_rewind_button, Qt.MouseButton.LeftButton)
    await until(lambda: "back as they were" in window.statusBar().currentMessage())
    assert (ws / "plan.md").exists()
    assert (ws / "todo.txt").read_text() == "my own edit\n"
    await until(lambda: not header.undo_rewind_button.isVisibleTo(window))


async def test_a_folder_too_large_for_checkpoints_is_said_in_the_header(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer) -> None:
    _, session_id, ws = ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"),
                                            server.base_url)
    for i in range(8):
        (ws / f"f{i}.txt").write_text(str(i))
    ui_core.checkpoints.caps["max_files"] = 5       # this folder is "too large"
    window = controller.open_window(session_topic_id(session_id))
    server.enqueue(text("Nothing to change."))
    window.composer.editor.setPlainText("hello")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    header = window.session_header
    await until(lambda: header.checkpoint_notice.isVisibleTo(window), limit=60)
    assert header.checkpoint_notice.text() == (
        "No checkpoints: This folder has too many files for checkpoints (8).")
    answer = _row(window, "assistant")
    window.message_view.hover.show_over(answer)
    assert not window.message_view.row_actions.changes_button.isVisibleTo(window)


async def test_restore_files_and_conversation_opens_a_forked_session(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer) -> None:
    _, session_id, ws = ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"),
                                            server.base_url)
    ui_core.repos.sessions.update_always_allowed_tools(session_id, add=["Write"])
    window = controller.open_window(session_topic_id(session_id))
    window.resize(1000, 640)
    server.enqueue(text("Noted: kumquat."),
                   tool_use("Write", {"file_path": str(ws / "draft.md"), "content": "# Draft\n"}), text("Drafted."))
    for n, message in enumerate(("remember the word kumquat", "write a draft"), start=1):
        window.composer.editor.setPlainText(message)
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
        await until(lambda n=n: not window.is_streaming() and sum(
            r.role == "assistant" and r.status == "success" for r in window.message_view.rows()) == n, limit=60)
    assert (ws / "draft.md").exists()
    second = [r for r in window.message_view.rows() if r.role == "user"][1]
    window.message_view.hover.show_over(second)
    qtbot.mouseClick(window.message_view.row_actions.rewind_button, Qt.MouseButton.LeftButton)
    await until(lambda: isinstance(window.checkpoint_actions.dialog, RewindDialog))
    qtbot.mouseClick(window.checkpoint_actions.dialog.fork_button, Qt.MouseButton.LeftButton)
    await until(lambda: window.topic_id != session_topic_id(session_id), limit=10)
    assert not (ws / "draft.md").exists()
    rows = window.message_view.rows()
    assert [(r.role, r.text()) for r in rows] == [("user", "remember the word kumquat"),
                                                 ("assistant", "Noted: kumquat.")]
    assert rows[0].history_reset                                  # the fork's notice on its first row
    assert "new session" in window.statusBar().currentMessage()
    # The fork has no turn of its own yet: no total in its header.
    await until(lambda: not window.session_header.changes_button.isVisibleTo(window))
    window.message_view.row_actions.hide()
    await asyncio.sleep(0.05)
    assert window.grab().save(str(ARTIFACTS / "checkpoint_forked_session.png"))
