"""A turn's changes and rewinding them: `ChangesDialog` lists the files a turn (or the whole
session) added, modified or deleted, with each file's diff in the tool cards' renderer;
`RewindDialog` shows what "Restore files to before this message" will change, naming the
files the user edited by hand since, before anything is changed (Cancel is the default)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import CheckpointError, CheckpointFault
from cherry_desktop.ui.chat import diff_html
from cherry_desktop.ui.common import spawn

# What the store hands out (`FileChange`, `TurnChanges`, `RewindPlan`), read by attribute.
FileDiff = Callable[[str], Awaitable[list[str]]]


class CheckpointWords(QObject):
    """Checkpoint facts in the user's words (one `tr()` context for all of them)."""

    def kind(self, kind: str) -> str:
        return {"added": self.tr("added"), "modified": self.tr("modified"),
                "deleted": self.tr("deleted")}.get(kind, kind)

    def change_line(self, change: object) -> str:
        path, kind = getattr(change, "path", ""), getattr(change, "kind", "")
        if getattr(change, "binary", False):
            counts = self.tr("binary")
        else:
            counts = f"+{getattr(change, 'added_lines', 0)} −{getattr(change, 'removed_lines', 0)}"
        return f"{path}  ·  {self.kind(kind)}  ·  {counts}"

    def error(self, error: BaseException) -> str:
        """A checkpoint failure (the workspace is as it was)."""
        if not isinstance(error, CheckpointError):
            return self.tr("Something went wrong: %1").replace("%1", str(error))
        words = {
            CheckpointFault.NO_GIT: self.tr("Checkpoints need git, and no git was found on this computer."),
            CheckpointFault.NO_WORKSPACE: self.tr("The session's folder no longer exists: %1"),
            CheckpointFault.READ_ONLY: self.tr("The session's folder cannot be written to (read-only): %1"),
            CheckpointFault.TOO_MANY_FILES: self.tr("This folder has too many files for checkpoints (%1)."),
            CheckpointFault.NO_CHECKPOINT: self.tr("This message has no checkpoint (it was sent before "
                                                   "checkpoints, or its checkpoint was skipped)."),
            CheckpointFault.CHECKPOINT_PRUNED: self.tr("The checkpoint of this message is no longer kept."),
            CheckpointFault.TURN_RUNNING: self.tr("The agent is working: stop it or wait for the turn to end, "
                                                  "then restore."),
            CheckpointFault.STALE_PLAN: self.tr("Files changed after the list was shown. Nothing was restored; "
                                                "look at the new list."),
            CheckpointFault.RESTORE_FAILED: self.tr("Nothing was restored: a file that has no checkpoint is in "
                                                    "the way (%1)."),
            CheckpointFault.TIMEOUT: self.tr("git took too long; nothing was changed."),
            CheckpointFault.NOT_A_GIT_REPO: self.tr("A session gets its own worktree only in a git repository with "
                                                    "at least one commit: %1"),
            CheckpointFault.WORKTREE_FAILED: self.tr("git could not do it: %1"),
        }
        text = words.get(error.fault, self.tr("git failed; nothing was changed: %1"))
        return text.replace("%1", error.detail)


