"""Each message row says when it was written: the time today, "Yesterday" and the time, else
the date and time; the tooltip gives the full date. Chats and agent sessions, stored and live."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from PySide6.QtCore import QDateTime, QLocale, Qt, QTime

from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.topics import session_topic_id
from tests.gui.conftest import ARTIFACTS, seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


def _seconds(moment: QDateTime) -> float:
    return moment.toMSecsSinceEpoch() / 1000


def _seed_chat(core: Any, monkeypatch: Any, moments: list[QDateTime]) -> str:
    """A chat whose question/answer pairs were written at `moments` (the database's clock)."""
    repos = core.repos
    topic_id = repos.topics.create_topic(name="Chat", model="demo::m").id
    parent = None
    for i, moment in enumerate(moments):
        with monkeypatch.context() as patched:
            patched.setattr(time, "time", lambda moment=moment: _seconds(moment))
            for role in ("user", "assistant"):
                parent = repos.messages.create_message(topic_id=topic_id, role=role, parent_id=parent,
                                                       parts=[TextPart(text=f"{role} {i}")]).id
    repos.topics.set_active_node(topic_id, parent)
    return topic_id


def _clock(moment: QDateTime) -> str:
    return QLocale().toString(moment.time(), QLocale.FormatType.ShortFormat)


async def test_rows_show_when_they_were_written(live_controller: Any, live_core: Any, scripted_ai: Any,
                                                qtbot: Any, monkeypatch: Any) -> None:
    now = QDateTime.currentDateTime()
    old, yesterday = now.addDays(-40), now.addDays(-1)
    topic_id = _seed_chat(live_core, monkeypatch, [old, yesterday])
    window = live_controller.open_window(topic_id)
    await until(lambda: len(window.message_view.rows()) == 4)
    rows = window.message_view.rows()
    old_row, yesterday_row = rows[0], rows[2]
    assert old_row.time.text() == (f"{QLocale().toString(old.date(), QLocale.FormatType.ShortFormat)} "
                                   f"{_clock(old)}")
    assert yesterday_row.time.text() == f"Yesterday {_clock(yesterday)}"
    assert str(old.date().year()) in old_row.time.toolTip() and _clock(old) in old_row.time.toolTip()
    assert all(r.time.isVisibleTo(window) for r in rows)

    # A message sent now: its row and the answer's say today's time only.
    window.composer.editor.setPlainText("and now?")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    feed = await scripted_ai.feed()
    feed.text("Now.")
    feed.end()
    await until(lambda: len(window.message_view.rows()) == 6 and not window.is_streaming(),
                what="the answer")
    for row in window.message_view.rows()[4:]:
        assert row.time.moment is not None and row.time.moment.date() == QDateTime.currentDateTime().date()
        assert row.time.text() == _clock(row.time.moment)
    await asyncio.sleep(0.05)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "message_timestamps.png"))


async def test_agent_session_rows_show_their_time(controller: Any, ui_core: Any, monkeypatch: Any) -> None:
    moment = QDateTime.currentDateTime().addDays(-1)
    with monkeypatch.context() as patched:
        patched.setattr(time, "time", lambda: _seconds(moment))
        _agent_id, session_id = seed_agent_session(ui_core.repos, turns=1)
    window = controller.open_window(session_topic_id(session_id))
    await until(lambda: len(window.message_view.rows()) == 2)
    assert [r.time.text() for r in window.message_view.rows()] == [f"Yesterday {_clock(moment)}"] * 2


async def test_row_times_are_worded_again_after_midnight(controller: Any, ui_core: Any) -> None:
    """A row worded yesterday says "Yesterday" once the app's day timer fires past midnight."""
    from cherry_desktop.ui.common._day_timer import PAST_MIDNIGHT_MS, msecs_to_next_day

    _agent_id, session_id = seed_agent_session(ui_core.repos, turns=1)
    window = controller.open_window(session_topic_id(session_id))
    await until(lambda: len(window.message_view.rows()) == 2)
    row = window.message_view.rows()[0]
    assert row.time.moment is not None
    yesterday = row.time.moment.addDays(-1)
    row.time.moment = yesterday
    row.time.setText(_clock(yesterday))         # as it was worded the day before
    controller.day_timer.day_changed.emit()
    assert row.time.text() == f"Yesterday {_clock(yesterday)}"
    late = QDateTime(QDateTime.currentDateTime().date(), QTime(23, 59, 59))
    assert msecs_to_next_day(late) == 1_000 + PAST_MIDNIGHT_MS


def test_dates_follow_the_apps_language(qapp: Any, tmp_path: Any) -> None:
    from cherry_desktop.ui.shell import i18n

    translations = i18n.Translations(cache_dir=tmp_path)
    try:
        translations.install("zh_CN")
        assert QLocale().name() == "zh_CN"
        assert "月" in QLocale().toString(QDateTime.currentDateTime(), QLocale.FormatType.LongFormat)
    finally:
        translations.install("")
    assert QLocale().name() == QLocale.system().name()
