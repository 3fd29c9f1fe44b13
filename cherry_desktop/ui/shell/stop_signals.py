"""SIGTERM, SIGHUP and SIGINT run the app's orderly stop, routed through the Qt loop.

A bare Python signal handler runs only when Python code next runs; in a Qt app that can be
never (the loop sits in C++) or inside whichever Qt callback runs next (a KeyboardInterrupt
from a qasync timer). So the C-level handler only writes the signal number to a socket pair
(`signal.set_wakeup_fd`); a `QSocketNotifier` on the other end wakes the Qt loop, and the
stop runs as an ordinary loop callback.

What each signal does (the README says so too):
- SIGTERM (logout, shutdown, `kill`), SIGHUP (the terminal closed) and SIGINT (Ctrl+C): the
  same orderly stop as Quit: running turns are saved `paused` with their partial text and
  resume token, runtime children are closed, and the app exits 0.
- A second Ctrl+C (or any second of these signals) while that stop runs: exit at once with
  130 (the runtime children die with the app through `process_tie`; a row left `pending` is
  settled by boot recovery at the next start).
- If the orderly stop is not done after `STOP_DEADLINE_S`, the app exits anyway with 1.

Windows has no SIGTERM/SIGHUP and no wakeup-fd for console Ctrl+C delivery into a Qt loop;
there only SIGINT is routed, best effort.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable
from types import FrameType

from PySide6.QtCore import QObject, QSocketNotifier

log = logging.getLogger(__name__)

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    # SIGHUP does not exist on Windows: the signals this platform has.
    s for s in (getattr(signal, n, None) for n in ("SIGTERM", "SIGHUP", "SIGINT")) if s is not None)
#: The orderly stop gets this long before the app exits regardless (the issue's bound is 3 s).
STOP_DEADLINE_S = 2.8
FORCED_EXIT_CODE = 128 + int(signal.SIGINT)
DEADLINE_EXIT_CODE = 1


def _no_op(signum: int, frame: FrameType | None) -> None:
    """The Python-level handler: the wakeup fd already carried the signal into the loop."""


class StopSignals(QObject):
    """Routes the stop signals into the Qt loop and runs `request_stop` on the first one.

    `request_stop()` starts the orderly stop (the app's Quit); it may be set later
    (`set_target`), a signal before that is kept for it. A second signal, or the stop outlasting
    `STOP_DEADLINE_S`, ends the process at once through `exit_now` (`os._exit`).
    """

    def __init__(self, request_stop: Callable[[], None] | None = None, *,
                 exit_now: Callable[[int], None] = os._exit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._request_stop = request_stop
        self._exit_now = exit_now
        self._stopping = False
        self._deadline_handle: asyncio.TimerHandle | None = None
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._previous = {s: signal.signal(s, _no_op) for s in STOP_SIGNALS}
        if sys.platform != "win32":
            for s in STOP_SIGNALS:
                signal.siginterrupt(s, False)
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._on_readable)
        log.info("stop signals routed through the loop: %s", ", ".join(s.name for s in STOP_SIGNALS))

    @property
    def stopping(self) -> bool:
        return self._stopping

    def set_target(self, request_stop: Callable[[], None]) -> None:
        """What the first signal runs; a signal that came before (during startup) runs it now."""
        self._request_stop = request_stop
        if self._stopping:
            request_stop()

    def _on_readable(self, *_: object) -> None:
        try:
            data = self._reader.recv(64)
        except (BlockingIOError, InterruptedError):
            return
        for signum in data:
            self.on_signal(signum)

    def on_signal(self, signum: int) -> None:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = str(signum)
        if self._stopping:
            log.warning("%s during the orderly stop: exiting now", name)
            self._exit_now(FORCED_EXIT_CODE)
            return
        self._stopping = True
        log.info("%s: stopping in order (as Quit)", name)
        import asyncio

        self._deadline_handle = asyncio.get_event_loop().call_later(STOP_DEADLINE_S, self._deadline)
        if self._request_stop is not None:
            self._request_stop()

    def _deadline(self) -> None:
        log.warning("the orderly stop took over %.1f s: exiting now", STOP_DEADLINE_S)
        self._exit_now(DEADLINE_EXIT_CODE)

    def close(self) -> None:
        """Restore the previous handlers (tests; the app exits instead)."""
        self._notifier.setEnabled(False)
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
        signal.set_wakeup_fd(self._previous_fd)
        for s, handler in self._previous.items():
            signal.signal(s, handler)
        self._reader.close()
        self._writer.close()


__all__ = ["DEADLINE_EXIT_CODE", "FORCED_EXIT_CODE", "STOP_DEADLINE_S", "STOP_SIGNALS", "StopSignals"]
