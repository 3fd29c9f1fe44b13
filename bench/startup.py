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

The floor, in the same run: each app start is paired with a start of a bare PySide6
`QMainWindow` with one label (`--floor-child`: the same interpreter, environment and bytecode
cache, timed the same way, from spawn to its first paint), the two alternating.

Prints figures, then one JSON line:
  splash_paint_s       the splash painted (shown while core imports; closed by the first window)
  core_started_s       core's base started (`start_core(..., services=False)` returned: its imports,
                       the database, the first-run seed)
  window_built_s       `start_ui` returned: the UI's modules imported, the controller and the first
                       `ChatWindow` built and shown (its paint follows in the loop)
  first_paint_s        the main window (`ChatWindow`) painted: sidebar, composer (target <= 0.6)
  floor_first_paint_s  the bare `QMainWindow` painted
  first_paint_ratio    first_paint_s over floor_first_paint_s, pair by pair (bar <= 1.5)
  modules_at_paint     modules imported when the main window painted (the floor: ~150)
  services_ready_s     core's stream services running (sending works; the first topic shows)
  idle_rss_mb          resident memory with three windows open (target <= 150)
  open_5000_messages_ms  showing a 5 000-message session in a window (target <= 300)
  idle_rss_after_agent_turn_mb  resident memory of the app process alone (its children, the
                       Claude Code CLI, excluded) with three windows open, after one demo agent
                       turn completed and the session went idle (target <= 140). A separate
                       start with `--demo` (one run, after the timed ones).

`--tree-after S`: also print the whole process tree (the app and the runtime's children, with
their RSS and what each one is) S seconds after that turn (off by default so CI waits for
nothing). `--idle-window S` shortens the agent session's idle window (300 s), after which the
live CLI is closed and a warm one is prewarmed for the session's next turn (kept for 120 s).
The tree one minute after the turn with the warm prewarm in place:
  bench/startup.py --agent-turn-only --tree-after 60 --idle-window 30
