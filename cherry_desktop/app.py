"""Composition root: parse the command line, start core, then Qt and the first window.

`cherry-desktop [--data-dir DIR] [--demo] [--screenshot PNG]`, `cherry-desktop --version`,
`cherry-desktop doctor [--data-dir DIR]`. Qt is imported only on the GUI path, so `doctor`
and `--version` work without a display.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from pathlib import Path
from typing import Any

from cherry_desktop import __version__
from cherry_desktop.core.logging_setup import setup_logging
from cherry_desktop.core.paths import PathRegistry, build_path_registry

log = logging.getLogger("cherry_desktop")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cherry-desktop", description="Chat with models and coding agents.")
    parser.add_argument("--version", action="version", version=f"cherry-desktop {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS,
                        help="keep all data, config, logs and cache under DIR "
                             "(also $CHERRY_DESKTOP_DATA_DIR)")
    parser.add_argument("--data-dir", metavar="DIR", default=None,
                        help="keep all data, config, logs and cache under DIR (also $CHERRY_DESKTOP_DATA_DIR)")
    parser.add_argument("--demo", action="store_true",
                        help="start the offline demo model server and a demo agent (no account needed)")
    parser.add_argument("--screenshot", metavar="PNG", type=Path, default=None,
                        help="save the main window to PNG once idle (after one demo turn with --demo), then exit")
    # doctor's subprocess check that Qt's platform plugin loads (cherry_desktop.core.qt_platform)
    parser.add_argument("--qt-probe", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("doctor", parents=[common],
                   help="create or migrate the database and print paths, versions and backends")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.qt_probe:
        from cherry_desktop.ui.qt_probe import run_probe

        return run_probe()
    paths = build_path_registry(args.data_dir)
    if args.command == "doctor":
        from cherry_desktop.core.doctor import run_doctor

        report = run_doctor(paths)
        print(report.render())
        return 0 if report.ok else 1
    paths.ensure_all()
    setup_logging(paths.get("file.log"))
    log.info("cherry-desktop %s starting, data under %s", __version__, paths.get("app.data"))
    return run_gui(paths, demo=args.demo, screenshot=args.screenshot)


# Startup allocates objects that live as long as the app (modules, classes, services,
# widgets); collecting while they are created cost ~80-100 ms before the main window's first
# paint (measured: ~120 collections). The collector pauses until the first window is up, then
# one collection runs and what survives is frozen out of later collections.
STARTUP_GC_PAUSE_S = 1.0


def _end_startup_gc_pause() -> None:
    if not gc.isenabled():
        gc.collect()
        gc.freeze()
        gc.enable()


def qt_platform_unusable() -> bool:
    """Before QApplication: would Qt's platform plugin abort the app (a core dump)? If so, say
    why in one line (the missing libraries and their packages) and let the app exit."""
    from cherry_desktop.core.qt_platform import check_before_qt

    problem = check_before_qt()
    if problem is None:
        return False
    log.error("%s", problem.describe())
    sys.stderr.write(f"cherry-desktop: {problem.describe()}\n")
    return True


def run_gui(paths: PathRegistry, *, demo: bool, screenshot: Path | None) -> int:
    if qt_platform_unusable():
        return 1
    gc.disable()
    try:
        from PySide6.QtWidgets import QApplication

        qapp = QApplication.instance() or QApplication(sys.argv[:1])
        qapp.setApplicationName("Cherry Desktop")
        qapp.setOrganizationName("cherry-desktop")
        # Core's imports are most of startup: a window is on screen before they run (and
        # before asyncio's, ~80 ms here).
        from cherry_desktop.ui.splash import show_splash

        splash = show_splash()
        import asyncio

        from cherry_desktop.ui.event_loop import new_event_loop

        loop = new_event_loop(qapp)
        asyncio.set_event_loop(loop)
        try:
            with loop:
                return int(loop.run_until_complete(_gui_main(paths, demo=demo, screenshot=screenshot,
                                                             splash=splash)))
        finally:
            asyncio.set_event_loop(None)
    finally:
        gc.enable()  # also when startup failed or the app quit within the pause


async def _gui_main(paths: PathRegistry, *, demo: bool, screenshot: Path | None, splash: Any = None) -> int:
    import asyncio

    from cherry_desktop.core.bootstrap import start_core
    from cherry_desktop.ui import start_ui

    # The window paints first: core's stream services import most of its code (~0.15 s here),
    # so they start right after (the window shows its first topic once they run).
    core = await start_core(paths, services=False)
    try:
        if demo:
            from cherry_desktop.demo.bootstrap import start_demo

            core.demo = await start_demo(core)
        controller = start_ui(core, screenshot=screenshot, demo=demo, splash=splash)
        await controller.first_paint()
        await core.start_services()
        asyncio.get_running_loop().call_later(STARTUP_GC_PAUSE_S, _end_startup_gc_pause)
        return int(await controller.wait_closed())
    finally:
        if core.demo is not None:
            await core.demo.stop()
        await core.stop()
