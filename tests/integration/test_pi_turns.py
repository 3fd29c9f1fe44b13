"""pi turns beyond the happy path (real pi, scripted server): steer, Stop, API error, resume,
a bogus resume token, and no pi process outliving a close, a shutdown or a killed app."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.runtime.types import STEER_REMINDER_OPEN, RuntimeRedirectInput
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.demo import HangReply, http_error, slow_text, text, tool_use
from tests.integration.claude_driver_helpers import EventReader, send_text, text_of
from tests.integration.pi_helpers import ROOT, PiHarness

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


async def _first_text(reader: EventReader) -> None:
    await reader.read_until(lambda e: e.type == "chunk" and e.chunk.type == "text-delta")


async def test_steer_mid_turn_marks_the_boundary(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(slow_text("Working on it " * 6, delay_s=0.03), text("Steered answer."))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "start")
    await _first_text(reader)
    steer = UIMessage.user_text("use tabs please")
    assert await connection.redirect(RuntimeRedirectInput(message=steer))
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    kinds = [e.type for e in reader.all]
    boundary = kinds.index("steer-boundary")
    assert reader.all[boundary].message_ids == (steer.id,)  # type: ignore[attr-defined]
    # A1a's text before the boundary, A2's after it (its own step).
    before = text_of(reader.all[:boundary])
    after = text_of(reader.all[boundary:])
    assert before.startswith("Working on it") and after == "Steered answer."
    assert reader.all[boundary + 1].chunk.type == "start-step"  # type: ignore[attr-defined]
    assert "steer-undelivered" not in kinds
    sent = pi_harness.server.last_model_request().all_text()
    assert STEER_REMINDER_OPEN.strip() in sent and "use tabs please" in sent
    assert connection.is_alive


async def test_steer_the_turn_never_took_is_undelivered(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(slow_text("x " * 200, delay_s=0.03))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "start")
    await _first_text(reader)
    steer = UIMessage.user_text("late steer")
    assert await connection.redirect(RuntimeRedirectInput(message=steer))
    await connection.interrupt()
    events = await reader.read_until(lambda e: e.type in ("turn-complete", "error"))
    undelivered = [e for e in events if e.type == "steer-undelivered"]
    assert [e.message_id for e in undelivered] == [steer.id]  # type: ignore[attr-defined]
    # pi still holds the steer in its queue: this child is retired so it never replays it.
    assert not connection.is_alive


async def test_stop_keeps_the_partial_text(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(slow_text("partial words " * 50, delay_s=0.03), text("next turn"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "talk")
    await _first_text(reader)
    await connection.interrupt()
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert events[-1].finish_reason == "aborted"  # type: ignore[attr-defined]
    partial = text_of(reader.all)
    full = "partial words " * 50
    assert partial and full.startswith(partial) and len(partial) < len(full)
    # The connection serves the next turn.
    assert connection.is_alive
    await send_text(connection, "again")
    assert text_of(await reader.turn()) == "next turn"


async def test_api_error_keeps_the_resume_token(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(http_error(400, "bad request from the script"), text("recovered"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "fail please")
    events = await reader.turn()
    assert events[-1].type == "error"
    assert "bad request from the script" in events[-1].message  # type: ignore[attr-defined]
    assert events[-1].status == 400  # type: ignore[attr-defined]
    tokens = [e for e in events if e.type == "resume-token"]
    assert tokens and events.index(tokens[-1]) < len(events) - 1  # the token comes before the error
    assert len(pi_harness.server.requests_for_model_turns()) == 1  # no retry
    if connection.is_alive:
        await send_text(connection, "again")
        assert text_of(await reader.turn()) == "recovered"


async def test_restart_resumes_and_sends_history_again(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(text("remembered answer"), text("after restart"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "remember the word kumquat")
    events = await reader.turn()
    token = [e.token for e in events if e.type == "resume-token"][-1]
    await connection.close()
    assert pi_driver.alive_pids() == []

    pi_harness.last_token[0] = token  # as after an app restart: the newest persisted token
    resumed = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(resumed)
    await send_text(resumed, "what was the word?")
    events = await reader.turn()
    assert text_of(events) == "after restart"
    assert token in {e.token for e in events if e.type == "resume-token"}
    sent = pi_harness.server.last_model_request().all_text()
    assert "kumquat" in sent and "remembered answer" in sent


@pytest.mark.parametrize("bogus", ["00000000-0000-4000-8000-000000000000", "../../etc/passwd", "x" * 40])
async def test_bogus_resume_token_recovers_once(pi_driver: PiRuntimeDriver, pi_harness: PiHarness, bogus: str) -> None:
    pi_harness.server.enqueue(text("fresh start"))
    connection = await pi_driver.connect(pi_harness.connect_input(resume_token=bogus))
    assert connection.recovered_from == bogus  # type: ignore[attr-defined]
    reader = EventReader(connection)
    await send_text(connection, "hello again")
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    tokens = {e.token for e in events if e.type == "resume-token"}
    assert tokens and bogus not in tokens


async def test_a_corrupt_session_file_recovers_once(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    token = "01a22fe3-d105-77f4-930f-e2cbf23eb42e"
    sessions = pi_harness.paths.get("feature.agents.pi.sessions")
    sessions.mkdir(parents=True, exist_ok=True)
    (sessions / f"2026-01-01T00-00-00-000Z_{token}.jsonl").write_text("{not json\n\x00\x01garbage\n")
    pi_harness.server.enqueue(text("fresh"))
    connection = await pi_driver.connect(pi_harness.connect_input(resume_token=token))
    reader = EventReader(connection)
    await send_text(connection, "hi")
    events = await reader.turn()
    assert events[-1].type == "turn-complete"


async def test_close_and_shutdown_leave_no_pi_process(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(slow_text("long " * 300, delay_s=0.03))
    first = await pi_driver.connect(pi_harness.connect_input())
    second = await pi_driver.connect(pi_harness.connect_input())
    pids = pi_driver.alive_pids()  # sorted: not in connect order once pids wrap around
    assert len(pids) == 2
    first_pid = first.process.pid
    assert first_pid in pids
    reader = EventReader(first)
    await send_text(first, "busy")
    await _first_text(reader)
    await first.close()  # mid-turn, as an idle close or a Stop-then-close
    assert not psutil.pid_exists(first_pid) or psutil.Process(first_pid).status() == psutil.STATUS_ZOMBIE
    await pi_driver.shutdown()  # app stop
    assert pi_driver.alive_pids() == []
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert not second.is_alive
    homes = list((pi_harness.paths.get("feature.agents.pi.root") / "connections").iterdir())
    assert homes == []  # per-connection homes removed


CHILD_APP = """
import asyncio, sys, json
sys.path.insert(0, {root!r})
from pathlib import Path
from cherry_desktop.core.ai.runtime.pi.install import find_pi
from cherry_desktop.demo import ScriptedModelServer
from tests.integration.pi_helpers import PiHarness, pi_test_prefix
from tests.integration.claude_driver_helpers import send_text

