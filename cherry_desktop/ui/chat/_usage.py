"""Usage and cost: rows' footers refreshed with their recorded usage, a topic's totals line
(`usageSummary`), and the price editor of a model (USD per million tokens)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel, QWidget

from cherry_desktop.ui.bridge import with_usage


def refresh_footers(bridge: Any, rows: list[Any]) -> None:
    """Give assistant rows (MessageRow) the usage recorded since they were loaded."""
    ids = [r.message_id for r in rows if r.role == "assistant" and not r.live]
    usage = bridge.repos.costs.by_message(ids)
    for row in rows:
        sums = usage.get(row.message_id)
        if sums is None or sums.empty:
            continue
        stored = bridge.repos.session_messages.find_message(row.message_id) or bridge.repos.messages.find_message(
            row.message_id)
        if stored is not None:
            row.footer.set_stats(with_usage([stored], usage)[0].stats)


def format_cost(cost: float) -> str:
    return f"${cost:.4f}" if cost < 0.01 else f"${cost:.2f}"


class UsageSummary(QLabel):
    """A chat's or session's totals: tokens in / out, cache reads, cost."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageSummary")
        self.setVisible(False)

    def show_totals(self, sums: Any) -> None:
        if sums is None or sums.empty:
            self.setVisible(False)
            return
        parts = [self.tr("Total: %1 in · %2 out tokens").replace("%1", f"{sums.input_tokens:,}")
                 .replace("%2", f"{sums.output_tokens:,}")]
        if sums.cache_read_tokens:
            parts.append(self.tr("%1 cache reads").replace("%1", f"{sums.cache_read_tokens:,}"))
        if sums.cost is not None:
            parts.append(format_cost(sums.cost))
        elif len(sums.models) <= 1:
            parts.append(self.tr("no price set for its model"))
        else:
            parts.append(self.tr("no prices for some models"))
        self.setText(" · ".join(parts))
        self.setToolTip("" if sums.cost is not None else self.tr("Prices are set per model: Providers ▸ Prices…"))
        self.setVisible(True)


class ModelPricingDialog(QDialog):
    """Edit a model's prices; all zero removes them (no cost shown)."""

    FIELDS = ("input", "output", "cache_read", "cache_write")

    def __init__(self, bridge: Any, unique_model_id: str, parent: QWidget | None = None) -> None:
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
            spin.setValue(getattr(current, name) if current is not None else 0.0)
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
