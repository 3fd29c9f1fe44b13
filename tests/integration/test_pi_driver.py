"""`PiRuntimeDriver` driven directly (connect, send, iterate events): the real pi in RPC mode
against the scripted model server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.capabilities import PI_TRANSPORT
from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.gate import is_key_request, key_answer
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.runtime.pi.records import parse_record
from cherry_desktop.core.ai.runtime.pi.rpc import PiRpcProcess
from cherry_desktop.core.ai.runtime.prompt import BLOCK_LANGUAGE
from cherry_desktop.demo import text, thinking
from tests.integration.claude_driver_helpers import EventReader, chunk_types, send_text, text_of
from tests.integration.pi_helpers import TEST_KEY, PiHarness

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


async def test_fresh_turn(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    pi_harness.server.enqueue(text("hello from pi"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "say hello")
    events = await reader.turn()

    assert events[-1].type == "turn-complete"
    assert text_of(events) == "hello from pi"
    types = chunk_types(events)
    assert types[0] == "start-step" and "finish-step" in types
    starts = [e.chunk for e in events if e.type == "chunk" and e.chunk.type == "text-start"]
    assert starts[0].provider_metadata == {"cherry": {"transport": PI_TRANSPORT}}
    usage = [e for e in events if e.type == "usage"]
    assert len(usage) == 1 and usage[0].input_tokens > 0
    assert usage[0].time_first_token_ms is not None
    tokens = {e.token for e in events if e.type == "resume-token"}
    assert len(tokens) == 1
    token = tokens.pop()
    assert pi_driver.session_file_of(token) is not None  # under Cherry's session dir
    assert any(e.type == "context-usage" for e in events)

    request = pi_harness.server.last_model_request()
    assert BLOCK_LANGUAGE in request.system_text  # the materialized prompt reached the model
    assert "say hello" in request.last_user_text()
    # The key is in no file Cherry or pi wrote.
    for path in pi_harness.tmp_path.rglob("*"):
        if path.is_file() and path.stat().st_size < 5_000_000:
            assert TEST_KEY not in path.read_text(errors="ignore"), path


async def test_without_pi_the_driver_installs_it_before_the_first_connect(
        pi_harness: PiHarness, monkeypatch: pytest.MonkeyPatch, pi_installation: PiInstallation) -> None:
    """npm's registry is the internet: the install is replaced by linking the test's pi into
    the app's runtime folder; everything else (lookup, version check, launch) is real."""
    from cherry_desktop.core.ai.runtime.pi import driver as driver_module
    from cherry_desktop.core.ai.runtime.pi.install import app_pi

    monkeypatch.setenv("PATH", str(pi_installation.node.node.parent))  # no `pi` on PATH
    installs: list[Path] = []

    async def fake_npm_install(install_dir: Path, progress: object = None) -> PiInstallation:
        installs.append(install_dir)
        package = pi_installation.cli_js.parents[1]
        target = install_dir / "node_modules" / "@mariozechner" / "pi-coding-agent"
        target.parent.mkdir(parents=True)
        target.symlink_to(package, target_is_directory=True)
        found = app_pi(install_dir, pi_installation.node)
        assert found is not None
        return found

    monkeypatch.setattr(driver_module, "install_pinned_pi", fake_npm_install)
    drv = PiRuntimeDriver(pi_harness.driver().deps)
    try:
        pi_harness.server.enqueue(text("installed and running"), text("again"))
        connection = await drv.connect(pi_harness.connect_input())
        reader = EventReader(connection)
        await send_text(connection, "hi")
        assert text_of(await reader.turn()) == "installed and running"
        assert installs == [pi_harness.paths.get("feature.agents.pi.install")]
        second = await drv.connect(pi_harness.connect_input())  # found now: no second install
        assert installs == [pi_harness.paths.get("feature.agents.pi.install")]
        assert drv.installation().source == "app"
        await second.close()
    finally:
        await drv.shutdown()


