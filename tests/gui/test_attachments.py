"""Attachments through real widgets: paste and drop into the composer, send to a real provider
(scripted OpenAI-compatible server on 127.0.0.1 that echoes what it got), thumbnails and chips
in the user row, limits, deletes, and a restart that shows the files again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QToolButton, QWidget

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.attachments import MAX_ATTACHMENTS
from cherry_desktop.core.attachments.cleanup import SWEEP_DELAY_S
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from cherry_desktop.core.storage.paths import build_path_registry
from tests.fakes.scripted_provider_server import Reply, ScriptedServer
from tests.gui.conftest import ARTIFACTS, save_screenshot
from tests.waiting import until

pytestmark = pytest.mark.gui


def _chat(core: Any, provider_server: ScriptedServer) -> str:
    core.repos.providers.upsert_provider(id="prov", name="Scripted", type="openai-compatible",
                                         base_url=provider_server.base + "/v1")
    core.repos.providers.upsert_model(provider_id="prov", model_id="vision", name="Vision")
    CredentialStore().set(provider_key_name("prov"), "sk-test")
    return str(core.repos.topics.create_topic(name="Pictures", model="prov::vision").id)


def _red_image() -> QImage:
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.red)
    return image


def _drop(widget: Any, paths: list[Path]) -> None:
    """A drag of files entering the widget, then their drop (Qt delivers drop events only
    during a system drag, which an offscreen test cannot start: the handlers are called)."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    widget.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    widget.dropEvent(drop)
    assert drop.isAccepted()


def _user_row(window: Any) -> Any:
    rows = [r for r in window.message_view.rows() if r.role == "user"]
    return rows[-1]


async def _settled(window: Any, core: Any, topic_id: str, count: int) -> None:
    await until(lambda: len(core.repos.messages.branch(topic_id)) == count
                and all(r.status != "pending" for r in core.repos.messages.branch(topic_id))
                and not window.is_streaming(), limit=15)


async def test_paste_and_drop_then_send_reaches_the_model_and_shows_in_the_row(
        controller: Any, ui_core: Any, provider_server: ScriptedServer, tmp_path: Path, qtbot: Any) -> None:
    topic_id = _chat(ui_core, provider_server)
    window = controller.open_window(topic_id)
    composer = window.composer
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\nfirst\nsecond\n")

    QApplication.clipboard().setImage(_red_image())
    composer.editor.setFocus()
    composer.editor.paste()  # the clipboard's image joins the tray, not the text
    _drop(composer, [notes])  # dropped on the composer box
    assert [c.filename for c in composer.attachments.items] == ["pasted-image.png", "notes.md"]
    assert composer.editor.toPlainText() == ""
    tray_buttons = [b.objectName() for b in composer.attachments.findChildren(QToolButton)
                    if b.objectName() != "attachmentRemove"]
    assert tray_buttons == ["attachmentThumb", "attachmentChip"]

    provider_server.replies.append(Reply(echo=True))
    composer.editor.setPlainText("What do you see?")
    await controller.capture_when_idle(ARTIFACTS / "attachment_composer.png", window=window)
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    assert composer.attachments.items == [] and not composer.attachments.isVisible()
    await _settled(window, ui_core, topic_id, 2)

    # The model got the pasted image (as PNG) and the dropped file with its name.
    [(media_type, data)] = provider_server.received[0].images()
    assert media_type == "image/png"
    assert QImage.fromData(data).size() == _red_image().size()
    assert provider_server.received[0].texts() == ["What do you see?",
                                          '<attached_file name="notes.md">\n# Notes\nfirst\nsecond\n\n</attached_file>']
    answer = "".join(p.text for p in ui_core.repos.messages.branch(topic_id)[-1].parts if p.type == "text")
    assert "images=['image/png:" in answer and "files=['notes.md']" in answer
    await controller.capture_when_idle(ARTIFACTS / "attachment_window.png", window=window)

    # The user row: a thumbnail and a chip; a click on each opens it.
    await until(lambda: _user_row(window).findChild(QWidget, "attachmentStrip") is not None)
    strip = _user_row(window).findChild(QWidget, "attachmentStrip")
    assert [b.objectName() for b in strip.buttons] == ["attachmentThumb", "attachmentChip"]
    assert "notes.md" in strip.buttons[1].text()
    image_viewer = strip.open_viewer("pasted-image.png", window.bridges.attachments.path_of(
        ui_core.repos.messages.branch(topic_id)[0].parts[1]), True)
    assert image_viewer is not None and image_viewer.image_label.pixmap().width() == 40
    image_viewer.close()
    qtbot.mouseClick(strip.buttons[1], Qt.MouseButton.LeftButton)
    [text_viewer] = [v for v in window.findChildren(QWidget, "attachmentViewer") if hasattr(v, "text_view")]
    assert text_viewer.text_view.toPlainText() == "# Notes\nfirst\nsecond\n"
    text_viewer.close()


