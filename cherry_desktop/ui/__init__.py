"""The Qt app: windows as renderers of core's streams. The only package importing Qt widgets.

`start_ui(core, screenshot=..., demo=...)` is the seam with the composition root: it builds
the controller and the first window and returns the `UiController` (await
`controller.wait_closed()` for the exit code).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cherry_desktop.ui._controller import UiController
    from cherry_desktop.ui._window import ChatWindow
    from cherry_desktop.ui.bridge import BridgeUnavailableError, UiBridge

__all__ = ["BridgeUnavailableError", "ChatWindow", "UiBridge", "UiController", "start_ui"]

# Imported on first use, so `cherry_desktop.ui.splash` can paint before core is imported.
_LAZY = {
    "UiController": "cherry_desktop.ui._controller",
    "ChatWindow": "cherry_desktop.ui._window",
    "BridgeUnavailableError": "cherry_desktop.ui.bridge",
    "UiBridge": "cherry_desktop.ui.bridge",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def _first_topic(controller: UiController, demo: bool) -> str | None:
    core = controller.core
    demo_handle = getattr(core, "demo", None)
    if demo and demo_handle is not None:
        return str(demo_handle.topic_id)
    repos = core.repos
    from cherry_desktop.ui._topics import agent_session_topic_id

    sessions = repos.sessions.list_sessions()
    if sessions:
        return agent_session_topic_id(sessions[0].id)
    topics = repos.topics.list_topics()
    return topics[0].id if topics else None


def start_ui(core: Any, *, screenshot: Path | None = None, demo: bool = False, splash: Any = None) -> UiController:
    """Build the controller, open the first window (on the newest session or the demo), and
    with `screenshot` save the window once idle and quit. A `splash` (`show_splash()`) is
    closed once the first window is up."""
    from cherry_desktop.ui._controller import UiController

    controller = UiController(core, demo=demo)
    controller.open_window(_first_topic(controller, demo))
    if splash is not None:
        splash.close()
    if screenshot is not None:
        controller.start_screenshot(Path(screenshot))
    return controller
