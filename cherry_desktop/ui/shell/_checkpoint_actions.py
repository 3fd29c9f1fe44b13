"""What a window does with checkpoints: a turn's "Changes" (its files and diffs), "Restore files
to before this message" (the plan shown first, the rewind only on the user's Restore, then an
undo in the session header), and the header's running total, refreshed when the window shows a
session and when a turn ends."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtWidgets import QMainWindow

from cherry_desktop.core.state.topics import is_agent_session_topic
from cherry_desktop.ui.bridge import CheckpointError, CheckpointFault
from cherry_desktop.ui.common import spawn
from cherry_desktop.ui.session import ChangesDialog, CheckpointWords, RewindDialog

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges, RewindPlan
    from cherry_desktop.ui.chat import MessageView
    from cherry_desktop.ui.session import SessionHeader

STATUS_MS = 10_000


class CheckpointWindow(Protocol):
    """The window, as its checkpoint actions need it."""

    topic_id: str | None
    bridges: Bridges
    message_view: MessageView
    session_header: SessionHeader

    @property
    def controller(self) -> Any: ...

    def show_topic(self, topic_id: str | None) -> asyncio.Task[Any] | None: ...


class CheckpointActions(QObject):
    """Owned by one window (`main`, its QMainWindow: dialogs' parent and status bar)."""

    def __init__(self, window: CheckpointWindow, main: QMainWindow) -> None:
        super().__init__(main)
        self.window = window
        self.main = main
        self.words = CheckpointWords(self)
        self.bridge = window.bridges.checkpoints
        self.dialog: ChangesDialog | RewindDialog | None = None
        actions = window.message_view.row_actions
        actions.changes_requested.connect(lambda mid: spawn(self.show_changes(mid)))
        actions.rewind_requested.connect(lambda mid: spawn(self.offer_rewind(mid)))
        header = window.session_header
        header.session_changes_requested.connect(lambda: spawn(self.show_session_changes()))
        header.undo_rewind_requested.connect(lambda: spawn(self.undo_rewind()))
        self.bridge.rewound.connect(lambda _sid: spawn(self.refresh()))

    def refresh_on(self, *signals: SignalInstance) -> None:
        """Refresh the header after each of `signals` (the window showed a session, a turn ended)."""
        for signal in signals:
            signal.connect(lambda *_args: spawn(self.refresh()))

    def _topic(self) -> str | None:
        topic = self.window.topic_id
        return topic if topic is not None and is_agent_session_topic(topic) else None

    def _say(self, text: str) -> None:
        self.main.statusBar().showMessage(text, STATUS_MS)

    async def refresh(self) -> None:
        """The header's total and its undo, for the session shown (its workspace snapshotted
        ahead of the next turn)."""
        topic = self._topic()
        header = self.window.session_header
        if topic is None or not self.bridge.services_running():
            header.set_changed_files(None)
            header.set_checkpoint_notice("")
            header.undo_rewind_button.setVisible(False)
            return
        self.bridge.prepare(topic)
        notice = self.bridge.skip_notice(topic)
        header.set_checkpoint_notice(self.words.error(notice) if notice is not None else "")
        header.undo_rewind_button.setVisible(self.bridge.can_undo_rewind(topic))
        try:
            total = await self.bridge.session_changes(topic)
        except CheckpointError:
            total = None
        if topic == self.window.topic_id:
            header.set_changed_files(len(total.files) if total is not None else None)

    async def show_changes(self, message_id: str) -> None:
        topic = self._topic()
        if topic is None:
            return
        try:
            changes = await self.bridge.turn_changes(topic, message_id)
        except CheckpointError as exc:
            self._say(self.words.error(exc))
            return

        async def file_diff(path: str) -> list[str]:
            return await self.bridge.file_diff(topic, message_id, path)

        self._open(ChangesDialog(changes, file_diff, title=self.tr("Changes of this turn"), parent=self.main))

    async def show_session_changes(self) -> None:
        topic = self._topic()
        if topic is None:
            return
        try:
            changes = await self.bridge.session_changes(topic)
        except CheckpointError as exc:
            self._say(self.words.error(exc))
            return
        first = changes.user_message_id

        async def file_diff(path: str) -> list[str]:
            return await self.bridge.file_diff(topic, first, path)

        self._open(ChangesDialog(changes, file_diff, title=self.tr("Changes in this session"), parent=self.main))

    async def offer_rewind(self, user_message_id: str) -> None:
        """Show what the rewind will change; it happens only when the user presses Restore."""
        topic = self._topic()
        if topic is None:
            return
        try:
            plan = await self.bridge.plan_rewind(topic, user_message_id)
        except CheckpointError as exc:
            self._say(self.words.error(exc))
            return
        dialog = RewindDialog(plan, parent=self.main)
        dialog.accepted.connect(lambda: spawn(self.rewind(plan, fork=dialog.fork)))
        self._open(dialog)

    async def rewind(self, plan: RewindPlan, *, fork: bool = False) -> None:
        try:
            if plan.files:
                await self.bridge.rewind(plan)
        except CheckpointError as exc:
            self._say(self.words.error(exc))
            if exc.fault is CheckpointFault.STALE_PLAN:
                await self.offer_rewind(plan.user_message_id)  # the new list, asked again
            return
        if not fork:
            self._say(self.tr("Restored %n file(s) to before the message. The conversation is unchanged.", "",
                              len(plan.files)))
            return
        topic = await self.bridge.fork_conversation(plan, self.tr("Forked session"))
        self.window.controller.reload_sidebars()
        self.window.show_topic(topic)
        self._say(self.tr("Restored %n file(s). The conversation goes on in a new session from before the "
                          "message; its agent gets the earlier messages as context.", "", len(plan.files)))

    async def undo_rewind(self) -> None:
        topic = self._topic()
        if topic is None:
            return
        try:
            undone = await self.bridge.undo_rewind(topic)
        except CheckpointError as exc:
            self._say(self.words.error(exc))
            return
        if undone:
            self._say(self.tr("The files are back as they were before the restore."))

    def _open(self, dialog: ChangesDialog | RewindDialog) -> None:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dialog

        def finished() -> None:
            if self.dialog is dialog:
                self.dialog = None
            dialog.deleteLater()

        dialog.finished.connect(finished)
        dialog.open()
