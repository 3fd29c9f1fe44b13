"""The agent create/edit dialog (driven only by `AGENT_RUNTIME_CAPABILITIES`) and Settings."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import Bridges
from cherry_desktop.ui.common import LOCALES, JsonObject, existing_directory
from cherry_desktop.ui.dialogs._providers_dialog import ProvidersDialog
from cherry_desktop.ui.dialogs._providers_panel import ProvidersPanel
from cherry_desktop.ui.session import permission_mode_label, runtime_label, variant_label

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import AgentRuntimeCapabilities, RuntimeVariant

log = logging.getLogger(__name__)


class AgentDialog(QDialog):
    """Create or edit an agent: runtime, permission mode, model and workspace all come from
    the runtime's capability descriptor, never from a branch on a runtime name."""

    def __init__(self, bridges: Bridges, agent_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agentDialog")
        self.bridges = bridges
        self.agent_id = agent_id
        self.capabilities = bridges.sessions.runtime_capabilities()
        agent = bridges.sessions.find_agent(agent_id) if agent_id else None
        self.setWindowTitle(self.tr("Edit agent") if agent else self.tr("New agent"))
        form = QFormLayout(self)
        self.name_edit = QLineEdit(agent.name if agent else "", self)
        self.name_edit.setObjectName("agentName")
        form.addRow(self.tr("Name"), self.name_edit)
        self.runtime_combo = QComboBox(self)
        self.runtime_combo.setObjectName("runtimeCombo")
        for kind, caps in self.capabilities.items():
            self.runtime_combo.addItem(runtime_label(caps), kind)
        form.addRow(self.tr("Runtime"), self.runtime_combo)
        # Which agent the runtime runs, for a runtime that runs several (its descriptor's variants).
        self.variant_combo = QComboBox(self)
        self.variant_combo.setObjectName("runtimeVariantCombo")
        form.addRow(self.tr("Agent"), self.variant_combo)
        self._form = form
        self._agent_config = dict(agent.config) if agent else {}
        self.permission_combo = QComboBox(self)
        self.permission_combo.setObjectName("permissionCombo")
        form.addRow(self.tr("Permissions"), self.permission_combo)
        self.model_combo = QComboBox(self)
        self.model_combo.setObjectName("modelCombo")
        self.model_combo.currentIndexChanged.connect(lambda _i: self._refresh_model_hint())
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_combo, 1)
        providers = QPushButton(self.tr("Providers…"), self)
        providers.setObjectName("agentProvidersButton")
        providers.clicked.connect(self._open_providers)
        model_row.addWidget(providers)
        form.addRow(self.tr("Model"), model_row)
        self.model_hint = QLabel(self)
        self.model_hint.setObjectName("fieldHint")
        self.model_hint.setWordWrap(True)
        form.addRow("", self.model_hint)
        ws_row = QHBoxLayout()
        self.workspace_edit = QLineEdit(self)
        self.workspace_edit.setObjectName("workspacePath")
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        ws_row.addWidget(self.workspace_edit, 1)
        ws_row.addWidget(browse)
        form.addRow(self.tr("Workspace"), ws_row)
        self.instructions = QPlainTextEdit(agent.instructions if agent else "", self)
        self.instructions.setObjectName("agentInstructions")
        self.instructions.setPlaceholderText(self.tr("Optional system prompt"))
        form.addRow(self.tr("Instructions"), self.instructions)
        config = agent.config if agent else {}
        mcp = bridges.mcp
        self.mcp_list = self._checklist("agentMcpServers", config.get("mcps"), [
            (c.name, c.id) for c in (mcp.servers() if mcp.available else [])])
        form.addRow(self.tr("MCP servers"), self.mcp_list)
        self.skill_list = self._checklist("agentSkills", config.get("skills"), [
            (s.name, s.name) for s in bridges.skills.skills()])
        form.addRow(self.tr("Skills"), self.skill_list)
        self._form = form
        self.error_label = QLabel(self)
        self.error_label.setObjectName("dialogError")
        form.addRow(self.error_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.runtime_combo.currentIndexChanged.connect(self._runtime_changed)
        self.variant_combo.currentIndexChanged.connect(lambda _i: self._list_models())
        if agent is not None:
            index = self.runtime_combo.findData(agent.type)
            if index >= 0:
                self.runtime_combo.setCurrentIndex(index)
            self.runtime_combo.setEnabled(False)  # a session's runtime does not change under it
            self.variant_combo.setEnabled(False)  # nor the agent it runs
            workspace = bridges.sessions.agent_workspace(agent.id)
            if workspace:
                self.workspace_edit.setText(workspace)
        self._runtime_changed()
        if agent is not None:
            self._select(self.permission_combo, agent.permission_mode)
            self._select(self.model_combo, agent.model)

    @staticmethod
    def _select(combo: QComboBox, value: object) -> None:
        index = combo.findData(value)
        if index >= 0:
            combo.setCurrentIndex(index)

    def _checklist(self, name: str, selected: object, choices: list[tuple[str, str]]) -> QListWidget:
        """(label, id) choices, each checkable: the ones this agent uses (its MCP servers, skills)."""
        chosen = set(selected) if isinstance(selected, list) else set()
        box = QListWidget(self)
        box.setObjectName(name)
        box.setMaximumHeight(90)
        for label, key in choices:
            item = QListWidgetItem(label, box)
            item.setData(Qt.ItemDataRole.UserRole, key)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if key in chosen else Qt.CheckState.Unchecked)
        return box

    @staticmethod
    def checked(box: QListWidget) -> list[str]:
        return [str(box.item(i).data(Qt.ItemDataRole.UserRole)) for i in range(box.count())
                if box.item(i).checkState() == Qt.CheckState.Checked]

    def _mode_label(self, mode: str) -> str:
        return permission_mode_label(mode)

    def current_caps(self) -> AgentRuntimeCapabilities | None:
        return self.capabilities.get(self.runtime_combo.currentData())

    def current_variant(self) -> RuntimeVariant | None:
        caps = self.current_caps()
        variant_id = self.variant_combo.currentData()
        return next((v for v in caps.variants if v.id == variant_id), None) if caps else None

    def _runtime_changed(self) -> None:
        caps = self.current_caps()
        self.permission_combo.clear()
        self.variant_combo.blockSignals(True)
        self.variant_combo.clear()
        for variant in caps.variants if caps else ():
            self.variant_combo.addItem(variant_label(variant), variant.id)
        if caps is not None and caps.variant_key:
            self._select(self.variant_combo, self._agent_config.get(caps.variant_key))
        self.variant_combo.blockSignals(False)
        self._form.setRowVisible(self.variant_combo, self.variant_combo.count() > 0)
        if caps is None:
            self.model_combo.clear()
            return
        # The descriptor says whether the runtime takes MCP servers at all.
        self._form.setRowVisible(self.mcp_list, caps.supports_mcp)
        self._form.setRowVisible(self.skill_list, caps.supports_skills)
        for mode in caps.permission_modes:
            self.permission_combo.addItem(self._mode_label(mode), mode)
        self._select(self.permission_combo, caps.create_defaults.permission_mode)
        self._list_models()

    def _list_models(self) -> None:
        caps = self.current_caps()
        self.model_combo.clear()
        if caps is None:
            return
        variant = self.current_variant()
        # Skills only where they reach the agent (the runtime, and the agent it runs, say so).
        self._form.setRowVisible(self.skill_list, caps.supports_skills and (variant is None or variant.supports_skills))
        providers = {p.id: p for p in self.bridges.providers.list_providers()}
        for model in self.bridges.providers.list_models():
            provider = providers.get(model.provider_id)
            if caps.is_model_compatible(provider, model) and (variant is None or variant.runs(provider)):
                label = f"{model.name} ({provider.name})" if provider else model.name
                self.model_combo.addItem(label, model.unique_model_id)
        if caps.create_defaults.model:
            self._select(self.model_combo, caps.create_defaults.model)
        self._refresh_model_hint()

    def _refresh_model_hint(self) -> None:
        """Say where the runtime's credentials come from, or why no model is listed."""
        umid = self.model_combo.currentData()
        if not umid:
            self.model_hint.setText(self.tr("No model fits this runtime yet: add an Anthropic provider, or mark an "
                                            "Anthropic-compatible one, in Providers."))
            return
        provider_id = str(umid).partition("::")[0]
        provider = self.bridges.providers.find_provider(provider_id)
        caps = self.current_caps()
        assert caps is not None  # the models listed are this runtime's
        via_gateway = provider is not None and caps.via_gateway(provider)
        if provider is None or provider.settings.get("demo") or self.bridges.providers.has_api_key(provider_id):
            self.model_hint.setText(self.tr("%1 reaches this model through Cherry's API gateway (Settings, API "
                                            "gateway).").replace("%1", runtime_label(caps)) if via_gateway else "")
            return
        if caps.own_login and not via_gateway:
            hint = self.tr("No API key is stored for %1: %2 signs in with your own %2 login.")
        else:
            hint = self.tr("No API key is stored for %1, and %2 needs one: add it in Providers.")
        self.model_hint.setText(hint.replace("%1", provider.name or provider.id).replace("%2", runtime_label(caps)))

    def _open_providers(self) -> None:
        current = self.model_combo.currentData()
        ProvidersDialog(self.bridges.providers, None, self).exec()
        self._runtime_changed()
        self._select(self.model_combo, current)

    def _browse(self) -> None:
        path = existing_directory(self, self.tr("Choose a workspace folder"),
                                  self.workspace_edit.text() or str(Path.home()))
        if path:
            self.workspace_edit.setText(path)

    def values(self) -> JsonObject:
        caps, variant = self.current_caps(), self.current_variant()
        config: JsonObject = {caps.variant_key: variant.id} if caps is not None and variant is not None else {}
        return {
            "config": config,
            "name": self.name_edit.text().strip(),
            "type": self.runtime_combo.currentData(),
            "permission_mode": self.permission_combo.currentData(),
            "model": self.model_combo.currentData(),
            "workspace": self.workspace_edit.text().strip(),
            "instructions": self.instructions.toPlainText(),
            "mcps": self.checked(self.mcp_list),
            "skills": self.checked(self.skill_list),
        }

    def save(self) -> None:
        v = self.values()
        if not v["name"]:
            self.error_label.setText(self.tr("Give the agent a name."))
            return
        if v["type"] is None:
            self.error_label.setText(self.tr("No agent runtime is available."))
            return
        if v["workspace"] and not Path(v["workspace"]).is_dir():
            self.error_label.setText(self.tr("The workspace folder does not exist."))
            return
        self.agent_id = self.bridges.sessions.save_agent(self.agent_id, v)
        self.accept()


