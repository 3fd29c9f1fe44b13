"""An agent session's header: agent, model, workspace folder (click opens it), the tools always
allowed in the session (a menu asks again), permission mode (applied to the live session), and
a context meter from the runtime's context usage."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QStyle, QVBoxLayout, QWidget

from cherry_desktop.ui.common import FlowLayout
from cherry_desktop.ui.session._always_allowed import AlwaysAllowedButton
from cherry_desktop.ui.session._header_widgets import CurrentTextCombo, ElidedLabel, HeaderRow
from cherry_desktop.ui.session._permission_modes import permission_mode_label

if TYPE_CHECKING:
    from cherry_desktop.core.state.shared_cache import AgentRuntimeSetup
    from cherry_desktop.core.views.session_header import SessionHeaderInfo
    from cherry_desktop.ui.bridge import StreamChunk


class SessionHeader(QFrame):
    """Signals:
        permission_chosen(str): the user picked a permission mode.
        grants_revoked(list): the user asked to be asked again for these always-allowed tools.
        session_changes_requested(): the user wants the session's changed files (its total).
        undo_rewind_requested(): the user takes the last "Restore files" back.
    """

    permission_chosen = Signal(str)
    grants_revoked = Signal(list)
    session_changes_requested = Signal()
    undo_rewind_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sessionHeader")
        v = QVBoxLayout(self)
        v.setContentsMargins(14, 4, 14, 4)
        v.setSpacing(2)
        # Agent, model and folder beside the controls when both fit, the controls under them
        # when not (a narrow window, or a long name): see `HeaderRow`.
        self.row = HeaderRow(QHBoxLayout(), FlowLayout(spacing=8, center_lines=True), spacing=8)
        self.row.identity.setSpacing(8)
        v.addLayout(self.row)
        self.agent_label = ElidedLabel(self)
        self.agent_label.setObjectName("sessionAgent")
        self.model_label = ElidedLabel(self)
        self.model_label.setObjectName("sessionModel")
        self.folder_button = QPushButton(self)
        self.folder_button.setObjectName("sessionFolder")
        self.folder_button.setFlat(True)
        self.folder_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_DirIcon))
        self.folder_button.clicked.connect(self.open_folder)
        self.permission_combo = CurrentTextCombo(self)
        self.permission_combo.setObjectName("sessionPermission")
        self.permission_combo.setToolTip(self.tr("Permission mode of this agent, applied to the running session"))
        self.permission_combo.activated.connect(self._on_permission)
        self.context_meter = QProgressBar(self)
        self.context_meter.setObjectName("contextMeter")
        self.context_meter.setRange(0, 100)
        self.context_meter.setMaximumWidth(160)
        self.todo_label = QLabel(self)
        self.todo_label.setObjectName("sessionTodos")
        self.todo_label.setVisible(False)
        # The session's running total of changed files (checkpoints), and undoing a restore.
        self.changes_button = QPushButton(self)
        self.changes_button.setObjectName("sessionChanges")
        self.changes_button.setFlat(True)
        self.changes_button.setVisible(False)
        self.changes_button.clicked.connect(self.session_changes_requested)
        self.branch_label = QLabel(self)
        self.branch_label.setObjectName("sessionBranch")
        self.branch_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.branch_label.setVisible(False)
        # Why the latest turn has no checkpoint (a folder too large, no git): said, not hidden.
        self.checkpoint_notice = QLabel(self)
        self.checkpoint_notice.setObjectName("checkpointNotice")
        self.checkpoint_notice.setWordWrap(True)
        self.checkpoint_notice.setVisible(False)
        self.undo_rewind_button = QPushButton(self.tr("Undo restore"), self)
        self.undo_rewind_button.setObjectName("undoRewind")
        self.undo_rewind_button.setToolTip(self.tr("Put back the files as they were before the last restore"))
        self.undo_rewind_button.setVisible(False)
        self.undo_rewind_button.clicked.connect(self.undo_rewind_requested)
        self.always_allowed = AlwaysAllowedButton(self)
        self.always_allowed.revoke_requested.connect(self.grants_revoked)
        # What became of a mode change: a line of its own under the controls, wrapped to the
        # header's width (beside them it squeezed the combo and grew into a column).
        self.notice = QLabel(self)
        self.notice.setObjectName("sessionNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        for identity in (self.agent_label, self.model_label, self.folder_button):
            self.row.identity.addWidget(identity)
        self.row.identity.addStretch(1)
        for w in (self.todo_label, self.branch_label, self.changes_button, self.undo_rewind_button,
                  self.always_allowed, self.permission_combo, self.context_meter):
            self.row.controls.addWidget(w)
        v.addWidget(self.notice)
        v.addWidget(self.checkpoint_notice)
        # The session's runtime being set up before it can start (pi installed on first use).
        self.setup_label = ElidedLabel(self)
        self.setup_label.setObjectName("sessionRuntimeSetup")
        self.setup_label.setVisible(False)
        v.addWidget(self.setup_label)
        self.workspace_path: str | None = None
        self.mode = ""
        self.agent_type = ""
        #: Opens a folder (QDesktopServices by default; tests swap it).
        self.opener: Callable[[str], object] = lambda path: QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def mode_label(self, mode: str) -> str:
        return permission_mode_label(mode)

    def show_info(self, info: SessionHeaderInfo | None) -> None:
        """Fill from a `SessionHeaderInfo`; hide for None (not an agent session)."""
        self.setVisible(info is not None)
        if info is None:
            self.agent_type = ""
            return
        # The names alone (the prefixes took the room that cut them): the tooltip says which is which.
        agent = info.agent_name or self.tr("Untitled agent")
        model = info.model_name or self.tr("the agent's default")
        self.agent_label.set_text(agent, self.tr("Agent: %1").replace("%1", agent))
        self.model_label.set_text(model, self.tr("Model: %1").replace("%1", model))
        self.workspace_path = info.workspace_path
        path = info.workspace_path
        self.folder_button.setVisible(bool(path))
        if path:
            self.folder_button.setText(Path(path).name or path)
            self.folder_button.setToolTip(self.tr("Open %1").replace("%1", path))
        self.branch_label.setVisible(bool(info.branch))
        if info.branch:
            self.branch_label.setText(self.tr("Branch: %1").replace("%1", info.branch))
            self.branch_label.setToolTip(self.tr("This session works in its own git worktree. Merge back with: %1")
                                         .replace("%1", info.merge_command))
        self.mode = info.permission_mode
        self.agent_type = info.agent_type
        self.permission_combo.set_items([(self.mode_label(m), m) for m in info.permission_modes], info.permission_mode)
        self.set_context_usage(info.context_used, info.context_max)
        self.always_allowed.set_tools(info.always_allowed_tools)
        self.notice.clear()
        self.notice.setVisible(False)

    def show_runtime_setup(self, setup: AgentRuntimeSetup | None) -> None:
        """An `AgentRuntimeSetup` of this session's runtime (its first use installs it), or None."""
        self.setup_label.setVisible(setup is not None)
        if setup is None:
            return
        text = self.tr("Installing %1 %2 for its first use (about 15 s)…").replace(
            "%1", setup.runtime_type).replace("%2", setup.version)
        if setup.last_line:
            text += " " + setup.last_line
        self.setup_label.setText(text)

    def set_context_usage(self, used: int | None, maximum: int | None) -> None:
        if used is None or not maximum:
            self.context_meter.setVisible(False)
            return
        percent = min(100, round(used * 100 / maximum))
        self.context_meter.setVisible(True)
        self.context_meter.setValue(percent)
        self.context_meter.setFormat(self.tr("Context %1%").replace("%1", str(percent)))
        self.context_meter.setToolTip(self.tr("%1 of %2 tokens of context used")
                                      .replace("%1", f"{used:,}").replace("%2", f"{maximum:,}"))

    def set_todos(self, todos: list[dict[str, str]] | None) -> None:
        """The running turn's todo list (TodoWrite): progress, and the item in progress; None
        hides it (the turn ended)."""
        if not todos:
            self.todo_label.setVisible(False)
            return
        done = sum(1 for t in todos if t["status"] == "completed")
        current = next((t["active_form"] for t in todos if t["status"] == "in_progress"), "")
        text = self.tr("Todos %1/%2").replace("%1", str(done)).replace("%2", str(len(todos)))
        self.todo_label.setText(f"{text} · {current}" if current else text)
        self.todo_label.setToolTip("\n".join(t["content"] for t in todos))
        self.todo_label.setVisible(True)

    def set_changed_files(self, count: int | None) -> None:
        """The session's running total (None: no checkpoints to count from)."""
        self.changes_button.setVisible(bool(count))
        if count:
            self.changes_button.setText(self.tr("Changes: %n file(s)", "", count))
            self.changes_button.setToolTip(self.tr("Files changed in this session's folder since its first turn"))

    def set_checkpoint_notice(self, text: str) -> None:
        """Why this session's turns have no checkpoints ("" : they have)."""
        self.checkpoint_notice.setVisible(bool(text))
        self.checkpoint_notice.setText(self.tr("No checkpoints: %1").replace("%1", text) if text else "")

    def open_folder(self) -> None:
        if self.workspace_path:
            self.opener(self.workspace_path)

    def _on_permission(self, index: int) -> None:
        mode = self.permission_combo.itemData(index)
        if mode and mode != self.mode:
            self.permission_chosen.emit(mode)

    def show_outcome(self, mode: str, outcome: str) -> None:
        """Say what became of a mode change (`PermissionOutcome` value)."""
        label = self.mode_label(mode)
        self.mode = mode
        if outcome == "applied":
            self.notice.setText(self.tr("Now: %1").replace("%1", label))
            self.notice.setProperty("state", "ok")
        elif outcome == "next-turn":
            self.notice.setText(self.tr("Applies from the next turn"))
            self.notice.setProperty("state", "ok")
        else:
            self.notice.setText(self.tr("The running session refused the change; it applies from the next turn"))
            self.notice.setProperty("state", "denied")
        if self.always_allowed.tools and outcome != "denied":  # a new mode keeps them: say so
            self.notice.setText(self.notice.text() + " · " + self.tr("Still always allowed: %1").replace(
                "%1", ", ".join(self.always_allowed.tools)))
        self.notice.setVisible(True)
        self.notice.style().unpolish(self.notice)
        self.notice.style().polish(self.notice)


def follow_session_header(header: SessionHeader, batch: list[StreamChunk]) -> None:
    """Feed the header from a window's live chunks: context usage, the turn's todo list."""
    from cherry_desktop.ui.bridge import is_todo_list
    from cherry_desktop.ui.chat import todos_of

    for item in batch:
        chunk = item.chunk
        kind = chunk.type
        if kind == "data-context-usage" and isinstance(chunk.data, dict):
            header.set_context_usage(chunk.data.get("used_tokens"), chunk.data.get("max_tokens"))
        elif kind == "tool-input-available" and is_todo_list(chunk.tool_name, chunk.provider_metadata):
            header.set_todos(todos_of(chunk.input))
