"""A chat's model: the picker in the chat header, and the words for why a chat cannot send."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import ChatIssue, ChatModelChoice

# Codes of `AiService.ModelResolutionError` that mean the same to a user as a chat issue.
_CODE_ALIASES = {
    "provider-not-found": "model-unavailable",
    "bad-model-id": "model-unavailable",
    "unknown-provider-type": "model-unavailable",
}


class IssueWords(QObject):
    """Translated words for chat issues and the typed errors of a failed send."""

    def keyring_hint(self) -> str:
        # Same words as core's `credentials.FIX_HINT` (a test keeps them equal), translated.
        return self.tr(
            "No usable keyring backend was found, so API keys cannot be stored. "
            "On Linux install and unlock a Secret Service provider (GNOME Keyring or KWallet), "
            "or `pip install keyrings.alt` for a file-based keyring; then restart Cherry Desktop.")

    def describe(self, issue: ChatIssue) -> str:
        name = issue.provider_name or issue.provider_id
        if issue.code == "no-model":
            return self.tr("This chat has no model yet. Choose one in the Model list above.")
        if issue.code == "provider-disabled":
            return self.tr("%1 is turned off. Turn it on in Providers, or choose another model.").replace("%1", name)
        if issue.code == "missing-key":
            return self.tr("%1 needs an API key. Add it in Providers, then send again.").replace("%1", name)
        if issue.code == "keyring-unavailable":
            return self.tr("%1 needs an API key, but no key can be stored on this system.").replace("%1", name) \
                + " " + self.keyring_hint()
        if issue.code == "extra-model-skipped":
            return self.tr("%1 is not asked: %2 has no API key or is turned off. Add the key in Providers, "
                           "or uncheck the model in “Compare with…”; the other models answer.") \
                .replace("%1", issue.model_name).replace("%2", name)
        if issue.code == "extra-model-unavailable":
            return self.tr("A model this chat also asked is no longer available and is not asked any more. "
                           "Choose others with “Compare with…”.")
        return self.tr("The model of this chat is no longer available. Choose another one.")

    def describe_code(self, code: str | None, provider_name: str = "") -> str | None:
        """Words for a typed error code of core (None when the code has no words here)."""
        code = _CODE_ALIASES.get(code or "", code)
        if code in ("no-model", "model-unavailable", "provider-disabled", "missing-key", "keyring-unavailable"):
            return self.describe(ChatIssue(code, provider_name))
        return None

    def describe_session_issue(self, code: str) -> str:
        """Why an agent session's queued messages are on hold (the host's published issue)."""
        if code in ("model-not-found", "provider-not-found"):
            return self.describe(ChatIssue("model-unavailable"))
        if code == "agent-edit-not-applied":
            return self.tr("The agent's new settings could not be applied to the running session, so it was "
                           "paused. Queued messages wait until you resume them.")
        if code in ("placeholder-failed", "turn-start-failed"):
            return self.tr("The next queued message could not be started. It stays queued; resume it when ready.")
        return self.tr("Queued messages are on hold: this session cannot run (%1).").replace("%1", code)

    def describe_error(self, exc: BaseException) -> str | None:
        from cherry_desktop.core.storage.credentials import KeyringUnavailableError

        if isinstance(exc, KeyringUnavailableError):
            return self.keyring_hint()
        # Core's typed errors carry a `code` (several classes, no common base); others do not.
        return self.describe_code(getattr(exc, "code", None))


class ModelCombo(QComboBox):
    """As wide as its longest model where there is room; in a narrow window it shrinks to
    `MIN_CHARS` characters and elides (insisting on its longest text squeezed the sidebar)."""

    MIN_CHARS = 14

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(self.MIN_CHARS)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        # Qt recomputes a combo's geometry on new items only when it adjusts to its contents.
        model = self.model()
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.dataChanged):
            signal.connect(self.updateGeometry)

    def sizeHint(self) -> QSize:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        widest = max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        width = self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option,
                                              QSize(widest, metrics.height()), self).width()
        return QSize(max(width, self.minimumSizeHint().width()), super().sizeHint().height())


class ChatHeader(QFrame):
    """Under a chat's title: its model picker, a Providers button, and a notice saying what
    keeps the chat from sending (no model, no key, provider off) with a way to fix it.

    Several models can answer each message: "Compare with" checks more models besides the
    chat's own (then every message asks all of them at once, side by side).

    Signals:
        model_chosen(str): the user picked this unique model id for the chat.
        extra_models_chosen(list): the unique model ids to ask besides the chat's model.
        providers_requested(str): open Providers (on this provider id, or '' for none).
    """

    model_chosen = Signal(str)
    extra_models_chosen = Signal(list)
    providers_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatHeader")
        self.words = IssueWords(self)
        self.issue: ChatIssue | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 6, 14, 6)
        layout.setSpacing(4)
        row = QHBoxLayout()
        row.setSpacing(8)
        label = QLabel(self.tr("Model"), self)
        label.setObjectName("rowHeader")
        row.addWidget(label)
        self.picker = ModelCombo(self)
        self.picker.setObjectName("chatModelPicker")
        self.picker.activated.connect(self._on_activated)
        row.addWidget(self.picker)
        self.compare_button = QToolButton(self)
        self.compare_button.setObjectName("compareModelsButton")
        self.compare_button.setToolTip(self.tr("Ask several models at once; their answers show side by side"))
        self.compare_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.compare_menu = QMenu(self.compare_button)
        self.compare_menu.setObjectName("compareModelsMenu")
        self.compare_menu.setToolTipsVisible(True)
        self.compare_button.setMenu(self.compare_menu)
        row.addWidget(self.compare_button)
        self.choices: list[ChatModelChoice] = []
        self.extra: list[str] = []
        self.compare_actions: dict[str, QAction] = {}
        self.only_own_action = self.compare_menu.addAction(self.tr("Ask only this chat's model"), self._clear_extra)
        self.manage_button = QPushButton(self.tr("Providers…"), self)
        self.manage_button.setObjectName("manageProvidersButton")
        self.manage_button.setToolTip(self.tr("Add providers, models and API keys"))
        self.manage_button.clicked.connect(lambda: self.providers_requested.emit(""))
        row.addWidget(self.manage_button)
        row.addStretch(1)
        layout.addLayout(row)
        notice_row = QHBoxLayout()
        self.notice = QLabel(self)
        self.notice.setObjectName("chatNotice")
        self.notice.setWordWrap(True)
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        notice_row.addWidget(self.notice, 1)
        self.fix_button = QPushButton(self.tr("Open Providers…"), self)
        self.fix_button.setObjectName("fixIssueButton")
        self.fix_button.clicked.connect(lambda: self.providers_requested.emit(self.issue.provider_id
                                                                              if self.issue else ""))
        notice_row.addWidget(self.fix_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(notice_row)
        self.set_issue(None)

    def set_models(self, choices: list[ChatModelChoice], current: str | None) -> None:
        """Fill the picker: one entry per model ("Model · Provider"); the chat's model stays
        listed (marked) even when its provider is gone or off."""
        self.picker.blockSignals(True)
        self.picker.clear()
        if not current:
            self.picker.addItem(self.tr("Choose a model…"), "")
        last_provider = None
        for choice in choices:
            if last_provider is not None and choice.provider_id != last_provider:
                self.picker.insertSeparator(self.picker.count())
            last_provider = choice.provider_id
            self.picker.addItem(f"{choice.name} · {choice.provider_name}", choice.unique_model_id)
        if current and self.picker.findData(current) < 0:
            self.picker.insertItem(0, self.tr("%1 (unavailable)").replace("%1", current), current)
        if not choices:
            self.picker.addItem(self.tr("No models: add a provider first"), "")
        index = self.picker.findData(current or "")
        self.picker.setCurrentIndex(max(index, 0))
        self.picker.blockSignals(False)
        self.choices = list(choices)
        self._fill_compare_menu()

    # -- several models ------------------------------------------------------------------------
    def set_extra_models(self, unique_model_ids: list[str]) -> None:
        """Show which models are asked besides the chat's own (no signal)."""
        self.extra = list(unique_model_ids)
        self._sync_compare()

    def extra_models(self) -> list[str]:
        """The checked models that are not the chat's own (the ones a send adds)."""
        current = self.current_model()
        return [m for m in self.extra if m != current]

    def toggle_extra_model(self, unique_model_id: str, checked: bool) -> None:
        """Check or uncheck a model to ask too, as the user would (tests, keyboard)."""
        extra = [m for m in self.extra if m != unique_model_id]
        if checked:
            extra.append(unique_model_id)
        self.extra = extra
        self._sync_compare()
        self.extra_models_chosen.emit(list(extra))

    def _fill_compare_menu(self) -> None:
        """Rebuild the menu (the models changed); never from one of its own actions' signals."""
        menu = self.compare_menu
        menu.clear()
        current = self.current_model()
        self.compare_actions = {}
        for choice in self.choices:
            if choice.unique_model_id == current:
                continue
            words = f"{choice.name} · {choice.provider_name}"
            action = menu.addAction(words if choice.usable else self.tr("%1 (needs an API key)").replace("%1", words))
            action.setCheckable(True)
            if not choice.usable:
                action.setToolTip(self.tr("Add the key of %1 in Providers to ask this model").replace(
                    "%1", choice.provider_name))
            action.toggled.connect(lambda on, umid=choice.unique_model_id: self.toggle_extra_model(umid, on))
            self.compare_actions[choice.unique_model_id] = action
        menu.addSeparator()
        self.only_own_action = menu.addAction(self.tr("Ask only this chat's model"), self._clear_extra)
        self._sync_compare()

    def _sync_compare(self) -> None:
        """Check marks and the button's words from `extra`, without rebuilding the menu."""
        usable = {c.unique_model_id: c.usable for c in self.choices}
        for umid, action in self.compare_actions.items():
            if action.isChecked() != (umid in self.extra):
                action.blockSignals(True)
                action.setChecked(umid in self.extra)
                action.blockSignals(False)
            # A model without its key cannot be picked; one picked before its key went can be
            # unchecked (until then each send leaves it out).
            action.setEnabled(usable.get(umid, True) or umid in self.extra)
        chosen = self.extra_models()
        self.only_own_action.setEnabled(bool(chosen))
        # Marked as in the menu: a model left out of each send for lack of its key.
        names = {c.unique_model_id: c.name if c.usable else self.tr("%1 (needs an API key)").replace("%1", c.name)
                 for c in self.choices}
        self.compare_button.setText(self.tr("+ %1").replace("%1", ", ".join(names.get(m, m) for m in chosen))
                                    if chosen else self.tr("Compare with…"))
        self.compare_button.setEnabled(bool(self.compare_actions))

    def _clear_extra(self) -> None:
        self.extra = []
        self._sync_compare()
        self.extra_models_chosen.emit([])

    def current_model(self) -> str | None:
        return self.picker.currentData() or None

    def choose(self, unique_model_id: str) -> None:
        """Pick a model as the user would (tests, keyboard)."""
        index = self.picker.findData(unique_model_id)
        if index >= 0:
            self.picker.setCurrentIndex(index)
            self._on_activated(index)

    def _on_activated(self, index: int) -> None:
        value = self.picker.itemData(index)
        if value:
            self.model_chosen.emit(str(value))

    def set_issue(self, issue: ChatIssue | None) -> None:
        self.issue = issue
        self.notice.setText(self.words.describe(issue) if issue is not None else "")
        self.notice.setVisible(issue is not None)
        self.fix_button.setVisible(issue is not None and issue.code != "no-model")

    def notice_text(self) -> str:
        return self.notice.text() if self.issue is not None else ""
