"""Layout at any width (issue #30, item 8), through the real window with real resizes: the
session header never widens the window nor crushes the sidebar (at 760 px it grew the window
to 857 px and cut names to "De…"), and shows the names whole while there is room for them;
the always-allowed tools collapse into a count when their names do not fit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

from tests.gui.conftest import ARTIFACTS, named_agent_session

pytestmark = pytest.mark.gui


async def settle() -> None:
    """Let the posted layout requests run (a relayout may post one more). Not processEvents():
    re-entering the loop under qasync stalls the test."""
    for _ in range(3):
        await asyncio.sleep(0.02)


def shown_whole(label: Any) -> bool:
    return label.width() >= label.fontMetrics().horizontalAdvance(label.text())


@pytest.fixture
def demo_session(ui_core: Any, tmp_path: Any) -> str:
    """A session as the demo shows it: "Demo agent" on "Demo model" in a folder."""
    return named_agent_session(ui_core.repos, tmp_path / "cherry-demo", agent="Demo agent",
                               model=("demo", "Demo model"), session="Demo")


def _fill(header: Any) -> None:
    """What the demo session shows after its first turn: changed files, the context meter."""
    header.set_context_usage(50_000, 200_000)
    header.set_changed_files(1)


def _inside(header: QWidget, widgets: list[QWidget]) -> None:
    for w in widgets:
        if w.isVisible():
            assert header.rect().contains(w.geometry()), w.objectName()


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_a_760_px_window_stays_760_px_its_sidebar_keeps_its_width_and_the_names_show_whole(
        controller: Any, demo_session: str, qapp: Any, theme: str) -> None:
    from cherry_desktop.ui.shell import apply_theme

    apply_theme(qapp, theme)
    window = controller.open_window(demo_session)
    header = window.session_header
    _fill(header)
    controls = [header.changes_button, header.always_allowed, header.permission_combo, header.context_meter]
    try:
        window.resize(1100, 720)
        window.show()
        await settle()
        sidebar = window.search_panel.width()
        # Wide: one line, and the names whole (they were cut to "Agent: Dem…" at 1100 px).
        assert header.row.is_one_line()
        assert header.agent_label.text() == "Demo agent" and shown_whole(header.agent_label)
        assert header.model_label.text() == "Demo model" and shown_whole(header.model_label)
        _inside(header, controls)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(ARTIFACTS / f"layout_1100_{theme}.png"))

        window.resize(760, 720)
        await settle()
        assert window.width() == 760
        assert window.search_panel.width() == sidebar
        # Narrow: the controls take a line of their own under the names, which stay whole.
        assert not header.row.is_one_line()
        assert shown_whole(header.agent_label) and shown_whole(header.model_label)
        assert header.permission_combo.geometry().top() > header.agent_label.geometry().bottom()
        _inside(header, controls)
        assert header.width() <= window.width() - sidebar
        # Two tools always allowed: named while they fit, the window still 760 px.
        header.always_allowed.set_tools(["Bash", "Write"])
        await settle()
        assert header.always_allowed.text() == "Always allowed: Bash, Write"
        assert window.width() == 760 and window.search_panel.width() == sidebar
        _inside(header, controls)
        assert window.grab().save(str(ARTIFACTS / f"layout_760_{theme}.png"))

        # Back to wide (the tools asked for again): one line again.
        header.always_allowed.set_tools(())
        window.resize(1100, 720)
        await settle()
        assert header.row.is_one_line() and window.search_panel.width() == sidebar
    finally:
        window.close()
        apply_theme(qapp, "light")


async def test_a_name_longer_than_the_header_has_room_for_is_elided_and_only_then(
        controller: Any, demo_session: str, ui_core: Any) -> None:
    """A name longer than the room there is gives way (elided, whole in its tooltip); the
    window still keeps the width the user set."""
    repos = ui_core.repos
    agent_id = repos.sessions.get_session(demo_session.split(":", 1)[1]).agent_id
    repos.agents.update_agent(agent_id, name="An agent whose name is longer than a narrow header has room for")
    window = controller.open_window(demo_session)
    header = window.session_header
    _fill(header)
    window.resize(1100, 720)
    window.show()
    await settle()
    try:
        assert shown_whole(header.agent_label)  # the controls went under it: room enough
        window.resize(700, 720)
        await settle()
        assert window.width() == 700
        assert not shown_whole(header.agent_label)
        assert header.agent_label.toolTip() == "Agent: " + header.agent_label.text()
        assert header.rect().contains(header.permission_combo.geometry())
    finally:
        window.close()


async def test_many_always_allowed_tools_collapse_into_a_count_and_the_menu_names_them(
        controller: Any, demo_session: str) -> None:
    window = controller.open_window(demo_session)
    header = window.session_header
    _fill(header)
    button = header.always_allowed
    tools = ["Bash", "Write", "Edit", "WebFetch", "NotebookEdit"]
    window.resize(760, 720)
    window.show()
    await settle()
    try:
        button.set_tools(tools)
        await settle()
        assert button.text() == "Always allowed (5)"
        assert window.width() == 760 and header.rect().contains(button.geometry())
        assert all(tool in button.toolTip() for tool in tools)
        assert [a.data() for a in button.menu().actions() if a.data()] == tools
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert header.grab().save(str(ARTIFACTS / "layout_always_allowed_count.png"))
        # Two short names show; squeezed below them, the button counts instead.
        button.set_tools(tools[:2])
        await settle()
        assert button.text() == "Always allowed: Bash, Write"
        button.resize(button.minimumSizeHint())
        assert button.text() == "Always allowed (2)"
        button.resize(button.sizeHint())
        assert button.text() == "Always allowed: Bash, Write"
    finally:
        window.close()


async def test_the_rename_and_queue_edit_dialogs_are_as_wide_as_their_text(
        controller: Any, monkeypatch: Any) -> None:
    """Qt's `getText` opened at a fixed narrow width: a long name showed cut in its field."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit, QPlainTextEdit

    long_name = "Notes on the migration of the billing service to the new queue, week 12"
    topic_id = controller.bridges.chats.create_topic(long_name)
    window = controller.open_window(topic_id)
    seen: list[tuple[str, int, int, int]] = []

    def run(dialog: Any) -> int:  # stands in for the user: looks, then cancels
        dialog.show()
        dialog.layout().activate()  # as the first event of exec() would
        field = next(w for w in dialog.findChildren(QWidget) if isinstance(w, QLineEdit | QPlainTextEdit)
                     and w.isVisible())
        text = dialog.textValue().splitlines() or [""]
        needed = max(field.fontMetrics().horizontalAdvance(line) for line in text)
        seen.append((dialog.windowTitle(), field.width(), needed, field.height()))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert dialog.grab().save(str(ARTIFACTS / f"layout_dialog_{len(seen)}.png"))
        dialog.hide()
        return 0

    monkeypatch.setattr(QInputDialog, "exec", run)
    try:
        window.rename_topic(topic_id)
        title, width, needed, _height = seen[-1]
        assert title == "Rename" and width >= needed + 16  # its frame and padding too
        message = "First check the invoices table.\nThen the queue consumers.\nThen the retries.\n" * 2
        window.queue_dock._edit("m1", message)
        title, width, needed, height = seen[-1]
        assert title == "Edit queued message" and width >= needed
        lines = len(message.splitlines())
        assert height >= window.fontMetrics().lineSpacing() * lines  # every line shows
    finally:
        window.close()