class SettingsDialog(QDialog):
    """General settings (language, theme, background mode) and the Providers tab (models, and
    API keys in the keyring). Provider edits apply as they are made, like in the Providers
    dialog; Save and Cancel are about the General tab (and a key still being typed)."""

    def __init__(self, bridges: Bridges, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        self.resize(840, 580)
        self.bridges = bridges
        settings = bridges.settings.settings_values()
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("settingsTabs")
        layout.addWidget(self.tabs, 1)
        general = QWidget(self)
        form = QFormLayout(general)
        self.language = QComboBox(self)
        self.language.setObjectName("languageCombo")
        self.language.addItem(self.tr("Follow system"), "")
        names = {"en_US": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}
        for locale in LOCALES:
            self.language.addItem(names.get(locale, locale), locale)
        self._select(self.language, settings.get("language", ""))
        form.addRow(self.tr("Language"), self.language)
        self.theme = QComboBox(self)
        self.theme.setObjectName("themeCombo")
        self.theme.addItem(self.tr("Follow system"), "system")
        self.theme.addItem(self.tr("Light"), "light")
        self.theme.addItem(self.tr("Dark"), "dark")
        self._select(self.theme, settings.get("theme", "system"))
        form.addRow(self.tr("Theme"), self.theme)
        self.background = QComboBox(self)
        self.background.setObjectName("backgroundCombo")
        self.background.addItem(self.tr("Keep replying when all windows are closed"), "continue")
        self.background.addItem(self.tr("Stop replying when all windows are closed"), "abort")
        self._select(self.background, settings.get("background_mode", "continue"))
        form.addRow(self.tr("Background"), self.background)
        # How long a tool approval may wait with no window open (no tray): then its turn stops.
        self.approval_wait = QComboBox(self)
        self.approval_wait.setObjectName("approvalWaitCombo")
        self.approval_wait.addItem(self.tr("Stop after %1 minutes, keeping the reply so far").replace("%1", "15"),
                                   15 * 60)
        self.approval_wait.addItem(self.tr("Stop after an hour, keeping the reply so far"), 3600)
        for hours in (2, 8):
            self.approval_wait.addItem(self.tr("Stop after %1 hours, keeping the reply so far")
                                       .replace("%1", str(hours)), hours * 3600)
        self.approval_wait.addItem(self.tr("Wait until I answer"), 0)
        wait_s = settings.get("background_approval_wait_s", 7200)
        if self.approval_wait.findData(wait_s) < 0 and isinstance(wait_s, int):  # set by hand: kept
            self.approval_wait.addItem(self.tr("Stop after %1 seconds, keeping the reply so far")
                                       .replace("%1", str(wait_s)), wait_s)
        self._select(self.approval_wait, wait_s)
        form.addRow(self.tr("Approval with no window open"), self.approval_wait)
        self.notify_done = QCheckBox(self.tr("Notify me when a reply is ready while I look elsewhere"), self)
        self.notify_done.setObjectName("notifyDoneCheck")
        self.notify_done.setChecked(bool(settings.get("notify_on_completion", True)))
        form.addRow(self.tr("Notifications"), self.notify_done)
        self.tabs.addTab(general, self.tr("General"))
        self.providers = ProvidersPanel(bridges.providers, self)
        self.tabs.addTab(self.providers, self.tr("Providers"))
        from cherry_desktop.ui.dialogs._gateway_settings import GatewaySettingsPanel

        self.gateway = GatewaySettingsPanel(bridges.gateway, self)
        self.tabs.addTab(self.gateway, self.tr("API gateway"))
        from cherry_desktop.ui.dialogs._backup_settings import BackupSettingsPanel

        self.backups = BackupSettingsPanel(bridges.backup, settings, self)
        self.tabs.addTab(self.backups, self.tr("Backups"))
        from cherry_desktop.ui.dialogs._mcp_settings import McpSettingsPanel
        self.mcp = McpSettingsPanel(bridges.mcp, self)
        self.tabs.addTab(self.mcp, self.tr("MCP servers"))
        from cherry_desktop.ui.dialogs._skills_settings import SkillsSettingsPanel
        self.skills = SkillsSettingsPanel(bridges.skills, self)
        self.tabs.addTab(self.skills, self.tr("Skills"))
        self.error_label = QLabel(self)
        self.error_label.setObjectName("dialogError")
        self.error_label.setWordWrap(True)
        layout.addWidget(self.error_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def show_providers(self, provider_id: str | None = None) -> None:
        self.tabs.setCurrentWidget(self.providers)
        if provider_id:
            self.providers.select_provider(provider_id)

    @staticmethod
    def _select(combo: QComboBox, value: object) -> None:
        index = combo.findData(value)
        if index >= 0:
            combo.setCurrentIndex(index)

    def values(self) -> JsonObject:
        return {"language": self.language.currentData(), "theme": self.theme.currentData(),
                "background_mode": self.background.currentData(),
                "background_approval_wait_s": self.approval_wait.currentData(),
                "notify_on_completion": self.notify_done.isChecked(), **self.backups.values()}

    def save(self) -> None:
        # A key typed in the Providers tab is stored with Save; the tab says why if it cannot be.
        if not self.providers.commit_pending():
            self.show_providers()
            return
        problem = self.backups.problem()
        if problem is not None:
            self.tabs.setCurrentWidget(self.backups)
            self.error_label.setText(problem)
            return
        self.bridges.settings.update_settings(**self.values())
        self.accept()