async def main():
    server = ScriptedModelServer()
    server.base_url = {base_url!r}
    pi_harness = PiHarness(server, Path({tmp!r}), Path({workspace!r}), find_pi(pi_test_prefix()))
    pi_driver = pi_harness.driver()
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode={permission_mode!r}))
    await send_text(connection, "keep talking")
    print(json.dumps(pi_driver.alive_pids()), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def _start_child_app(pi_harness: PiHarness, workspace: Path, tmp_path: Path,
                           permission_mode: str = "default") -> tuple[asyncio.subprocess.Process, list[int]]:
    """The pi driver in an app process of its own, one turn sent; (that process, pi's pids)."""
    code = CHILD_APP.format(root=str(ROOT), base_url=pi_harness.server.base_url, tmp=str(tmp_path / "app"),
                            workspace=str(workspace), permission_mode=permission_mode)
    (tmp_path / "app").mkdir()
    app = await asyncio.create_subprocess_exec(sys.executable, "-c", code, stdout=subprocess.PIPE,
                                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert app.stdout is not None
    line = await asyncio.wait_for(app.stdout.readline(), 30)
    return app, json.loads(line)


async def _gone(pid: int) -> bool:
    """Whether `pid` is gone (or a zombie) within 5 s."""
    for _ in range(100):
        if not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_no_pi_process_outlives_a_killed_app(pi_harness: PiHarness, workspace: Path, tmp_path: Path) -> None:
    pi_harness.server.enqueue(slow_text("streaming " * 500, delay_s=0.05))
    app, pids = await _start_child_app(pi_harness, workspace, tmp_path)
    assert len(pids) == 1
    await pi_harness.server.wait_for_requests(1)
    app.send_signal(signal.SIGKILL)
    await app.wait()
    assert await _gone(pids[0])


async def test_pis_bash_tool_does_not_outlive_a_killed_app(pi_harness: PiHarness, workspace: Path,
                                                           tmp_path: Path) -> None:
    """pi starts its bash tool detached (a process group of its own): the tie (SIGTERM, on
    which pi ends its tools, then SIGKILL of every process carrying the tie's mark) ends it."""
    pid_file = tmp_path / "tool.pid"
    pi_harness.server.default = HangReply()
    pi_harness.server.enqueue(tool_use("bash", {"command": f"echo $$ > {pid_file}; exec sleep 300"}))
    app, pids = await _start_child_app(pi_harness, workspace, tmp_path, permission_mode="bypassPermissions")
    for _ in range(200):
        if pid_file.exists() and pid_file.read_text().strip():
            break
        await asyncio.sleep(0.05)
    tool_pid = int(pid_file.read_text())
    assert psutil.Process(tool_pid).cmdline()[:1] == ["sleep"]
    app.send_signal(signal.SIGKILL)
    await app.wait()
    pi_gone, tool_gone = await _gone(pids[0]), await _gone(tool_pid)
    for pid, gone in ((pids[0], pi_gone), (tool_pid, tool_gone)):
        if not gone:
            psutil.Process(pid).kill()
    assert pi_gone and tool_gone


async def test_a_prewarmed_pi_takes_the_next_turn_of_its_session(pi_harness: PiHarness,
                                                                 pi_installation: PiInstallation) -> None:
    pi_driver = PiRuntimeDriver(pi_harness.driver().deps, installation=pi_installation, warm_ttl_s=60)
    try:
        pi_harness.server.enqueue(text("one"), text("two"), text("three"))
        connection = await pi_driver.connect(pi_harness.connect_input())
        reader = EventReader(connection)
        await send_text(connection, "first")
        token = [e.token for e in await reader.turn() if e.type == "resume-token"][-1]
        await connection.close()

        await pi_driver.on_session_idle(pi_harness.connect_input(resume_token=token))
        assert pi_driver.has_warm("session-1")
        warm_pids = pi_driver.alive_pids()
        assert len(warm_pids) == 1
        taken = await pi_driver.connect(pi_harness.connect_input(resume_token=token))
        assert pi_driver.alive_pids() == warm_pids and not pi_driver.has_warm("session-1")  # no new spawn
        reader = EventReader(taken)
        await send_text(taken, "second")
        assert text_of(await reader.turn()) == "two"
        assert "first" in pi_harness.server.last_model_request().all_text()
        await taken.close()

        # A spawn-frozen change while it waited (a disabled tool): the warm pi is not used.
        await pi_driver.on_session_idle(pi_harness.connect_input(resume_token=token))
        stale = pi_driver.alive_pids()
        fresh = await pi_driver.connect(pi_harness.connect_input(resume_token=token,
                                                                 disabled_tools=frozenset({"bash"})))
        assert pi_driver.alive_pids() != stale and len(pi_driver.alive_pids()) == 1
        reader = EventReader(fresh)
        await send_text(fresh, "third")
        assert text_of(await reader.turn()) == "three"
    finally:
        await pi_driver.shutdown()
    assert pi_driver.alive_pids() == []


async def test_pi_killed_mid_turn_salvages_the_partial_and_ends_the_stream(
        pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(slow_text("words " * 200, delay_s=0.03))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "talk")
    await _first_text(reader)
    pid = pi_driver.alive_pids()[0]
    os.kill(pid, signal.SIGKILL)
    events = await reader.read_until(lambda e: e.type in ("turn-complete", "error"))
    assert events[-1].type == "turn-complete" and events[-1].salvaged  # type: ignore[attr-defined]
    assert not connection.is_alive
    with pytest.raises(StopAsyncIteration):
        await reader.next()  # the event stream ended
    with pytest.raises(RuntimeError):
        await send_text(connection, "again")


async def test_a_steer_sent_before_pi_started_the_turn_is_still_delivered(
        pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(slow_text("first part ", delay_s=0.05), text("after the steer"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    steer = UIMessage.user_text("same-tick steer")
    # The steer races the prompt: sent in the same tick, before pi's agent_start arrives.
    await asyncio.gather(send_text(connection, "go"),
                         connection.redirect(RuntimeRedirectInput(message=steer)))
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    kinds = [e.type for e in reader.all]
    assert "steer-boundary" in kinds or "steer-undelivered" in kinds
    assert "same-tick steer" in pi_harness.server.last_model_request().all_text()


async def test_approval_answers_after_stop_or_close_are_refused(pi_driver: PiRuntimeDriver, pi_harness: PiHarness,
                                                                workspace: Path) -> None:
    from cherry_desktop.core.ai.runtime.types import ApprovalDecision

    pi_harness.server.enqueue(tool_use("bash", {"command": "touch ran"}), text("ok"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "run it")
    request = (await reader.read_until(lambda e: e.type == "tool-approval-request"))[-1]
    await connection.interrupt()  # Stop while the card is up: the call is refused, the turn ends
    events = await reader.read_until(lambda e: e.type in ("turn-complete", "error"))
    assert events[-1].type == "turn-complete"
    assert not await connection.respond_tool_approval(request.approval_id,  # type: ignore[attr-defined]
                                                      ApprovalDecision(approved=True))
    assert not (workspace / "ran").exists()
    await connection.close()
    assert not await connection.respond_tool_approval("approval-unknown", ApprovalDecision(approved=True))


async def test_stop_in_the_same_tick_as_the_send_still_stops(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    # (pi may abort before its request leaves: then the next turn takes the slow reply)
    pi_harness.server.enqueue(slow_text("should not finish " * 10, delay_s=0.03), text("next"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await asyncio.gather(send_text(connection, "go"), connection.interrupt())
    events = await reader.turn()
    assert events[-1].type == "turn-complete" and events[-1].finish_reason == "aborted"  # type: ignore[attr-defined]
    assert len(text_of(events)) < len("should not finish " * 10)
    await send_text(connection, "again")
    assert (await reader.turn())[-1].type == "turn-complete"
