"""Dialogs: an agent, settings, providers with their keys and models, a model's prices, backup
and restore."""

from __future__ import annotations

from cherry_desktop.ui.dialogs._backup_dialog import BackupDialog, confirm_restore, restore_notice
from cherry_desktop.ui.dialogs._dialogs import AgentDialog, SettingsDialog
from cherry_desktop.ui.dialogs._pricing_dialog import ModelPricingDialog
from cherry_desktop.ui.dialogs._providers_dialog import ProvidersDialog
from cherry_desktop.ui.dialogs._providers_panel import ProvidersPanel

__all__ = [
    "AgentDialog", "BackupDialog", "ModelPricingDialog", "ProvidersDialog", "ProvidersPanel", "SettingsDialog",
    "confirm_restore", "restore_notice",
]
