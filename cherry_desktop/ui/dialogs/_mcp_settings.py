"""Settings > MCP servers: add, edit, remove and test the user's MCP servers, see each one's
status, and choose per tool whether it is on and whether it asks (ask, allow, deny).

Saving stores the server (its env and header values in the keyring, through the bridge) and
connects it in the background; the tool choices apply at once, also to running agents.
"""

from __future__ import annotations

import shlex
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import (
    McpBridge,
    McpConfigError,
    McpConnectError,
    McpServerConfig,
    McpToolSpec,
    McpTransport,
    ServerState,
    ServerStatus,
    ToolPolicy,
    parse_pairs,
)
from cherry_desktop.ui.common import spawn


class McpSettingsPanel(QWidget):
    """The MCP servers tab (see the module doc)."""

    def __init__(self, mcp: McpBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcpSettings")
        self.mcp = mcp
        self.server_id = ""  # "" : a new server being added
        self._tool_widgets: dict[str, tuple[QCheckBox, QComboBox]] = {}
        layout = QHBoxLayout(self)
        left = QVBoxLayout()
        self.server_list = QListWidget(self)
        self.server_list.setObjectName("mcpServerList")
        self.server_list.currentItemChanged.connect(lambda item, _old: self._select(item))
        left.addWidget(self.server_list, 1)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setObjectName("mcpAddButton")
        self.add_button.clicked.connect(self.new_server)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setObjectName("mcpRemoveButton")
        self.remove_button.clicked.connect(self.remove_server)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        left.addLayout(buttons)
        layout.addLayout(left, 1)
        layout.addLayout(self._editor(), 3)
        if not mcp.available:
            self.error_label.setText(self.tr("MCP servers are available once Cherry has started."))
            self.setEnabled(False)
            return
        mcp.status_changed.connect(self._on_status)
        self.reload()

    def _editor(self) -> QVBoxLayout:
        column = QVBoxLayout()
        form = QFormLayout()
        self.name_edit = QLineEdit(self)
        self.name_edit.setObjectName("mcpName")
        form.addRow(self.tr("Name"), self.name_edit)
        self.transport = QComboBox(self)
        self.transport.setObjectName("mcpTransport")
        self.transport.addItem(self.tr("Command (stdio)"), McpTransport.STDIO.value)
        self.transport.addItem(self.tr("Streamable HTTP"), McpTransport.HTTP.value)
        self.transport.addItem(self.tr("SSE"), McpTransport.SSE.value)
        self.transport.currentIndexChanged.connect(lambda _i: self._transport_changed())
        form.addRow(self.tr("Type"), self.transport)
        self.command_edit = QLineEdit(self)
        self.command_edit.setObjectName("mcpCommand")
        form.addRow(self.tr("Command"), self.command_edit)
        self.args_edit = QLineEdit(self)
        self.args_edit.setObjectName("mcpArgs")
        form.addRow(self.tr("Arguments"), self.args_edit)
        self.cwd_edit = QLineEdit(self)
        self.cwd_edit.setObjectName("mcpCwd")
        form.addRow(self.tr("Working folder"), self.cwd_edit)
        self.url_edit = QLineEdit(self)
        self.url_edit.setObjectName("mcpUrl")
        form.addRow(self.tr("URL"), self.url_edit)
        self.env_edit = QPlainTextEdit(self)
        self.env_edit.setObjectName("mcpEnv")
        self.env_edit.setMaximumHeight(52)
        form.addRow(self.tr("Environment"), self.env_edit)
        self.headers_edit = QPlainTextEdit(self)
        self.headers_edit.setObjectName("mcpHeaders")
        self.headers_edit.setMaximumHeight(52)
        form.addRow(self.tr("Headers"), self.headers_edit)
        hint = QLabel(self.tr("Values are kept in the system keyring. A stored value is not shown: leave it "
                              "empty to keep it."), self)
        hint.setObjectName("fieldHint")
        hint.setWordWrap(True)
        form.addRow("", hint)
        self.enabled_box = QCheckBox(self.tr("Enabled"), self)
        self.enabled_box.setObjectName("mcpEnabled")
        self.enabled_box.setChecked(True)
        form.addRow("", self.enabled_box)
        self.default_policy = self._policy_combo("mcpDefaultPolicy")
        form.addRow(self.tr("Tools ask"), self.default_policy)
        column.addLayout(form)
        actions = QHBoxLayout()
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.setObjectName("mcpSaveButton")
        self.save_button.clicked.connect(self.save)
        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.setObjectName("mcpTestButton")
        self.test_button.clicked.connect(lambda: spawn(self.test_connection()))
        actions.addWidget(self.save_button)
        actions.addWidget(self.test_button)
        actions.addStretch(1)
        column.addLayout(actions)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("mcpStatus")
        self.status_label.setWordWrap(True)
        column.addWidget(self.status_label)
        self.tools_table = QTableWidget(0, 3, self)
        self.tools_table.setObjectName("mcpTools")
        self.tools_table.setHorizontalHeaderLabels([self.tr("Tool"), self.tr("On"), self.tr("Approval")])
        self.tools_table.horizontalHeader().setStretchLastSection(True)
        self.tools_table.verticalHeader().setVisible(False)
        self.tools_table.setMinimumHeight(130)
        column.addWidget(self.tools_table, 1)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("dialogError")
        self.error_label.setWordWrap(True)
        column.addWidget(self.error_label)
        return column

    def _policy_combo(self, name: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setObjectName(name)
        combo.addItem(self.tr("Ask (follows the permission mode)"), ToolPolicy.ASK.value)
        combo.addItem(self.tr("Allow without asking"), ToolPolicy.ALLOW.value)
        combo.addItem(self.tr("Never run"), ToolPolicy.DENY.value)
        return combo

    # ---- the list ------------------------------------------------------------------------

    def reload(self, select: str | None = None) -> None:
        select = self.server_id if select is None else select
        self.server_list.blockSignals(True)
        self.server_list.clear()
        for config in self.mcp.servers():
            item = QListWidgetItem(self._list_text(config, self.mcp.state(config.id)))
            item.setData(Qt.ItemDataRole.UserRole, config.id)
            self.server_list.addItem(item)
            if config.id == select:
                self.server_list.setCurrentItem(item)
        self.server_list.blockSignals(False)
        current = self.server_list.currentItem()
        if current is not None:
            self._select(current)
        elif self.server_list.count():
            self.server_list.setCurrentRow(0)
        else:
            self.new_server()

    def _list_text(self, config: McpServerConfig, state: ServerState) -> str:
        return f"{config.name}  ·  {self.status_text(state, short=True)}"

    def status_text(self, state: ServerState, *, short: bool = False) -> str:
        if state.status is ServerStatus.READY:
            return self.tr("Ready: %1 tools").replace("%1", str(len(state.tools)))
        if state.status is ServerStatus.CONNECTING:
            return self.tr("Connecting…")
        if state.status is ServerStatus.DISABLED:
            return self.tr("Off")
        return self.tr("Failed") if short else self.tr("Failed: %1").replace("%1", state.error)

    def _on_status(self, server_id: str, state: Any) -> None:
        for row in range(self.server_list.count()):
            item = self.server_list.item(row)
            config = self.mcp.find(server_id)
            if item.data(Qt.ItemDataRole.UserRole) == server_id and config is not None:
                item.setText(self._list_text(config, state))
        if server_id == self.server_id and isinstance(state, ServerState):
            self.status_label.setText(self.status_text(state))
            self._fill_tools(state.tools)

    def _select(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        config = self.mcp.find(str(item.data(Qt.ItemDataRole.UserRole)))
        if config is None:
            return
        self.server_id = config.id
        self.name_edit.setText(config.name)
        self.transport.setCurrentIndex(max(0, self.transport.findData(config.transport.value)))
        self.command_edit.setText(config.command)
        self.args_edit.setText(shlex.join(config.args))
        self.cwd_edit.setText(config.cwd)
        self.url_edit.setText(config.url)
        self.env_edit.setPlainText("\n".join(f"{name}=" for name in config.env_names))
        self.headers_edit.setPlainText("\n".join(f"{name}: " for name in config.header_names))
        self.enabled_box.setChecked(config.enabled)
        self.default_policy.setCurrentIndex(max(0, self.default_policy.findData(config.default_policy.value)))
        state = self.mcp.state(config.id)
        self.status_label.setText(self.status_text(state))
        self._fill_tools(state.tools)
        self.error_label.clear()
        self._transport_changed()

    def new_server(self) -> None:
        self.server_id = ""
        self.server_list.clearSelection()
        for edit in (self.name_edit, self.command_edit, self.args_edit, self.cwd_edit, self.url_edit):
            edit.clear()
        self.env_edit.clear()
        self.headers_edit.clear()
        self.enabled_box.setChecked(True)
        self.default_policy.setCurrentIndex(0)
        self.status_label.clear()
        self.tools_table.setRowCount(0)
        self.error_label.clear()
        self.name_edit.setFocus()
        self._transport_changed()

    def remove_server(self) -> None:
        if self.server_id:
            self.mcp.delete(self.server_id)
            self.server_id = ""
            self.reload("")

    def _transport_changed(self) -> None:
        stdio = self.transport.currentData() == McpTransport.STDIO.value
        for widget in (self.command_edit, self.args_edit, self.cwd_edit, self.env_edit):
            widget.setEnabled(stdio)
        for widget in (self.url_edit, self.headers_edit):
            widget.setEnabled(not stdio)

    # ---- the form --------------------------------------------------------------------------

    def form_config(self) -> McpServerConfig:
        """The server as the form describes it (raises ValueError for unbalanced quotes)."""
        old = self.mcp.find(self.server_id) if self.server_id else None
        return McpServerConfig(
            id=self.server_id, name=self.name_edit.text().strip(),
            transport=McpTransport(self.transport.currentData()), command=self.command_edit.text().strip(),
            args=tuple(shlex.split(self.args_edit.text())), cwd=self.cwd_edit.text().strip(),
            url=self.url_edit.text().strip(), enabled=self.enabled_box.isChecked(),
            default_policy=ToolPolicy(self.default_policy.currentData()), tools=old.tools if old else {})

    def save(self) -> bool:
        try:
            config = self.form_config()
            secrets = self.mcp.merge_secrets(self.server_id, parse_pairs(self.env_edit.toPlainText(), "="),
                                             parse_pairs(self.headers_edit.toPlainText(), ":"))
            saved = self.mcp.save(config, secrets)
        except ValueError as exc:
            self.error_label.setText(self.error_text(exc))
            return False
        self.server_id = saved.id
        self.reload(saved.id)
        return True

    def error_text(self, exc: Exception) -> str:
        code = exc.code if isinstance(exc, McpConfigError) else ""
        words = {
            "name-missing": self.tr("Give the server a name."),
            "command-missing": self.tr("Enter the command that starts the server."),
            "url-invalid": self.tr("Enter the server's http:// or https:// URL."),
            "name-taken": self.tr("Another server already has this name."),
            "keyring-unavailable": self.tr("No system keyring is available to keep the values."),
        }
        return words.get(code, self.tr("This server cannot be saved: %1").replace("%1", str(exc)))

    async def test_connection(self) -> None:
        try:
            config = self.form_config()
        except ValueError as exc:
            self.error_label.setText(self.error_text(exc))
            return
        secrets = self.mcp.merge_secrets(self.server_id, parse_pairs(self.env_edit.toPlainText(), "="),
                                         parse_pairs(self.headers_edit.toPlainText(), ":"))
        self.test_button.setEnabled(False)
        self.status_label.setText(self.tr("Testing…"))
        try:
            tools = await self.mcp.test(config, secrets)
        except McpConnectError as exc:
            self.status_label.setText(self.tr("The test failed: %1").replace("%1", str(exc)))
            return
        finally:
            self.test_button.setEnabled(True)
        self.status_label.setText(self.tr("The test connected: %1 tools").replace("%1", str(len(tools))))
        self._fill_tools(tools)

    # ---- tools -------------------------------------------------------------------------------

    def tool_controls(self, tool: str) -> tuple[QCheckBox, QComboBox] | None:
        """The on switch and the policy combo on `tool`'s row of the table (None: not listed)."""
        return self._tool_widgets.get(tool)

    def _fill_tools(self, tools: tuple[McpToolSpec, ...]) -> None:
        config = self.mcp.find(self.server_id) if self.server_id else None
        self._tool_widgets = {}
        self.tools_table.setRowCount(len(tools))
        for row, tool in enumerate(tools):
            name = QTableWidgetItem(tool.name)
            name.setToolTip(tool.description)
            name.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tools_table.setItem(row, 0, name)
            setting = config.tool_setting(tool.name) if config else None
            switch = QCheckBox(self)
            switch.setObjectName(f"mcpToolOn_{tool.name}")
            switch.setChecked(setting.enabled if setting else True)
            combo = self._policy_combo(f"mcpToolPolicy_{tool.name}")
            policy = (setting.policy if setting else None) or (config.default_policy if config else ToolPolicy.ASK)
            combo.setCurrentIndex(max(0, combo.findData(policy.value)))
            for widget in (switch, combo):
                widget.setEnabled(config is not None)  # choices belong to a saved server
            switch.toggled.connect(lambda _on, t=tool.name: self._tool_changed(t))
            combo.currentIndexChanged.connect(lambda _i, t=tool.name: self._tool_changed(t))
            self._tool_widgets[tool.name] = (switch, combo)
            self.tools_table.setCellWidget(row, 1, switch)
            self.tools_table.setCellWidget(row, 2, combo)
        self.tools_table.resizeColumnToContents(0)

    def _tool_changed(self, tool: str) -> None:
        widgets = self._tool_widgets.get(tool)
        if not self.server_id or widgets is None:
            return
        switch, combo = widgets
        self.mcp.set_tool(self.server_id, tool, switch.isChecked(), ToolPolicy(combo.currentData()))
