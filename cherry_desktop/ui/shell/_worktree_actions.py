"""A git worktree per session in the window: "New session in its own worktree" (an agent's
menu in the sidebar), and deleting a session that has one: the question names the worktree
and what removing it would lose (commits no other branch has, files not committed) and offers
to keep it; a branch with unmerged commits is always kept."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMainWindow, QMessageBox

from cherry_desktop.ui.bridge import CheckpointError
from cherry_desktop.ui.common import answer_of, spawn
from cherry_desktop.ui.session import CheckpointWords

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges


class WorktreeWindow(Protocol):
    """The window, as its worktree actions need it."""

    bridges: Bridges

    @property
    def controller(self) -> Any: ...

    def show_topic(self, topic_id: str | None) -> asyncio.Task[Any] | None: ...

    def show_error(self, message: str) -> None: ...

    def report_error(self, exc: BaseException) -> None: ...


class WorktreeActions(QObject):
    """Owned by one window (`main`: the questions' parent)."""

    def __init__(self, window: WorktreeWindow, main: QMainWindow) -> None:
        super().__init__(main)
        self.window = window
        self.main = main
        self.words = CheckpointWords(self)
        self.bridge = window.bridges.checkpoints

    def new_session(self, agent_id: str) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                topic_id = await self.bridge.create_worktree_session(agent_id, self.tr("New session"))
            except CheckpointError as exc:
                self.window.show_error(self.words.error(exc))
                return
            self.window.controller.reload_sidebars()
            self.window.show_topic(topic_id)

        return spawn(run(), on_error=self.window.report_error)

    def delete_topic(self, topic_id: str, *, confirm: bool = True) -> asyncio.Task[None] | None:
        """Delete a conversation (asked first unless `confirm` is False); a session's worktree
        is offered for removal with what that would lose."""
        worktree = self.bridge.session_worktree(topic_id)
        if confirm and worktree is None and QMessageBox.question(
                self.main, self.tr("Delete"), self.tr("Delete this conversation?")) != QMessageBox.StandardButton.Yes:
            return None

        async def run() -> None:
            remove, force = False, False
            if worktree is not None and confirm:
                state = await self.bridge.worktree_state(worktree)
                answer = await self._ask_worktree(worktree.path, worktree.branch, state.unmerged_commits,
                                                  state.uncommitted_files)
                if answer is None:
                    return
                remove, force = answer, answer and state.uncommitted_files > 0
            await self.window.bridges.chats.delete_topic(topic_id)
            self.window.controller.topic_deleted(topic_id)
            if remove and worktree is not None:
                try:
                    branch_gone = await self.bridge.remove_worktree(worktree, force=force)
                except CheckpointError as exc:
                    self.window.show_error(self.words.error(exc))
                    return
                if not branch_gone:
                    self.window.show_error(self.tr("The worktree was removed; its branch %1 is kept (it has commits "
                                                   "no other branch has).").replace("%1", worktree.branch))

        return spawn(run(), on_error=self.window.report_error)

    async def _ask_worktree(self, path: str, branch: str, commits: int, uncommitted: int) -> bool | None:
        """True: delete the session and its worktree; False: keep the worktree; None: cancel."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Delete session"),
                          self.tr("This session works in its own worktree: %1 (branch %2).")
                          .replace("%1", path).replace("%2", branch), parent=self.main)
        notes = []
        if commits:
            notes.append(self.tr("Its branch has %n commit(s) no other branch has: the branch is kept.", "", commits))
        if uncommitted:
            notes.append(self.tr("%n file(s) in it are not committed and would be lost.", "", uncommitted))
        box.setInformativeText("\n".join(notes) or self.tr("Nothing in it is lost by removing it."))
        remove = box.addButton(self.tr("Delete session and worktree"), QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton(self.tr("Delete session, keep worktree"), QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setObjectName("deleteWorktreeQuestion")
        clicked = await answer_of(box)
        return True if clicked is remove else False if clicked is keep else None
