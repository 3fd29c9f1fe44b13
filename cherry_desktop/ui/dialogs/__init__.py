"""Dialogs: an agent, settings, providers with their keys and models, a model's prices."""

from __future__ import annotations

from cherry_desktop.ui.dialogs._dialogs import AgentDialog, SettingsDialog
from cherry_desktop.ui.dialogs._pricing_dialog import ModelPricingDialog
from cherry_desktop.ui.dialogs._providers_dialog import ProvidersDialog
from cherry_desktop.ui.dialogs._providers_panel import ProvidersPanel

__all__ = [
    "AgentDialog", "ModelPricingDialog", "ProvidersDialog", "ProvidersPanel", "SettingsDialog",
]
