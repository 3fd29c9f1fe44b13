"""Deleting an agent from the window (its sidebar item's menu): the question says what goes
with it first (its sessions and their messages, which of them runs now and is stopped, the
worktrees kept on disk); then every window showing one of its sessions lets it go."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QAbstractButton, QMainWindow, QMessageBox

from cherry_desktop.ui.common import answer_of, spawn

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import AgentDeletion, Bridges, QtSharedCache


class AgentWindow(Protocol):
    """The window, as its agent actions need it."""

    bridges: Bridges
    cache: QtSharedCache

    @property
    def controller(self) -> Any: ...

    def report_error(self, exc: BaseException) -> None: ...


class AgentActions(QObject):
    """Owned by one window (`main`: the question's parent)."""

    def __init__(self, window: AgentWindow, main: QMainWindow) -> None:
        super().__init__(main)
        self.window = window
        self.main = main

    def delete_agent(self, agent_id: str, *, confirm: bool = True) -> asyncio.Task[bool]:
        """Delete the agent and its sessions (asked first unless `confirm` is False); the task
        says whether it was deleted."""
        deletion = self.window.bridges.sessions.agent_deletion(agent_id)

        async def run() -> bool:
            if confirm and not await self._ask(deletion):
                return False
            await self.window.bridges.sessions.delete_agent(agent_id)
            self.window.controller.topic_deleted(*deletion.topic_ids)
            return True

        return spawn(run(), on_error=self.window.report_error)

    def question(self, deletion: AgentDeletion) -> QMessageBox:
        """The question asked before deleting (its Cancel button the default)."""
        name = deletion.name or self.tr("Untitled agent")
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Delete agent"),
                          self.tr("Delete the agent “%1”?").replace("%1", name), parent=self.main)
        box.setObjectName("deleteAgentQuestion")
        count = len(deletion.topic_ids)
        running = sum(1 for t in deletion.topic_ids if self.window.cache.topic_status(t).is_live)
        notes = [self.tr("Its %n session(s) and their messages are deleted with it; this cannot be undone.", "",
                         count) if count else self.tr("It has no sessions.")]
        if running:
            notes.append(self.tr("%n session(s) of it are running now: they are stopped first.", "", running))
        if deletion.worktree_paths:
            notes.append(self.tr("%n session(s) work in their own git worktree: the worktree folders stay on disk.",
                                 "", len(deletion.worktree_paths)))
        box.setInformativeText("\n".join(notes))
        if deletion.worktree_paths:
            box.setDetailedText("\n".join(deletion.worktree_paths))
        delete = box.addButton(self.tr("Delete agent"), QMessageBox.ButtonRole.DestructiveRole)
        delete.setObjectName("deleteAgentButton")
        box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
        return box

    async def _ask(self, deletion: AgentDeletion) -> bool:
        box = self.question(deletion)
        delete = box.findChild(QAbstractButton, "deleteAgentButton")
        return delete is not None and await answer_of(box) is delete
