"""A headless app process for kill tests: `python -m tests.integration.headless_app DATA_DIR BASE_URL`.

Starts the real core on DATA_DIR with the demo records pointing at the scripted server at
BASE_URL (which the caller runs, so it outlives this process), sends one turn and reports on
stdout, one JSON object a line:
    {"event": "sent", "assistant_id": ..., "user_id": ...}
    {"event": "cli", "pid": ...}                      once the CLI is tracked
    {"event": "text", "t": <time.time()>, "chars": n} for each text delta (cumulative length)
then waits forever (the caller kills it). `kill_mid_turn` runs it, SIGKILLs it mid-turn and
measures what survived (used by the kill tests and `bench/app_kill.py`).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo.bootstrap import DEMO_PROVIDER_ID, demo_provider_settings, ensure_demo_records


def say(**fields: Any) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


class Reporter:
    """A window-like listener that reports the streamed text length as it grows."""

    id = "headless:1"

    def __init__(self) -> None:
        self.chars = 0

    def is_alive(self) -> bool:
        return True

    def on_chunk(self, chunk: Any, source_model_id: Any = None, anchor_message_id: Any = None) -> None:
        if chunk.type == "text-delta":
            self.chars += len(chunk.delta)
            say(event="text", t=time.time(), chars=self.chars)

    async def on_done(self, result: Any) -> None:
        say(event="terminal", kind="done")

    async def on_paused(self, result: Any) -> None:
        say(event="terminal", kind="paused")

    async def on_error(self, result: Any) -> None:
        say(event="terminal", kind="error")


async def main(data_dir: str, base_url: str, mode: str = "") -> None:
    core = await start_core(build_path_registry(data_dir))
    root = core.paths.get("feature.agents.workspaces")
    agent_id, session_id, _ = ensure_demo_records(core.repos, root, base_url)
    runtime = "claude-code"
    if mode == "acp":  # the ACP demo agent (claude-agent-acp, from the tests' install root)
        from cherry_desktop.demo.bootstrap import ensure_acp_demo_records
        from tests.integration.acp_helpers import acp_test_root

        _, session_id, _ = ensure_acp_demo_records(core.repos, root)
        runtime = "acp"
        core.agent_runtime.registry.get("acp").install_root = acp_test_root()  # type: ignore[attr-defined]
    if mode == "bypass":  # tools run without approval (the CLI needs IS_SANDBOX=1 as root)
        settings = demo_provider_settings()
        settings["env"]["IS_SANDBOX"] = "1"
        provider = core.repos.providers.get_provider(DEMO_PROVIDER_ID)
        core.repos.providers.upsert_provider(id=provider.id, name=provider.name, type=provider.type,
                                             base_url=provider.base_url, settings=settings)
        core.repos.agents.update_agent(agent_id, permission_mode="bypassPermissions")
    request = AiStreamOpenRequest(topic_id=session_topic_id(session_id),
                                  user_message_parts=[TextPart(text="tell me a long story", state="done")])
    result = await dispatch_stream_request(core.stream_manager, Reporter(), request)
    say(event="sent", assistant_id=result.placeholder_ids[0], user_id=result.user_message_id)
    driver = core.agent_runtime.registry.get(runtime)
    pids: list[int] = []
    while not pids:
        # The CLI's pid, or the ACP agent's.
        pids = driver.alive_pids() if runtime == "acp" else driver.process_manager.alive_pids()  # type: ignore[attr-defined]
        await asyncio.sleep(0.01)
    say(event="cli", pid=pids[0])
    await asyncio.Event().wait()


@dataclass
class KillOutcome:
    """What a SIGKILL of the app mid-turn left behind."""

    cli_alive_after_2s: bool
    cli_exit_s: float         # from the kill until the CLI was gone (2.0 when it was not)
    streamed_chars: int       # text the app had received when it was killed
    saved_chars: int          # partial text found on the assistant row afterwards
    output_lost_s: float      # how far back in time the saved text ends, before the kill
    user_rows_kept: bool


async def _gone_after(pid: int, since: float, limit_s: float) -> float:
    """Seconds from `since` (time.time()) until `pid` was gone or a zombie; waits `limit_s` at most."""
    while time.time() - since < limit_s:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        await asyncio.sleep(0.01)
    else:
        return limit_s
    return time.time() - since


async def kill_mid_turn(data_dir: Path, base_url: str, *, stream_for_s: float = 1.5,
                        mode: str = "") -> KillOutcome:
    """Start the headless app, let it stream for `stream_for_s`, SIGKILL it, look 2 s later."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.integration.headless_app", str(data_dir), base_url, mode,
        stdout=asyncio.subprocess.PIPE, env=env)
    assert proc.stdout is not None
    events: list[dict[str, Any]] = []
    cli_pid = None
    first_text_at = None
    try:
        async with asyncio.timeout(60):
            while first_text_at is None or time.time() - first_text_at < stream_for_s:
                try:
                    # A stalled model sends nothing more: keep the clock running meanwhile.
                    line = await asyncio.wait_for(proc.stdout.readline(), 0.1)
                except TimeoutError:
                    continue
                if not line:
                    raise AssertionError(f"the headless app ended early: {events}")
                event = json.loads(line)
                events.append(event)
                if event["event"] == "cli":
                    cli_pid = event["pid"]
                if event["event"] == "text" and first_text_at is None:
                    first_text_at = event["t"]
    finally:
        killed_at = time.time()
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert cli_pid is not None, events
    cli_exit_s = await _gone_after(cli_pid, killed_at, 2.0)
    alive = psutil.pid_exists(cli_pid) and psutil.Process(cli_pid).status() != psutil.STATUS_ZOMBIE
    if alive:
        psutil.Process(cli_pid).kill()
    sent = next(e for e in events if e["event"] == "sent")
    texts = [e for e in events if e["event"] == "text"]
    with sqlite3.connect(data_dir / "cherry.db") as db:
        user_rows = db.execute("SELECT count(*) FROM agent_session_message WHERE id = ?",
                               (sent["user_id"],)).fetchone()[0]
        (data,) = db.execute("SELECT data FROM agent_session_message WHERE id = ?",
                             (sent["assistant_id"],)).fetchone()
    saved = sum(len(p.get("text", "")) for p in json.loads(data) if p.get("type") == "text")
    covered = [e["t"] for e in texts if e["chars"] <= saved]
    saved_until = covered[-1] if covered else texts[0]["t"]
    return KillOutcome(cli_alive_after_2s=alive, cli_exit_s=cli_exit_s,
                       streamed_chars=texts[-1]["chars"], saved_chars=saved,
                       output_lost_s=max(0.0, killed_at - saved_until) if saved < texts[-1]["chars"] else 0.0,
                       user_rows_kept=user_rows == 1)


if __name__ == "__main__":
    import keyring

    from tests.fakes.memory_keyring import MemoryKeyring

    keyring.set_keyring(MemoryKeyring())
    Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
    asyncio.run(main(*sys.argv[1:4]))