async def test_the_providers_dialog_shows_its_placeholders_whole(controller: Any) -> None:
    """"Model id, e.g. gpt-4o" beside its buttons showed cut to "Model id, e.g.…"."""
    from PySide6.QtWidgets import QLineEdit

    from cherry_desktop.ui.dialogs import ProvidersDialog

    window = controller.open_window(None)
    dialog = ProvidersDialog(controller.bridges.providers, None, window)
    try:
        dialog.show()
        await settle()
        edits = [e for e in dialog.findChildren(QLineEdit) if e.isVisible() and e.placeholderText()]
        assert dialog.panel.model_edit in edits
        for edit in edits:
            needed = edit.fontMetrics().horizontalAdvance(edit.placeholderText())
            assert edit.width() >= needed + 8, edit.objectName()  # its frame and margins too
        assert dialog.width() <= 1000  # sized to its content, not grown without bound
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert dialog.grab().save(str(ARTIFACTS / "layout_providers_dialog.png"))
    finally:
        dialog.close()
        window.close()


async def test_the_attach_and_folder_pickers_show_readable_columns(
        controller: Any, monkeypatch: Any, tmp_path: Any, qtbot: Any) -> None:
    """Qt's own file dialog (no native one offscreen): the Detail view, the name column taking
    the room, size, type and date whole and inside the view (no scrolling sideways)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTreeView

    from cherry_desktop.ui.common import ReadableFileDialog, existing_directory

    folder = tmp_path / "pick"
    folder.mkdir()
    for name in ("a rather long file name for the quarterly report draft.md", "notes.txt", "chart.png"):
        (folder / name).write_text("x")
    (folder / "sub folder").mkdir()
    window = controller.open_window(controller.bridges.chats.create_topic("Files"))
    seen: list[str] = []

    def run(dialog: Any) -> int:  # stands in for the user: looks, then cancels
        dialog.setDirectory(str(folder))
        dialog.show()
        view = dialog.findChild(QTreeView, "treeView")
        header = view.header()
        seen.append(dialog.windowTitle())
        assert dialog.viewMode() == ReadableFileDialog.ViewMode.Detail and view.isVisible()
        assert header.sectionSize(0) >= view.viewport().width() // 3  # names have the room
        for column in (1, 2, 3):
            title = str(view.model().headerData(column, Qt.Orientation.Horizontal))
            assert header.sectionSize(column) > header.fontMetrics().horizontalAdvance(title), title
        assert header.length() <= view.viewport().width()  # every column inside the view
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert dialog.grab().save(str(ARTIFACTS / f"layout_file_dialog_{len(seen)}.png"))
        dialog.hide()
        return 0

    monkeypatch.setattr(ReadableFileDialog, "exec", run)
    try:
        window.show()
        qtbot.mouseClick(window.composer.attach_button, Qt.MouseButton.LeftButton)
        assert seen == ["Attach files"]
        assert existing_directory(window, "Choose a workspace folder", str(folder)) == ""
        assert seen[-1] == "Choose a workspace folder"
    finally:
        window.close()
