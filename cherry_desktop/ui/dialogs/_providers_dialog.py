"""The providers panel in a dialog of its own (File ▸ Providers…, the chat header's button)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QVBoxLayout, QWidget

from cherry_desktop.ui.bridge import ProvidersBridge
from cherry_desktop.ui.dialogs._providers_panel import ProvidersPanel


class ProvidersDialog(QDialog):
    """Providers in a dialog of its own (File ▸ Providers…, the chat header's button)."""

    def __init__(self, bridge: ProvidersBridge, provider_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("providersDialog")
        self.setWindowTitle(self.tr("Providers"))
        layout = QVBoxLayout(self)
        self.panel = ProvidersPanel(bridge, self)
        if provider_id:
            self.panel.select_provider(provider_id)
        layout.addWidget(self.panel, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # Wider than this when its fields ask for it (a placeholder shown whole).
        self.resize(self.sizeHint().expandedTo(QSize(820, 560)))

    def reject(self) -> None:
        # Close, Esc and the title bar all end here: what is typed is applied, and a key
        # that cannot be stored keeps the dialog open with the reason shown.
        if self.panel.commit_pending():
            super().reject()
