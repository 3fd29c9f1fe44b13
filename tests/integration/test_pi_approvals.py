"""pi's tool calls pass Cherry's approval gate (real pi, scripted server), and pi loads no
extension, skill or prompt file Cherry did not pass it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.types import ApprovalDecision, ReconcileInput
from cherry_desktop.demo import text, tool_use
from tests.integration.claude_driver_helpers import EventReader, chunk_types, send_text
from tests.integration.pi_helpers import PiHarness

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


async def _approval(reader: EventReader) -> object:
    events = await reader.read_until(lambda e: e.type in ("tool-approval-request", "turn-complete", "error"))
    assert events[-1].type == "tool-approval-request", [e.type for e in events]
    return events[-1]


async def test_write_asks_and_runs_when_allowed(pi_driver: PiRuntimeDriver, pi_harness: PiHarness,
                                                workspace: Path) -> None:
    target = workspace / "hello.txt"
    pi_harness.server.enqueue(tool_use("write", {"path": str(target), "content": "hi\n"}, preamble="Writing."),
                           text("Done."))
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="default"))
    reader = EventReader(connection)
    await send_text(connection, "write hello.txt")
    request = await _approval(reader)
    await asyncio.sleep(0.5)  # the user reads the card: not part of the tool's duration
    assert request.tool_name == "write"  # type: ignore[attr-defined]
    assert request.input == {"path": str(target), "content": "hi\n"}  # type: ignore[attr-defined]
    assert not target.exists()  # nothing ran before the answer
    assert await connection.respond_tool_approval(request.approval_id, ApprovalDecision(approved=True))  # type: ignore[attr-defined]
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert target.read_text() == "hi\n"
    types = chunk_types(reader.all)
    assert types.index("tool-input-start") < types.index("tool-input-available") < types.index("tool-output-available")
    output = next(e.chunk for e in reader.all if e.type == "chunk" and e.chunk.type == "tool-output-available")
    assert output.duration_ms is not None and output.duration_ms < 500


async def test_denied_write_does_not_run(pi_driver: PiRuntimeDriver, pi_harness: PiHarness, workspace: Path) -> None:
    target = workspace / "nope.txt"
    pi_harness.server.enqueue(tool_use("write", {"path": str(target), "content": "x"}), text("Understood."))
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="default"))
    reader = EventReader(connection)
    await send_text(connection, "write nope.txt")
    request = await _approval(reader)
    await connection.respond_tool_approval(request.approval_id,  # type: ignore[attr-defined]
                                           ApprovalDecision(approved=False, reason="not today"))
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert not target.exists()
    denied = [e.chunk for e in reader.all if e.type == "chunk" and e.chunk.type == "tool-output-denied"]
    assert len(denied) == 1 and "not today" in (denied[0].reason or "")
    # The model was told why.
    assert "not today" in str(pi_harness.server.last_model_request().last_user_message())


async def test_always_allow_a_tool_for_the_rest_of_the_connection(pi_driver: PiRuntimeDriver,
                                                                  pi_harness: PiHarness, workspace: Path) -> None:
    """As the Claude Code connection does (`ApprovalDecision.always_allow`): the same tool is
    not asked again on this connection; another tool still asks."""
    first, second, other = workspace / "one.txt", workspace / "two.txt", workspace / "three.txt"
    pi_harness.server.enqueue(tool_use("write", {"path": str(first), "content": "1"}), text("one"),
                              tool_use("write", {"path": str(second), "content": "2"}), text("two"))
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="default"))
    reader = EventReader(connection)
    await send_text(connection, "write one")
    request = await _approval(reader)
    assert await connection.respond_tool_approval(request.approval_id,  # type: ignore[attr-defined]
                                                  ApprovalDecision(approved=True, always_allow=True))
    await reader.turn()
    await send_text(connection, "write two")  # the same tool again: not asked
    events = await reader.turn()
    assert events[-1].type == "turn-complete"
    assert first.read_text() == "1" and second.read_text() == "2"
    assert not any(e.type == "tool-approval-request" for e in events)
    # Another tool still asks.
    pi_harness.server.enqueue(tool_use("bash", {"command": f"touch {other}"}), text("three"))
    await send_text(connection, "touch three")
    request = await _approval(reader)
    assert request.tool_name == "bash"  # type: ignore[attr-defined]
    assert await connection.respond_tool_approval(request.approval_id,  # type: ignore[attr-defined]
                                                  ApprovalDecision(approved=False))
    await reader.turn()
    assert not other.exists()


async def test_accept_edits_writes_inside_the_workspace_and_asks_outside(
        pi_driver: PiRuntimeDriver, pi_harness: PiHarness, workspace: Path, tmp_path: Path) -> None:
    inside = workspace / "in.txt"
    outside = tmp_path / "outside.txt"
    link = workspace / "escape"
    link.symlink_to(tmp_path, target_is_directory=True)
    pi_harness.server.enqueue(
        tool_use("write", {"path": "in.txt", "content": "a"}),
        tool_use("write", {"path": str(outside), "content": "b"}),
        tool_use("write", {"path": "escape/via-link.txt", "content": "c"}),
        tool_use("bash", {"command": "echo hi"}),
        text("All done."))
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="acceptEdits"))
    reader = EventReader(connection)
    await send_text(connection, "go")
    first = await _approval(reader)
    assert inside.read_text() == "a"  # ran without a card
    assert first.tool_name == "write" and first.input["path"] == str(outside)  # type: ignore[attr-defined]
    await connection.respond_tool_approval(first.approval_id, ApprovalDecision(approved=False))  # type: ignore[attr-defined]
    second = await _approval(reader)
    assert second.input["path"] == "escape/via-link.txt"  # type: ignore[attr-defined]  # symlink escape asks
    await connection.respond_tool_approval(second.approval_id, ApprovalDecision(approved=False))  # type: ignore[attr-defined]
    third = await _approval(reader)
    assert third.tool_name == "bash"  # type: ignore[attr-defined]  # shell always asks
    await connection.respond_tool_approval(third.approval_id, ApprovalDecision(approved=True))  # type: ignore[attr-defined]
    assert (await reader.turn())[-1].type == "turn-complete"
    assert not outside.exists() and not (tmp_path / "via-link.txt").exists()


async def test_disabled_tools_are_not_offered_and_a_live_disable_is_refused(
        pi_driver: PiRuntimeDriver, pi_harness: PiHarness, workspace: Path) -> None:
    pi_harness.server.enqueue(text("first"), tool_use("read", {"path": "x.txt"}), text("ok"))
    (workspace / "x.txt").write_text("secret")
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="bypassPermissions",
                                                            disabled_tools=frozenset({"bash"})))
    reader = EventReader(connection)
    await send_text(connection, "one")
    await reader.turn()
    offered = pi_harness.server.last_model_request().tool_names
    assert "bash" not in offered and "read" in offered
    # A live disable lands in the gate at once, and still asks for a rebuild (tool list).
    result = await connection.reconcile(ReconcileInput(permission_mode="bypassPermissions",
                                                       disabled_tools=frozenset({"bash", "read"}),
                                                       model_id="scripted::claude-demo"))
    assert result == "rebuild"
    await send_text(connection, "two")
    await reader.turn()
    denied = [e.chunk for e in reader.all if e.type == "chunk" and e.chunk.type == "tool-output-denied"]
    assert len(denied) == 1
    assert "secret" not in str(pi_harness.server.last_model_request().last_user_message())


async def test_reconcile_hot_applies_the_permission_mode(pi_driver: PiRuntimeDriver, pi_harness: PiHarness,
                                                         workspace: Path) -> None:
    pi_harness.server.enqueue(tool_use("write", {"path": "a.txt", "content": "a"}), text("ok"))
    connection = await pi_driver.connect(pi_harness.connect_input(permission_mode="bypassPermissions"))
    result = await connection.reconcile(ReconcileInput(permission_mode="default", disabled_tools=frozenset(),
                                                       model_id="scripted::claude-demo"))
    assert result == "patched"
    reader = EventReader(connection)
    await send_text(connection, "go")
    request = await _approval(reader)  # the tightened mode asks
    await connection.respond_tool_approval(request.approval_id, ApprovalDecision(approved=True))  # type: ignore[attr-defined]
    await reader.turn()
    assert (workspace / "a.txt").read_text() == "a"
    changed = await connection.reconcile(ReconcileInput(permission_mode="default", disabled_tools=frozenset(),
                                                        model_id="scripted::other-model"))
    assert changed == "rebuild"


EVIL_EXTENSION = """import * as fs from "node:fs";
export default function (pi) {{ fs.writeFileSync({marker!r}, "loaded"); }}
"""


async def test_planted_extensions_and_prompts_are_not_loaded_but_agents_md_is(
        pi_driver: PiRuntimeDriver, pi_harness: PiHarness, workspace: Path, tmp_path: Path) -> None:
    assert pi_harness.home is not None
    markers = [tmp_path / "workspace-extension-ran", tmp_path / "home-extension-ran"]
    for folder, marker in ((workspace / ".pi" / "extensions", markers[0]),
                           (pi_harness.home / ".pi" / "agent" / "extensions", markers[1])):
        folder.mkdir(parents=True)
        (folder / "evil.ts").write_text(EVIL_EXTENSION.format(marker=str(marker)))
    (workspace / ".pi" / "SYSTEM.md").write_text("PLANTED-WORKSPACE-SYSTEM")
    (workspace / ".pi" / "APPEND_SYSTEM.md").write_text("PLANTED-WORKSPACE-APPEND")
    (pi_harness.home / ".pi" / "agent" / "SYSTEM.md").write_text("PLANTED-HOME-SYSTEM")
    skills = workspace / ".pi" / "skills" / "evil"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("---\nname: evil\ndescription: PLANTED-SKILL\n---\nbody\n")
    (workspace / "AGENTS.md").write_text("WORKSPACE-AGENTS-CONTEXT")
    pi_harness.server.enqueue(text("ok"))
    connection = await pi_driver.connect(pi_harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "hi")
    await reader.turn()
    assert not any(m.exists() for m in markers)
    system = pi_harness.server.last_model_request().system_text
    for planted in ("PLANTED-WORKSPACE-SYSTEM", "PLANTED-WORKSPACE-APPEND", "PLANTED-HOME-SYSTEM", "PLANTED-SKILL"):
        assert planted not in system
    assert "WORKSPACE-AGENTS-CONTEXT" in system
