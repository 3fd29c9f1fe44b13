"""The app with no window left and no tray to live in.

`CloseQuestion` asks, as the last window closes while conversations wait for the user, whether
to keep them waiting in the background or to stop them and quit (`LastWindowClose` asks it and
acts on the answer). `BackgroundWait` keeps the windowless process until its turns are saved,
stopping (as the Stop button does: the partial reply is kept) a turn whose approval waited
longer than the `background_approval_wait_s` setting."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from cherry_desktop.ui.bridge import Bridges
from cherry_desktop.ui.common import spawn
from cherry_desktop.ui.shell._attention import Attention

log = logging.getLogger(__name__)
#: Windowless with turns running: how often to look, and how many idle looks in a row end it.
BACKGROUND_CHECK_S = 0.2
BACKGROUND_IDLE_CHECKS = 3
DEFAULT_APPROVAL_WAIT_S = 7200


def approval_wait_s(bridges: Bridges) -> int:
    """The `background_approval_wait_s` setting (0: wait for ever)."""
    value = bridges.settings.settings_values().get("background_approval_wait_s", DEFAULT_APPROVAL_WAIT_S)
    return value if isinstance(value, int) else DEFAULT_APPROVAL_WAIT_S


async def stop_turns(bridges: Bridges, topic_ids: Sequence[str]) -> None:
    """Stop these conversations' turns as the Stop button does (their partials persist)."""
    for topic_id in topic_ids:
        await bridges.streams.abort(topic_id)


class CloseQuestion(QMessageBox):
    """What to do with the conversations waiting for the user when the last window closes.

    `choice` after it finished: "keep", "stop", or "" (Cancel or Escape: the window stays).
    """

    def __init__(self, titles: Sequence[str], wait_s: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("closeQuestion")
        self.setIcon(QMessageBox.Icon.Question)
        self.setWindowTitle(self.tr("Close the last window?"))
        self.setText(self.tr("Waiting for your approval:") + "\n" + "\n".join(f"• {title}" for title in titles))
        self.setInformativeText(
            self.tr("In the background they wait for you to open a window again; after %1 they "
                    "stop, keeping what they wrote so far.").replace("%1", self.wait_words(wait_s)) if wait_s > 0 else
            self.tr("In the background they wait until you open a window again."))
        self.keep_button = self.addButton(self.tr("Keep running in the background"), QMessageBox.ButtonRole.AcceptRole)
        self.keep_button.setObjectName("keepRunningButton")
        self.stop_button = self.addButton(self.tr("Stop them and quit"), QMessageBox.ButtonRole.DestructiveRole)
        self.stop_button.setObjectName("stopAndQuitButton")
        self.cancel_button = self.addButton(QMessageBox.StandardButton.Cancel)
        self.setDefaultButton(self.keep_button)
        self.setEscapeButton(self.cancel_button)
        self.choice = ""
        self.buttonClicked.connect(self._clicked)

    def wait_words(self, seconds: int) -> str:
        """A `background_approval_wait_s` in words ("2 hours", "15 minutes")."""
        # Whole words per count: the source language (English) is shown untranslated, so
        # a numerus form would read "2 hour(s)".
        if seconds % 3600 == 0:
            hours = seconds // 3600
            return self.tr("an hour") if hours == 1 else self.tr("%1 hours").replace("%1", str(hours))
        if seconds < 120:
            return self.tr("a minute") if seconds == 60 else self.tr("%1 seconds").replace("%1", str(seconds))
        return self.tr("%1 minutes").replace("%1", str(round(seconds / 60)))

    def _clicked(self, button: QAbstractButton) -> None:
        self.choice = "keep" if button is self.keep_button else "stop" if button is self.stop_button else ""


class BackgroundWait:
    """One windowless wait: runs until the process has nothing left to do or a window is back.

    `run()` returns True when the app may quit (every turn saved), False when a window came
    back or the app is quitting anyway (the usual rules apply again).
    """

    def __init__(self, bridges: Bridges, attention: Attention, *,
                 windowless: Callable[[], bool]) -> None:
        self.bridges = bridges
        self.attention = attention
        self._windowless = windowless
        self.stopped: list[str] = []

    async def run(self) -> bool:
        streams = self.bridges.streams
        log.info("no window left while %d turn(s) run: staying until they are saved", streams.running_work())
        began = time.monotonic()
        idle_checks = 0
        # Idle for a few checks in a row: a queued follow-up may start right after a turn ends.
        while idle_checks < BACKGROUND_IDLE_CHECKS:
            await asyncio.sleep(BACKGROUND_CHECK_S)
            if not self._windowless():
                return False
            await self._give_up_long_waits(began)
            idle_checks = 0 if streams.running_work() else idle_checks + 1
        log.info("background turns finished and saved: quitting")
        return True

    async def _give_up_long_waits(self, began: float) -> None:
        wait_s = approval_wait_s(self.bridges)
        if wait_s <= 0:
            return
        now = time.monotonic()
        # Counted from when the wait began, or from when the last window went if later: the
        # user who chose to keep it running gets the whole bound.
        overdue = [t for t, since in self.attention.waiting().items()
                   if t not in self.stopped and now - max(since, began) >= wait_s]
        if overdue:
            log.info("%d approval(s) waited %d s with no window: stopping them", len(overdue), wait_s)
            self.stopped.extend(overdue)
            await stop_turns(self.bridges, overdue)


class LastWindowClose:
    """Asks `CloseQuestion` when the last window closes while conversations wait for the user;
    "stop" stops them (`BackgroundWait.stop`) and both answers close the window again, which
    then closes unasked. `question` is the open question (None when none is open)."""

    def __init__(self, bridges: Bridges, attention: Attention) -> None:
        self.bridges = bridges
        self.attention = attention
        self.question: CloseQuestion | None = None
        self._answered: QWidget | None = None

    def confirm(self, window: QWidget) -> bool:
        """True when the last window may close now; False keeps it open while asking."""
        if window is self._answered or not self.attention.waiting_count():
            return True
        if self.question is None:
            titles = [self.attention.topic_title(t) for t in self.attention.waiting()]
            question = CloseQuestion(titles, approval_wait_s(self.bridges), window)
            question.finished.connect(lambda _result, w=window, q=question: self._answer(w, q))
            self.question = question
            question.open()  # window-modal, no nested event loop
        return False

    def _answer(self, window: QWidget, question: CloseQuestion) -> None:
        self.question = None
        if not question.choice or not window.isVisible():
            return  # Cancel: the window stays
        if question.choice == "stop":
            spawn(stop_turns(self.bridges, list(self.attention.waiting())))
        self._answered = window
        window.close()
