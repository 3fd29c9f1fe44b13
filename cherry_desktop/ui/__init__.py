"""The Qt app: windows as renderers of core's streams. The only package importing Qt widgets.

`start_ui(core, screenshot=..., demo=...)` is the seam with the composition root: it builds
the controller and the first window and returns the `UiController` (await
`controller.wait_closed()` for the exit code).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cherry_desktop.ui._lazy import lazy_getattr

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.ui.bridge import Bridges, BridgeUnavailableError
    from cherry_desktop.ui.shell import ChatWindow, UiController

__all__ = ["BridgeUnavailableError", "Bridges", "ChatWindow", "UiController", "start_ui"]

# Imported on first use, so `cherry_desktop.ui.shell.splash` can paint before core is imported.
_LAZY = {
    "UiController": "cherry_desktop.ui.shell",
    "ChatWindow": "cherry_desktop.ui.shell",
    "BridgeUnavailableError": "cherry_desktop.ui.bridge",
    "Bridges": "cherry_desktop.ui.bridge",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


def start_ui(core: CoreServices, *, screenshot: Path | None = None, demo: bool = False,
             splash: Any = None) -> UiController:
    """Build the controller, open the first window (on the newest session or the demo), and
    with `screenshot` save the window once idle and quit. A `splash` (`show_splash()`) is
    closed once the first window is up.

    When core's stream services are not running yet (the app starts them right after this
    window is painted), the window shows its first topic once they run."""
    from cherry_desktop.ui.shell import UiController

    controller = UiController(core, demo=demo)
    controller.open_window(controller.first_topic() if controller.bridges.services_running() else None)
    if splash is not None:
        splash.close()
    if screenshot is not None:
        controller.start_screenshot(Path(screenshot))
    return controller
