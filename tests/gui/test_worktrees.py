"""A session in its own git worktree, in the real window with the real Claude Code CLI against
the scripted server and the real git: "New session in its own worktree" on an agent whose
folder is a repository opens a session whose header shows its branch (and the merge-back
command), its turn writes in the worktree and not in the user's checkout, and deleting it asks
about the worktree first (naming the uncommitted file) and removes it on the user's choice.
An agent whose folder is not a repository is refused with a reason. Screenshot: artifacts/."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_AGENT_ID, ensure_demo_records
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


def git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="u", GIT_AUTHOR_EMAIL="u@x", GIT_COMMITTER_NAME="u", GIT_COMMITTER_EMAIL="u@x")
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def question(window: Any) -> QMessageBox | None:
    return window.findChild(QMessageBox, "deleteWorktreeQuestion")


async def test_a_session_in_its_own_worktree(controller: Any, ui_core: Any, qtbot: Any, tmp_path: Path,
                                             server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    window = controller.open_window(None)
    window.resize(1100, 600)

    # Not a repository: refused with a reason, no session made.
    sessions_before = len(ui_core.repos.sessions.list_sessions(DEMO_AGENT_ID))
    await window.worktree_actions.new_session(DEMO_AGENT_ID)
    assert "git repository" in window.statusBar().currentMessage()
    assert len(ui_core.repos.sessions.list_sessions(DEMO_AGENT_ID)) == sessions_before

    repo = ui_core.repos.agents.list_workspaces(DEMO_AGENT_ID)[0].path
    repo = Path(repo)
    git(repo, "init", "-q", "-b", "main")
    (repo / "app.py").write_text("print('v1')\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-q", "-m", "v1")
    window.sidebar.new_worktree_session_requested.emit(DEMO_AGENT_ID)
    await until(lambda: window.topic_id is not None and window.session_header.branch_label.isVisibleTo(window),
                limit=30)
    session = ui_core.repos.sessions.get_session(session_id_from_topic(window.topic_id))
    worktree = session.worktree
    assert worktree is not None
    header = window.session_header
    assert header.branch_label.text() == f"Branch: {worktree.branch}"
    assert f"git -C {repo} merge {worktree.branch}" in header.branch_label.toolTip()
    assert header.workspace_path == worktree.path

    ui_core.repos.sessions.update_always_allowed_tools(session.id, add=["Write"])
    target = Path(worktree.path) / "app.py"
    server.enqueue(tool_use("Write", {"file_path": str(target), "content": "print('v2')\n"}), text("Updated app.py."))
    window.composer.editor.setPlainText("update the app")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: not window.is_streaming() and any(r.role == "assistant" and r.status == "success"
                                                           for r in window.message_view.rows()), limit=60)
    assert target.read_text() == "print('v2')\n"
    assert (repo / "app.py").read_text() == "print('v1')\n"     # the user's checkout is untouched
    await until(lambda: header.changes_button.isVisibleTo(window), limit=10)
    ARTIFACTS.mkdir(exist_ok=True)
    await asyncio.sleep(0.05)
    assert window.grab().save(str(ARTIFACTS / "worktree_session.png"))

    # Deleting asks about the worktree, naming what would be lost.
    task = window.delete_topic(window.topic_id)
    await until(lambda: question(window) is not None and question(window).isVisible(), limit=10)
    box = question(window)
    assert worktree.path in box.text() and "1 file(s) in it are not committed" in box.informativeText()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    await asyncio.sleep(0.05)
    assert box.grab().save(str(ARTIFACTS / "worktree_delete_question.png"))
    next(b for b in box.buttons() if b.text() == "Delete session and worktree").click()
    await task
    assert ui_core.repos.sessions.find_session(session.id) is None
    await until(lambda: not Path(worktree.path).exists(), limit=10)
    assert git(repo, "worktree", "list").count("\n") == 1