async def test_limits_say_why_and_keep_the_typed_text_and_the_files(
        controller: Any, ui_core: Any, provider_server: ScriptedServer, tmp_path: Path) -> None:
    window = controller.open_window(_chat(ui_core, provider_server))
    composer = window.composer
    composer.editor.setPlainText("my carefully typed question")
    binary = tmp_path / "tool.exe"
    binary.write_bytes(b"MZ\x00\x00binary")
    big = tmp_path / "huge.log"
    big.write_bytes(b"log line\n" * 200_000)  # 1.8 MB of text
    ok = [tmp_path / f"f{i}.txt" for i in range(MAX_ATTACHMENTS + 1)]
    for i, p in enumerate(ok):
        p.write_text(f"file {i}")

    _drop(composer, [binary])
    assert composer.attachments.notice.isVisible()
    assert "tool.exe cannot be attached" in composer.attachments.notice.text()
    _drop(composer, [big])
    assert "huge.log is too large to attach (the limit is 1.0 MB)" in composer.attachments.notice.text()
    _drop(composer, ok)
    assert len(composer.attachments.items) == MAX_ATTACHMENTS
    assert f"at most {MAX_ATTACHMENTS} files; f{MAX_ATTACHMENTS}.txt was not added" in \
        composer.attachments.notice.text()
    assert composer.editor.toPlainText() == "my carefully typed question"
    # Remove one: the tray follows.
    composer.attachments.findChildren(QWidget, "attachmentRemove")[0].click()
    assert [c.filename for c in composer.attachments.items][:1] == ["f1.txt"]
    assert provider_server.received == []


async def test_a_failed_send_keeps_nothing_on_disk_and_gives_text_and_files_back(
        controller: Any, ui_core: Any, provider_server: ScriptedServer, tmp_path: Path) -> None:
    topic_id = _chat(ui_core, provider_server)
    window = controller.open_window(topic_id)
    composer = window.composer
    notes = tmp_path / "n.txt"
    notes.write_text("x")
    _drop(composer, [notes])
    task = window.submit("hello?", "send")  # the files are stored now; the send runs next tick
    assert task is not None and composer.attachments.items == []
    ui_core.repos.topics.delete_topic(topic_id)  # same tick, from another window: it cannot save
    await until(task.done)
    assert window.last_error  # the failure is said
    assert ui_core.attachments.scopes() == []  # the staged file went
    assert [c.filename for c in composer.attachments.items] == ["n.txt"]
    assert composer.editor.toPlainText() == "hello?"


async def test_deleting_the_message_or_the_topic_removes_the_files_and_a_restart_shows_them(
        qapp: Any, provider_server: ScriptedServer, tmp_path: Path, no_leaked_windows: None) -> None:
    from cherry_desktop.ui import UiController

    paths = build_path_registry(tmp_path / "data")
    core = await start_core(paths)
    controller = UiController(core)
    try:
        topic_id = _chat(core, provider_server)
        window = controller.open_window(topic_id)
        window.composer.attachments.add_bytes("shot.png", _png())
        provider_server.replies.append(Reply(echo=True))
        window.submit("keep this", "send")
        await _settled(window, core, topic_id, 2)
        stored = core.repos.messages.branch(topic_id)[0].parts[1]
        path = core.attachments.path_of(stored.stored_name)
        assert path.is_file()
    finally:
        await controller.aclose()
        await core.stop()

    # A restart: the row's thumbnail comes from the stored file.
    core = await start_core(paths)
    controller = UiController(core)
    try:
        window = controller.open_window(topic_id)
        await until(lambda: _user_row(window).findChild(QWidget, "attachmentStrip") is not None)
        strip = _user_row(window).findChild(QWidget, "attachmentStrip")
        assert [b.objectName() for b in strip.buttons] == ["attachmentThumb"]
        assert not strip.buttons[0].icon().isNull()

        user_id = core.repos.messages.branch(topic_id)[0].id
        window.bridges.chats.delete_message(topic_id, user_id)
        await until(lambda: not path.exists(), limit=SWEEP_DELAY_S + 5)
        # Another message with a file, then the whole chat goes.
        window.composer.attachments.add_bytes("again.png", _png())
        provider_server.replies.append(Reply(echo=True))
        window.submit("again", "send")
        await until(lambda: len(core.attachments.scopes()) == 1 and any(
            r.status == "success" and r.role == "assistant" for r in core.repos.messages.branch(topic_id)[1:]))
        await _settled(window, core, topic_id, 3)
        await window.delete_topic(topic_id, confirm=False)
        await until(lambda: core.attachments.scopes() == [], limit=SWEEP_DELAY_S + 5)
    finally:
        await controller.aclose()
        await core.stop()


