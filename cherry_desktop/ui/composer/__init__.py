"""Writing a message: the composer, its attachment tray, the queue dock above it.
"""

from __future__ import annotations

from cherry_desktop.ui.composer._attach_send import SentFiles
from cherry_desktop.ui.composer._composer import Composer, QueueDock

__all__ = [
    "Composer", "QueueDock", "SentFiles"
]
