"""No instant in which a topic is neither live nor idle: a message sent while a finished turn's
terminal listeners run, or while the host hands over to a queued turn, joins the queue behind
what was already queued — it never overtakes it, never starts a rival turn, and never makes
the queued continuation fail."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.stream import TerminalListener
from cherry_desktop.core.ai.stream.types import StreamDoneResult
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import message_text
from tests.unit.agent_session.harness import Harness, Subscriber, make_harness
from tests.waiting import until


class SendingSubscriber(Subscriber):
    """A window that sends `text` from inside its own `on_done` (while the terminal dispatch of
    the finished turn runs), once."""

    def __init__(self, h: Harness, text: str) -> None:
        super().__init__("wc:sender")
        self.h = h
        self.text = text
        self.results: list[Any] = []

    async def on_done(self, result: StreamDoneResult) -> None:
        await super().on_done(result)
        if self.text:
            text, self.text = self.text, ""
            self.results.append(await self.h.send(text, mode="queue"))


def before_first_handover(h: Harness, monkeypatch: pytest.MonkeyPatch,
                          make: Callable[[], Coroutine[Any, Any, Any]]) -> list[asyncio.Task[Any]]:
    """At the host's first handover to a queued turn, schedule `make()` so it runs in the same
    tick, before the launch of that turn; the task is put in the list returned."""
    tasks: list[asyncio.Task[Any]] = []
    real_hand_over = h.runtime.hand_over

    def hand_over(session_id: str) -> bool:
        if not tasks:
            tasks.append(asyncio.get_running_loop().create_task(make()))
        return real_hand_over(session_id)

    monkeypatch.setattr(h.runtime, "hand_over", hand_over)
    return tasks


def sent_texts(h: Harness) -> list[str]:
    return [message_text(s.message) for s in h.driver.last.sent]


def answered_in_order(h: Harness) -> list[tuple[str, str]]:
    return [(r.role, message_text(r.to_ui_message())) for r in h.rows()]


async def run_queue(h: Harness, replies: list[str]) -> None:
    conn = h.driver.last
    for i, reply in enumerate(replies, start=2):
        await conn.wait_sent(i)
        conn.complete(reply)
    await h.idle()


async def test_a_message_sent_from_a_terminal_listener_queues_behind_the_queue(repos: Repositories,
                                                                              tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("one")
    await h.send("two", mode="queue")
    window = SendingSubscriber(h, "three")
    h.manager.attach(window, h.topic)
    conn.complete("answer one")
    await until(lambda: window.results)
    assert window.results[0].follow_up == "queued"
    await run_queue(h, ["answer two", "answer three"])
    assert sent_texts(h) == ["one", "two", "three"]
    assert answered_in_order(h) == [("user", "one"), ("assistant", "answer one"), ("user", "two"),
                                    ("assistant", "answer two"), ("user", "three"), ("assistant", "answer three")]
    assert all(r.status == "success" for r in h.rows() if r.role == "assistant")


@pytest.mark.parametrize("queued", [True, False])
async def test_a_message_sent_after_the_host_released_but_before_the_topic_ended(
        repos: Repositories, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, queued: bool) -> None:
    """The host's terminal listener already returned the runtime (to idle, or to the queued
    turn); a listener after it still runs, so the topic is live: the message joins the queue and
    runs after it, on the same topic stream, and nothing fails."""
    h = make_harness(repos, tmp_path, supports_redirect=False)
    late: list[Any] = []
    gate = asyncio.Event()
    real_listeners = h.runtime.segment_listeners

    class Blocking(Subscriber, TerminalListener):

        async def on_done(self, result: StreamDoneResult) -> None:
            if not late:
                late.append(asyncio.get_running_loop().create_task(h.send("late", mode="queue")))
                await gate.wait()

    def with_blocker(seg: Any) -> Any:
        begun = real_listeners(seg)
        blocker = Blocking(f"blocker:{seg.id}")
        trace = begun.trace_listener

        class Listeners(type(begun)):  # type: ignore[misc]
            @property
            def listeners(self) -> list[Any]:
                return [self.persistence_listener, self.terminal_listener, trace, blocker]
        return Listeners(begun.turn_id, begun.persistence_listener, begun.terminal_listener, trace)

    monkeypatch.setattr(h.runtime, "segment_listeners", with_blocker)
    conn = await h.first_turn("one")
    if queued:
        await h.send("two", mode="queue")
    conn.complete("answer one")
    await until(lambda: late and late[0].done())
    if queued:
        # The host handed over to "two" (busy): "late" joins the queue behind it.
        assert late[0].result().follow_up == "queued"
    else:
        # Nothing queued and the runtime idle: "late" runs next, as a follow-up of the still
        # finishing stream or as a fresh turn once it ended; either way after "one", alone.
        assert late[0].result().follow_up in ("queued", None)
    gate.set()
    expected = ["two", "late"] if queued else ["late"]
    await run_queue(h, [f"answer {t}" for t in expected])
    assert sent_texts(h) == ["one", *expected]
    assert [r.status for r in h.rows() if r.role == "assistant"] == ["success"] * (1 + len(expected))
    assert not [t for t in h.subscriber.terminals if t.status == "error"]


async def test_a_message_sent_in_the_same_tick_as_the_handover_never_overtakes(repos: Repositories,
                                                                              tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The send is scheduled to run *before* the host's launch of the queued turn."""
    h = make_harness(repos, tmp_path, supports_redirect=False)
    racing = before_first_handover(h, monkeypatch, lambda: h.send("racer"))
    conn = await h.first_turn("one")
    await h.send("two", mode="queue")
    conn.complete("answer one")
    await until(lambda: racing and racing[0].done())
    assert racing[0].result().follow_up == "queued"
    await run_queue(h, ["answer two", "answer racer"])
    assert sent_texts(h) == ["one", "two", "racer"]
    assert [r.status for r in h.rows() if r.role == "assistant"] == ["success"] * 3


async def test_a_session_deleted_in_the_same_tick_as_the_handover_starts_nothing(
        repos: Repositories, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    deleting = before_first_handover(h, monkeypatch, lambda: h.runtime.delete_session(h.session.id))
    conn = await h.first_turn("one")
    await h.send("two", mode="queue")
    conn.complete("answer one")
    await until(lambda: deleting and deleting[0].done())
    deleting[0].result()
    await until(lambda: not h.manager.has_live_stream(h.topic))
    await asyncio.sleep(0.02)
    assert sent_texts(h) == ["one"] and conn.closed
    assert h.runtime.get_entry(h.session.id) is None and h.rows() == []
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
