"""The words for an agent's permission modes (the agent dialog and the session header)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def permission_mode_label(mode: str) -> str:
    translate = QCoreApplication.translate
    return {
        "default": translate("AgentDialog", "Ask before edits and commands"),
        "acceptEdits": translate("AgentDialog", "Accept file edits, ask before commands"),
        "plan": translate("AgentDialog", "Plan only (no changes)"),
        "bypassPermissions": translate("AgentDialog", "Never ask (trusted workspace)"),
    }.get(mode, mode)
