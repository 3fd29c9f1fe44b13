"""Compare with… (#30 item 4), through real windows and the real core with scripted models: a
model without its API key is marked in the menu and cannot be picked, and one picked before
its key went is left out of a send with a note, never holding up the others; "Continues from
here" never moves by itself once shown (answers finishing in another order, a second window,
a restart); a column still streaming and a translation show Markdown rendered, never raw."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from cherry_desktop.core.messages import TextPart
from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.demo.bootstrap import DEMO_SECOND_UNIQUE_MODEL_ID, DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from cherry_desktop.ui.chat import SiblingGroupView, TranslationBlock, translate_row
from tests.gui.conftest import ARTIFACTS
from tests.gui.test_message_menu import close, entries, right_click
from tests.waiting import until

pytestmark = pytest.mark.gui

M1, M2 = DEMO_UNIQUE_MODEL_ID, DEMO_SECOND_UNIQUE_MODEL_ID
KEYLESS = "remote::big"


def _chat(core: Any) -> str:
    ensure_demo_records(core.repos, core.paths.get("feature.agents.workspaces"), "http://127.0.0.1:9")
    return str(core.repos.topics.create_topic(name="Compare", model=M1).id)


def _keyless_model(core: Any) -> None:
    core.repos.providers.upsert_provider(id="remote", name="Remote AI", type="openai-compatible",
                                         base_url="https://api.example.com/v1")
    core.repos.providers.upsert_model(provider_id="remote", model_id="big", name="Big model")


def _groups(window: Any) -> list[SiblingGroupView]:
    return window.message_view.groups.views()


def _menu(window: Any) -> dict[str, Any]:
    return {a.text(): a for a in window.chat_header.compare_menu.actions() if a.isCheckable()}


def _send(qtbot: Any, window: Any, text: str) -> None:
    window.composer.editor.setPlainText(text)
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)


async def test_a_model_without_its_key_is_marked_and_never_blocks_the_send(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    _keyless_model(live_core)
    window = live_controller.open_window(topic_id)
    window.resize(1100, 700)
    # Marked, and cannot be picked; the demo's other model can.
    menu = _menu(window)
    keyless = menu["Big model · Remote AI (needs an API key)"]
    assert not keyless.isEnabled() and "Add the key of Remote AI" in keyless.toolTip()
    fast = menu["Demo model (fast) · Cherry demo (offline)"]
    assert fast.isEnabled()
    fast.trigger()  # as a click in the menu does
    assert window.chat_header.extra_models() == [M2]
    # A model picked while it had its key (saved with the chat), whose key is gone now: it
    # stays checked (it can be unchecked), the header says it is left out.
    live_controller.bridges.multi_model.set_extra_models(topic_id, [M2, KEYLESS])
    await until(lambda: window.chat_header.extra == [M2, KEYLESS])
    keyless = _menu(window)["Big model · Remote AI (needs an API key)"]
    assert keyless.isChecked() and keyless.isEnabled()
    # The button's words mark it as the menu does.
    assert window.chat_header.compare_button.text() == "+ Demo model (fast), Big model (needs an API key)"
    notice = window.chat_header.notice_text()
    assert "Big model is not asked: Remote AI has no API key" in notice
    # The send goes to the models that can answer, side by side; nothing waits for the other.
    _send(qtbot, window, "Hello all")
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    assert (f1.request.model_id, f2.request.model_id) == (M1, M2)
    assert "Big model is not asked" in window.statusBar().currentMessage()
    f1.text("One.")
    f2.text("Two.")
    f1.end()
    f2.end()
    await until(lambda: not window.is_streaming() and len(_groups(window)) == 1
                and [c.row.status for c in _groups(window)[0].columns] == ["success", "success"])
    assert [c.model_name for c in _groups(window)[0].columns] == ["Demo model", "Demo model (fast)"]
    assert len(scripted_ai.feeds) == 2
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "compare_keyless.png"))
    # Only the keyless one left besides the chat's own: the single-model path, still sent.
    keyless = _menu(window)["Big model · Remote AI (needs an API key)"]
    keyless.trigger()
    fast = _menu(window)["Demo model (fast) · Cherry demo (offline)"]
    fast.trigger()
    assert window.chat_header.extra_models() == []
    assert not _menu(window)["Big model · Remote AI (needs an API key)"].isEnabled()
    window.close()


async def _streaming_both(controller: Any, scripted_ai: Any, qtbot: Any, topic_id: str, question: str,
                          first: str, second: str) -> tuple[Any, Any, Any]:
    """A window asking both demo models `question`; each has streamed its text, neither ended."""
    window = controller.open_window(topic_id)
    window.resize(1100, 700)
    _menu(window)["Demo model (fast) · Cherry demo (offline)"].trigger()
    _send(qtbot, window, question)
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    f1.text(first)
    f2.text(second)
    await until(lambda: bool(_groups(window)) and [c.row.text() for c in _groups(window)[-1].columns]
                == [first, second])
    return window, f1, f2


def _chosen(window: Any) -> list[bool]:
    """Which columns of the last group show "Continues from here"."""
    groups = _groups(window)
    return [not c.chosen_label.isHidden() for c in groups[-1].columns] if groups else []


async def test_continues_from_here_never_moves_by_itself_once_shown(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    """The second model finishes first: its answer is the one the chat continues from, and it
    stays so when the first finishes later, in a second window, and in the saved topic (what a
    restart shows); nothing claims it while the answers still stream."""
    topic_id = _chat(live_core)
    window, f1, f2 = await _streaming_both(live_controller, scripted_ai, qtbot, topic_id,
                                           "Which one?", "First, still going", "Second, done.")
    assert _chosen(window) == [False, False]  # neither has finished: nothing to continue from yet
    f2.end()
    await until(lambda: [c.row.status for c in _groups(window)[-1].columns] == ["streaming", "success"])
    assert _chosen(window) == [False, True]
    second_id = _groups(window)[-1].columns[1].row.message_id
    f1.text(" and done.")
    f1.end()
    await until(lambda: not window.is_streaming()
                and [c.row.status for c in _groups(window)[-1].columns] == ["success", "success"])
    assert _chosen(window) == [False, True]
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "compare_continues.png"))
    # A right-click on a column's bar gives its answer's menu (#30 item 5).
    menu = right_click(_groups(window)[-1].columns[1].chosen_label)
    assert entries(menu) == ["Copy as Markdown", "Regenerate", "Translate to"]
    close(menu)
    # Saved: another window (and a restart, which reads the same rows) shows the same answer.
    assert live_core.repos.topics.get_topic(topic_id).active_node_id == second_id
    other = live_controller.open_window(topic_id)
    await until(lambda: bool(_groups(other)))
    assert _chosen(other) == [False, True]
    # The next message continues from it.
    _menu(window)["Demo model (fast) · Cherry demo (offline)"].trigger()
    _send(qtbot, window, "Next")
    f3 = await scripted_ai.feed(2)
    assert [m.text() for m in f3.request.messages] == ["Which one?", "Second, done.", "Next"]
    f3.text("ok")
    f3.end()
    await until(lambda: not window.is_streaming() and not other.is_streaming())
    window.close()
    other.close()


def _shown(row: Any) -> str:
    """What the row's text parts show (their documents' plain text, as the user reads it)."""
    return "\n".join(view.toPlainText() for view in row.text_views())


def _bold_words(browser: Any) -> list[str]:
    """The runs of `browser`'s document drawn in bold."""
    words: list[str] = []
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().fontWeight() >= QFont.Weight.Bold:
                words.append(fragment.text())
            it += 1
        block = block.next()
    return words


