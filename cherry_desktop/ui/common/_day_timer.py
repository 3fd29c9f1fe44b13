"""`DayTimer`: `day_changed` fires just after each local midnight, so words that depend on
the day ("Yesterday", a time without a date) can be worked out again."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QObject, Qt, QTime, QTimer, Signal

#: Fired this long after midnight (a timer may come due a little early).
PAST_MIDNIGHT_MS = 1_000


def msecs_to_next_day(now: QDateTime) -> int:
    """Milliseconds from `now` (local) to just past the next local midnight."""
    midnight = QDateTime(now.date().addDays(1), QTime(0, 0))
    return max(0, now.msecsTo(midnight)) + PAST_MIDNIGHT_MS


class DayTimer(QObject):
    day_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.VeryCoarseTimer)
        self._timer.timeout.connect(self._on_timeout)
        self._arm()

    def _arm(self) -> None:
        self._timer.start(msecs_to_next_day(QDateTime.currentDateTime()))

    def _on_timeout(self) -> None:
        self._arm()
        self.day_changed.emit()
