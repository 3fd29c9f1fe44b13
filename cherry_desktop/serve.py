"""`cherry-desktop serve [--data-dir DIR] [--port N] [--key KEY] [--demo]`: core and the API
gateway without any window (QA, scripts, servers).

It takes the data directory's instance lock as the app does (a running app or another `serve`
on it is refused, in one line) and answers later launches on its channel as the app does (a
`backup create` is written here; a window launch hears there are no windows), starts core (both
stages), then the gateway on 127.0.0.1, and
prints one line with the base URL once it listens. The key is the stored one (made on first
use), or ``--key`` / ``CHERRY_API_KEY`` for this run only (never stored). SIGTERM, SIGINT
(Ctrl+C) and SIGHUP run the orderly stop: core first (running turns are saved ``paused``, their
SSE callers get ``[DONE]``, runtime children are closed), then the gateway, then the demo
server; a second signal, or a stop longer than `STOP_DEADLINE_S`, exits at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cherry_desktop import __version__
from cherry_desktop.core.app.instance_channel import REPLY_HEADLESS, InstanceChannel
from cherry_desktop.core.app.instance_lock import InstanceLock, LockState, instance_channel_name
from cherry_desktop.core.app.logging_setup import setup_logging
from cherry_desktop.core.storage.paths import PathRegistry

log = logging.getLogger(__name__)

KEY_ENV = "CHERRY_API_KEY"
STOP_DEADLINE_S = 2.8
FORCED_EXIT_CODE = 130
DEADLINE_EXIT_CODE = 1
_SIGNALS = tuple(s for s in (getattr(signal, n, None) for n in ("SIGTERM", "SIGINT", "SIGHUP")) if s is not None)


@dataclass(frozen=True)
class ServeOptions:
    port: int | None = None
    key: str | None = None
    demo: bool = False


def _say(line: str, *, error: bool = False) -> None:
    print(line, file=sys.stderr if error else sys.stdout, flush=True)


def serve_command(paths: PathRegistry, options: ServeOptions) -> int:
    paths.ensure_all()
    lock = InstanceLock(paths.get("file.instance_lock"))
    state = lock.acquire()
    if state is LockState.UNAVAILABLE and lock.error is not None:
        raise lock.error
    if state is LockState.HELD:
        holder = lock.holder_pid()
        _say(f"cherry-desktop serve: another instance (pid {holder or '?'}) uses {paths.get('app.data')}; "
             "stop it or pass another --data-dir", error=True)
        return 1
    try:
        logging.raiseExceptions = False
        setup_logging(paths.get("file.log"))
        log.info("cherry-desktop %s serve, data under %s", __version__, paths.get("app.data"))
        return asyncio.run(_serve(paths, options))
    finally:
        lock.release()


class _StopSignals:
    """The first stop signal sets `requested`; a second one, or the deadline, exits at once."""

    def __init__(self, loop: asyncio.AbstractEventLoop, exit_now: Callable[[int], Any] = os._exit) -> None:
        self.loop = loop
        self.requested = asyncio.Event()
        self._exit_now = exit_now
        for sig in _SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows: no signal handlers
                loop.add_signal_handler(sig, self._on_signal, sig)

    def _on_signal(self, sig: signal.Signals) -> None:
        if self.requested.is_set():
            log.warning("%s during the orderly stop: exiting now", sig.name)
            self._exit_now(FORCED_EXIT_CODE)
            return
        log.info("%s: stopping in order", sig.name)
        self.requested.set()
        self.loop.call_later(STOP_DEADLINE_S, self._deadline)

    def _deadline(self) -> None:
        log.warning("the orderly stop took over %.1f s: exiting now", STOP_DEADLINE_S)
        logging.shutdown()
        self._exit_now(DEADLINE_EXIT_CODE)

    def close(self) -> None:
        for sig in _SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                self.loop.remove_signal_handler(sig)


def _gateway_key(core: Any, options: ServeOptions) -> str | None:
    from cherry_desktop.core.gateway import ensure_gateway_key
    from cherry_desktop.core.storage.credentials import KeyringUnavailableError

    given = options.key or os.environ.get(KEY_ENV)
    if given:
        return given
    try:
        return ensure_gateway_key(core.credentials)
    except KeyringUnavailableError as exc:
        _say(f"cherry-desktop serve: no keyring to keep the gateway key in ({exc}); pass --key or set {KEY_ENV}",
             error=True)
        return None


async def _answer_launch(core: Any, request: str) -> str:
    """A later launch on this data folder: a backup is written here, as the app does (with its
    writes held for the snapshot); a window launch hears that this instance has none."""
    from cherry_desktop.core.backup.remote import answer_backup_request, is_backup_request

    if is_backup_request(request):
        if core.backup is None:
            return "error\tunavailable\tthe running cherry-desktop serve cannot back up (see its log)"
        return await answer_backup_request(core.backup, request)
    return REPLY_HEADLESS


async def _serve(paths: PathRegistry, options: ServeOptions) -> int:
    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.gateway import ApiGateway, GatewayKeyCheck, PortInUseError
    from cherry_desktop.core.gateway.agent_api import AgentApi

    signals = _StopSignals(asyncio.get_running_loop())
    core = await start_core(paths)
    gateway: ApiGateway | None = None
    channel = InstanceChannel(instance_channel_name(paths.get("app.data")), lambda r: _answer_launch(core, r))
    try:
        await channel.start()
        if options.demo:
            from cherry_desktop.demo.bootstrap import start_demo

            core.demo = await start_demo(core, openai_provider=True)
        key = _gateway_key(core, options)
        if key is None:
            return 1
        port = options.port if options.port is not None else core.settings.settings.gateway_port
        gateway = ApiGateway(core.repos, core.credentials, GatewayKeyCheck(fixed_key=key), port=port,
                             binding=core.agent_runtime, agent_api=AgentApi(core))
        try:
            url = await gateway.start()
        except PortInUseError as exc:
            _say(f"cherry-desktop serve: port {exc.port} on 127.0.0.1 is already in use; "
                 "pass another --port (or stop what listens there)", error=True)
            return 1
        # Claude Code agents on providers that are not Anthropic-compatible run through it.
        core.agent_runtime.set_gateway_access(gateway)
        _say(f"cherry-desktop serve: listening on {url}")
        await signals.requested.wait()
        return 0
    finally:
        await channel.close()
        # Core first: running turns are saved `paused` (their SSE callers get [DONE]) while the
        # demo model still answers; then the gateway lets those responses end.
        await core.stop()
        if gateway is not None:
            await gateway.stop()
        if core.demo is not None:
            await core.demo.stop()
        signals.close()
        log.info("serve stopped")


__all__ = ["KEY_ENV", "ServeOptions", "serve_command"]
