"""Tool calls seen by the broker: an approval clears when its tool's output shows, and the idle
timeout never fires while a tool runs or an approval waits; when it fires it settles as an
abort does (issue 12)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    AiStreamRequest,
    ModelDispatch,
    PersistentChatContextProvider,
    SendInput,
    TopicStatusSnapshotEntry,
    dispatch_stream_request,
    user_parts,
)
from cherry_desktop.core.app.bootstrap import build_core
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import (
    ToolInputAvailableChunk,
    ToolOutputAvailableChunk,
    ToolOutputDeniedChunk,
    UIMessageChunk,
)
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.core.storage.settings import SettingsStore
from tests.unit.stream.helpers import END, FakeAi, Recorder, approval_chunks, text_chunks
from tests.waiting import until

M1 = "p::m1"
IDLE_MS = 100


def start(mgr: AiStreamManager, rec: Recorder) -> None:
    mgr.send(SendInput(topic_id="t", models=[ModelDispatch(M1, AiStreamRequest(model_id=M1), "a-1")],
                       listeners=[rec]))


def entry(mgr: AiStreamManager, topic: str = "t") -> TopicStatusSnapshotEntry:
    value = mgr.shared_cache.get(topic_stream_status_key(topic))
    assert isinstance(value, TopicStatusSnapshotEntry)
    return value


def output(call_id: str) -> UIMessageChunk:
    return ToolOutputAvailableChunk(tool_call_id=call_id, output={"ok": True})


async def quiet_for(ticks: int) -> None:
    """Several idle periods of silence (the timer checks every IDLE_MS / 4)."""
    for _ in range(ticks):
        await asyncio.sleep(IDLE_MS / 1000.0)


# -- awaiting-approval ------------------------------------------------------------------------------


async def test_a_tool_output_for_the_pending_approval_clears_it_and_the_topic_ends_done() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = Recorder()
    start(mgr, rec)
    feed = await fake.feed("t", M1)
    feed.push(*approval_chunks("call-1"))
    await until(lambda: entry(mgr).status == "awaiting-approval", limit=3.0)
    feed.push(output("call-1"))
    await until(lambda: entry(mgr).status == "streaming", limit=3.0)
    assert entry(mgr).awaiting_approval_anchors == ()
    feed.push(*text_chunks("done"), END)
    await until(lambda: bool(rec.done), limit=3.0)
    assert entry(mgr).status == "done" and entry(mgr).last_completed_at is not None


async def test_a_denied_tool_clears_its_approval_and_another_tools_output_does_not() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = Recorder()
    start(mgr, rec)
    feed = await fake.feed("t", M1)
    feed.push(*approval_chunks("call-1"), *approval_chunks("call-2"))
    await until(lambda: entry(mgr).status == "awaiting-approval", limit=3.0)
    feed.push(output("call-1"))  # answers call-1 only
    await until(lambda: len(rec.chunks) == 5, limit=3.0)
    assert entry(mgr).status == "awaiting-approval"
    feed.push(output("unrelated"))
    await until(lambda: len(rec.chunks) == 6, limit=3.0)
    assert entry(mgr).status == "awaiting-approval"
    feed.push(ToolOutputDeniedChunk(tool_call_id="call-2"))
    await until(lambda: entry(mgr).status == "streaming", limit=3.0)
    feed.push(END)
    await until(lambda: bool(rec.done), limit=3.0)
    assert entry(mgr).status == "done"


# -- idle timeout ------------------------------------------------------------------------------------


async def test_idle_timeout_persists_the_partial_paused_with_a_visible_reason(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, idle_timeout_ms=IDLE_MS, checkpoint_interval_ms=0)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    topic = repos.topics.create_topic(name="t", model=M1)
    win = Recorder("wc:1")
    fake.preload(topic.id, M1, text_chunks("part")[:-1])
    res = await dispatch_stream_request(mgr, win, AiStreamOpenRequest(topic_id=topic.id,
                                                                      user_message_parts=user_parts("hi")))
    await until(lambda: bool(win.terminals), limit=3.0)
    assert win.errors == [] and win.paused[0].stop_reason == "idle-timeout"
    row = repos.messages.get_message(res.placeholder_ids[0])
    assert row.status == "paused"
    assert "".join(getattr(p, "text", "") for p in row.parts) == "part"
    last = row.parts[-1]
    assert last.type == "data-error" and last.data["code"] == "idle-timeout"  # type: ignore[union-attr]
    snap = mgr.inspect(topic.id)
    assert snap is not None and snap.status == "aborted" and snap.executions[0].stop_reason == "idle-timeout"


async def test_idle_timeout_waits_while_a_tool_runs_then_stays_bounded() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, idle_timeout_ms=IDLE_MS)
    rec = Recorder()
    # Scripted before the launch: the tool starts at once, whatever the machine's load.
    fake.preload("t", M1, [ToolInputAvailableChunk(tool_call_id="build", tool_name="bash", input={"cmd": "make"})])
    start(mgr, rec)
    feed = await fake.feed("t", M1)
    await quiet_for(6)  # a long build: no chunk for several idle periods
    assert rec.terminals == [] and mgr.has_live_stream("t")
    feed.push(output("build"))
    await until(lambda: bool(rec.terminals), limit=3.0)  # silent after the tool: bounded again
    assert rec.paused[0].stop_reason == "idle-timeout"


async def test_idle_timeout_waits_while_an_approval_is_awaited() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, idle_timeout_ms=IDLE_MS)
    rec = Recorder()
    fake.preload("t", M1, approval_chunks("call-1"))
    start(mgr, rec)
    feed = await fake.feed("t", M1)
    await quiet_for(6)
    assert rec.terminals == [] and entry(mgr).status == "awaiting-approval"
    mgr.clear_awaiting_approval("t")
    feed.push(output("call-1"))
    await until(lambda: bool(rec.terminals), limit=3.0)
    assert rec.paused[0].stop_reason == "idle-timeout"


async def test_the_idle_timeout_is_a_setting_the_app_hands_the_manager(tmp_path: Path) -> None:
    paths = build_path_registry(tmp_path / "root")
    paths.ensure_all()
    SettingsStore(paths.get("app.config")).update(stream_idle_timeout_s=7)
    core = build_core(paths)
    assert core.stream_manager.config.idle_timeout_ms == 7000
    assert core.settings.settings.stream_idle_timeout_s == 7
