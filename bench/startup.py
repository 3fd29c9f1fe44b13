"""Startup cost: first paint, main window paint, idle memory with three windows, opening a
5 000-message session.

The parent spawns a child that runs the app's own entry point (`cherry_desktop.app.main`
with `--data-dir` on a temp dir: splash, then core, then the first `ChatWindow`, exactly as
`cherry-desktop` starts) and times from spawn, so interpreter start and imports count. The
child only observes: it wraps `show_splash` and `start_ui` to see when each window is painted,
then (after the main window painted, not timed) seeds a long session, opens two more windows
and times opening the session. The main window paints before core's stream services are
imported and started (they start right after; `services_ready_s` says when).

Bytecode: an installed app (a wheel's install, the PyInstaller build) runs from compiled
bytecode. By default the child runs with its own bytecode cache (`PYTHONPYCACHEPREFIX` on a
temp dir) filled by one untimed warm-up start; `--cold` sets PYTHONDONTWRITEBYTECODE and no
cache prefix (in a checkout without `__pycache__`, each start compiles the project's modules).
The JSON says which (`bytecode`).

Start times vary by +-0.15 s from run to run on a 2-core machine: `--runs N` (default 3)
starts the app N times and reports the median of each figure (`runs` lists them all).

Prints figures, then one JSON line:
  splash_paint_s       the splash painted (shown while core imports; closed by the first window)
  first_paint_s        the main window (`ChatWindow`) painted: sidebar, composer (target <= 0.6)
  services_ready_s     core's stream services running (sending works; the first topic shows)
  idle_rss_mb          resident memory with three windows open (target <= 150)
  open_5000_messages_ms  showing a 5 000-message session in a window (target <= 300)
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def child(data_dir: str) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(HERE.parent))

    def say(tag: str, **fields: Any) -> None:
        sys.stdout.write(f"{tag} {json.dumps(fields)}\n")
        sys.stdout.flush()

    from cherry_desktop import app

    result: dict[str, Any] = {}
    # Observe the app's own startup: the wrappers add nothing but the paint reports, and
    # nothing is imported ahead of the app (Qt in particular: the app imports it itself, after
    # setting up startup).
    import cherry_desktop.ui as ui  # lazy package: no Qt

    start_ui = ui.start_ui

    def observed_show_splash(show_splash: Any) -> Any:
        splash = show_splash()  # painted on return (it repaints before core is imported)
        say("SPLASH")
        return splash

    def observed_start_ui(core: Any, **kwargs: Any) -> Any:
        import asyncio

        controller = start_ui(core, **kwargs)
        asyncio.ensure_future(_after_first_paint(core, controller, result, say))
        return controller

    sys.meta_path.insert(0, _WrapOnImport("cherry_desktop.ui.splash", "show_splash", observed_show_splash))
    ui.start_ui = observed_start_ui  # type: ignore[assignment]
    app.main(["--data-dir", data_dir])
    say("RESULT", **result)


class _WrapOnImport(importlib.abc.MetaPathFinder):
    """When the app imports `module`, replace its `name` with `wrapper(original)`."""

    def __init__(self, module: str, name: str, wrapper: Any) -> None:
        self.module, self.name, self.wrapper = module, name, wrapper

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.module:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        assert spec is not None and spec.loader is not None
        exec_module = spec.loader.exec_module

        def exec_and_wrap(module: Any) -> None:
            exec_module(module)
            original = getattr(module, self.name)
            setattr(module, self.name, lambda *a, **k: self.wrapper(lambda: original(*a, **k)))

        spec.loader.exec_module = exec_and_wrap  # type: ignore[method-assign]
        return spec


async def _after_first_paint(core: Any, controller: Any, result: dict[str, Any], say: Any) -> None:
    import asyncio

    import psutil
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    painted = asyncio.Event()

    class PaintSpy(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not painted.is_set():
                say("PAINT", sdk_loaded_before_paint="claude_agent_sdk" in sys.modules)
                painted.set()
            return False

    spy = PaintSpy()
    window = controller.windows[0]
    window.installEventFilter(spy)
    try:
        await painted.wait()
        window.removeEventFilter(spy)
        await controller.bridge.services()
        say("SERVICES")
        # Seed a long session (not timed), then measure opening it.
        from cherry_desktop.core.data.models import database_proxy
        from cherry_desktop.core.messages import TextPart
        from cherry_desktop.core.topics import session_topic_id

        agent = core.repos.agents.create_agent(type="claude-code", name="bench")
        session = core.repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="long")
        with database_proxy.atomic():
            for i in range(5000):
                core.repos.session_messages.create_message(
                    session_id=session.id, role="user" if i % 2 == 0 else "assistant",
                    parts=[TextPart(text=f"Message {i}: some **markdown** and `code`.\n\n- a\n- b")])
        controller.open_window(None)
        controller.open_window(None)
        await asyncio.sleep(1.0)
        result["idle_rss_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
        t0 = time.perf_counter()
        window.show_topic(session_topic_id(session.id))
        QApplication.processEvents()
        window.repaint()
        result["open_5000_messages_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        result["rows_rendered"] = len(window.message_view.rows())
        result["sdk_loaded_at_exit"] = "claude_agent_sdk" in sys.modules
    finally:
        controller.quit()


def run_child(env: dict[str, str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cherry-startup-") as data_dir:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, __file__, "--child", data_dir], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        result: dict[str, Any] = {"splash_paint_s": -1.0, "first_paint_s": -1.0, "services_ready_s": -1.0}
        for line in proc.stdout:
            tag, _, payload = line.partition(" ")
            elapsed = round(time.perf_counter() - t0, 3)
            if tag == "SPLASH":
                result["splash_paint_s"] = elapsed
            elif tag == "SERVICES":
                result["services_ready_s"] = elapsed
            elif tag == "PAINT":
                result["first_paint_s"] = elapsed
                result.update(json.loads(payload))
            elif tag == "RESULT":
                result.update(json.loads(payload))
        proc.wait(timeout=120)
    return result


def parent(cold: bool, runs: int) -> None:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="cherry-pycache-") as pycache:
        if cold:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            bytecode = "none: PYTHONDONTWRITEBYTECODE"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pycache
            bytecode = "cached, as installed"
            run_child(env)  # warm-up start: fills the cache (not timed)
        results = [run_child(env) for _ in range(runs)]
    result: dict[str, Any] = {}
    for key, value in results[0].items():
        values = [r.get(key, value) for r in results]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        result[key] = round(statistics.median(values), 3) if numeric else value
    result["bytecode"] = bytecode
    result["runs"] = {key: [r.get(key) for r in results]
                      for key in ("splash_paint_s", "first_paint_s", "services_ready_s",
                                  "open_5000_messages_ms")}
    for key, value in result.items():
        print(f"{key:>24}: {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
        parent(cold="--cold" in sys.argv, runs=runs)
