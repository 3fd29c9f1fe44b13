"""Usage and cost: rows' footers refreshed with their recorded usage, and a topic's totals line
(`usageSummary`). A model's prices are edited in `dialogs` (`ModelPricingDialog`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QLabel, QWidget

from cherry_desktop.ui.common import JsonObject

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import ChatsBridge, UsageSums


class FooterRow(Protocol):
    """A message row, as its footer's refresh needs it (its module imports this one)."""

    @property
    def message_id(self) -> str: ...

    @property
    def role(self) -> str: ...

    @property
    def live(self) -> bool: ...

    @property
    def footer(self) -> UsageFooter: ...


def refresh_footers(chats: ChatsBridge, rows: Sequence[FooterRow]) -> None:
    """Give assistant rows the usage recorded since they were loaded."""
    stored = chats.with_recorded_usage(r.message_id for r in rows if r.role == "assistant" and not r.live)
    for row in rows:
        found = stored.get(row.message_id)
        if found is not None:
            row.footer.set_stats(found.stats)


def format_cost(cost: float) -> str:
    return f"${cost:.4f}" if cost < 0.01 else f"${cost:.2f}"


class UsageSummary(QLabel):
    """A chat's or session's totals: tokens in / out, cache reads, cost."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageSummary")
        self.setVisible(False)

    def show_totals(self, sums: UsageSums | None) -> None:
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


def _num(stats: JsonObject, *keys: str) -> float | None:
    for key in keys:
        value = stats.get(key)
        if isinstance(value, int | float):
            return float(value)
    return None


class UsageFooter(QLabel):
    """Tokens and timings of a message ('' and hidden when nothing is known)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageFooter")
        self.setVisible(False)

    def set_stats(self, stats: JsonObject | None) -> None:
        text = self.format(stats)
        self.setText(text)
        self.setVisible(bool(text))

    def format(self, stats: JsonObject | None) -> str:
        if not stats:
            return ""
        raw_usage = stats.get("usage")
        usage: JsonObject = raw_usage if isinstance(raw_usage, dict) else stats
        parts: list[str] = []
        tin = _num(usage, "input_tokens", "prompt_tokens", "inputTokens")
        tout = _num(usage, "output_tokens", "completion_tokens", "outputTokens")
        if tin is not None or tout is not None:
            parts.append(self.tr("%1 in · %2 out tokens").replace("%1", str(int(tin or 0)))
                         .replace("%2", str(int(tout or 0))))
        ttft = _num(stats, "time_first_token_ms", "timeFirstTokenMs")
        total = _num(stats, "time_completion_ms", "timeCompletionMs", "duration_ms")
        if ttft is not None:
            parts.append(self.tr("first token %1 s").replace("%1", f"{ttft / 1000:.2f}"))
        if total is not None:
            parts.append(self.tr("%1 s total").replace("%1", f"{total / 1000:.1f}"))
        cache_reads = _num(stats, "cache_read_tokens")
        if cache_reads:
            parts.append(self.tr("%1 cache reads").replace("%1", str(int(cache_reads))))
        cost = _num(stats, "cost")
        if cost is not None:
            parts.append(format_cost(cost))
        return " · ".join(parts)
