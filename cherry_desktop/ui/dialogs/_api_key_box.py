"""A provider's API key in the providers panel: the field, Save and Remove, and what is stored.
Keys go to the OS keyring through the bridge, never to the database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from cherry_desktop.core.storage.credentials import KeyringUnavailableError

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import ProviderRecord, ProvidersBridge
    from cherry_desktop.ui.chat import IssueWords


def _tr(text: str) -> str:
    return QCoreApplication.translate("ProvidersPanel", text)  # the panel's words (its .ts context)


class ApiKeyBox(QWidget):
    """The key row of one provider at a time (`show_for`).

    Signals:
        save_requested(): Enter in the field, or Save.
        remove_requested(): Remove.
    """

    save_requested = Signal()
    remove_requested = Signal()

    def __init__(self, bridge: ProvidersBridge, words: IssueWords, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.words = words
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = QHBoxLayout()
        self.key_edit = QLineEdit(self)
        self.key_edit.setObjectName("apiKeyEdit")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.returnPressed.connect(self.save_requested)
        self.save_button = QPushButton(_tr("Save key"), self)
        self.save_button.setObjectName("saveKeyButton")
        self.save_button.clicked.connect(self.save_requested)
        self.remove_button = QPushButton(_tr("Remove key"), self)
        self.remove_button.setObjectName("removeKeyButton")
        self.remove_button.clicked.connect(self.remove_requested)
        row.addWidget(self.key_edit, 1)
        row.addWidget(self.save_button)
        row.addWidget(self.remove_button)
        layout.addLayout(row)
        self.status = QLabel(self)
        self.status.setObjectName("fieldHint")
        layout.addWidget(self.status)
        self.error = QLabel(self)
        self.error.setObjectName("dialogError")
        self.error.setWordWrap(True)
        self.error.setMinimumWidth(360)  # a wrapped label in a form otherwise asks for one word's width
        self.error.hide()
        layout.addWidget(self.error)

    def show_for(self, record: ProviderRecord, available: bool) -> None:
        """What is stored for the provider `record`, with or without a keyring."""
        provider_id, base_url, kind = record.id, record.base_url, record.type
        stored = available and self.bridge.has_api_key(provider_id)
        local = bool(base_url) and self.bridge.is_local_endpoint(base_url)
        if not available:
            text = _tr("Keys cannot be stored until a keyring is available (see above).")
        elif stored:
            text = _tr("A key is stored in the system keyring.")
        elif local:
            text = _tr("No key needed for a server on this computer.")
        elif kind == "anthropic":
            text = _tr("No key stored. Chats need one; Claude Code agents use your own Claude Code login.")
        else:
            text = _tr("No key stored.")
        self.status.setText(text)
        self.key_edit.setPlaceholderText(_tr("Replace the stored key") if stored else _tr("Paste the API key"))
        self.key_edit.setEnabled(available)
        self.save_button.setEnabled(available)
        self.remove_button.setEnabled(stored)

    def save(self, provider_id: str) -> bool:
        """Store the typed key; False (and why, in the box) when no keyring takes it."""
        try:
            self.bridge.set_api_key(provider_id, self.key_edit.text().strip())
        except KeyringUnavailableError:
            self.set_error(self.words.keyring_hint())
            return False
        self.key_edit.clear()
        self.set_error("")
        return True

    def remove(self, provider_id: str) -> None:
        try:
            self.bridge.delete_api_key(provider_id)
        except KeyringUnavailableError:
            self.set_error(self.words.keyring_hint())

    def set_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))
