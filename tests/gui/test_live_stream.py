"""Windows as renderers of a real AiStreamManager: multi-window, reconnect, status badges."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from cherry_desktop.ui.sidebar import SPINNER
from tests.waiting import until

pytestmark = pytest.mark.gui


def _new_topic(core: Any, name: str = "Chat") -> str:
    return core.repos.topics.create_topic(name=name, model="demo::m").id


def _final_text(core: Any, topic_id: str) -> str:
    rows = core.repos.messages.branch(topic_id)
    assert rows[-1].role == "assistant"
    return "".join(p.text for p in rows[-1].parts if p.type == "text")


async def _send_from_composer(qtbot: Any, window: Any, text: str) -> None:
    window.composer.editor.setPlainText(text)
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)


async def test_two_windows_on_one_stream_show_identical_text(live_controller: Any, live_core: Any,
                                                            scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "hello")
    feed = await scripted_ai.feed()
    feed.text("Hello ", "from ")
    await until(lambda: "Hello from" in a.live_text())
    b = live_controller.open_window(topic_id)  # attaches mid-stream: replay, then live
    await until(lambda: b.attached_live and "Hello from" in b.live_text())
    feed.text("the **stream**.\n\n", "Second paragraph")
    feed.end()
    await until(lambda: a.live_text_at_terminal is not None and b.live_text_at_terminal is not None)
    final = _final_text(live_core, topic_id)
    assert final == "Hello from the **stream**.\n\nSecond paragraph"
    assert a.live_text_at_terminal == b.live_text_at_terminal == final
    # After the terminal both windows read the database and still agree.
    await until(lambda: a.live_text() == b.live_text() == final)


async def test_close_mid_stream_then_reopen_replays_and_continues(live_controller: Any, live_core: Any,
                                                                  scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "tell me a story")
    feed = await scripted_ai.feed()
    feed.text("Once ", "upon ")
    await until(lambda: "Once upon" in a.live_text())
    a.close()
    feed.text("a time, ", "while no window watched, ")  # the stream goes on without windows
    await asyncio.sleep(0.05)
    status = live_core.shared_cache.get(topic_stream_status_key(topic_id)).status
    assert status == "streaming"
    b = live_controller.open_window(topic_id)
    await until(lambda: b.attached_live and "no window watched" in b.live_text())
    feed.text("the end.")
    feed.end()
    await until(lambda: b.live_text_at_terminal is not None)
    final = _final_text(live_core, topic_id)
    assert final == "Once upon a time, while no window watched, the end."
    assert b.live_text_at_terminal == final


async def test_background_abort_stops_the_stream_when_its_last_window_closes(live_controller: Any, live_core: Any,
                                                                            scripted_ai: Any, qtbot: Any) -> None:
    """A window's listener is a renderer: with background mode "abort", closing the last
    window that watches a stream stops it at its next chunk, and the partial is kept."""
    live_core.stream_manager.set_background_mode("abort")
    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "tell me a story")
    feed = await scripted_ai.feed()
    feed.text("Once ", "upon ")
    await until(lambda: "Once upon" in a.live_text())
    a.close()
    feed.text("a time")
    await until(lambda: live_core.shared_cache.get(topic_stream_status_key(topic_id)).status == "aborted")
    row = live_core.repos.messages.branch(topic_id)[-1]
    assert row.status == "paused" and _final_text(live_core, topic_id).startswith("Once upon")


async def test_finished_topic_reads_from_database(live_controller: Any, live_core: Any, scripted_ai: Any,
                                                  qtbot: Any) -> None:
    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "hi")
    feed = await scripted_ai.feed()
    feed.text("Done already.")
    feed.end()
    await until(lambda: a.live_text_at_terminal is not None)
    a.close()
    b = live_controller.open_window(topic_id)
    await until(lambda: b.live_text() == "Done already.")
    assert [r.role for r in b.message_view.rows()] == ["user", "assistant"]


async def test_sidebar_badge_pending_streaming_done_then_seen(live_controller: Any, live_core: Any,
                                                             scripted_ai: Any, qtbot: Any) -> None:
    watched = _new_topic(live_core, "watched")
    other = _new_topic(live_core, "other")
    sender = live_controller.open_window(watched)
    observer = live_controller.open_window(other)  # sees the badge, not the topic
    observer.activateWindow()
    await until(observer.isActiveWindow)  # the user looks at the observer, not at the sender
    badge = observer.sidebar.badges[watched]
    assert badge.topic_id == watched
    states: list[str] = []
    live_core.shared_cache.subscribe(topic_stream_status_key(watched),
                                     recorder := (lambda _k, _v: states.append(badge.state)))
    await _send_from_composer(qtbot, sender, "go")
    feed = await scripted_ai.feed()
    feed.text("x")
    await until(lambda: badge.state == "streaming")
    await until(lambda: badge.item.text(1) in SPINNER)  # the row's own text, turned by the list's timer
    feed.end()
    await until(lambda: badge.state == "done")
    transitions = [s for i, s in enumerate(states) if i == 0 or states[i - 1] != s]
    assert transitions == ["pending", "streaming", "done"]
    # Nobody looked at it yet: a notification went out, and the green dot stays.
    assert live_controller.notifications
    observer.show_topic(watched)  # the active window shows it: the read receipt is written
    await until(lambda: badge.state == "")
    assert sender.sidebar.badges[watched].state == ""
    del recorder


async def test_stop_aborts_and_keeps_partial(live_controller: Any, live_core: Any, scripted_ai: Any,
                                             qtbot: Any) -> None:
    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "long answer please")
    feed = await scripted_ai.feed()
    feed.text("partial ")
    await until(lambda: "partial" in a.live_text())
    assert a.composer.stop_button.isVisibleTo(a)
    qtbot.keyClick(a.composer.editor, Qt.Key.Key_Escape)
    feed.text("ignored")  # lets the scripted source notice the abort
    await until(lambda: a.live_text_at_terminal is not None)
    row = live_core.repos.messages.branch(topic_id)[-1]
    assert row.status == "paused"
    assert "partial" in "".join(p.text for p in row.parts if p.type == "text")
    await until(lambda: not a.is_streaming())
    assert a.composer.send_button.isVisibleTo(a)


async def test_regenerate_streams_a_new_answer_to_the_same_question(live_controller: Any, live_core: Any,
                                                                    scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "pick a number")
    feed = await scripted_ai.feed()
    feed.text("4")
    feed.end()
    await until(lambda: a.live_text_at_terminal == "4" and not a.is_streaming())
    first = a.message_view.rows()[-1]
    assert a.message_view.can_regenerate(first)
    a.stream.live_text_at_terminal = None
    await a.regenerate(first.message_id)
    feed = await scripted_ai.feed(1)
    feed.text("7")
    feed.end()
    await until(lambda: a.live_text_at_terminal is not None and not a.is_streaming())
    await until(lambda: [r.text() for r in a.message_view.rows()] == ["pick a number", "7"])
    siblings = [m for m in live_core.repos.messages.list_messages(topic_id) if m.role == "assistant"]
    assert sorted("".join(p.text for p in m.parts if p.type == "text") for m in siblings) == ["4", "7"]


async def test_stream_error_is_shown_readably_and_persisted(live_controller: Any, live_core: Any,
                                                            scripted_ai: Any, qtbot: Any) -> None:
    from cherry_desktop.ui.chat import ErrorBlock

    topic_id = _new_topic(live_core)
    a = live_controller.open_window(topic_id)
    await _send_from_composer(qtbot, a, "hi")
    feed = await scripted_ai.feed()
    feed.text("Half an ans")
    feed.queue.put_nowait(ConnectionError("upstream closed the connection"))
    await until(lambda: a.live_text_at_terminal is not None)
    await until(lambda: not a.is_streaming())
    row = a.message_view.rows()[-1]
    errors = row.findChildren(ErrorBlock)
    assert errors and "upstream closed the connection" in errors[0].text()
    assert "Traceback" not in errors[0].text()
    stored = live_core.repos.messages.branch(topic_id)[-1]
    assert stored.status == "error"
    assert live_controller.windows[0].sidebar.badges[topic_id].state == "error"
