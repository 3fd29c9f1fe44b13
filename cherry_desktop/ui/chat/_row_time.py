"""`RowTime`: when a message was written, small and muted beside its row's header: the time
today, "Yesterday" and the time, else the date and time (the short formats of the app's
language, `QLocale()`); the tooltip says the full date and time. `refresh_row_times` words
them again when the day changes (the app's `DayTimer`)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt
from PySide6.QtWidgets import QLabel, QWidget


def time_text(moment: QDateTime, now: QDateTime) -> str:
    """The label's words for `moment`, seen at `now` (both local)."""
    locale = QLocale()
    clock = locale.toString(moment.time(), QLocale.FormatType.ShortFormat)
    days = moment.date().daysTo(now.date())
    if days == 0:
        return clock
    if days == 1:
        return QCoreApplication.translate("RowTime", "Yesterday %1").replace("%1", clock)
    return f"{locale.toString(moment.date(), QLocale.FormatType.ShortFormat)} {clock}"


class RowTime(QLabel):
    """The time of one message row (`set_time` in milliseconds since the epoch)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rowTime")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.moment: QDateTime | None = None

    def set_time(self, epoch_ms: int | float | None) -> None:
        """Show `epoch_ms` (None: now, for a row made live)."""
        moment = (QDateTime.currentDateTime() if epoch_ms is None
                  else QDateTime.fromMSecsSinceEpoch(int(epoch_ms)).toLocalTime())
        self.moment = moment
        self.refresh()

    def refresh(self) -> None:
        """Word the time again as seen now: after midnight, or a language change."""
        if self.moment is None:
            return
        self.setText(time_text(self.moment, QDateTime.currentDateTime()))
        self.setToolTip(QLocale().toString(self.moment, QLocale.FormatType.LongFormat))


def refresh_row_times(root: QWidget) -> None:
    """Every row time under `root` worded again (the day changed)."""
    for label in root.findChildren(RowTime):
        label.refresh()
