"""Dialogs: an agent, settings, providers and their keys and models.
"""

from __future__ import annotations

from cherry_desktop.ui.dialogs._dialogs import AgentDialog, SettingsDialog
from cherry_desktop.ui.dialogs._providers_dialog import ProvidersDialog

__all__ = [
    "AgentDialog", "ProvidersDialog", "SettingsDialog"
]
