"""The person's path after the New agent dialog saved an agent: a first session in its window,
a Write tool turn typed in the composer and allowed on the approval card (the real runtime
against the scripted server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.waiting import until

ANSWER = "The note is in your workspace."


async def write_turn_allowed_on_the_card(controller: Any, repos: Any, qtbot: Any, server: ScriptedModelServer,
                                         agent_id: str, note: Path, content: str) -> tuple[Any, str]:
    """Open the agent's first session, ask for `note` to be written with `content`, allow the
    call on the card, and wait for the answer; returns (window, session id). The note must not
    exist before the click."""
    agent = repos.agents.get_agent(agent_id)
    workspace_id = repos.agents.list_workspaces(agent.id)[0].id
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=workspace_id, name="First task",
                                            model=agent.model)
    window = controller.open_window(session_topic_id(session.id))
    server.enqueue(tool_use("Write", {"file_path": str(note), "content": content}, preamble="I will write the note."),
                   text(ANSWER))
    window.composer.editor.setPlainText("write a note")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    card = window.approval_card
    await until(lambda: window.approval_waiting() and card.armed, limit=60)
    assert not note.exists()
    qtbot.mouseClick(card.allow_button, Qt.MouseButton.LeftButton)
    await until(lambda: not window.is_streaming() and ANSWER in window.message_view.rows()[-1].text(), limit=60)
    assert note.read_text() == content
    return window, str(session.id)