async def test_without_node_connect_fails_with_a_clear_code(pi_harness: PiHarness,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from cherry_desktop.core.ai.runtime import node
    from cherry_desktop.core.ai.runtime.pi.install import PiUnavailableError

    monkeypatch.setattr(node, "wheel_node", lambda: None)
    monkeypatch.setenv("PATH", str(pi_harness.tmp_path / "empty-bin"))
    drv = PiRuntimeDriver(pi_harness.driver().deps)
    with pytest.raises(PiUnavailableError) as caught:
        await drv.connect(pi_harness.connect_input())
    assert caught.value.code == "node-missing"
    assert drv.alive_pids() == []


async def test_the_pinned_pis_lines_take_the_lean_reads(pi_driver: PiRuntimeDriver, pi_harness: PiHarness) -> None:
    """`records.parse_record` reads a delta from its head and turn_end/agent_end to their type
    only when the line starts exactly as pi writes it: the pinned pi's real lines must match
    (else every line is parsed whole again, correct but ~0.5 ms slower per burst turn)."""
    pi_harness.server.enqueue(thinking("Let me think about it carefully.", "The answer, streamed in many pieces."))
    lines: list[bytes] = []
    done = asyncio.Event()

    def keep(line: bytes) -> Any:
        lines.append(line)
        return json.loads(line)

    def on_record(record: dict[str, Any]) -> None:
        if record.get("type") == "agent_end":
            done.set()
        elif is_key_request(record):  # Cherry's gate asks for the provider's key, as for the app
            process.send_record(key_answer(str(record["id"]), launch.api_key))

    launch = pi_driver.launch_for(pi_harness.connect_input(), None)
    process = PiRpcProcess(launch.argv, cwd=launch.cwd, env=launch.env, on_record=on_record, parse=keep)
    await process.start()
    try:
        await process.command({"type": "prompt", "message": "think, then answer"})
        await asyncio.wait_for(done.wait(), 60)
    finally:
        await process.terminate()
    lean: dict[str, int] = {}
    for line in lines:
        whole = json.loads(line)
        event = whole.get("assistantMessageEvent") or {}
        kind = event.get("type", "") if whole.get("type") == "message_update" else whole.get("type")
        if kind.endswith("_delta"):
            assert parse_record(line) == {"type": "message_update", "assistantMessageEvent": {
                "type": kind, "contentIndex": event["contentIndex"], "delta": event["delta"]}}
        elif kind in ("turn_end", "agent_end"):
            assert parse_record(line) == {"type": kind}
        else:
            assert parse_record(line) == whole
            continue
        lean[kind] = lean.get(kind, 0) + 1
    assert lean.get("text_delta", 0) >= 2 and lean.get("thinking_delta", 0) >= 1
    assert lean.get("turn_end") == 1 and lean.get("agent_end") == 1


async def test_the_key_reaches_the_model_but_not_the_tools_pi_runs(pi_driver: PiRuntimeDriver,
                                                                    pi_harness: PiHarness) -> None:
    """The provider's key goes to pi over the RPC pipe (Cherry's gate registers it): the model
    requests carry it, while a shell command pi runs sees it neither in its own environment nor
    in pi's (`/proc/<pi>/environ`), so a prompt-injected `env` cannot send it anywhere."""
    import hashlib

    from cherry_desktop.demo import tool_use

    probe = "printenv; echo ----; tr '\\0' '\\n' < /proc/$PPID/environ"
    pi_harness.server.enqueue(tool_use("bash", {"command": probe}), text("done"))
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="bypassPermissions"))
    reader = EventReader(connection)
    await send_text(connection, "show me the environment")
    assert text_of(await reader.turn()).endswith("done")
    requests = pi_harness.server.requests_for_model_turns()
    assert len(requests) == 2
    assert {r.key_sha256 for r in requests} == {hashlib.sha256(TEST_KEY.encode()).hexdigest()}
    tool_output = json.dumps(requests[-1].last_user_message())
    assert "PI_CODING_AGENT_DIR" in tool_output and "----" in tool_output  # the probe ran, both halves
    assert TEST_KEY not in tool_output
