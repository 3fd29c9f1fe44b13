"""Where icons, style sheets and translations live, and the theme switch."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from cherry_desktop.core.storage.assets import asset_dir

_R = QPalette.ColorRole
# Links are readable on each theme's message background (WCAG contrast >= 4.5).
PALETTES: dict[str, dict[QPalette.ColorRole, str]] = {
    "light": {_R.Link: "#0b57d0", _R.LinkVisited: "#0b57d0"},
    "dark": {
        _R.Window: "#1e1f22", _R.WindowText: "#e6e6e6", _R.Base: "#1e1f22", _R.AlternateBase: "#2b2d31",
        _R.Text: "#e6e6e6", _R.Button: "#26282c", _R.ButtonText: "#e6e6e6", _R.BrightText: "#ffffff",
        _R.ToolTipBase: "#2b2d31", _R.ToolTipText: "#e6e6e6", _R.PlaceholderText: "#9aa0a6",
        _R.Highlight: "#3b3f58", _R.HighlightedText: "#ffffff", _R.Link: "#8ab4f8", _R.LinkVisited: "#8ab4f8",
        _R.Light: "#3a3c42", _R.Midlight: "#2f3136", _R.Mid: "#3a3c42", _R.Dark: "#141517", _R.Shadow: "#000000",
    },
}


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
    app.setProperty("cherryTheme", resolved)  # before the style change reaches the widgets
    app.setStyleSheet(path.read_text(encoding="utf-8") if path.exists() else "")
    # Rich text (Markdown links) and widgets the style sheet does not name (a tab page, a
    # tooltip, a list's rows) take their colours from the palette: it follows the theme too.
    palette = app.style().standardPalette()
    for role, colour in PALETTES[resolved].items():
        palette.setColor(role, QColor(colour))
    app.setPalette(palette)
    return resolved
