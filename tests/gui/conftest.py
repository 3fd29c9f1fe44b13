"""GUI fixtures: a real core (SQLite under tmp_path, SharedCache, keyring fake) and the UI."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import TextPart, ToolPart
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import ScriptedModelServer

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
async def ui_core(tmp_path: Path) -> Any:
    """The app's real core (`start_core`) on a data dir under tmp_path."""
    core = await start_core(build_path_registry(tmp_path / "data-root"))
    try:
        yield core
    finally:
        await core.stop()


@pytest.fixture
async def server() -> AsyncIterator[ScriptedModelServer]:
    """A started scripted model server (empty script), stopped after the test."""
    async with ScriptedModelServer() as started:
        yield started


@pytest.fixture
def scripted_ai() -> Any:
    from tests.gui._scripted import ScriptedAi

    return ScriptedAi()


@pytest.fixture
async def live_core(ui_core: CoreServices, scripted_ai: Any) -> Any:
    """`ui_core` whose chat models are a scripted `stream_text` (the real manager, providers
    and SQLite persistence run as in the app)."""
    ui_core.stream_manager.set_stream_text(scripted_ai.stream_text)
    return ui_core


@pytest.fixture(autouse=True)
def no_leaked_windows(qapp: Any) -> Iterator[None]:
    """Fail any gui test that leaves a top-level window open (visible): close what you show."""
    before = {id(w) for w in qapp.topLevelWidgets() if w.isVisible()}
    yield
    qapp.processEvents()
    leaked = [w for w in qapp.topLevelWidgets() if w.isVisible() and id(w) not in before]
    for w in leaked:
        w.close()
    assert not leaked, f"top-level widgets left open: {leaked}"


@pytest.fixture
async def controller(ui_core: CoreServices, qapp: Any, no_leaked_windows: None) -> Any:
    from cherry_desktop.ui import UiController

    ctl = UiController(ui_core)
    try:
        yield ctl
    finally:
        await ctl.aclose()
        await asyncio.sleep(0)  # one turn of the loop: Qt's events posted by the close run


@pytest.fixture
async def live_controller(live_core: CoreServices, qapp: Any, no_leaked_windows: None) -> Any:
    from cherry_desktop.ui import UiController

    ctl = UiController(live_core)
    try:
        yield ctl
    finally:
        await ctl.aclose()
        await asyncio.sleep(0)  # one turn of the loop: Qt's events posted by the close run


@contextlib.asynccontextmanager
async def app_run(paths: Any, *, start_window: bool = True, demo: bool = False) -> AsyncIterator[Any]:
    """One run of the app on `paths`: its core and its UI (opened as `start_ui` opens it, with
    its first window, or a bare `UiController` with none), stopped on leaving."""
    from cherry_desktop.ui import UiController, start_ui

    core = await start_core(paths)
    ctl = start_ui(core, demo=demo) if start_window else UiController(core)
    try:
        yield ctl
    finally:
        for window in list(ctl.windows):
            window.close()
        await ctl.aclose()
        await core.stop()


def seed_agent_session(repos: Repositories, *, name: str = "Demo session", turns: int = 2) -> tuple[str, str]:
    """An agent with a workspace and a session holding `turns` user/assistant pairs."""
    agent = repos.agents.create_agent(type="claude-code", name="Coder", model="p::m")
    ws = repos.agents.create_workspace(name="ws", path="/tmp", agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name=name)
    for i in range(turns):
        repos.session_messages.create_message(session_id=session.id, role="user",
                                              parts=[TextPart(text=f"Question {i}?")])
        row = repos.session_messages.create_message(
            session_id=session.id, role="assistant",
            parts=[TextPart(text=f"Answer **{i}**.\n\n```python\nprint({i})\n```\n"),
                   ToolPart(tool_call_id=f"t{i}", tool_name="Read", state="output-available",
                            input={"file_path": "README.md"}, output="# hello")])
        repos.session_messages.update_message(
            row.id, stats={"input_tokens": 12, "output_tokens": 34, "time_completion_ms": 1200})
    return agent.id, session.id


