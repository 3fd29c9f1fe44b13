"""The app's own start (`cherry_desktop.app.main`): the splash paints before the event loop's
and core's imports, with the collector paused; the first window paints its shell (sidebar,
composer) before the conversation's modules load and completes right after, before core's stream
services (and the message models) are imported, which then start; the collector is back once
the app runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]

OBSERVE = textwrap.dedent("""
    import gc, json, sys
    from cherry_desktop import app
    import cherry_desktop.ui as ui
    import cherry_desktop.ui.shell.splash as splash_module

    seen = {}
    show_splash, start_ui = splash_module.show_splash, ui.start_ui

    def observed_show_splash():
        splash = show_splash()
        seen["at_splash"] = {
            "asyncio": "asyncio" in sys.modules, "qasync": "qasync" in sys.modules,
            "core_bootstrap": "cherry_desktop.core.app.bootstrap" in sys.modules,
            "gc_enabled": gc.isenabled()}
        return splash

    def observed_start_ui(core, **kwargs):
        import asyncio
        from PySide6.QtCore import QEvent, QObject
        controller = start_ui(core, **kwargs)
        window = controller.windows[0]
        seen["at_first_window"] = {"gc_enabled": gc.isenabled(), "completed": window.completed}
        painted = []

        class PaintSpy(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint and not painted:
                    painted.append(True)
                    seen["at_paint"] = {"cherry_desktop.ui.chat._message_view": (
                        "cherry_desktop.ui.chat._message_view" in sys.modules)}
                return False

        spy = PaintSpy()
        window.installEventFilter(spy)

        async def later():
            await controller.first_paint()
            window.removeEventFilter(spy)
            seen["completed_after_paint"] = window.completed
            seen["at_first_paint"] = {
                name: name in sys.modules for name in (
                    "cherry_desktop.core.ai.stream", "cherry_desktop.core.ai.agent_session",
                    "cherry_desktop.core.messages", "pydantic", "claude_agent_sdk")}
            await controller.bridges.services()
            seen["services"] = {"stream_manager": hasattr(core, "stream_manager"),
                                "agent_runtime": hasattr(core, "agent_runtime")}
            await asyncio.sleep(app.STARTUP_GC_PAUSE_S + 0.5)
            seen["running"] = {"gc_enabled": gc.isenabled(), "frozen": gc.get_freeze_count() > 0}
            controller.quit()

        asyncio.ensure_future(later())
        return controller

    splash_module.show_splash = observed_show_splash
    ui.start_ui = observed_start_ui
    code = app.main(["--data-dir", sys.argv[1]])
    seen["after_exit"] = {"gc_enabled": gc.isenabled(), "code": code}
    print(json.dumps(seen))
""")


def test_splash_then_window_then_services_and_collector_back(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", OBSERVE, str(tmp_path / "data")], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, timeout=60, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["at_splash"] == {"asyncio": False, "qasync": False, "core_bootstrap": False, "gc_enabled": False}
    assert seen["at_first_window"] == {"gc_enabled": False, "completed": False}
    # The first window paints its shell before the conversation's modules load, then completes.
    assert seen["at_paint"] == {"cherry_desktop.ui.chat._message_view": False}
    assert seen["completed_after_paint"] is True
    assert seen["at_first_paint"] == {"cherry_desktop.core.ai.stream": False,
                                      "cherry_desktop.core.ai.agent_session": False,
                                      "cherry_desktop.core.messages": False, "pydantic": False,
                                      "claude_agent_sdk": False}
    assert seen["services"] == {"stream_manager": True, "agent_runtime": True}
    assert seen["running"] == {"gc_enabled": True, "frozen": True}
    assert seen["after_exit"] == {"gc_enabled": True, "code": 0}
