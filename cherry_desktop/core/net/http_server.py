"""`LoopbackHttpServer`: an ASGI app (starlette) served by uvicorn on the running loop.

Why starlette + uvicorn: both come with claude-agent-sdk already (through `mcp`), so the app
gains no dependency; uvicorn's `Server.startup()` / `shutdown()` run on whatever loop is
running (qasync's in the GUI, asyncio's in `serve`), and skipping `Server.serve()` also skips
its signal capture (the app routes SIGTERM/SIGINT itself: `ui.stop_signals`, `core.app.serve`).
Measured against aiohttp in the gateway's commit message and `bench/gateway.py`.

The socket is bound here, not by uvicorn: a port that is taken raises `PortInUseError` (a
typed error the caller words) instead of uvicorn's log line and `sys.exit`. Only 127.0.0.1.
`stop()` is bounded: open requests get `grace_s` to finish, then their tasks are cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import sys
from typing import Any

log = logging.getLogger(__name__)

LOOPBACK_HOST = "127.0.0.1"
# EACCES: Windows answers a port held exclusively by another program so; 10048 is WSAEADDRINUSE.
_IN_USE_ERRNOS = frozenset({errno.EADDRINUSE, errno.EACCES, 10048})


class PortInUseError(OSError):
    """Another program listens on the port the server was asked to bind."""

    code = "port-in-use"

    def __init__(self, port: int) -> None:
        super().__init__(errno.EADDRINUSE, f"port {port} on {LOOPBACK_HOST} is already in use")
        self.port = port


class _CancelledRequestFilter(logging.Filter):
    """uvicorn logs a request task cancelled by `stop()` as "Exception in ASGI application"
    with a traceback: a request ended by our own stop is no application error."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, asyncio.CancelledError)


_UVICORN_LOG = logging.getLogger("uvicorn.error")
_UVICORN_LOG.addFilter(_CancelledRequestFilter())


def bind_loopback(port: int) -> socket.socket:
    """A listening, non-blocking TCP socket on 127.0.0.1:`port` (0: a free port).

    Made with ``IPPROTO_TCP`` named: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on
    sockets whose protocol says TCP, and accepted sockets inherit the listener's. With proto 0
    every keep-alive response's body waited ~40 ms behind its headers (delayed ACK, measured)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if sys.platform != "win32":  # on Windows SO_REUSEADDR lets a second server steal the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK_HOST, port))
        except OSError as exc:
            if exc.errno in _IN_USE_ERRNOS:
                raise PortInUseError(port) from exc
            raise
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


class LoopbackHttpServer:
    """Serves `app` on 127.0.0.1 from the running loop.

    Args:
        app: an ASGI application (a starlette `Starlette`).
        port: the port to bind; 0 picks a free one.
        grace_s: how long `stop()` lets open requests finish before cancelling them.
    """

    def __init__(self, app: Any, *, port: int = 0, grace_s: float = 1.0) -> None:
        self.app = app
        self.port = port
        self.grace_s = grace_s
        self.base_url = ""
        self._server: Any = None
        self._sock: socket.socket | None = None

    @property
    def running(self) -> bool:
        return self._server is not None

    @property
    def open_connections(self) -> int:
        """Client connections open now (one a caller closed is gone at once)."""
        return len(self._server.server_state.connections) if self._server is not None else 0

    async def start(self) -> str:
        """Bind and serve; returns the base URL (``http://127.0.0.1:<port>``)."""
        import uvicorn
        from uvicorn.lifespan.off import LifespanOff

        sock = bind_loopback(self.port)
        config = uvicorn.Config(self.app, lifespan="off", log_config=None, access_log=False,
                                # No main loop runs (it refreshes the Date header every second).
                                date_header=False, server_header=False, proxy_headers=False, ws="none",
                                timeout_keep_alive=30)
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = LifespanOff(config)
        try:
            await server.startup(sockets=[sock])
        except BaseException:
            sock.close()
            raise
        self._server, self._sock = server, sock
        self.port = int(sock.getsockname()[1])
        self.base_url = f"http://{LOOPBACK_HOST}:{self.port}"
        return self.base_url

    async def stop(self) -> None:
        """Stop listening, let open requests finish for `grace_s`, cancel what is left."""
        server, self._server = self._server, None
        if server is None:
            return
        for listener in server.servers:
            listener.close()
        state = server.server_state
        for connection in list(state.connections):
            connection.shutdown()
        tasks = set(state.tasks)
        if tasks and self.grace_s > 0:
            _, tasks = await asyncio.wait(tasks, timeout=self.grace_s)
        # What is still open is dropped: transports first (a cancelled request would otherwise
        # be answered with uvicorn's 500), then, once they know, the request tasks.
        for connection in list(state.connections):
            connection.transport.close()
        await asyncio.sleep(0)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)
        for listener in server.servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(listener.wait_closed(), self.grace_s)
        if self._sock is not None:
            self._sock.close()
            self._sock = None


__all__ = ["LOOPBACK_HOST", "LoopbackHttpServer", "PortInUseError", "bind_loopback"]