async def test_a_column_still_streaming_shows_markdown_rendered(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    # Both still streaming, each inside a paragraph (no blank line after it yet).
    window, f1, f2 = await _streaming_both(live_controller, scripted_ai, qtbot, _chat(live_core), "Format it",
                                           "A **bold** claim with `code` and *style*", "Done:\n\n- one **item**\n- two")
    first, second = (c.row for c in _groups(window)[-1].columns)
    assert first.live and second.live
    assert _shown(first) == "A bold claim with code and style"
    assert _shown(second) == "Done:\none item\ntwo"
    prose = [s for v in first.text_views() for s in v.segments]
    assert _bold_words(prose[0]) == ["bold"]
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "compare_streaming_markdown.png"))
    f1.text(" continues.")
    f1.end()
    f2.end()
    await until(lambda: not window.is_streaming())
    assert _shown(_groups(window)[-1].columns[0].row) == "A bold claim with code and style continues."
    window.close()


async def test_a_translation_shows_markdown_rendered(controller: Any, ui_core: Any,
                                                     server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    topic_id = str(ui_core.repos.topics.create_topic(name="Translate", model=M1).id)
    answer = ui_core.repos.messages.create_message(topic_id=topic_id, role="assistant", model_id=M1, parts=[
        TextPart(text="Hello, **world**!\n\n- one\n- two")])
    window = controller.open_window(topic_id)
    window.resize(900, 600)
    assert await translate_row(window.message_view, window.bridges.streams, answer.id, "fr") == "done"
    block = window.message_view.row(answer.id).findChild(TranslationBlock)
    assert block is not None and block.text == "[French] Hello, **world**!\n\n- one\n- two"
    assert block.body.toPlainText() == "[French] Hello, world!\none\ntwo"
    assert _bold_words(block.body.segments[0]) == ["world"]
    row = window.message_view.row(answer.id)
    await until(lambda: block.body.height() >= block.body.sizeHint().height() > 0
                and row.height() >= row.sizeHint().height(), what="the translation laid out whole")
    window.grab().save(str(ARTIFACTS / "translation_markdown.png"))
    # Reopened from the database: the same.
    window.message_view.reload()
    block = window.message_view.row(answer.id).findChild(TranslationBlock)
    assert block is not None and block.body.toPlainText() == "[French] Hello, world!\none\ntwo"
    window.close()
