"""Where icons, style sheets and translations live, and the theme switch."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

_PACKAGE = Path(__file__).resolve().parent.parent
_REPO = _PACKAGE.parent


def _first_dir(*candidates: Path) -> Path:
    for path in candidates:
        if path.is_dir():
            return path
    return candidates[-1]


@cache
def resources_dir() -> Path:
    """`resources/` of a source checkout, or the copy packaged inside `cherry_desktop/`."""
    return _first_dir(_PACKAGE / "resources", _REPO / "resources")


@cache
def i18n_dir() -> Path:
    return _first_dir(_PACKAGE / "i18n", _REPO / "i18n")


def icon(name: str) -> QIcon:
    path = resources_dir() / "icons" / f"{name}.svg"
    return QIcon(str(path)) if path.exists() else QIcon()


def resolve_theme(theme: str) -> str:
    """'light' or 'dark' for a setting of 'system', 'light' or 'dark'."""
    if theme in ("light", "dark"):
        return theme
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


def apply_theme(app: QApplication, theme: str) -> str:
    """Apply the light or dark style sheet; returns the one applied."""
    resolved = resolve_theme(theme)
    path = resources_dir() / "styles" / f"{resolved}.qss"
    app.setStyleSheet(path.read_text(encoding="utf-8") if path.exists() else "")
    app.setProperty("cherryTheme", resolved)
    return resolved
