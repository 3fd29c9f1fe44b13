"""The app paints its first window before core's stream services run (`start_core(...,
services=False)`, then `core.start_services()`): a window opened in between shows a blank view,
stream requests wait for the services instead of failing, and the first topic opens once boot
recovery has settled its rows."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.storage.paths import build_path_registry
from tests.gui.conftest import ARTIFACTS, seed_agent_session

pytestmark = pytest.mark.gui


async def test_window_before_services_then_first_topic_after_recovery(tmp_path: Path, qapp: Any,
                                                                     no_leaked_windows: None) -> None:
    from cherry_desktop.core.state.topics import session_topic_id
    from cherry_desktop.ui import start_ui
    from cherry_desktop.ui.bridge import QtStreamListener

    core = await start_core(build_path_registry(tmp_path / "data"), services=False)
    controller = None
    try:
        assert not core.services_ready.is_set()
        assert not hasattr(core, "stream_manager")
        _agent_id, session_id = seed_agent_session(core.repos, turns=1)
        # A turn the last run crashed in: its assistant row was left pending.
        stuck = core.repos.session_messages.create_message(
            session_id=session_id, role="assistant", parts=[TextPart(text="half an ans")], status="pending")
        topic_id = session_topic_id(session_id)

        controller = start_ui(core)
        window = controller.windows[0]
        assert await controller.first_paint()
        assert window.topic_id is None
        assert not window.empty_state.isVisible()  # blank, not "Nothing is open"
        assert not window.message_view.empty_hint.isVisible()  # nor "No messages yet"

        listener = QtStreamListener("early", topic_id, window)
        early_attach = asyncio.ensure_future(controller.bridges.streams.attach(topic_id, listener))
        await asyncio.sleep(0.05)
        assert not early_attach.done()  # waits for the services, does not fail

        await core.start_services()
        response = await asyncio.wait_for(early_attach, 5)
        assert response.status != "streaming"
        await asyncio.sleep(0.05)
        assert window.topic_id == topic_id
        row = window.message_view.row(stuck.id)
        assert row is not None and row.status == "error"  # recovered before the window read it
        assert core.repos.session_messages.get_message(stuck.id).status == "error"
        listener.close()
        await controller.bridges.streams.detach(topic_id, listener)
    finally:
        if controller is not None:
            await controller.aclose()
        await core.stop()
    qapp.processEvents()


async def test_second_window_opened_before_services_gets_its_empty_state(tmp_path: Path, qapp: Any,
                                                                       no_leaked_windows: None) -> None:
    from cherry_desktop.ui import start_ui

    core = await start_core(build_path_registry(tmp_path / "data"), services=False)
    controller = None
    try:
        controller = start_ui(core)
        second = controller.open_window(None)
        assert not second.empty_state.isVisible()
        await core.start_services()
        await core.start_services()  # once only: a second call just waits
        await asyncio.sleep(0.05)
        assert second.topic_id is None
        assert second.empty_state.isVisible()
        assert core.app.start_order().count("stream_manager") == 1
    finally:
        if controller is not None:
            await controller.aclose()
        await core.stop()
    qapp.processEvents()


async def test_first_window_paints_its_shell_then_completes_its_conversation(tmp_path: Path, qapp: Any,
                                                                            no_leaked_windows: None) -> None:
    """The app's first window, opened before the services run, is built in two steps: its
    shell (sidebar, composer) paints first, without the conversation's parts; they are added
    right after that paint. Meanwhile the composer takes no text (there is no topic to send
    to); a window opened later is complete at once. Screenshot: artifacts/first_window_shell.png."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from cherry_desktop.core.state.topics import session_topic_id
    from cherry_desktop.ui import start_ui
    from tests.waiting import until

    core = await start_core(build_path_registry(tmp_path / "data"), services=False)
    _agent_id, session_id = seed_agent_session(core.repos, turns=1)
    controller = None
    try:
        controller = start_ui(core)
        window = controller.windows[0]
        assert not window.completed
        assert not hasattr(window, "message_view")
        assert window.sidebar.isVisibleTo(window) and window.composer.isVisibleTo(window)
        assert not window.composer.isEnabled()
        QTest.keyClicks(window.composer.editor, "lost?")
        QTest.keyClick(window.composer.editor, Qt.Key.Key_Return)
        assert window.composer.editor.toPlainText() == ""
        ARTIFACTS.mkdir(exist_ok=True)
        assert window.grab().save(str(ARTIFACTS / "first_window_shell.png"))  # the shell, as first painted
        await until(lambda: window.completed, what="the first window completed after its paint")
        assert window.message_view.isVisibleTo(window)
        assert not window.empty_state.isVisible()  # blank until the services run
        column = window.composer.parentWidget().layout()
        assert column.indexOf(window.message_view) < column.indexOf(window.approval_card) \
            < column.indexOf(window.composer)
        second = controller.open_window(None)
        assert second.completed and second.message_view is not window.message_view
        await core.start_services()
        await until(lambda: window.topic_id is not None, what="the first topic opened")
        assert window.composer.isEnabled()
        assert window.topic_id == session_topic_id(session_id)
    finally:
        if controller is not None:
            await controller.aclose()
        await core.stop()
    qapp.processEvents()
