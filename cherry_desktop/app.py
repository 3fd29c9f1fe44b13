"""Composition root: parse the command line, start core, then Qt and the first window.

`cherry-desktop [--data-dir DIR] [--demo] [--screenshot PNG]`, `cherry-desktop --version`,
`cherry-desktop doctor [--data-dir DIR]`, `cherry-desktop backup create|restore [--data-dir
DIR] FILE` (`cherry_desktop.backup_cli`), `cherry-desktop serve [--data-dir DIR] [--port N]
[--key KEY] [--demo]` (`cherry_desktop.serve`: core and the API without a window). Qt is
imported only on the GUI path, so `doctor`
and `--version` work without a display.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from cherry_desktop import __version__
from cherry_desktop.core.app.instance_lock import InstanceLock, LockState, instance_channel_name
from cherry_desktop.core.app.logging_setup import setup_logging
from cherry_desktop.core.storage.paths import PathRegistry, build_path_registry
from cherry_desktop.core.storage.storage_faults import StorageError, classify

log = logging.getLogger("cherry_desktop")
#: The exit code when a storage fault stopped the app (`core.storage.storage_faults`).
STORAGE_FAULT_EXIT_CODE = 2
#: A later launch waits this long for a quitting first instance to let go of the lock.
QUITTING_INSTANCE_WAIT_S = 10.0


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
    # doctor's subprocess check that Qt's platform plugin loads (cherry_desktop.core.app.qt_platform)
    parser.add_argument("--qt-probe", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("doctor", parents=[common],
                   help="create or migrate the database and print paths, versions and backends")
    install = sub.add_parser("install-pi", parents=[common],
                             help="install the pinned pi coding agent with npm into the app's runtime folder")
    install.add_argument("--prefix", metavar="DIR", type=Path, default=None,
                         help="install into DIR instead (an npm --prefix)")
    install_acp = sub.add_parser("install-acp-agent", parents=[common],
                                 help="install a pinned ACP agent with npm into the app's runtime folder")
    install_acp.add_argument("name", help="the agent: claude-agent-acp or opencode")
    install_acp.add_argument("--prefix", metavar="DIR", type=Path, default=None,
                             help="install under DIR instead (one npm --prefix per agent below it)")
    serve = sub.add_parser("serve", parents=[common],
                           help="run core and the local API (agents, topics, models) without a window")
    serve.add_argument("--port", type=int, default=None,
                       help="the port on 127.0.0.1 (default: the gateway port of Settings, 23333)")
    serve.add_argument("--key", default=None,
                       help="the API key for this run (also $CHERRY_API_KEY); default: the stored key")
    serve.add_argument("--demo", action="store_true", help="also start the offline demo model server")
    backup = sub.add_parser("backup", help="back up or restore chats, agents, sessions and their files")
    actions = backup.add_subparsers(dest="backup_action", required=True)
    for action, words in (("create", "write a backup archive to FILE (asks a running instance to pause its writes)"),
                          ("restore", "verify FILE and restore it (staged for a restart while the app runs)")):
        one = actions.add_parser(action, parents=[common], help=words)
        one.add_argument("file", metavar="FILE", type=Path)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.qt_probe:
        from cherry_desktop.ui.shell.qt_probe import run_probe

        return run_probe()
    paths = build_path_registry(args.data_dir)
    if args.command == "doctor":
        from cherry_desktop.core.app.doctor import run_doctor

        report = run_doctor(paths)
        print(report.render())
        return 0 if report.ok else 1
    if args.command == "backup":
        from cherry_desktop.backup_cli import backup_command

        return backup_command(paths, args.backup_action, args.file)
    if args.command == "install-pi":
        return install_pi_command(args.prefix or paths.get("feature.agents.pi.install"))
    if args.command == "install-acp-agent":
        return install_acp_agent_command(args.name, args.prefix or paths.get("feature.agents.acp.install"))
    if args.command == "serve":
        from cherry_desktop.serve import ServeOptions, serve_command

        try:
            return serve_command(paths, ServeOptions(port=args.port, key=args.key, demo=args.demo))
        except Exception as exc:
            fault = classify(exc, paths.get("app.data"))
            if fault is None:
                raise
            print(f"cherry-desktop serve: {fault}", file=sys.stderr)
            return STORAGE_FAULT_EXIT_CODE
    try:
        return _start_app(paths, demo=args.demo, screenshot=args.screenshot)
    except Exception as exc:
        fault = classify(exc, paths.get("app.data"))
        if fault is None:
            raise
        return _report_storage_fault(fault)


def _start_app(paths: PathRegistry, *, demo: bool, screenshot: Path | None) -> int:
    paths.ensure_all()
    lock = InstanceLock(paths.get("file.instance_lock"))
    state = lock.acquire()  # before boot recovery, which must never touch a live instance's rows
    if state is LockState.UNAVAILABLE and lock.error is not None:
        raise lock.error
    if state is LockState.HELD:
        handed_over = _later_launch(paths, lock)
        if handed_over is not None:
            return handed_over
        # The first instance was quitting and has let go of the lock: this launch starts.
    try:
        # A log write that fails (a full disk) must not print logging's traceback to stderr.
        logging.raiseExceptions = False
        setup_logging(paths.get("file.log"))
        log.info("cherry-desktop %s starting, data under %s", __version__, paths.get("app.data"))
        code = run_gui(paths, demo=demo, screenshot=screenshot)
    finally:
        lock.release()
    return exit_without_threads(code)


def exit_without_threads(code: int) -> int:
    """`code` once no other Python thread runs. A thread still running after the loop closed
    (joined for `THREAD_SETTLE_S` first) could be inside Qt when the interpreter finalizes;
    CPython then ends it with `pthread_exit`, which PySide's C++ turns into `std::terminate`
    (exit code -6, "terminate called without an active exception": `ui.event_loop`). The
    orderly stop is done and the instance lock released, so the process ends here instead,
    with the logs flushed and without finalizing (no atexit handlers: runtime children die
    with the app through `process_tie`)."""
    from cherry_desktop.core.app.lingering_threads import lingering_threads

    lingering = lingering_threads()
    if not lingering:
        return code
    log.warning("threads still running after the stop (%s): exiting without finalizing",
                ", ".join(t.name for t in lingering))
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _report_storage_fault(fault: StorageError) -> int:
    """One line on stderr and, on a screen, a dialog; never a traceback. Exit code 2."""
    if logging.getLogger().handlers:  # else logging's last resort would print a second line
        log.error("storage fault: %s", fault)
    from cherry_desktop.ui.shell.storage_fault import show_storage_fault, storage_fault_line

    print(storage_fault_line(fault), file=sys.stderr)
    show_storage_fault(fault)
    return STORAGE_FAULT_EXIT_CODE


def _later_launch(paths: PathRegistry, lock: InstanceLock) -> int | None:
    """Another instance owns the data directory: ask it for a window (exit code 0), or say
    why not (1). None: it was quitting and this process now holds the lock (start normally)."""
    from cherry_desktop.core.app.instance_channel import REPLY_HEADLESS
    from cherry_desktop.ui.shell.single_instance import REPLY_OK, REPLY_QUITTING, hand_over

    reply = hand_over(instance_channel_name(paths.get("app.data")))
    if reply == REPLY_OK:
        return 0
    if reply == REPLY_HEADLESS:
        print(f"cherry-desktop: `cherry-desktop serve` (pid {lock.holder_pid() or '?'}) runs on "
              f"{paths.get('app.data')} and has no windows; stop it or pass another --data-dir", file=sys.stderr)
        return 1
    if reply == REPLY_QUITTING:
        deadline = time.monotonic() + QUITTING_INSTANCE_WAIT_S
        while time.monotonic() < deadline:
            if lock.acquire() is LockState.ACQUIRED:
                return None
            time.sleep(0.1)
    holder = lock.holder_pid()
    print(f"cherry-desktop: another instance (pid {holder or '?'}) holds {lock.path} but does not answer; "
          "close it or end that process, then start again", file=sys.stderr)
    return 1


def install_pi_command(prefix: Path) -> int:
    import asyncio

    from cherry_desktop.core.ai.runtime.pi.install import PiUnavailableError, install_pinned_pi

    try:
        installed = asyncio.run(install_pinned_pi(prefix, progress=lambda line: print(line, flush=True)))
    except PiUnavailableError as exc:
        print(f"pi could not be installed: {exc}", file=sys.stderr)
        return 1
    print(f"pi {installed.version}: {installed.cli_js} (node {installed.node.version})")
    return 0


def install_acp_agent_command(name: str, prefix_root: Path) -> int:
    import asyncio

    from cherry_desktop.core.ai.runtime.acp.install import install_preset
    from cherry_desktop.core.ai.runtime.acp_presets import ACP_PRESETS
    from cherry_desktop.core.ai.runtime.node import RuntimeUnavailableError

    preset = ACP_PRESETS.get(name)
    if preset is None:
        print(f"unknown ACP agent {name!r}; known: {', '.join(sorted(ACP_PRESETS))}", file=sys.stderr)
        return 2
    try:
        installed = asyncio.run(install_preset(preset, prefix_root, progress=lambda line: print(line, flush=True)))
    except RuntimeUnavailableError as exc:
        print(f"{preset.spec} could not be installed: {exc}", file=sys.stderr)
        return 1
    print(f"{preset.spec}: {' '.join(installed.argv)}")
    return 0


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
    from cherry_desktop.core.app.qt_platform import check_before_qt

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

        from cherry_desktop.ui.shell.pyside_feature_scan import scan_new_modules_uncached

        scan_new_modules_uncached()  # before anything else is imported (~20 MB, see there)
        qapp = QApplication.instance() or QApplication(sys.argv[:1])
        qapp.setApplicationName("Cherry Desktop")
        qapp.setOrganizationName("cherry-desktop")
        # Core's imports are most of startup: a window is on screen before they run (and
        # before asyncio's, ~80 ms here).
        from cherry_desktop.ui.shell.splash import show_splash

        splash = show_splash()
        import asyncio

        from cherry_desktop.ui.shell.event_loop import new_event_loop, watch_children_on

        loop = new_event_loop(qapp)
        asyncio.set_event_loop(loop)
        # From here on SIGTERM/SIGHUP/SIGINT stop the app in order (one during startup is
        # honoured as soon as the first window exists).
        stop_signals = _route_stop_signals()
        try:
            # Child processes are watched on the loop, not by a thread (see ui.event_loop).
            with loop, watch_children_on(loop):
                return int(loop.run_until_complete(gui_main(paths, demo=demo, screenshot=screenshot,
                                                            splash=splash, stop_signals=stop_signals)))
        finally:
            asyncio.set_event_loop(None)
    finally:
        gc.enable()  # also when startup failed or the app quit within the pause


async def gui_main(paths: PathRegistry, *, demo: bool, screenshot: Path | None, splash: Any = None,
                   stop_signals: Any = None) -> int:
    import asyncio

    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.ui import start_ui

    def stopping() -> bool:
        # A stop signal during startup skips the steps still to come (the window, the stream
        # services, the gateway: ~0.7-0.9 s each on a loaded machine, which run one after
        # another would outlast the stop's deadline); `finally` stops what did start.
        return stop_signals is not None and bool(stop_signals.stopping)

    # The window paints first: core's stream services import most of its code (~0.15 s here),
    # so they start right after (the window shows its first topic once they run).
    core = await start_core(paths, services=False)
    gateway = None
    try:
        if demo and not stopping():
            from cherry_desktop.demo.bootstrap import start_demo

            core.demo = await start_demo(core)
        if stopping():
            if splash is not None:
                splash.close()
            return 0
        controller = start_ui(core, screenshot=screenshot, demo=demo, splash=splash)
        if stop_signals is not None:
            stop_signals.set_target(lambda: controller.quit(0))
        await controller.first_paint()
        # After the paint (QtNetwork is not needed for it): a later launch keeps trying for a
        # while (`single_instance.HAND_OVER_TIMEOUT_S`), since this instance holds the lock first.
        _serve_later_launches(paths, controller)
        if not stopping():
            await core.start_services()
        if not stopping():
            gateway = await _start_gateway(core)
        asyncio.get_running_loop().call_later(STARTUP_GC_PAUSE_S, _end_startup_gc_pause)
        return int(await controller.wait_closed())
    finally:
        # Core first: running turns are saved `paused` while the demo model still answers
        # (stopping the demo server first would end them as API errors).
        await core.stop()
        if gateway is not None:  # after core: the API's running turns end with [DONE] first
            await gateway.stop()
        if core.demo is not None:
            await core.demo.stop()
        log.info("stopped")


async def _start_gateway(core: Any) -> Any:
    """The local API gateway, running while Settings enables it (`core.gateway`)."""
    from cherry_desktop.core.gateway.control import GatewayControl

    core.gateway = GatewayControl(core, binding=core.agent_runtime)
    # Claude Code agents on providers that are not Anthropic-compatible run through it.
    core.agent_runtime.set_gateway_access(core.gateway)
    await core.gateway.apply()
    return core.gateway


def _serve_later_launches(paths: PathRegistry, controller: Any) -> None:
    """A later launch on this data directory opens a window here (`ui.single_instance`)."""
    from cherry_desktop.ui.shell.single_instance import InstanceServer

    InstanceServer(instance_channel_name(paths.get("app.data")), controller.on_launch_request, parent=controller)


def _route_stop_signals() -> Any:
    """SIGTERM / SIGHUP / SIGINT run the orderly stop (Quit), through the Qt loop."""
    from cherry_desktop.ui.shell.stop_signals import StopSignals

    return StopSignals()
