"""A pi agent in the real window: created in the New agent dialog, a turn whose shell tool
waits on the approval card, a steer, a Stop — the real core, the real pi and the scripted
model server. Screenshots go to artifacts/."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.demo import HangReply, ScriptedModelServer, slow_text, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from tests.gui.conftest import ARTIFACTS
from tests.integration.pi_helpers import ensure_test_pi, pi_demo_session
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(150)]


def _roles(window: Any) -> list[str]:
    return [r.role for r in window.message_view.rows()]


async def _shot(window: Any, name: str) -> None:
    await asyncio.sleep(0.2)
    window.grab().save(str(ARTIFACTS / name))


async def test_pi_agent_from_the_dialog_approval_steer_and_stop(controller: Any, ui_core: Any, qtbot: Any,
                                                                server: ScriptedModelServer, tmp_path: Path) -> None:
    from cherry_desktop.ui.dialogs import AgentDialog

    ARTIFACTS.mkdir(exist_ok=True)
    installation = await asyncio.to_thread(ensure_test_pi)
    driver = ui_core.agent_runtime.registry.get("pi")
    assert isinstance(driver, PiRuntimeDriver)
    driver.use_installation(installation)
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)

    window = controller.open_window(None)
    dialog = AgentDialog(controller.bridges, None, window)
    dialog.runtime_combo.setCurrentIndex(dialog.runtime_combo.findData("pi"))
    assert [dialog.permission_combo.itemData(i) for i in range(dialog.permission_combo.count())] == [
        "default", "acceptEdits", "bypassPermissions"]
    assert dialog.permission_combo.currentData() == "acceptEdits"  # the descriptor's create default
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData(DEMO_UNIQUE_MODEL_ID))
    workspace = tmp_path / "pi-project"
    workspace.mkdir()
    dialog.name_edit.setText("Pi coder")
    dialog.workspace_edit.setText(str(workspace))
    dialog.show()
    await asyncio.sleep(0.15)
    dialog.grab().save(str(ARTIFACTS / "pi_new_agent_dialog.png"))
    dialog.save()
    agent = ui_core.repos.agents.get_agent(dialog.agent_id)
    assert (agent.type, agent.permission_mode) == ("pi", "acceptEdits")
    window.sidebar.reload()
    window.new_session(agent.id)

    # A turn whose shell command waits on the approval card (acceptEdits still gates bash).
    server.enqueue(tool_use("bash", {"command": "echo from-pi > made-by-pi.txt"},
                            preamble="I will create the file with the shell.", delay_s=0.01),
                   text("Created made-by-pi.txt."))
    window.composer.editor.setPlainText("create made-by-pi.txt")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    card = window.approval_card
    await until(lambda: window.approval_waiting() and card.armed, limit=60)
    assert "bash" in card.title.text()
    assert not (workspace / "made-by-pi.txt").exists()
    await _shot(window, "pi_approval_card.png")
    qtbot.mouseClick(card.allow_button, Qt.MouseButton.LeftButton)
    await until(lambda: not window.is_streaming() and _roles(window) == ["user", "assistant"], limit=60)
    assert (workspace / "made-by-pi.txt").read_text().strip() == "from-pi"

    # A steer mid-turn: the rows roll (A1a, steer, A2).
    server.enqueue(slow_text("Reading the project slowly, so you can steer me. " * 2, delay_s=0.03),
                   text("Steered: tabs it is."))
    window.composer.editor.setPlainText("tidy the project")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: "Reading the project" in window.live_text(), limit=60)
    window.composer.editor.setPlainText("use tabs")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: not window.is_streaming() and len(_roles(window)) == 6, limit=60)
    texts = [r.text() for r in window.message_view.rows()]
    assert texts[4] == "use tabs" and texts[5] == "Steered: tabs it is."
    await _shot(window, "pi_steered.png")

    # Stop: the row is paused with its partial text.
    server.enqueue(HangReply(text_before="A long answer that will be stopped "))
    window.composer.editor.setPlainText("write an essay")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: "will be stopped" in window.live_text(), limit=60)
    qtbot.mouseClick(window.composer.stop_button, Qt.MouseButton.LeftButton)
    await until(lambda: not window.is_streaming(), limit=60)
    session_id = window.topic_id.split(":", 1)[1]
    rows = ui_core.repos.session_messages.list_messages(session_id)
    assert rows[-1].status == "paused"
    await _shot(window, "pi_stopped.png")


async def test_a_pi_session_resumes_its_conversation_after_a_restart(qapp: Any, qtbot: Any, no_leaked_windows: None,
                                                                      server: ScriptedModelServer,
                                                                      tmp_path: Path) -> None:
    """The spec's manual smoke, last step: one run of the app has a pi turn; the app stops (pi
    with it); a new run on the same data dir shows the rows and the next turn resumes pi's
    conversation (the model is sent the first exchange again)."""
    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.state.topics import session_topic_id
    from cherry_desktop.core.storage.paths import build_path_registry
    from cherry_desktop.ui import UiController

    ARTIFACTS.mkdir(exist_ok=True)
    installation = await asyncio.to_thread(ensure_test_pi)
    paths = build_path_registry(tmp_path / "data-root")
    server.enqueue(text("Noted: kumquat."), text("The word was kumquat."))

    async def one_run(prompt: str, rows_before: int) -> Any:
        core = await start_core(paths)
        ctl = UiController(core)
        try:
            session_id = pi_demo_session(core, server.base_url, installation)
            driver = core.agent_runtime.registry.get("pi")
            window = ctl.open_window(session_topic_id(session_id))
            await until(lambda: len(_roles(window)) == rows_before, limit=10)
            window.composer.editor.setPlainText(prompt)
            qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
            await until(lambda: not window.is_streaming() and len(_roles(window)) == rows_before + 2, limit=60)
            texts = [r.text() for r in window.message_view.rows()]
            if rows_before:
                await _shot(window, "pi_resumed.png")
            window.close()
            return texts, driver
        finally:
            await ctl.aclose()
            await core.stop()

    texts, driver = await one_run("remember the word kumquat", 0)
    assert texts == ["remember the word kumquat", "Noted: kumquat."]
    assert driver.alive_pids() == []  # the app's stop took pi with it
    texts, _ = await one_run("what was the word?", 2)
    assert texts == ["remember the word kumquat", "Noted: kumquat.", "what was the word?", "The word was kumquat."]
    sent = server.requests_for_model_turns()[-1].all_text()
    assert "kumquat" in sent and "Noted: kumquat." in sent
    qapp.processEvents()


async def test_the_first_pi_turn_shows_the_install_in_the_session_header(
        controller: Any, ui_core: Any, server: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch,
        qtbot: Any) -> None:
    """No pi on the machine: the first turn installs the pinned pi, and while npm runs the
    session header says so with npm's newest line (`AgentRuntimeSetup` in the shared cache);
    it goes when pi is installed and the turn runs. npm's registry is the internet, so the
    install links the test's pi into the app's runtime folder (as tests/integration/
    test_pi_driver.py does); the lookup, the launch and the turn are real."""
    from cherry_desktop.core.ai.runtime.pi import driver as driver_module
    from cherry_desktop.core.ai.runtime.pi.install import PI_PINNED_VERSION, app_pi
    from cherry_desktop.core.state.topics import session_topic_id

    ARTIFACTS.mkdir(exist_ok=True)
    installation = await asyncio.to_thread(ensure_test_pi)
    monkeypatch.setenv("PATH", str(installation.node.node.parent))  # no `pi` on PATH
    release = asyncio.Event()

    async def npm_install(install_dir: Path, progress: Any = None) -> Any:
        progress("npm http fetch GET 200 @mariozechner/pi-coding-agent 120ms (cache miss)")
        await release.wait()
        target = install_dir / "node_modules" / "@mariozechner" / "pi-coding-agent"
        target.parent.mkdir(parents=True)
        target.symlink_to(installation.cli_js.parents[1], target_is_directory=True)
        return app_pi(install_dir, installation.node)

    monkeypatch.setattr(driver_module, "install_pinned_pi", npm_install)
    session_id = pi_demo_session(ui_core, server.base_url)  # no pi: the first turn installs it
    server.enqueue(text("pi is installed and answering."))
    window = controller.open_window(session_topic_id(session_id))
    setup = window.session_header.setup_label
    assert not setup.isVisibleTo(window)
    window.composer.editor.setPlainText("hello pi")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: setup.isVisibleTo(window), limit=10)
    assert setup.text() == (f"Installing pi {PI_PINNED_VERSION} for its first use (about 15 s)… "
                            "npm http fetch GET 200 @mariozechner/pi-coding-agent 120ms (cache miss)")
    other = controller.open_window(session_topic_id(session_id))  # a window opened meanwhile says so too
    assert other.session_header.setup_label.isVisibleTo(other)
    await _shot(window, "pi_installing.png")
    release.set()
    await until(lambda: not window.is_streaming() and _roles(window) == ["user", "assistant"], limit=60)
    assert window.message_view.rows()[-1].text() == "pi is installed and answering."
    assert not setup.isVisibleTo(window) and not other.session_header.setup_label.isVisibleTo(other)
    other.close()