Its parts: the app (one Python process: Qt UI, core, and with `--demo` the scripted model
server); the Claude Code CLI (the agent runtime; the SDK's bundled binary), live while the
session's idle window is open, then the warm one prewarmed for the next turn; and the CLI's tie
watcher (a small Python process the tie launcher forks before it becomes the CLI: it ends the
CLI when the app dies, see core/process/_tie_launcher.py).
`--agent-turn-only` skips the timed starts; `--no-agent-turn` skips the agent turn.
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

    def observed_start_core(start_core: Any) -> Any:
        async def started() -> Any:
            core = await start_core()
            say("CORE")
            return core

        return started()

    def observed_start_ui(core: Any, **kwargs: Any) -> Any:
        import asyncio

        controller = start_ui(core, **kwargs)
        say("WINDOW")  # built and shown, not painted yet
        asyncio.ensure_future(_after_first_paint(core, controller, result, say))
        return controller

    sys.meta_path.insert(0, _WrapOnImport("cherry_desktop.ui.shell.splash", "show_splash", observed_show_splash))
    sys.meta_path.insert(0, _WrapOnImport("cherry_desktop.core.app.bootstrap", "start_core", observed_start_core))
    ui.start_ui = observed_start_ui  # type: ignore[assignment]
    app.main(["--data-dir", data_dir])
    say("RESULT", **result)


def floor_child() -> None:
    """The floor of the first paint: a bare `QMainWindow` with one label, painted once."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    qapp = QApplication(sys.argv[:1])

    class PaintSpy(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                sys.stdout.write("PAINT {}\n")
                sys.stdout.flush()
                QTimer.singleShot(0, qapp.quit)
            return False

    window = QMainWindow()
    window.setCentralWidget(QLabel("Cherry Desktop"))
    window.resize(1100, 720)
    spy = PaintSpy()
    window.installEventFilter(spy)
    window.show()
    qapp.exec()


def agent_turn_child(data_dir: str, tree_after_s: float, idle_window_s: float | None) -> None:
    """The app with `--demo`: three windows, one demo agent turn, then the app's RSS once idle."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(HERE.parent))
    from cherry_desktop import app, ui

    start_ui = ui.start_ui
    result: dict[str, Any] = {}

    def observed_start_ui(core: Any, **kwargs: Any) -> Any:
        import asyncio

        controller = start_ui(core, **kwargs)
        asyncio.ensure_future(_agent_turn(core, controller, result, tree_after_s, idle_window_s))
        return controller

    ui.start_ui = observed_start_ui  # type: ignore[assignment]
    app.main(["--data-dir", data_dir, "--demo"])
    sys.stdout.write(f"RESULT {json.dumps(result)}\n")
    sys.stdout.flush()


async def _agent_turn(core: Any, controller: Any, result: dict[str, Any], tree_after_s: float,
                      idle_window_s: float | None) -> None:
    import asyncio

    import psutil

    try:
        await controller.first_paint()
        await controller.bridges.services()
        if idle_window_s is not None:
            core.agent_runtime.idle_window_s = idle_window_s
        window = controller.windows[0]
        if window.topic_id != core.demo.topic_id:
            task = window.show_topic(core.demo.topic_id)
            if task is not None:
                await task
        controller.open_window(None)
        controller.open_window(None)
        finished = asyncio.Event()
        window.turn_finished.connect(lambda *_: finished.set())

        def allow() -> None:  # the demo turn asks to write a file: Allow, as the user would
            from PySide6.QtCore import QTimer

            card = window.approval_card
            if not window.approval_waiting() or card.approval is None:
                return
            if not card.armed:  # its grace period: the buttons take no click yet
                QTimer.singleShot(100, allow)
                return
            card.allow_button.click()

        window.message_view.approvals_changed.connect(allow)
        await asyncio.sleep(1.0)
        result["rss_before_agent_turn_mb"] = round(psutil.Process().memory_info().rss / 2**20, 1)
        modules_before = len(sys.modules)
        window.submit("Hi! What can you do in this workspace?", "send")
        async with asyncio.timeout(120):
            await finished.wait()
            while window.is_streaming():  # noqa: ASYNC110 - status lives in Qt signals
                await asyncio.sleep(0.05)
        await asyncio.sleep(3.0)  # the session idles; the app's post-turn work settles
        proc = psutil.Process()
        result["idle_rss_after_agent_turn_mb"] = round(proc.memory_info().rss / 2**20, 1)
        result["sdk_loaded_after_turn"] = "claude_agent_sdk" in sys.modules
        result["modules_imported_by_turn"] = len(sys.modules) - modules_before
        result["children_after_turn"] = len(proc.children(recursive=True))
        result["rss_by_mapping_mb"] = rss_by_mapping()
        if tree_after_s > 0:
            await asyncio.sleep(tree_after_s)
            result["process_tree"] = process_tree(proc, cli_state(core))
    finally:
        controller.quit()


def rss_by_mapping(top: int = 12) -> dict[str, float]:
    """Where the RSS is (/proc/self/smaps): the heap, anonymous memory (Python's arenas, Qt's
    and mimalloc-style allocations), and each mapped file (libraries), largest first."""
    sizes: dict[str, int] = {}
    name = ""
    try:
        with open("/proc/self/smaps") as smaps:
            for line in smaps:
                first = line.split(maxsplit=6)
                if "-" in first[0] and len(first) >= 5 and not first[0].endswith(":"):
                    name = first[5].strip() if len(first) > 5 else "[anon]"
                    name = os.path.basename(name) if name.startswith("/") else name
                elif first[0] == "Rss:":
                    sizes[name] = sizes.get(name, 0) + int(first[1])
    except OSError:
        return {}
    ranked = sorted(sizes.items(), key=lambda kv: -kv[1])
    out = {k: round(v / 1024, 1) for k, v in ranked[:top]}
    out["(other files)"] = round(sum(v for _, v in ranked[top:]) / 1024, 1)
    return out


def cli_state(core: Any) -> str:
    """What the demo session's Claude Code CLI is for, as the app's runtime says."""
    session_id = core.demo.session_id
    driver = core.agent_runtime.registry.find("claude-code")
    if core.agent_runtime.get_entry(session_id) is not None:
        return "live: the session's connection, its idle window open"
    if driver is not None and driver.warm_queries.has(session_id):
        return "warm: prewarmed for the session's next turn"
    return "not the session's (closing?)"


PARTS = {  # the parts of the app's process tree: what each one is
    "app": "the app: Qt UI, core, the demo's scripted model server",
    "claude_cli": "Claude Code CLI",
    "tie_watcher": "tie watcher of the CLI (ends it when the app dies)",
    "cli_child": "started by the CLI",
}


def process_part(proc: Any, cmd: str, root: Any) -> str:
    """Which part of the app's tree (`PARTS`) one process is."""
    if proc.pid == root.pid:
        return "app"
    if "_tie_launcher" in cmd:
        return "tie_watcher"
    if "claude_agent_sdk/_bundled/claude" in cmd:
        return "claude_cli"
    return "cli_child"


def process_tree(root: Any, cli: str = "") -> list[dict[str, Any]]:
    """The process and its descendants: pid, parent, RSS, age, command line (shortened) and
    what it is (`cli`: what the Claude Code CLI is for)."""
    import psutil

    out = []
    for proc in [root, *root.children(recursive=True)]:
        try:
            cmd = " ".join(proc.cmdline())
            part = process_part(proc, cmd, root)
            out.append({"pid": proc.pid, "ppid": proc.ppid(), "rss_mb": round(proc.memory_info().rss / 2**20, 1),
                        "age_s": round(time.time() - proc.create_time()), "part": part,
                        "what": PARTS[part] + (f", {cli}" if part == "claude_cli" else ""),
                        "cmd": cmd if len(cmd) <= 160 else cmd[:157] + "..."})
        except psutil.Error:
            continue
    return out


def run_agent_turn_child(env: dict[str, str], tree_after_s: float, idle_window_s: float | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cherry-startup-turn-") as data_dir:
        cmd = [sys.executable, __file__, "--agent-turn-child", data_dir, str(tree_after_s),
               "" if idle_window_s is None else str(idle_window_s)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300 + tree_after_s, check=False)
    for line in proc.stdout.splitlines():
        tag, _, payload = line.partition(" ")
        if tag == "RESULT":
            return dict(json.loads(payload))
    return {"idle_rss_after_agent_turn_mb": -1.0, "agent_turn_error": proc.stderr[-2000:]}


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

    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    painted = asyncio.Event()

    class PaintSpy(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not painted.is_set():
                say("PAINT", sdk_loaded_before_paint="claude_agent_sdk" in sys.modules,
                    modules_at_paint=len(sys.modules))
                painted.set()
            return False

    spy = PaintSpy()
    window = controller.windows[0]
    window.installEventFilter(spy)
    try:
        await painted.wait()
        import psutil  # after the paint: the bench's own import is not the app's startup

        window.removeEventFilter(spy)
        await controller.bridges.services()
        say("SERVICES")
        # Seed a long session (not timed), then measure opening it.
        from cherry_desktop.core.data.models import database_proxy
        from cherry_desktop.core.messages import TextPart
        from cherry_desktop.core.state.topics import session_topic_id

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


def run_floor_child(env: dict[str, str]) -> float:
    """Seconds from spawn to the bare window's first paint."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--floor-child"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    painted = -1.0
    for line in proc.stdout:
        if line.startswith("PAINT") and painted < 0:
            painted = round(time.perf_counter() - t0, 3)
    proc.wait(timeout=60)
    return painted


def run_child(env: dict[str, str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cherry-startup-") as data_dir:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, __file__, "--child", data_dir], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        result: dict[str, Any] = {"splash_paint_s": -1.0, "core_started_s": -1.0, "window_built_s": -1.0,
                                  "first_paint_s": -1.0, "services_ready_s": -1.0}
        for line in proc.stdout:
            tag, _, payload = line.partition(" ")
            elapsed = round(time.perf_counter() - t0, 3)
            if tag == "SPLASH":
                result["splash_paint_s"] = elapsed
            elif tag == "CORE":
                result["core_started_s"] = elapsed
            elif tag == "WINDOW":
                result["window_built_s"] = elapsed
            elif tag == "SERVICES":
                result["services_ready_s"] = elapsed
            elif tag == "PAINT":
                result["first_paint_s"] = elapsed
                result.update(json.loads(payload))
            elif tag == "RESULT":
                result.update(json.loads(payload))
        proc.wait(timeout=120)
    return result


def paired_start(env: dict[str, str], i: int) -> dict[str, Any]:
    """One app start and one floor start, alternating which goes first."""
    floor = run_floor_child(env) if i % 2 else -1.0
    result = run_child(env)
    if floor < 0:
        floor = run_floor_child(env)
    result["floor_first_paint_s"] = floor
    result["first_paint_ratio"] = round(result["first_paint_s"] / floor, 3) if floor > 0 else -1.0
    return result


def parent(cold: bool, runs: int, *, tree_after_s: float = 0.0, idle_window_s: float | None = None,
           agent_turn_only: bool = False, no_agent_turn: bool = False) -> None:
    # Here, not at the top: the children import nothing ahead of the app (asyncio, ~80 ms).
    sys.path.insert(0, str(HERE))
    from _harness import spread

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
            run_floor_child(env)
        results = [] if agent_turn_only else [paired_start(env, i) for i in range(runs)]
        turn = {} if no_agent_turn else run_agent_turn_child(env, tree_after_s, idle_window_s)
    tree = turn.pop("process_tree", None)
    if tree:
        parts: dict[str, float] = {}
        for row in tree:
            parts[row["part"]] = round(parts.get(row["part"], 0.0) + row["rss_mb"], 1)
        turn["process_tree_rss_mb"] = {**parts, "total": round(sum(parts.values()), 1)}
        turn["process_tree_cli"] = next((r["what"] for r in tree if r["part"] == "claude_cli"), "no CLI")
    result: dict[str, Any] = {}
    for key, value in (results[0] if results else {}).items():
        values = [r.get(key, value) for r in results]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        result[key] = round(statistics.median(values), 3) if numeric else value
    result.update(turn)
    result["bytecode"] = bytecode
    result["runs"] = {key: [r.get(key) for r in results]
                      for key in ("splash_paint_s", "core_started_s", "window_built_s", "first_paint_s",
                                  "floor_first_paint_s", "first_paint_ratio",
                                  "services_ready_s", "open_5000_messages_ms")}
    result["spread"] = {key: spread([float(v) for v in values]) for key, values in result["runs"].items()
                        if values and all(isinstance(v, int | float) for v in values)}
    for key, value in result.items():
        print(f"{key:>24}: {value}")
    if tree:
        print_tree(tree, tree_after_s)
    print(json.dumps(result))


def print_tree(tree: list[dict[str, Any]], after_s: float) -> None:
    print(f"process tree {after_s:g} s after the agent turn (pid, RSS MB, age s, what it is; command):")
    depth = {tree[0]["pid"]: 0}
    for row in tree:
        depth[row["pid"]] = depth.get(row["ppid"], -1) + 1
        indent = "  " * depth[row["pid"]]
        print(f"  {indent}{row['pid']:>7} {row['rss_mb']:>7.1f} {row['age_s']:>5}  {row['what']}")
        print(f"  {indent}{'':>21}  {row['cmd']}")
    print(f"  total: {sum(r['rss_mb'] for r in tree):.1f} MB")


def _option(name: str, default: str | None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "--floor-child":
        floor_child()
    elif len(sys.argv) > 4 and sys.argv[1] == "--agent-turn-child":
        agent_turn_child(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]) if sys.argv[4] else None)
    else:
        idle_window = _option("--idle-window", None)
        parent(cold="--cold" in sys.argv, runs=int(_option("--runs", "3") or 3),
               tree_after_s=float(_option("--tree-after", "0") or 0),
               idle_window_s=float(idle_window) if idle_window else None,
               agent_turn_only="--agent-turn-only" in sys.argv, no_agent_turn="--no-agent-turn" in sys.argv)
