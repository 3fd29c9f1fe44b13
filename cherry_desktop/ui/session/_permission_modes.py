"""The words for agent runtimes and their permission modes (the agent dialog and the session
header)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import AgentRuntimeCapabilities, RuntimeVariant


def permission_mode_label(mode: str) -> str:
    translate = QCoreApplication.translate
    return {
        "default": translate("AgentDialog", "Ask before edits and commands"),
        "acceptEdits": translate("AgentDialog", "Accept file edits, ask before commands"),
        "plan": translate("AgentDialog", "Plan only (no changes)"),
        "bypassPermissions": translate("AgentDialog", "Never ask (trusted workspace)"),
    }.get(mode, mode)


def runtime_label(caps: AgentRuntimeCapabilities) -> str:
    """A runtime's name in the UI language: its descriptor's `label_key` in the `AgentRuntime`
    context, or the descriptor's untranslated `label` where no translation is loaded."""
    translated = QCoreApplication.translate("AgentRuntime", caps.label_key)
    return caps.label if translated == caps.label_key else translated


def variant_label(variant: RuntimeVariant) -> str:
    """The name of one agent a runtime runs (its `label_key` in the `AgentRuntime` context)."""
    translated = QCoreApplication.translate("AgentRuntime", variant.label_key)
    return variant.label if translated == variant.label_key else translated
