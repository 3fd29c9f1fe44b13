"""Where icons, style sheets and translations live, and the theme switch."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from cherry_desktop.core.assets import asset_dir

# Readable on each theme's message background (WCAG contrast >= 4.5).
LINK_COLOURS = {"light": "#0b57d0", "dark": "#8ab4f8"}


@cache
def resources_dir() -> Path:
    """The top-level `resources/` (icons, style sheets, bundled agent definitions)."""
    return asset_dir("resources")


@cache
def i18n_dir() -> Path:
    """The top-level `i18n/` (`.ts` sources; compiled `.qm` beside them when built)."""
    return asset_dir("i18n")


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
    # Rich text (Markdown links) takes its link colour from the palette, not the style sheet.
    palette = app.palette()
    palette.setColor(QPalette.ColorRole.Link, QColor(LINK_COLOURS[resolved]))
    palette.setColor(QPalette.ColorRole.LinkVisited, QColor(LINK_COLOURS[resolved]))
    app.setPalette(palette)
    app.setProperty("cherryTheme", resolved)
    return resolved
