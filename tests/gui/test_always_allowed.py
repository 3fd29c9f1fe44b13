""""Always allow <tool> in this session" in the real window, with the real core, the real Claude
Code CLI and the scripted model server: the grant shows in the session header ("Always allowed:
Bash"), the next call runs without the approval card, and "Ask again for Bash" in the header's
menu brings the card back at the live connection's next call. Screenshot: artifacts/."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import ensure_demo_records
from cherry_desktop.ui.session import AlwaysAllowedButton, permission_mode_label
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


def _touch(path: Path) -> Any:
    return tool_use("Bash", {"command": f"touch {path}", "description": "touch a file"})


async def _send(qtbot: Any, window: Any, message: str) -> None:
    window.composer.editor.setPlainText(message)
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)


def _assistant_rows(window: Any) -> int:
    return sum(1 for r in window.message_view.rows() if r.role == "assistant")


async def _turn_done(window: Any, assistants: int) -> None:
    await until(lambda: not window.is_streaming() and _assistant_rows(window) == assistants, limit=60)


def _revoke_action(button: AlwaysAllowedButton, tool: str) -> Any:
    return next(a for a in button.menu().actions() if a.data() == tool)


async def test_always_allow_shows_in_the_header_and_asking_again_brings_the_card_back(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer) -> None:
    _, session_id, workspace = ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"),
                                                   server.base_url)
    window = controller.open_window(session_topic_id(session_id))
    other = controller.open_window(session_topic_id(session_id))  # a second window on the session
    header, card = window.session_header, window.approval_card
    assert not header.always_allowed.isVisibleTo(window)  # nothing allowed yet
    files = [workspace / f"g{i}.txt" for i in range(3)]

    server.enqueue(_touch(files[0]), text("first"))
    await _send(qtbot, window, "touch the first file")
    await until(lambda: window.approval_waiting() and card.armed, limit=60)
    assert "Bash" in card.always_button.text()
    qtbot.mouseClick(card.always_button, Qt.MouseButton.LeftButton)
    await _turn_done(window, 1)
    assert files[0].exists()
    await until(lambda: header.always_allowed.isVisibleTo(window))
    assert header.always_allowed.text() == "Always allowed: Bash"
    assert other.session_header.always_allowed.text() == "Always allowed: Bash"
    assert ui_core.repos.sessions.always_allowed_tools(session_id) == ("Bash",)
    ARTIFACTS.mkdir(exist_ok=True)
    await asyncio.sleep(0.1)
    header.grab().save(str(ARTIFACTS / "session_header_always_allowed.png"))

    # The same tool again: no card.
    server.enqueue(_touch(files[1]), text("second"))
    await _send(qtbot, window, "touch the second file")
    await _turn_done(window, 2)
    assert files[1].exists()
    assert not window.approval_waiting()

    # A permission-mode change keeps the grant, and the header says so.
    combo = header.permission_combo
    for mode in ("acceptEdits", "default"):
        label = permission_mode_label(mode)
        combo.setCurrentIndex(combo.findData(mode))
        combo.activated.emit(combo.currentIndex())
        await until(lambda label=label: header.notice.text().startswith(f"Now: {label}"))
        assert header.notice.text().endswith(" · Still always allowed: Bash")

    # "Ask again for Bash": the header clears, the row and the live connection forget it.
    conn = ui_core.agent_runtime.get_entry(session_id).connection
    assert "Bash" in conn.always_allowed_tools
    _revoke_action(header.always_allowed, "Bash").trigger()
    assert not header.always_allowed.isVisibleTo(window) and not other.session_header.always_allowed.isVisibleTo(other)
    assert ui_core.repos.sessions.always_allowed_tools(session_id) == ()
    assert ui_core.agent_runtime.get_entry(session_id).connection is conn and not conn.always_allowed_tools
    server.enqueue(_touch(files[2]), text("asked again"))
    await _send(qtbot, window, "touch the third file")
    await until(lambda: window.approval_waiting() and card.armed, limit=60)
    qtbot.mouseClick(card.deny_button, Qt.MouseButton.LeftButton)
    await _turn_done(window, 3)
    assert not files[2].exists()


def test_the_header_menu_asks_again_for_one_tool_or_every_tool(qtbot: Any) -> None:
    button = AlwaysAllowedButton()
    qtbot.addWidget(button)
    revoked: list[list[str]] = []
    button.revoke_requested.connect(revoked.append)
    button.set_tools(("Bash", "Write"))
    assert button.text() == "Always allowed: Bash, Write"
    texts = [a.text() for a in button.menu().actions() if not a.isSeparator()]
    assert texts == ["Ask again for Bash", "Ask again for Write", "Ask again for every tool"]
    _revoke_action(button, "Write").trigger()
    button.menu().actions()[-1].trigger()
    assert revoked == [["Write"], ["Bash", "Write"]]
    button.set_tools(())
    assert button.isHidden() and not button.menu().actions()
