"""Providers: list, add (from a preset or custom), edit, delete; models and API keys.

Edits apply at once (name and base URL when the field is left), so closing never loses
anything; a typed but unsaved API key is stored on Close as well. Keys go to the keyring
through the bridge, never to the database; without a keyring the panel says how to fix it.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import ProvidersBridge
from cherry_desktop.ui.chat import IssueWords
from cherry_desktop.ui.common import PlaceholderLineEdit
from cherry_desktop.ui.dialogs._api_key_box import ApiKeyBox
from cherry_desktop.ui.dialogs._provider_check import ProviderCheckRow

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import ProviderRecord

log = logging.getLogger(__name__)
ID_ROLE = Qt.ItemDataRole.UserRole
_DEFAULT_URLS = {"anthropic": "https://api.anthropic.com", "openai": "https://api.openai.com/v1",
                 "openrouter": "https://openrouter.ai/api/v1", "ollama": "http://127.0.0.1:11434/v1",
                 "lmstudio": "http://127.0.0.1:1234/v1"}


class ProvidersPanel(QWidget):
    """The provider list on the left, the selected provider's settings on the right."""

    def __init__(self, bridge: ProvidersBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("providersPanel")
        self.bridge = bridge
        self.words = IssueWords(self)
        self.provider_id: str | None = None
        outer = QVBoxLayout(self)
        self.keyring_banner = QLabel(self)
        self.keyring_banner.setObjectName("keyringHint")
        self.keyring_banner.setWordWrap(True)
        self.keyring_banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.keyring_banner)
        body = QHBoxLayout()
        outer.addLayout(body, 1)
        body.addLayout(self._build_list(), 0)
        self.form = QWidget(self)
        body.addWidget(self.form, 1)
        self._build_form()
        self.refresh_keyring()
        self.reload()

    # -- layout ------------------------------------------------------------------------------------
    def _build_list(self) -> QVBoxLayout:
        left = QVBoxLayout()
        self.provider_list = QListWidget(self)
        self.provider_list.setObjectName("providerList")
        self.provider_list.setMinimumWidth(190)
        self.provider_list.currentItemChanged.connect(lambda item, _prev: self._select_item(item))
        left.addWidget(self.provider_list, 1)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setObjectName("addProviderButton")
        self.add_menu = QMenu(self.add_button)
        self.add_menu.addAction(self.tr("Custom (OpenAI-compatible)"), lambda: self.add_provider(None))
        self.add_menu.addSeparator()
        for preset in self.bridge.presets():
            self.add_menu.addAction(preset.name, functools.partial(self.add_provider, preset.id))
        self.add_button.setMenu(self.add_menu)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.setObjectName("deleteProviderButton")
        self.delete_button.clicked.connect(lambda: self.delete_current())
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.delete_button)
        left.addLayout(buttons)
        return left

    def _build_form(self) -> None:
        form = QFormLayout(self.form)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name_edit = PlaceholderLineEdit(self.form)
        self.name_edit.setObjectName("providerName")
        self.name_edit.editingFinished.connect(self._commit_name)
        form.addRow(self.tr("Name"), self.name_edit)
        self.type_combo = QComboBox(self.form)
        self.type_combo.setObjectName("providerType")
        for kind in self.bridge.provider_types():
            self.type_combo.addItem(self.type_label(kind), kind)
        self.type_combo.activated.connect(lambda _i: self._commit_type())
        form.addRow(self.tr("Type"), self.type_combo)
        self.url_edit = PlaceholderLineEdit(self.form)
        self.url_edit.setObjectName("providerBaseUrl")
        self.url_edit.editingFinished.connect(self._commit_url)
        form.addRow(self.tr("Base URL"), self.url_edit)
        self.enabled_check = QCheckBox(self.tr("Enabled (its models can be picked)"), self.form)
        self.enabled_check.setObjectName("providerEnabled")
        self.enabled_check.toggled.connect(self._commit_enabled)
        form.addRow("", self.enabled_check)
        self.anthropic_check = QCheckBox(self.tr("Also serves the Anthropic Messages API (usable by Claude Code)"),
                                         self.form)
        self.anthropic_check.setObjectName("providerAnthropicCompatible")
        self.anthropic_check.toggled.connect(self._commit_anthropic_compatible)
        form.addRow("", self.anthropic_check)
        self.key_box = ApiKeyBox(self.bridge, self.words, self.form)
        self.key_box.save_requested.connect(self.save_key)
        self.key_box.remove_requested.connect(self.remove_key)
        # The box's parts, as the panel's own (tests and the panel's users reach them here).
        self.key_edit, self.key_status, self.key_error = self.key_box.key_edit, self.key_box.status, self.key_box.error
        self.save_key_button, self.remove_key_button = self.key_box.save_button, self.key_box.remove_button
        form.addRow(self.tr("API key"), self.key_box)
        self.check_row = ProviderCheckRow(self.bridge, lambda: self.provider_id, self.check_model,
                                          self.commit_pending, self.form)
        self.check_row.models_added.connect(lambda _ids: self._reload_models())
        form.addRow("", self.check_row)
        self.model_list = QListWidget(self.form)
        self.model_list.setObjectName("modelList")
        self.model_list.setMinimumHeight(110)
        form.addRow(self.tr("Models"), self.model_list)
        model_row = QHBoxLayout()
        self.model_edit = PlaceholderLineEdit(self.form)
        self.model_edit.setObjectName("newModelId")
        self.model_edit.setPlaceholderText(self.tr("Model id, e.g. gpt-4o"))
        self.model_edit.returnPressed.connect(self.add_model)
        add_model = QPushButton(self.tr("Add model"), self.form)
        add_model.setObjectName("addModelButton")
        add_model.clicked.connect(self.add_model)
        self.remove_model_button = QPushButton(self.tr("Remove model"), self.form)
        self.remove_model_button.setObjectName("removeModelButton")
        self.remove_model_button.clicked.connect(self.remove_model)
        model_row.addWidget(self.model_edit, 1)
        model_row.addWidget(add_model)
        model_row.addWidget(self.remove_model_button)
        self.prices_button = QPushButton(self.tr("Prices…"), self.form)
        self.prices_button.setObjectName("modelPricesButton")
        self.prices_button.clicked.connect(self.edit_prices)
        model_row.addWidget(self.prices_button)
        form.addRow("", model_row)

    def type_label(self, kind: str) -> str:
        return {"openai-compatible": self.tr("OpenAI-compatible"), "anthropic": "Anthropic", "openai": "OpenAI",
                "openrouter": "OpenRouter", "ollama": "Ollama", "lmstudio": "LM Studio", "vllm": "vLLM"}.get(kind, kind)

    # -- list ---------------------------------------------------------------------------------------
    def reload(self, select: str | None = None) -> None:
        select = select or self.provider_id
        self.provider_list.blockSignals(True)
        self.provider_list.clear()
        chosen: QListWidgetItem | None = None
        for provider in self.bridge.list_providers():
            text = provider.name or provider.id
            if not provider.enabled:
                text = self.tr("%1 (off)").replace("%1", text)
            item = QListWidgetItem(text, self.provider_list)
            item.setData(ID_ROLE, provider.id)
            if not provider.enabled:
                item.setForeground(self.palette().placeholderText())
            if provider.id == select:
                chosen = item
        if chosen is None and self.provider_list.count():
            chosen = self.provider_list.item(0)
        self.provider_list.blockSignals(False)
        if chosen is not None:
            self.provider_list.setCurrentItem(chosen)
        self._select_item(chosen)

    def select_provider(self, provider_id: str) -> None:
        items = (self.provider_list.item(i) for i in range(self.provider_list.count()))
        item = next((it for it in items if it is not None and it.data(ID_ROLE) == provider_id), None)
        if item is not None:
            self.provider_list.setCurrentItem(item)

    def provider_ids(self) -> list[str]:
        items = (self.provider_list.item(i) for i in range(self.provider_list.count()))
        return [item.data(ID_ROLE) for item in items if item is not None]

    def _select_item(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(ID_ROLE) == self.provider_id and self.form.isEnabled():
            return
        self.commit_pending(keys=False)
        self.provider_id = item.data(ID_ROLE) if item is not None else None
        self._fill_form()

    def _record(self) -> ProviderRecord | None:
        if self.provider_id is None:
            return None
        return self.bridge.find_provider(self.provider_id)

    def _fill_form(self) -> None:
        record = self._record()
        self.form.setEnabled(record is not None)
        self.delete_button.setEnabled(record is not None)
        widgets = (self.name_edit, self.type_combo, self.url_edit, self.enabled_check, self.anthropic_check)
        for w in widgets:  # filling in is not an edit
            w.blockSignals(True)
        self.key_edit.clear()
        self.key_box.set_error("")
        self.check_row.clear()
        self.model_edit.clear()
        if record is None:
            self.name_edit.clear()
            self.url_edit.clear()
            self.model_list.clear()
            self.key_status.clear()
        else:
            self.name_edit.setText(record.name)
            index = self.type_combo.findData(record.type)
            if index < 0:
                self.type_combo.addItem(record.type, record.type)
                index = self.type_combo.count() - 1
            self.type_combo.setCurrentIndex(index)
            self.url_edit.setText(record.base_url)
            self.enabled_check.setChecked(record.enabled)
            self.anthropic_check.setChecked(bool(record.settings.get("anthropic_compatible")))
            self._reload_models()
        for w in widgets:
            w.blockSignals(False)
        self._refresh_type_dependent()
        self._refresh_key_status()

    def _refresh_type_dependent(self) -> None:
        kind = self.type_combo.currentData()
        self.anthropic_check.setVisible(kind != "anthropic")
        self.url_edit.setPlaceholderText(_DEFAULT_URLS.get(kind, "https://example.com/v1"))

    def _reload_models(self) -> None:
        self.model_list.clear()
        if self.provider_id is None:
            return
        for model in self.bridge.list_models(self.provider_id):
            text = model.model_id if model.name in ("", model.model_id) else f"{model.name}  ({model.model_id})"
            item = QListWidgetItem(text, self.model_list)
            item.setData(ID_ROLE, model.unique_model_id)

    def check_model(self) -> str | None:
        """The model a connection test asks: the selected one, else the first."""
        models = self.bridge.list_models(self.provider_id) if self.provider_id else []
        current = self.model_list.currentItem()
        chosen = [m for m in models if current is not None and m.unique_model_id == current.data(ID_ROLE)]
        return (chosen or models)[0].model_id if models else None

    def model_ids(self) -> list[str]:
        items = (self.model_list.item(i) for i in range(self.model_list.count()))
        return [item.data(ID_ROLE) for item in items if item is not None]

    # -- edits ----------------------------------------------------------------------------------------
    def _update(self, **changes: Any) -> None:
        if self.provider_id is None:
            return
        self.bridge.update_provider(self.provider_id, **changes)

    def _commit_name(self) -> None:
        record = self._record()
        name = self.name_edit.text().strip()
        if record is None or not name or name == record.name:
            return
        self._update(name=name)
        self.reload()

    def _commit_url(self) -> None:
        record = self._record()
        url = self.url_edit.text().strip()
        if record is not None and url != record.base_url:
            self._update(base_url=url)
            self._refresh_key_status()

    def _commit_type(self) -> None:
        record = self._record()
        kind = self.type_combo.currentData()
        if record is not None and kind and kind != record.type:
            self._update(type=kind)
        self._refresh_type_dependent()
        self._refresh_key_status()

    def _commit_enabled(self, on: bool) -> None:
        self._update(enabled=on)
        self.reload()

    def _commit_anthropic_compatible(self, on: bool) -> None:
        record = self._record()
        if record is None:
            return
        settings = dict(record.settings)
        if on:
            settings["anthropic_compatible"] = True
        else:
            settings.pop("anthropic_compatible", None)
        self._update(settings=settings)

    def commit_pending(self, *, keys: bool = True) -> bool:
        """Apply fields still being typed in; with `keys`, store a typed key. False when the
        key could not be stored (the panel says why)."""
        if self._record() is None:
            return True
        self._commit_name()
        self._commit_url()
        if keys and self.key_edit.text().strip():
            return self.save_key()
        return True

    def add_provider(self, preset_id: str | None) -> str:
        """A new provider from a preset (with its models) or a blank OpenAI-compatible one."""
        self.commit_pending(keys=False)
        preset = self.bridge.preset(preset_id) if preset_id else None
        if preset is not None:
            provider_id = self.bridge.add_provider(name=preset.name, type=preset.type, base_url=preset.base_url)
            for model in preset.models:
                self.bridge.add_model(provider_id, model.model_id, model.name)
        else:
            provider_id = self.bridge.add_provider(name=self.tr("New provider"), type="openai-compatible")
        self.reload(select=provider_id)
        self.name_edit.setFocus()
        self.name_edit.selectAll()
        return str(provider_id)

    def delete_current(self, *, confirm: bool = True) -> bool:
        record = self._record()
        if record is None:
            return False
        if confirm and QMessageBox.question(
                self, self.tr("Delete provider"),
                self.tr("Delete %1 with its models and API key?").replace("%1", record.name or record.id)) \
                != QMessageBox.StandardButton.Yes:
            return False
        self.bridge.delete_provider(record.id)
        self.provider_id = None
        self.reload()
        return True

    def add_model(self) -> str | None:
        model_id = self.model_edit.text().strip()
        if self.provider_id is None or not model_id:
            return None
        umid = str(self.bridge.add_model(self.provider_id, model_id))
        self.model_edit.clear()
        self._reload_models()
        return umid

    def edit_prices(self) -> QDialog | None:
        """The price editor of the selected model (for its turns' cost)."""
        from cherry_desktop.ui.dialogs._pricing_dialog import ModelPricingDialog

        item = self.model_list.currentItem()
        if item is None:
            return None
        dialog = ModelPricingDialog(self.bridge, item.data(ID_ROLE), self)
        dialog.open()
        return dialog

    def remove_model(self) -> None:
        item = self.model_list.currentItem()
        if item is None:
            return
        self.bridge.remove_model(item.data(ID_ROLE))
        self._reload_models()

    # -- keys -----------------------------------------------------------------------------------------
    def refresh_keyring(self) -> bool:
        available = bool(self.bridge.keyring_available())
        self.keyring_banner.setText("" if available else self.words.keyring_hint())
        self.keyring_banner.setVisible(not available)
        return available

    def _refresh_key_status(self) -> None:
        record = self._record()
        if record is not None:
            self.key_box.show_for(record, self.refresh_keyring())

    def save_key(self) -> bool:
        if self.provider_id is None or not self.key_edit.text().strip():
            return True
        if not self.key_box.save(self.provider_id):
            self.refresh_keyring()
            return False
        self._refresh_key_status()
        return True

    def remove_key(self) -> None:
        if self.provider_id is None:
            return
        self.key_box.remove(self.provider_id)
        self._refresh_key_status()
