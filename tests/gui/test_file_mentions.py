""""@" in an agent session's message offers the files of the session's workspace (listed off
the UI thread, .gitignore honoured in a git work tree), best matches first; Enter or Tab puts
the relative path in the message (as Claude Code does) and does not send; Esc closes the list."""

from __future__ import annotations

import asyncio
import subprocess
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.conftest import ARTIFACTS, enter_sends, focused_window, scripted_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


def _workspace(root: Any) -> None:
    root.mkdir()
    for name in ("src/app.py", "src/util/helpers.py", "docs/help.md", "README.md", "build/helpers.bin"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")
    (root / ".gitignore").write_text("build/\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)


async def test_at_lists_the_workspaces_files_and_enter_puts_the_path_in_the_message(
        controller: Any, ui_core: Any, tmp_path: Any) -> None:
    _workspace(tmp_path / "ws")
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = await focused_window(controller, topic_id)
    editor, popup = window.composer.editor, window.composer.completion.popup
    QTest.keyClicks(editor, "explain @hel")
    await until(lambda: popup.isVisible() and popup.entries() == ["docs/help.md", "src/util/helpers.py"])
    assert "build/helpers.bin" not in popup.entries()  # ignored by git
    await asyncio.sleep(0.05)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "file_mentions.png"))
    QTest.keyClick(editor, Qt.Key.Key_Down)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    assert editor.toPlainText() == "explain @src/util/helpers.py "
    await asyncio.sleep(0.05)
    assert driver.connections == []  # Enter picked; nothing was sent

    # Another mention: letters in order match too ("sap" -> src/app.py); Esc closes the list.
    QTest.keyClicks(editor, "and @sap")
    await until(lambda: popup.isVisible() and popup.entries()[:1] == ["src/app.py"])
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    await until(lambda: not popup.isVisible())
    QTest.keyClick(editor, Qt.Key.Key_Backspace)
    QTest.keyClicks(editor, "p")
    await until(popup.isVisible)
    QTest.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "explain @src/util/helpers.py and @src/app.py "
    # A click picks too (the list never takes the focus from the box).
    QTest.keyClicks(editor, "@READ")
    await until(lambda: popup.isVisible() and popup.entries() == ["README.md"])
    item = popup.item(0)
    QTest.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=popup.visualItemRect(item).center())
    assert editor.toPlainText() == "explain @src/util/helpers.py and @src/app.py @README.md "
    assert editor.hasFocus() and not popup.isVisible()
    # No list after an e-mail address's "@" (no space before it); Enter then sends the paths.
    QTest.keyClicks(editor, "for ada@example")
    assert not popup.isVisible()
    assert await enter_sends(window, driver) == ("explain @src/util/helpers.py and @src/app.py @README.md "
                                                 "for ada@example")
