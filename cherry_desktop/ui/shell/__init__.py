"""The shell around the parts of the screen: `ChatWindow` (one window, wiring the parts), the
`UiController` that owns every window, and the process around them (event loop, splash,
single instance, stop signals, themes and icons, translations, storage faults).

The process modules (`event_loop`, `splash`, `single_instance`, `stop_signals`, `i18n`,
`storage_fault`, `qt_probe`, `pyside_feature_scan`) are public modules of their own: the app
imports them one by one around its first paint. The names below load on first use, so
importing `cherry_desktop.ui.shell.splash` paints before the window's modules (and core) load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cherry_desktop.ui._lazy import lazy_getattr

if TYPE_CHECKING:
    from cherry_desktop.ui.shell._controller import HIGHLIGHT_WARM_UP_MS, UiController
    from cherry_desktop.ui.shell._export import export_topic, fenced
    from cherry_desktop.ui.shell._multi_model import choose_answer
    from cherry_desktop.ui.shell._resources import apply_theme
    from cherry_desktop.ui.shell._window import SIDEBAR_MIN_WIDTH, ChatWindow

__all__ = [
    "HIGHLIGHT_WARM_UP_MS", "SIDEBAR_MIN_WIDTH", "ChatWindow", "UiController", "apply_theme", "choose_answer",
    "export_topic", "fenced",
]

_LAZY = {
    "ChatWindow": "cherry_desktop.ui.shell._window",
    "HIGHLIGHT_WARM_UP_MS": "cherry_desktop.ui.shell._controller",
    "SIDEBAR_MIN_WIDTH": "cherry_desktop.ui.shell._window",
    "UiController": "cherry_desktop.ui.shell._controller",
    "apply_theme": "cherry_desktop.ui.shell._resources",
    "choose_answer": "cherry_desktop.ui.shell._multi_model",
    "export_topic": "cherry_desktop.ui.shell._export",
    "fenced": "cherry_desktop.ui.shell._export",
}


__getattr__ = lazy_getattr(__name__, _LAZY)
