"""A window on screen before core is imported (core's imports take most of startup).

`show_splash()` needs only QtWidgets: the composition root calls it right after creating the
QApplication, then passes it to `start_ui(..., splash=...)`, which closes it once the first
`ChatWindow` is shown.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class Splash(QWidget):
    """A frameless card with the app name while core starts."""

    def __init__(self) -> None:
        super().__init__(None, Qt.WindowType.SplashScreen | Qt.WindowType.FramelessWindowHint)
        self.setObjectName("splash")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 28, 32, 28)
        title = QLabel(self.tr("Cherry Desktop"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600; color: #c2185b;")
        hint = QLabel(self.tr("Starting…"), self)
        hint.setStyleSheet("color: #6a737d;")
        layout.addWidget(title, 0, Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(hint, 0, Qt.AlignmentFlag.AlignCenter)
        self.setStyleSheet("QWidget#splash { background: #ffffff; border: 1px solid #e3e5e8; }")
        self.resize(320, 140)


def show_splash() -> Splash:
    splash = Splash()
    splash.show()
    splash.repaint()  # painted now, before the loop runs and core is imported
    return splash
