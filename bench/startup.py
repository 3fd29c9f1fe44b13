"""Startup cost: first paint, idle memory with three windows, opening a 5 000-message session.

The parent process starts a child (a real `start_core` + `start_ui` on a temp data dir) and
measures from spawn to the child's first paint, so interpreter start and imports count.
Prints figures, then one JSON line: first_paint_s (the main window; target <= 0.6),
idle_rss_mb (target <= 150), open_5000_messages_ms (target <= 300). With `--splash` the child
shows `ui.splash.show_splash()` before importing core (as app.py can) and also reports
splash_paint_s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLASH = "--splash" in sys.argv


def child(data_dir: str) -> None:
    import asyncio
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(HERE.parent))
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    splash = None
    if SPLASH:
        from cherry_desktop.ui.splash import show_splash

        splash = show_splash()
        sys.stdout.write("SPLASH\n")
        sys.stdout.flush()
    import qasync
    from PySide6.QtCore import QEvent, QObject

    from cherry_desktop.core.bootstrap import start_core
    from cherry_desktop.core.paths import build_path_registry
    from cherry_desktop.ui import start_ui

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    painted = asyncio.Event()

    class PaintSpy(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not painted.is_set():
                sdk = "claude_agent_sdk" in sys.modules
                sys.stdout.write(f"PAINT {json.dumps({'sdk_loaded_before_paint': sdk})}\n")
                sys.stdout.flush()
                painted.set()
            return False

    async def main() -> dict[str, object]:
        import psutil

        core = await start_core(build_path_registry(data_dir))
        spy = PaintSpy()
        controller = start_ui(core, splash=splash)
        controller.windows[0].installEventFilter(spy)
        await painted.wait()
        # Seed a long session (not timed), then measure opening it.
        from cherry_desktop.core.messages import TextPart
        from cherry_desktop.ui._topics import agent_session_topic_id

        agent = core.repos.agents.create_agent(type="claude-code", name="bench")
        session = core.repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="long")
        from cherry_desktop.core.data.models import database_proxy

        with database_proxy.atomic():
            for i in range(5000):
                core.repos.session_messages.create_message(
                    session_id=session.id, role="user" if i % 2 == 0 else "assistant",
                    parts=[TextPart(text=f"Message {i}: some **markdown** and `code`.\n\n- a\n- b")])
        controller.open_window(None)
        controller.open_window(None)
        await asyncio.sleep(1.0)
        rss = psutil.Process().memory_info().rss / 2**20
        window = controller.windows[0]
        t0 = time.perf_counter()
        window.show_topic(agent_session_topic_id(session.id))
        app.processEvents()
        window.repaint()
        open_ms = (time.perf_counter() - t0) * 1000
        rows = len(window.message_view.rows())
        await controller.aclose()
        await core.stop()
        return {"idle_rss_mb": round(rss, 1), "open_5000_messages_ms": round(open_ms, 1), "rows_rendered": rows,
                "sdk_loaded_at_exit": "claude_agent_sdk" in sys.modules}

    with loop:
        result = loop.run_until_complete(main())
    sys.stdout.write(f"RESULT {json.dumps(result)}\n")
    sys.stdout.flush()


def parent() -> None:
    with tempfile.TemporaryDirectory(prefix="cherry-startup-") as data_dir:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, __file__, "--child", data_dir, *(["--splash"] if SPLASH else [])],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        first_paint = None
        extra: dict[str, object] = {}
        for line in proc.stdout:
            if line.startswith("SPLASH"):
                extra["splash_paint_s"] = round(time.perf_counter() - t0, 3)
            elif line.startswith("PAINT ") and first_paint is None:
                first_paint = time.perf_counter() - t0
                extra.update(json.loads(line[6:]))
            elif line.startswith("RESULT "):
                extra.update(json.loads(line[7:]))
        proc.wait(timeout=120)
    result = {"first_paint_s": round(first_paint or -1.0, 3), **extra}
    for key, value in result.items():
        print(f"{key:>24}: {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        parent()
