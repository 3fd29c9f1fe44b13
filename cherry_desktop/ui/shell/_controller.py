"""`UiController`: the windows, the shared-cache mirror, theme, language, tray and
notifications, and the screenshot-when-idle capability."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMainWindow, QSystemTrayIcon, QWidget

from cherry_desktop.ui.bridge import Bridges, QtSharedCache
from cherry_desktop.ui.chat import warm_up_highlighting
from cherry_desktop.ui.common import DayTimer, JsonObject, drain, spawn
from cherry_desktop.ui.shell._attention import Attention
from cherry_desktop.ui.shell._background import BackgroundWait, LastWindowClose
from cherry_desktop.ui.shell._backup_actions import show_restore_notice
from cherry_desktop.ui.shell._notice import show_notice
from cherry_desktop.ui.shell._resources import apply_theme, icon
from cherry_desktop.ui.shell._start import StartGuide
from cherry_desktop.ui.shell._tray import TrayMenu, make_tray
from cherry_desktop.ui.shell._window import ChatWindow
from cherry_desktop.ui.shell.i18n import Translations

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices

log = logging.getLogger(__name__)
FIRST_PAINT_WAIT_S = 0.5
#: Pygments is imported this long after the first window opened (see `warm_up_highlighting`).
HIGHLIGHT_WARM_UP_MS = 250


class _PaintSpy(QObject):
    """Resolves `painted` at the first paint event of the widget it filters."""

    def __init__(self, painted: asyncio.Future[None], parent: QObject) -> None:
        super().__init__(parent)
        self.painted = painted

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.painted.done():
            self.painted.set_result(None)
        return False



class UiController(QObject):
    """Owns every window. Windows are equal; any topic can be open in several at once.

    Signals:
        window_opened(object): a new `ChatWindow`.
        notified(str, str): a desktop notification was shown (title, text).
    """

    window_opened = Signal(object)
    notified = Signal(str, str)

    def __init__(self, core: CoreServices, *, demo: bool = False, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.demo = demo
        self.bridges = Bridges.from_core(core, self)
        self.cache = QtSharedCache(core.shared_cache, self)
        self.windows: list[ChatWindow] = []
        self.notifications: list[tuple[str, str]] = []
        self._closed: asyncio.Future[int] | None = None
        self._quitting = False
        self._background_wait: asyncio.Task[None] | None = None
        self.translations = Translations(core.paths.get("app.cache") / "i18n")
        self.attention = Attention(self.bridges, self.cache, self, self)
        self.last_window = LastWindowClose(self.bridges, self.attention)
        self.bridges.settings.settings_changed.connect(self.apply_settings)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            # Our own `wait_closed` decides when the app ends; Qt quitting on the last window
            # would stop the qasync loop under core's shutdown.
            app.setQuitOnLastWindowClosed(False)
        # The tray's menu exists without a platform tray too (tests use it; the tray shows it).
        self.tray_menu = TrayMenu(self.attention)
        self.tray_menu.open_topic_requested.connect(self.show_topic_window)
        self.tray_menu.open_window_requested.connect(lambda: self.open_window(None))
        self.tray_menu.quit_requested.connect(self.quit)
        self.tray = make_tray(self.tray_menu, self.attention, self)
        if self.tray is not None:
            self.tray.activated.connect(self._on_tray_activated)
        self.start_guide = StartGuide(self.bridges, demo=demo, parent=self,
                                      demo_topic=lambda: str(self.core.demo.topic_id) if self.core.demo else None)
        # Message rows say "Yesterday" or a time alone: worded again after midnight.
        self.day_timer = DayTimer(self)
        self.day_timer.day_changed.connect(self._on_day_changed)
        self.apply_settings(self.bridges.settings.settings_values())

    # -- settings ----------------------------------------------------------------------------------
    def apply_settings(self, settings: JsonObject) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, str(settings.get("theme", "system")))
            app.setWindowIcon(icon("cherry"))
        locale = self.translations.locale
        if self.translations.install(str(settings.get("language", ""))) != locale:
            self._retranslate()

    def _retranslate(self) -> None:
        # Widgets set their words once; rebuilding a window is simplest and rare (a setting).
        for window in list(self.windows):
            topic_id, geometry = window.topic_id, window.geometry()
            replacement = self.open_window(topic_id)
            replacement.setGeometry(geometry)
            window.close()

    def _on_day_changed(self) -> None:
        from cherry_desktop.ui.chat import refresh_row_times  # after the first paint, when it fires

        for window in self.windows:
            refresh_row_times(window)

    # -- windows -----------------------------------------------------------------------------------
    def open_window(self, topic_id: str | None = None, *, show: bool = True) -> ChatWindow:
        first = not self.windows
        # The app's first window paints its shell before the conversation's modules load.
        window = ChatWindow(self, staged=first and topic_id is None and not self.bridges.services_running())
        window.closed.connect(lambda w=window: self._on_window_closed(w))
        self.windows.append(window)
        self.start_guide.watch(window)
        if topic_id is not None:
            window.show_topic(topic_id)
        elif not self.bridges.services_running():
            spawn(self._settle_when_services_run(window, first=first))
        if show:
            window.show()
        if first:  # after the first paint, before a reply's first code block needs it
            QTimer.singleShot(HIGHLIGHT_WARM_UP_MS, self, warm_up_highlighting)
            QTimer.singleShot(0, window, lambda: show_restore_notice(window, self.bridges.backup))
        self.window_opened.emit(window)
        return window

    def on_launch_request(self, request: str) -> str | Awaitable[str]:
        """A later launch's request (`ui.single_instance`): `ok`, or `quitting` when this
        instance is stopping (the launch then starts in its place); `cherry-desktop backup
        create`'s request answers when its backup is written."""
        from cherry_desktop.ui.bridge import is_backup_request
        from cherry_desktop.ui.shell.single_instance import OPEN_WINDOW, REPLY_OK, REPLY_QUITTING

        if self._quitting or (self._closed is not None and self._closed.done()):
            return REPLY_QUITTING
        if is_backup_request(request):
            return self.bridges.backup.answer_launch_request(request)
        if request == OPEN_WINDOW:
            self.open_window_for_launch()
        return REPLY_OK

    def open_window_for_launch(self) -> ChatWindow:
        """The app was launched again (`ui.single_instance`): a new window, in front."""
        window = self.open_window(None)
        window.raise_()
        window.activateWindow()
        log.info("opened a window for a later launch (%d open)", len(self.windows))
        return window

    def first_topic(self) -> str | None:
        """What the app's first window opens (`StartGuide.first_topic`)."""
        return self.start_guide.first_topic()

    async def _settle_when_services_run(self, window: ChatWindow, *, first: bool) -> None:
        # A window opened before core's stream services run shows a blank view; once they run
        # (boot recovery has settled the rows), the app's first window opens its first topic
        # and any other one its empty state.
        await self.bridges.services()
        if window in self.windows and window.topic_id is None:
            window.show_topic(self.first_topic() if first else None)

    def windows_for(self, topic_id: str) -> list[ChatWindow]:
        return [w for w in self.windows if w.topic_id == topic_id]

    def reload_sidebars(self) -> None:
        for window in self.windows:
            window.sidebar.reload()

    def topic_deleted(self, *topic_ids: str) -> None:
        """These topics are gone: a window showing one shows nothing; every sidebar reloads."""
        for window in self.windows:
            if window.topic_id in topic_ids:
                window.show_topic(None)
        self.reload_sidebars()

    def edit_agent(self, parent: QWidget | None, agent_id: str | None) -> None:
        from cherry_desktop.ui.dialogs import AgentDialog

        dialog = AgentDialog(self.bridges, agent_id, parent)
        if dialog.exec():
            self.reload_sidebars()

    def open_settings(self, parent: QWidget | None) -> None:
        from cherry_desktop.ui.dialogs import SettingsDialog

        SettingsDialog(self.bridges, parent).exec()

    def open_providers(self, parent: QWidget | None, provider_id: str | None = None) -> None:
        from cherry_desktop.ui.dialogs import ProvidersDialog

        ProvidersDialog(self.bridges.providers, provider_id, parent).exec()

    def fix_error(self, window: QMainWindow, code: str) -> None:
        """Make the fix an error row offered (`ErrorWords.fix_label`): turn the gateway on."""
        if code == "gateway-off":
            spawn(self._turn_gateway_on(window))

    async def _turn_gateway_on(self, window: QMainWindow) -> None:
        running = await self.bridges.gateway.turn_on()
        window.statusBar().showMessage(
            self.tr("The API gateway is on. Send your message again.") if running else
            self.tr("The API gateway could not start. See Settings, API gateway."))

    def confirm_close(self, window: QWidget) -> bool:
        """`window` is about to close: False keeps it open while the close question is asked
        (the last window, with no tray to stay in: `LastWindowClose`)."""
        return self._quitting or len(self.windows) > 1 or self._tray_visible() or self.last_window.confirm(window)

    def _windowless(self) -> bool:
        return not self.windows and not self._quitting

    def _on_window_closed(self, window: ChatWindow) -> None:
        if window in self.windows:
            self.windows.remove(window)
        if not self.windows and (self._quitting or not self._tray_visible()):
            if not self._quitting and self.bridges.streams.running_work():
                # No tray to live in, but turns still run: closing the last window never
                # stops a stream (background mode "continue"). Stay windowless until they are
                # saved, an approval waiting past its bound given up; a later launch
                # meanwhile opens a window here.
                if self._background_wait is None or self._background_wait.done():
                    self._background_wait = spawn(self._quit_when_work_done())
            else:
                self._resolve(0)

    async def _quit_when_work_done(self) -> None:
        if await BackgroundWait(self.bridges, self.attention, windowless=self._windowless).run():
            self._resolve(0)

    # -- tray and notifications ----------------------------------------------------------------------
    def show_topic_window(self, topic_id: str) -> ChatWindow:
        """A window showing `topic_id`, in front: one that shows it already, else a new one."""
        shown = self.windows_for(topic_id)
        window = shown[0] if shown else self.open_window(topic_id)
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def _on_tray_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Context:
            return  # the menu shows
        waiting = list(self.attention.waiting())
        if waiting:
            self.show_topic_window(waiting[0])
        elif self.windows:
            self.windows[0].raise_()
            self.windows[0].activateWindow()
        else:
            self.open_window(None)

    def _tray_visible(self) -> bool:
        return self.tray is not None and self.tray.isVisible()

    def topic_focused(self, topic_id: str) -> bool:
        return any(w.isActiveWindow() for w in self.windows_for(topic_id))

    def notify(self, title: str, text: str) -> None:
        """A desktop notification (`show_notice`), recorded in `notifications`."""
        self.notifications.append((title, text))
        show_notice(self.tray, title, text)
        self.notified.emit(title, text)

    # -- life --------------------------------------------------------------------------------------
    async def first_paint(self, timeout_s: float = FIRST_PAINT_WAIT_S) -> bool:
        """Wait until the first window has painted once; False after `timeout_s` (a window
        that is never exposed, e.g. started minimised, must not hold the app back)."""
        if not self.windows:
            return False
        window = self.windows[0]
        painted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        spy = _PaintSpy(painted, self)
        window.installEventFilter(spy)
        try:
            await asyncio.wait_for(asyncio.shield(painted), timeout_s)
            return True
        except TimeoutError:
            return False
        finally:
            if window in self.windows:
                window.removeEventFilter(spy)
                window.complete()  # a staged window completes after its paint (or without one)
            spy.deleteLater()

    async def wait_closed(self) -> int:
        """Resolves with the exit code once the last window closed (or Quit)."""
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        if not self.windows and not self._tray_visible():
            self._resolve(0)
        code = await self._closed
        # A message sent just before the last window closed is still on its way into core:
        # the app stops core only once the UI's own tasks ran (or gave up).
        await drain()
        return code

    def _resolve(self, code: int) -> None:
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        if not self._closed.done():
            self._closed.set_result(code)

    def quit(self, code: int = 0) -> None:
        self._quitting = True
        self.close_all()
        self._resolve(code)

    def close_all(self) -> None:
        for window in list(self.windows):
            window.close()
        if self.tray is not None:
            self.tray.hide()
        self.tray_menu.deleteLater()
        self.cache.close()

    async def aclose(self) -> None:
        """Close everything and let pending detaches run (tests, shutdown)."""
        self._quitting = True
        self.close_all()
        await drain()

    # -- screenshot ----------------------------------------------------------------------------------
    async def capture_when_idle(self, path: Path, *, window: ChatWindow | None = None,
                                require_turn: bool = False, timeout_s: float = 60.0) -> bool:
        """Wait until the window is idle (and, with `require_turn`, a turn completed in it),
        then save it as PNG. Returns False on timeout (the PNG is saved anyway)."""
        window = window or (self.windows[0] if self.windows else self.open_window(None))
        finished = asyncio.Event()
        if not require_turn:
            finished.set()
        window.turn_finished.connect(lambda *_: finished.set())
        ok = True
        try:
            async with asyncio.timeout(timeout_s):
                await finished.wait()
                while window.is_streaming():  # noqa: ASYNC110 - status lives in Qt signals
                    await asyncio.sleep(0.05)
                await drain(timeout=2.0)
        except TimeoutError:
            ok = False
            log.warning("screenshot: window not idle after %.0f s, saving anyway", timeout_s)
        await asyncio.sleep(0.2)  # one more paint after the final reload
        path.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(path))
        return ok

    async def screenshot_and_quit(self, path: Path) -> None:
        await self.bridges.services()
        if self._quitting:
            return  # stopped (a signal) before the services ran: start no turn on a stopping core
        window = self.windows[0] if self.windows else self.open_window(None)
        require_turn = False
        demo = self.core.demo
        if self.demo and demo is not None and self.bridges.services_running():
            topic_id = demo.topic_id
            if window.topic_id != topic_id:
                task = window.show_topic(topic_id)
                if task is not None:
                    await task
            require_turn = True
            # The demo turn asks to run a tool; answer as the QA user would (Enter = Allow),
            # so the screenshot shows one completed turn.
            window.message_view.approvals_changed.connect(lambda: self._auto_allow(window))
            window.submit(self.tr("Hi! What can you do in this workspace?"), "send")
        ok = await self.capture_when_idle(path, window=window, require_turn=require_turn)
        log.info("screenshot saved to %s (idle: %s)", path, ok)
        self.quit(0)

    @staticmethod
    def _auto_allow(window: ChatWindow) -> None:
        card = window.approval_card
        if not window.approval_waiting() or card.approval is None:
            return
        if not card.armed:  # its grace period: the buttons take no click yet
            QTimer.singleShot(100, lambda: UiController._auto_allow(window))
            return
        log.info("screenshot mode: allowing %s", card.approval.get("tool_name"))
        card.allow_button.click()

    def start_screenshot(self, path: Path) -> None:
        spawn(self.screenshot_and_quit(path))
