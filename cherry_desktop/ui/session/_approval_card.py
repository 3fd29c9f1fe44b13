"""The tool approval card: shown above the composer while a tool call waits for the user.

Consent is never given by accident. The card never takes the focus by itself, so what the user
types keeps going to the composer (a follow-up, a steer) while the card appears. It answers the
keyboard only once the user moved the focus to it: a click, Tab, or its shortcut (Alt+A). For a
short grace period after an approval appears, nothing decides it: its buttons are disabled and
its keys are ignored, so a click or a key aimed at what was there a moment ago approves nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from cherry_desktop.ui.chat import display_tool_name, tool_input_html
from cherry_desktop.ui.common import JsonObject

# How long an approval that just appeared cannot be decided (mouse or keys). Long enough for
# a keystroke or click already on its way to land harmlessly; short enough not to be felt.
ARM_DELAY_MS = 600
# The window-level shortcut that moves the focus to the card (named on the card).
FOCUS_SHORTCUT = "Alt+A"
# Focus that arrives for one of these reasons was moved by the user; any other reason (a
# widget that had the focus was hidden or deleted, a popup closed) is Qt's own doing.
_USER_FOCUS_REASONS = (
    Qt.FocusReason.MouseFocusReason,
    Qt.FocusReason.TabFocusReason,
    Qt.FocusReason.BacktabFocusReason,
    Qt.FocusReason.ShortcutFocusReason,
)
_DECIDING_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Space)


class ApprovalCard(QFrame):
    """A tool call waiting for the user: Allow / Deny (with an optional reason for the agent) /
    always allow this tool for the rest of the session.

    Signals:
        decided(str, bool, str): approval id, whether it was allowed, and the reason the user
            gave with a denial ("" for none): the agent hears it as what to do instead.
        always_allowed(str, str): approval id and tool name: allowed, and from now on without
            asking for the rest of the session.
    """

    decided = Signal(str, bool, str)
    always_allowed = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("approvalCard")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        self.title = QLabel(self)
        self.title.setObjectName("approvalTitle")
        self.input_label = QLabel(self)
        self.input_label.setObjectName("approvalInput")
        self.input_label.setTextFormat(Qt.TextFormat.RichText)
        self.input_label.setWordWrap(True)
        self.input_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title)
        layout.addWidget(self.input_label)
        self.reason = QLineEdit(self)
        self.reason.setObjectName("denyReason")
        self.reason.setPlaceholderText(self.tr("Deny with a reason (optional): tell the agent what to do instead"))
        layout.addWidget(self.reason)
        buttons = QHBoxLayout()
        self.hint = QLabel(self)
        self.hint.setObjectName("approvalHint")
        buttons.addWidget(self.hint, 1)
        self.deny_button = QPushButton(self)
        self.deny_button.setObjectName("denyButton")
        self.allow_button = QPushButton(self)
        self.allow_button.setObjectName("allowButton")
        self.always_button = QPushButton(self)
        self.always_button.setObjectName("alwaysAllowButton")
        buttons.addWidget(self.deny_button)
        buttons.addWidget(self.always_button)
        buttons.addWidget(self.allow_button)
        layout.addLayout(buttons)
        for button in (self.deny_button, self.allow_button, self.always_button):
            button.setAutoDefault(False)  # Enter on a focused button goes through keyPressEvent
        self.approval: JsonObject | None = None
        # True while the focus is inside the card because the user put it there.
        self.engaged = False
        self._arm_timer = QTimer(self)
        self._arm_timer.setSingleShot(True)
        self._arm_timer.setInterval(ARM_DELAY_MS)
        self._arm_timer.timeout.connect(self._arm)
        for widget in (self, self.reason, self.deny_button, self.allow_button, self.always_button):
            widget.installEventFilter(self)
        self.allow_button.clicked.connect(lambda: self._decide(True))
        self.deny_button.clicked.connect(lambda: self._decide(False))
        self.always_button.clicked.connect(self._always)
        self._set_armed(False)

    # -- state ---------------------------------------------------------------------------------
    @property
    def armed(self) -> bool:
        """The grace period of the shown approval is over: it can be decided."""
        return self.approval is not None and not self._arm_timer.isActive() and self.allow_button.isEnabled()

    def show_approval(self, approval: JsonObject) -> None:
        """Show `approval`. A new one (another id) restarts the grace period and needs the
        user to come to the card again; the same one shown again keeps its state."""
        same = self.approval is not None and self.approval.get("approval_id") == approval.get("approval_id")
        self.approval = approval
        self._fill(approval)
        if not same:
            self.engaged = False
            self.reason.clear()
            self._set_armed(False)
            self._arm_timer.start()

    def clear(self) -> None:
        """Nothing waits any more. The keyboard, if it was in the card, stays on the card
        itself (not passed along the focus chain as its buttons turn off), so the window can
        give it back to where the user writes."""
        focus = QApplication.focusWidget()
        if focus is not None and self.isAncestorOf(focus):
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.approval = None
        self.engaged = False
        self._arm_timer.stop()
        self._set_armed(False)

    def take_focus(self) -> None:
        """The card's shortcut: the user moves the keyboard to the card."""
        if self.approval is not None:
            self.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _fill(self, approval: JsonObject) -> None:
        tool_input = approval.get("input")
        plan = tool_input.get("plan") if isinstance(tool_input, dict) else None
        focus_hint = self.tr("%1 moves here, then Enter allows and Esc denies").replace("%1", FOCUS_SHORTCUT)
        if approval.get("tool_name") == "ExitPlanMode" and isinstance(plan, str):
            # Plan mode's plan: approve it (the agent starts working) or keep planning. The
            # plan itself is the plan card in the transcript just above; not repeated here.
            self.title.setText(self.tr("The agent's plan is ready"))
            self.input_label.setTextFormat(Qt.TextFormat.PlainText)
            self.input_label.setText(self.tr("Read it above. Approve it and the agent starts working, "
                                             "or keep planning and tell it what to change."))
            self.allow_button.setText(self.tr("Approve plan"))
            self.deny_button.setText(self.tr("Keep planning"))
            self.reason.setPlaceholderText(self.tr("What should change in the plan? (optional)"))
            self.always_button.setVisible(False)
            self.hint.setText(focus_hint)
            return
        name = str(approval.get("tool_name") or "?")
        self.title.setText(self.tr("Allow the agent to run %1?").replace("%1", display_tool_name(name)))
        self.input_label.setTextFormat(Qt.TextFormat.RichText)
        self.input_label.setText(tool_input_html(name, approval.get("input")))
        self.allow_button.setText(self.tr("Allow"))
        self.deny_button.setText(self.tr("Deny"))
        self.reason.setPlaceholderText(self.tr("Deny with a reason (optional): tell the agent what to do instead"))
        self.always_button.setText(self.tr("Always allow %1 in this session").replace("%1", display_tool_name(name)))
        self.always_button.setVisible(True)
        self.hint.setText(focus_hint)

    def _arm(self) -> None:
        self._set_armed(self.approval is not None)

    def _set_armed(self, armed: bool) -> None:
        for button in (self.deny_button, self.allow_button, self.always_button):
            button.setEnabled(armed)

    # -- decisions -----------------------------------------------------------------------------
    def _always(self) -> None:
        if self.approval is None or not self.armed:
            return
        approval_id, name = str(self.approval["approval_id"]), str(self.approval.get("tool_name") or "")
        self.clear()
        self.always_allowed.emit(approval_id, name)

    def _decide(self, allowed: bool) -> None:
        if self.approval is None or not self.armed:
            return
        approval_id = str(self.approval["approval_id"])
        reason = "" if allowed else self.reason.text().strip()
        self.clear()
        self.decided.emit(approval_id, allowed, reason)

    # -- keyboard ------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.FocusIn:
            reason = event.reason()  # type: ignore[attr-defined]
            if reason in _USER_FOCUS_REASONS:
                self.engaged = True
            elif reason != Qt.FocusReason.ActiveWindowFocusReason:
                # The focus landed here on its own (the focused widget went away): until the
                # user comes here, the card's keys stay inert.
                self.engaged = False
        elif kind == QEvent.Type.FocusOut:
            reason = event.reason()  # type: ignore[attr-defined]
            if reason != Qt.FocusReason.ActiveWindowFocusReason:
                QTimer.singleShot(0, self._check_focus_left)
        elif kind == QEvent.Type.KeyPress:
            key = event.key()  # type: ignore[attr-defined]
            if watched is self.reason:
                if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                    # Enter in the reason box denies with that reason; never allows.
                    if self.engaged and self.armed and self.reason.text().strip():
                        self._decide(False)
                    return True
            elif key in _DECIDING_KEYS and not (self.engaged and self.armed):
                return True  # eaten: not meant for the card, or too early
        return super().eventFilter(watched, event)

    def _check_focus_left(self) -> None:
        focus = self.focusWidget()
        if focus is None or not (focus is self or self.isAncestorOf(focus)) or not focus.hasFocus():
            self.engaged = False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not (self.engaged and self.armed):
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._decide(True)
        elif event.key() == Qt.Key.Key_Escape:
            self._decide(False)
        else:
            super().keyPressEvent(event)
