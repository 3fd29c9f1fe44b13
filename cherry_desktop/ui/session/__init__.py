"""An agent session's chrome: its header (model, folder, permission mode, context, todos,
always-allowed tools, changed files), the approval card for a tool call that waits for the
user, and a turn's changes and rewinding them (`ChangesDialog`, `RewindDialog`).
"""

from __future__ import annotations

from cherry_desktop.ui.session._always_allowed import AlwaysAllowedButton
from cherry_desktop.ui.session._approval_card import ARM_DELAY_MS, FOCUS_SHORTCUT, ApprovalCard
from cherry_desktop.ui.session._permission_modes import permission_mode_label, runtime_label, variant_label
from cherry_desktop.ui.session._session_header import SessionHeader, follow_session_header
from cherry_desktop.ui.session._turn_changes import ChangesDialog, CheckpointWords, RewindDialog

__all__ = [
    "ARM_DELAY_MS", "FOCUS_SHORTCUT", "AlwaysAllowedButton", "ApprovalCard", "ChangesDialog", "CheckpointWords",
    "RewindDialog", "SessionHeader", "follow_session_header", "permission_mode_label", "runtime_label",
    "variant_label",
]
