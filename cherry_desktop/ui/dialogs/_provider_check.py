"""A provider's "Test connection" and "Fetch models…": one request each, the outcome worded
under the buttons (a failure with the same words a chat's error has, and the provider's own
detail), and the fetched list in a dialog to pick from."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import ProviderCheckFailedError, ProvidersBridge
from cherry_desktop.ui.chat import ErrorWords
from cherry_desktop.ui.common import spawn

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import RemoteModel

ID_ROLE = Qt.ItemDataRole.UserRole


class ProviderCheckRow(QWidget):
    """The two buttons and the line that says how the last check went.

    `provider` and `model` are read when a button is pressed (the panel's current provider
    and its selected model, else its first); `before` runs first (the panel stores a key
    still being typed, so the test uses it).

    Signals:
        models_added(list): unique model ids added from a fetched list.
    """

    models_added = Signal(list)

    def __init__(self, bridge: ProvidersBridge, provider: Callable[[], str | None], model: Callable[[], str | None],
                 before: Callable[[], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.provider, self.model, self.before = provider, model, before
        self.words = ErrorWords(self)
        self.task: asyncio.Task[None] | None = None
        self.picker: FetchedModelsDialog | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.clicked.connect(self.test_connection)
        self.fetch_button = QPushButton(self.tr("Fetch models…"), self)
        self.fetch_button.setObjectName("fetchModelsButton")
        self.fetch_button.clicked.connect(self.fetch_models)
        row.addWidget(self.test_button)
        row.addWidget(self.fetch_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.status = QLabel(self)
        self.status.setObjectName("providerCheckStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()
        layout.addWidget(self.status)

    def clear(self) -> None:
        """Another provider was selected: the last outcome is not about it."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self._busy(False)
        self.status.clear()
        self.status.hide()

    def _say(self, text: str, *, ok: bool) -> None:
        self.status.setProperty("ok", ok)
        self.status.setText(text)
        self.status.show()

    def _busy(self, busy: bool) -> None:
        self.test_button.setEnabled(not busy)
        self.fetch_button.setEnabled(not busy)

    def _failure(self, exc: ProviderCheckFailedError, *, fetching: bool) -> str:
        if fetching and exc.no_model_list:
            headline = self.tr("This provider does not list its models: add them by id below.")
        else:
            headline = self.words.headline(exc.code)
        return f"{headline}\n{exc.detail}" if exc.detail else headline

    def _start(self, run: Callable[[str], object], waiting: str) -> None:
        provider_id = self.provider()
        if provider_id is None or not self.before():
            return
        self.clear()
        self._busy(True)
        self._say(waiting, ok=True)
        self.task = spawn(run(provider_id))  # type: ignore[arg-type]

    def test_connection(self) -> None:
        self._start(self._test, self.tr("Testing the connection…"))

    def fetch_models(self) -> None:
        self._start(self._fetch, self.tr("Asking the provider for its models…"))

    async def _test(self, provider_id: str) -> None:
        model = self.model()
        try:
            result = await self.bridge.check_connection(provider_id, model)
        except ProviderCheckFailedError as exc:
            self._say(self._failure(exc, fetching=False), ok=False)
        else:
            if result.model is not None:
                self._say(self.tr("Connected: %1 answered.").replace("%1", result.model), ok=True)
            else:
                self._say(self.tr("Connected. Models the provider lists: %1.").replace(
                    "%1", str(result.model_count or 0)), ok=True)
        finally:
            self._busy(False)
            self.task = None

    async def _fetch(self, provider_id: str) -> None:
        try:
            models = await self.bridge.fetch_models(provider_id)
        except ProviderCheckFailedError as exc:
            self._say(self._failure(exc, fetching=True), ok=False)
            return
        finally:
            self._busy(False)
            self.task = None
        self._say(self.tr("Models the provider lists: %1.").replace("%1", str(len(models))), ok=True)
        have = {m.model_id for m in self.bridge.list_models(provider_id)}
        self.picker = FetchedModelsDialog(models, have, self)
        self.picker.accepted.connect(lambda: self._add_picked(provider_id))
        self.picker.open()

    def _add_picked(self, provider_id: str) -> None:
        if self.picker is None:
            return
        added = self.bridge.add_models(provider_id, self.picker.chosen())
        self._say(self.tr("Models added: %1.").replace("%1", str(len(added))), ok=True)
        self.models_added.emit(added)


class FetchedModelsDialog(QDialog):
    """The provider's models, to tick the ones to add; those already added stay ticked and
    greyed. A filter narrows a long list (OpenRouter lists hundreds)."""

    def __init__(self, models: list[RemoteModel], have: set[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fetchedModelsDialog")
        self.setWindowTitle(self.tr("Add models"))
        layout = QVBoxLayout(self)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("fetchedModelsFilter")
        self.filter.setPlaceholderText(self.tr("Filter"))
        self.filter.textChanged.connect(self._apply_filter)
        layout.addWidget(self.filter)
        self.list = QListWidget(self)
        self.list.setObjectName("fetchedModelsList")
        for model in models:
            text = f"{model.name}  ({model.model_id})" if model.name else model.model_id
            item = QListWidgetItem(text, self.list)
            item.setData(ID_ROLE, (model.model_id, model.name))
            present = model.model_id in have
            item.setCheckState(Qt.CheckState.Checked if present else Qt.CheckState.Unchecked)
            if present:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
        layout.addWidget(self.list, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.add_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.add_button.setText(self.tr("Add selected"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(460, min(560, 140 + 26 * max(4, len(models))))

    def items(self) -> list[QListWidgetItem]:
        return [item for i in range(self.list.count()) if (item := self.list.item(i)) is not None]

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        for item in self.items():
            item.setHidden(bool(needle) and needle not in item.text().lower())

    def chosen(self) -> list[tuple[str, str]]:
        """(model id, name) of the ticked models not added before."""
        return [item.data(ID_ROLE) for item in self.items()
                if item.checkState() == Qt.CheckState.Checked and item.flags() & Qt.ItemFlag.ItemIsEnabled]