def named_agent_session(repos: Repositories, workspace: Path, *, agent: str = "Ada",
                        model: tuple[str, str] = ("sonnet", "Sonnet 4.5"), session: str = "Build") -> str:
    """A claude-code agent named `agent` on the "Demo" provider's `model` (id, display name),
    with a session named `session` in `workspace` (made here): the session's topic id."""
    from cherry_desktop.core.state.topics import session_topic_id

    workspace.mkdir(exist_ok=True)
    model_id, model_name = model
    repos.providers.upsert_provider(id="demo", name="Demo", type="anthropic", base_url="http://127.0.0.1:9")
    repos.providers.upsert_model(provider_id="demo", model_id=model_id, name=model_name)
    record = repos.agents.create_agent(type="claude-code", name=agent, model=f"demo::{model_id}")
    ws = repos.agents.create_workspace(name="ws", path=str(workspace), agent_id=record.id)
    return session_topic_id(repos.sessions.create_session(agent_id=record.id, workspace_id=ws.id, name=session).id)


def save_screenshot(widget: Any, name: str, width: int = 720) -> Path:
    """Lay `widget` out at `width` and its own height for that width, show it, save a PNG
    under artifacts/ (the tests' screenshots, looked at by people)."""
    from PySide6.QtWidgets import QApplication

    widget.resize(width, 10)
    widget.show()
    QApplication.processEvents()
    widget.resize(width, widget.layout().totalHeightForWidth(width))
    QApplication.processEvents()
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    assert widget.grab().save(str(path))
    return path


def scripted_agent_session(core: Any, workspace: Path, name: str = "Session") -> tuple[str, Any]:
    """A claude-code agent session whose runtime is the scripted driver (host, manager and
    SQLite are real): (topic id, driver)."""
    from cherry_desktop.core.state.topics import session_topic_id
    from tests.fakes.scripted_driver import ScriptedDriver
    from tests.unit.agent_session.harness import add_model

    driver = ScriptedDriver(type="claude-code", supports_redirect=True)
    add_model(core.repos, "demo::sonnet")  # a turn on a model that no longer exists is refused
    core.agent_runtime.registry.register(driver, replace=True)
    workspace.mkdir(exist_ok=True)
    agent = core.repos.agents.create_agent(type="claude-code", name="Ada", model="demo::sonnet")
    ws = core.repos.agents.create_workspace(name="ws", path=str(workspace), agent_id=agent.id)
    session = core.repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name=name)
    return session_topic_id(session.id), driver


async def send_turn(qtbot: Any, window: Any, driver: Any, text: str, *, sent: int = 1) -> Any:
    """Type `text` in the window's composer and press Enter; returns the scripted driver's
    connection once it received its `sent`-th message."""
    from PySide6.QtCore import Qt

    window.composer.editor.setPlainText(text)
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    conn = await driver.wait_connection()
    await conn.wait_sent(sent)
    return conn


async def focused_window(controller: Any, topic_id: str) -> Any:
    """A window of `topic_id`, active, its composer holding the keyboard focus."""
    from PySide6.QtWidgets import QApplication

    from tests.waiting import until

    window = controller.open_window(topic_id)
    window.activateWindow()
    await until(window.isActiveWindow)
    window.composer.editor.setFocus()
    await until(lambda: QApplication.focusWidget() is window.composer.editor)
    return window


async def enter_sends(window: Any, driver: Any) -> str:
    """Press Enter in the window's composer; the text the scripted runtime received (its turn
    then completes)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from tests.waiting import until

    QTest.keyClick(window.composer.editor, Qt.Key.Key_Return)
    conn = await driver.wait_connection()
    text = (await conn.wait_sent(1)).message.text()
    conn.complete("done")
    await until(lambda: not window.is_streaming())
    return str(text)
