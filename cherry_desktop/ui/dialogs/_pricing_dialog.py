"""A model's prices (USD per million tokens), from the providers dialog's "Prices…"."""

from __future__ import annotations

from dataclasses import asdict

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel, QWidget

from cherry_desktop.ui.bridge import ProvidersBridge


class ModelPricingDialog(QDialog):
    """Edit a model's prices; all zero removes them (no cost shown)."""

    FIELDS = ("input", "output", "cache_read", "cache_write")

    def __init__(self, bridge: ProvidersBridge, unique_model_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelPricingDialog")
        self.setWindowTitle(self.tr("Prices of %1").replace("%1", unique_model_id))
        self.bridge = bridge
        self.unique_model_id = unique_model_id
        form = QFormLayout(self)
        form.addRow(QLabel(self.tr("USD per million tokens")))
        labels = {"input": self.tr("Input"), "output": self.tr("Output"), "cache_read": self.tr("Cache reads"),
                  "cache_write": self.tr("Cache writes")}
        current = bridge.model_pricing(unique_model_id)
        self.spins: dict[str, QDoubleSpinBox] = {}
        for name in self.FIELDS:
            spin = QDoubleSpinBox(self)
            spin.setObjectName(f"price_{name}")
            spin.setDecimals(4)
            spin.setRange(0.0, 10_000.0)
            spin.setValue(float(asdict(current)[name]) if current is not None else 0.0)
            self.spins[name] = spin
            form.addRow(labels[name], spin)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def save(self) -> None:
        values = {name: spin.value() for name, spin in self.spins.items()}
        self.bridge.set_model_pricing(self.unique_model_id, values if any(values.values()) else None)
        self.accept()