def _png() -> bytes:
    from tests.unit.foundation.test_attachments import png_bytes

    return png_bytes(8, 6)


async def test_screenshot_of_a_user_row_with_an_image_and_a_text_chip(
        controller: Any, ui_core: Any, provider_server: ScriptedServer) -> None:
    from cherry_desktop.core.attachments import check_attachment
    from cherry_desktop.core.messages import TextPart
    from cherry_desktop.ui.chat import MessageRow

    topic_id = _chat(ui_core, provider_server)
    image = _red_image().scaled(320, 200)
    from PySide6.QtCore import QBuffer, QIODevice

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    store = ui_core.attachments
    parts = [store.stage(topic_id, check_attachment("chart.png", bytes(buffer.data().data()))),
             store.stage(topic_id, check_attachment("requirements.txt", b"PySide6\nqasync\npydantic\n"))]
    row = MessageRow("m1", "user", files=controller.bridges.attachments)
    row.set_parts([TextPart(text="Here is the chart and the requirements, what do you think?"), *parts])
    try:
        path = save_screenshot(row, "attachment")
        assert path.is_file() and QImage(str(path)).width() == 720
        strip = row.findChild(QWidget, "attachmentStrip")
        assert [b.objectName() for b in strip.buttons] == ["attachmentThumb", "attachmentChip"]
    finally:
        row.close()
        row.deleteLater()
        store.discard(parts)



def test_many_files_wrap_onto_more_lines_and_never_widen_the_composer_or_the_row(qtbot: Any, tmp_path: Path) -> None:
    """Ten files in the composer's tray and in a sent row: the chips wrap within the width
    they are given (in one line they pushed an 1100-pixel window to nearly 2000)."""
    from cherry_desktop.core.messages import AttachmentPart
    from cherry_desktop.ui.chat import AttachmentStrip
    from cherry_desktop.ui.composer import Composer

    files = [tmp_path / f"quarterly-report-part-{i}.txt" for i in range(MAX_ATTACHMENTS)]
    for i, p in enumerate(files):
        p.write_text(f"part {i}")
    composer = Composer()
    qtbot.addWidget(composer)
    composer.resize(600, 160)
    composer.show()
    composer.attachments.add_paths(files)
    strip = AttachmentStrip([AttachmentPart(id=str(i), filename=p.name, media_type="text/plain", size=6,
                                            stored_name=f"t/{i}.txt") for i, p in enumerate(files)], None)
    qtbot.addWidget(strip)
    strip.resize(600, strip.heightForWidth(600))
    strip.show()
    QApplication.processEvents()

    def lines(widgets: list[QWidget], within: QWidget) -> int:
        assert all(w.mapTo(within, QPoint(0, 0)).x() >= 0 and w.mapTo(within, QPoint(w.width(), 0)).x() <= 600
                   for w in widgets)
        return len({w.mapTo(within, QPoint(0, 0)).y() for w in widgets})

    chips = composer.attachments.findChildren(QWidget, "attachmentTrayItem")
    assert len(chips) == len(files) and lines(chips, composer) > 1
    assert composer.minimumSizeHint().width() <= 600 and composer.width() == 600
    buttons = strip.findChildren(QToolButton)
    assert len(buttons) == len(files) and lines(buttons, strip) > 1
    assert strip.minimumSizeHint().width() <= 600 and strip.heightForWidth(600) > buttons[0].height()
