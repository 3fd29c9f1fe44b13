"""Settings > API gateway: turn the local API on, its port, its key (copy, regenerate), the
base URL, and copyable examples for curl, the OpenAI SDK and Claude Code."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.common import spawn

_EXAMPLE_MODEL = "provider_id:model_id"


@runtime_checkable
class _Status(Protocol):
    """Core's `GatewayStatus`, seen from the UI."""

    state: str
    port: int
    base_url: str


def examples(base_url: str, key: str) -> dict[str, str]:
    """The copyable examples, filled with this gateway's URL and key (code, never translated)."""
    return {
        "curl": (f"curl -N {base_url}/v1/chat/completions \\\n  -H \"Authorization: Bearer {key}\" \\\n"
                 f"  -d '{{\"model\": \"{_EXAMPLE_MODEL}\", \"stream\": true,\n"
                 "       \"messages\": [{\"role\": \"user\", \"content\": \"Hello\"}]}'"),
        "openai": ("from openai import OpenAI\n\n"
                   f"client = OpenAI(base_url=\"{base_url}/v1\", api_key=\"{key}\")\n"
                   f"reply = client.chat.completions.create(model=\"{_EXAMPLE_MODEL}\",\n"
                   "    messages=[{\"role\": \"user\", \"content\": \"Hello\"}])\n"
                   "print(reply.choices[0].message.content)"),
        "claude": (f"ANTHROPIC_BASE_URL={base_url} ANTHROPIC_API_KEY={key} \\\n"
                   f"  claude --model {_EXAMPLE_MODEL}"),
    }


class GatewaySettingsPanel(QWidget):
    """The API gateway tab; changes apply at once (like the Providers tab's)."""

    def __init__(self, gateway: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("gatewaySettings")
        self.gateway = gateway
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr(
            "Serves Cherry's models and agents as a local API (Anthropic Messages, OpenAI chat completions, "
            "agents and topics over SSE) on 127.0.0.1 only. Claude Code agents on models that are not "
            "Anthropic-compatible run through it."), self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        layout.addLayout(form)
        self.enabled = QCheckBox(self.tr("Run the API gateway"), self)
        self.enabled.setObjectName("gatewayEnabled")
        form.addRow(self.enabled)
        self.port = QSpinBox(self)
        self.port.setObjectName("gatewayPort")
        self.port.setRange(1, 65535)
        form.addRow(self.tr("Port"), self.port)
        self.status = QLabel(self)
        self.status.setObjectName("gatewayStatus")
        self.status.setWordWrap(True)
        form.addRow(self.tr("Status"), self.status)
        self.base_url = QLineEdit(self)
        self.base_url.setObjectName("gatewayBaseUrl")
        self.base_url.setReadOnly(True)
        form.addRow(self.tr("Base URL"), self._with_copy(self.base_url, "gatewayCopyUrl"))
        self.key = QLineEdit(self)
        self.key.setObjectName("gatewayKey")
        self.key.setReadOnly(True)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        key_row = self._with_copy(self.key, "gatewayCopyKey")
        self.show_key = QPushButton(self.tr("Show"), self)
        self.show_key.setObjectName("gatewayShowKey")
        self.show_key.setCheckable(True)
        self.show_key.toggled.connect(self._toggle_key)
        self.regenerate = QPushButton(self.tr("Regenerate"), self)
        self.regenerate.setObjectName("gatewayRegenerate")
        self.regenerate.clicked.connect(self._regenerate)
        key_box = key_row.layout()
        assert key_box is not None
        key_box.addWidget(self.show_key)
        key_box.addWidget(self.regenerate)
        form.addRow(self.tr("API key"), key_row)
        self.example_kind = QComboBox(self)
        self.example_kind.setObjectName("gatewayExampleKind")
        self.example_kind.addItem("curl", "curl")
        self.example_kind.addItem(self.tr("OpenAI SDK (Python)"), "openai")
        self.example_kind.addItem("Claude Code", "claude")
        self.example_kind.currentIndexChanged.connect(self._refresh_example)
        form.addRow(self.tr("Example"), self.example_kind)
        self.example = QPlainTextEdit(self)
        self.example.setObjectName("gatewayExample")
        self.example.setReadOnly(True)
        self.example.setMinimumHeight(110)
        layout.addWidget(self._with_copy(self.example, "gatewayCopyExample"))
        layout.addStretch(1)
        enabled, port = gateway.enabled_and_port()
        self.enabled.setChecked(enabled)
        self.port.setValue(port)
        self.enabled.toggled.connect(self._apply)
        self.port.editingFinished.connect(self._apply_port)
        gateway.status_changed.connect(self._show_status)
        self.setEnabled(gateway.available)
        self._show_status(gateway.status())

    def _with_copy(self, field: QWidget, name: str) -> QWidget:
        row = QWidget(self)
        box = QHBoxLayout(row)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(field, 1)
        button = QPushButton(self.tr("Copy"), row)
        button.setObjectName(name)
        button.clicked.connect(lambda: self._copy(field))
        box.addWidget(button)
        return row

    @staticmethod
    def _copy(field: QWidget) -> None:
        if isinstance(field, QPlainTextEdit):
            QGuiApplication.clipboard().setText(field.toPlainText())
        elif isinstance(field, QLineEdit):
            QGuiApplication.clipboard().setText(field.text())

    def _toggle_key(self, shown: bool) -> None:
        self.key.setEchoMode(QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password)
        self.show_key.setText(self.tr("Hide") if shown else self.tr("Show"))

    def _apply(self) -> None:
        spawn(self.gateway.apply(self.enabled.isChecked(), self.port.value()))

    def _apply_port(self) -> None:
        if self.port.value() != self.gateway.enabled_and_port()[1]:
            self._apply()

    def _regenerate(self) -> None:
        self.gateway.regenerate_key()
        self._show_status(self.gateway.status())

    def _show_status(self, status: Any) -> None:
        known = isinstance(status, _Status)
        state = status.state if known else "off"
        port = status.port if known else self.port.value()
        words = {
            "running": self.tr("Running. Requests need the API key below."),
            "off": self.tr("Off."),
            "port-in-use": self.tr("Port %1 on 127.0.0.1 is in use by another program: choose another port."),
            "no-keyring": self.tr("No keyring is available to keep the API key in: the gateway cannot run."),
        }
        self.status.setText(words.get(state, words["off"]).replace("%1", str(port)))
        url = (status.base_url if known else "") or f"http://127.0.0.1:{self.port.value()}"
        self.base_url.setText(url)
        self.key.setText(self.gateway.key())
        self.regenerate.setEnabled(bool(self.key.text()))
        self._refresh_example()

    def _refresh_example(self) -> None:
        key = self.key.text() or "cs-sk-..."
        self.example.setPlainText(examples(self.base_url.text(), key)[self.example_kind.currentData() or "curl"])
