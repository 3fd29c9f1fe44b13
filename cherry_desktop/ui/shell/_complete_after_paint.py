"""`CompleteAfterPaint`: a staged window completes right after its first paint."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class Completes(Protocol):
    def complete(self) -> None: ...


class CompleteAfterPaint(QObject):
    """Installed on a staged window: calls its `complete()` once it has painted (once)."""

    def __init__(self, window: QWidget, target: Completes) -> None:
        super().__init__(window)
        self._target = target
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self, self._target.complete)
        return False


__all__ = ["CompleteAfterPaint"]