class ChangesDialog(QDialog):
    """The files of `changes` (a `TurnChanges`) and, for the one picked, its diff."""

    def __init__(self, changes: object, file_diff: FileDiff, *, title: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changesDialog")
        self.setWindowTitle(title)
        self.resize(900, 560)
        self.file_diff = file_diff
        self.words = CheckpointWords(self)
        files = list(getattr(changes, "files", ()))
        v = QVBoxLayout(self)
        summary = self.tr("%n file(s) changed", "", len(files)) if files else self.tr("No files changed.")
        if getattr(changes, "running", False):
            summary += " · " + self.tr("the turn is still running: shown against the folder now")
        summary += " · " + self.tr("only files inside the session's folder are tracked")
        self.summary = QLabel(summary, self)
        self.summary.setObjectName("changesSummary")
        v.addWidget(self.summary)
        skipped = list(getattr(changes, "skipped", ()))
        if skipped:
            note = QLabel(self.tr("Too large to checkpoint (not shown, never restored): %1").replace(
                "%1", ", ".join(skipped)), self)
            note.setObjectName("changesSkipped")
            note.setWordWrap(True)
            v.addWidget(note)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.file_list = QListWidget(split)
        self.file_list.setObjectName("changedFiles")
        for change in files:
            item = QListWidgetItem(self.words.change_line(change))
            item.setData(Qt.ItemDataRole.UserRole, getattr(change, "path", ""))
            self.file_list.addItem(item)
        self.diff_view = QTextBrowser(split)
        self.diff_view.setObjectName("fileDiff")
        self.diff_view.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
        split.setSizes([300, 600])
        v.addWidget(split, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        v.addWidget(buttons)
        self.file_list.currentItemChanged.connect(self._show_current)
        if files:
            self.file_list.setCurrentRow(0)

    def _show_current(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            path = str(item.data(Qt.ItemDataRole.UserRole))
            spawn(self.show_diff(path))

    async def show_diff(self, path: str) -> None:
        try:
            lines = await self.file_diff(path)
        except Exception as exc:
            self.diff_view.setPlainText(self.words.error(exc))
            return
        current = self.file_list.currentItem()
        if current is not None and current.data(Qt.ItemDataRole.UserRole) == path:
            self.diff_view.setHtml(diff_html(lines) if lines else self.tr("(no textual difference)"))


class RewindDialog(QDialog):
    """What a rewind to `plan` will change; accepted only by its Restore button."""

    def __init__(self, plan: object, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rewindDialog")
        self.setWindowTitle(self.tr("Restore files to before this message"))
        self.resize(640, 460)
        self.words = CheckpointWords(self)
        files = list(getattr(plan, "files", ()))
        by_user = set(getattr(plan, "edited_by_user", ()))
        not_kept = list(getattr(plan, "not_in_undo", ()))
        v = QVBoxLayout(self)
        if not files:
            intro = self.tr("The folder is already as it was before this message: nothing to restore.")
        else:
            intro = self.tr("%n file(s) will be put back as they were before this message:", "", len(files))
        self.intro = QLabel(intro, self)
        self.intro.setObjectName("rewindIntro")
        self.intro.setWordWrap(True)
        v.addWidget(self.intro)
        self.file_list = QListWidget(self)
        self.file_list.setObjectName("rewindFiles")
        for change in files:
            path = getattr(change, "path", "")
            text = self.words.change_line(change)
            if path in by_user:
                text += "  ·  " + self.tr("you changed it since: your edit will be replaced")
            item = QListWidgetItem(text)
            if path in by_user:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.file_list.addItem(item)
        v.addWidget(self.file_list, 1)
        if by_user:
            self.warning = QLabel(self.tr("Changed by you (not by the agent) since then: %1").replace(
                "%1", ", ".join(sorted(by_user))), self)
            self.warning.setObjectName("rewindEditedByUser")
            self.warning.setWordWrap(True)
            self.warning.setStyleSheet("color: #c0392b; font-weight: bold;")
            v.addWidget(self.warning)
        if not_kept:
            lost = QLabel(self.tr("Too large to keep a copy of, so the undo cannot bring them back: %1").replace(
                "%1", ", ".join(not_kept)), self)
            lost.setObjectName("rewindNotKept")
            lost.setWordWrap(True)
            v.addWidget(lost)
        undo = QLabel(self.tr("The folder is checkpointed first: you can undo the restore. Restore files keeps "
                          "the conversation as it is; Restore files and conversation also starts a new session "
                          "from before this message."), self)
        undo.setWordWrap(True)
        v.addWidget(undo)
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("rewindCancel")
        self.cancel_button.clicked.connect(self.reject)
        self.cancel_button.setDefault(True)
        self.restore_button = QPushButton(self.tr("Restore files"), self)
        self.restore_button.setObjectName("rewindConfirm")
        self.restore_button.setAutoDefault(False)
        self.restore_button.setEnabled(bool(files))
        self.restore_button.clicked.connect(self.accept)
        # The same, and the conversation goes on from before the message in a new session.
        self.fork_button = QPushButton(self.tr("Restore files and conversation"), self)
        self.fork_button.setObjectName("rewindAndFork")
        self.fork_button.setAutoDefault(False)
        self.fork_button.setToolTip(self.tr("Also start a new session holding the messages before this one"))
        self.fork_button.clicked.connect(self._fork)
        self.fork = False
        row.addWidget(self.cancel_button)
        row.addWidget(self.fork_button)
        row.addWidget(self.restore_button)
        v.addLayout(row)
        self.cancel_button.setFocus()

    def _fork(self) -> None:
        self.fork = True
        self.accept()
