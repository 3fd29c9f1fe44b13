"""A later launch on the same data directory hands its request to the running instance.

The running instance (which holds core's `InstanceLock`) listens on a `QLocalServer` named by
`instance_channel_name(data_dir)`; a later launch connects with a `QLocalSocket`, sends one
request line and waits for `ok`. Requests today: `open-window` (the first instance opens a new
window, as the launcher's click meant). Replies: `ok`, or `quitting` (the first instance is
stopping: the later launch waits for the lock and starts in its place).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
from collections.abc import Awaitable, Callable

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

OPEN_WINDOW = "open-window"
REPLY_OK = "ok"
REPLY_QUITTING = "quitting"
#: How long a later launch keeps trying: the first instance may still be starting (it takes
#: the lock before it starts listening).
HAND_OVER_TIMEOUT_S = 5.0


class InstanceServer(QObject):
    """Takes requests from later launches and answers each with `ok`."""

    def __init__(self, name: str, on_request: Callable[[str], str | Awaitable[str]],
                 parent: QObject | None = None) -> None:
        """`on_request(request)` acts on one request and returns the reply (`ok`, `quitting`),
        or an awaitable of it (a backup: the reply is sent when it is written)."""
        super().__init__(parent)
        self._on_request_cb = on_request
        self._pending: set[asyncio.Future[str]] = set()
        self.server = QLocalServer(self)
        # A crashed instance may have left its socket file; we hold the lock, so it is stale.
        QLocalServer.removeServer(name)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not self.server.listen(name):
            log.warning("cannot take requests from later launches on %s: %s", name, self.server.errorString())
        self.server.newConnection.connect(self._on_connection)

    @property
    def listening(self) -> bool:
        return self.server.isListening()

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            if socket is None:
                return
            socket.readyRead.connect(lambda s=socket: self._on_request(s))
            socket.disconnected.connect(socket.deleteLater)

    def _on_request(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            return
        request = bytes(socket.readLine().data()).decode("utf-8", "replace").strip()
        reply = self._on_request_cb(request)
        if inspect.isawaitable(reply):
            log.info("a later launch asks: %s (answering when done)", request.split("\t", 1)[0])
            task: asyncio.Future[str] = asyncio.ensure_future(reply)
            self._pending.add(task)
            task.add_done_callback(functools.partial(self._send_result, socket=socket))
            return
        log.info("a later launch asks: %s (reply: %s)", request, reply)
        self._send(socket, reply)

    def _send_result(self, task: asyncio.Future[str], *, socket: QLocalSocket) -> None:
        self._pending.discard(task)
        if task.cancelled() or task.exception() is not None:
            log.error("a later launch's request failed", exc_info=None if task.cancelled() else task.exception())
            reply = "error\tunavailable\tthe running instance could not do it (see its log)"
        else:
            reply = task.result()
        self._send(socket, reply)

    @staticmethod
    def _send(socket: QLocalSocket, reply: str) -> None:
        try:
            socket.write(f"{reply}\n".encode())
            socket.flush()
            socket.disconnectFromServer()
        except RuntimeError:  # the later launch went away (its socket is deleted)
            log.info("a later launch left before its reply")

    def close(self) -> None:
        self.server.close()


def hand_over(name: str, request: str = OPEN_WINDOW, *, timeout_s: float = HAND_OVER_TIMEOUT_S,
              reply_timeout_s: float | None = None) -> str | None:
    """Send `request` to the instance listening on `name`; its reply, or None (no answer).
    `timeout_s` bounds the connection and, unless `reply_timeout_s` is given (a backup takes
    longer than a window to open), the reply too."""
    # Blocking calls: no event loop (and no application object) is needed, so a launch that
    # then starts in a quitting instance's place still creates its own QApplication.
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        socket = QLocalSocket()
        socket.connectToServer(name)
        if socket.waitForConnected(500):
            socket.write(f"{request}\n".encode())
            socket.flush()
            if reply_timeout_s is not None:
                deadline = time.monotonic() + reply_timeout_s
            remaining = max(100, int((deadline - time.monotonic()) * 1000))
            while not socket.canReadLine() and socket.waitForReadyRead(remaining):
                pass
            answer = bytes(socket.readLine().data()).decode("utf-8", "replace").strip()
            socket.abort()
            return answer or None
        time.sleep(0.1)
    return None


__all__ = ["HAND_OVER_TIMEOUT_S", "OPEN_WINDOW", "REPLY_OK", "REPLY_QUITTING", "InstanceServer", "hand_over"]
