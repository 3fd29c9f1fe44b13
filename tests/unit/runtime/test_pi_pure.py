"""pi driver parts that need no pi process: the approval policy, the gate protocol, resume
token handling, the launch's resource boundary and the stream adapter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.capabilities import PI_BUILTIN_TOOLS, PI_TRANSPORT
from cherry_desktop.core.ai.runtime.pi.gate import (
    APPROVAL_TITLE,
    GATE_SOURCE,
    gate_answer,
    is_gate_ready,
    parse_gate_request,
)
from cherry_desktop.core.ai.runtime.pi.install import NodeRuntime, PiInstallation
from cherry_desktop.core.ai.runtime.pi.launch import (
    API_KEY_ENV,
    KEY_PLACEHOLDER,
    build_pi_launch,
    find_session_file,
    is_valid_session_id,
    pi_model_name,
)
from cherry_desktop.core.ai.runtime.pi.policy import GateVerdict, decide
from cherry_desktop.core.ai.runtime.pi.stream_adapter import PiStreamAdapter
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput
from tests.integration.pi_helpers import make_pi_context

TOKEN = "01a22fe3-d105-77f4-930f-e2cbf23eb42e"


def _decide(tool: str, tool_input: object, mode: str, cwd: Path, roots: list[Path],
            disabled: frozenset[str] = frozenset()) -> GateVerdict:
    return decide(tool, tool_input, permission_mode=mode, disabled_tools=disabled, cwd=cwd,  # type: ignore[arg-type]
                  write_roots=roots)


def test_policy_by_mode(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    roots = [ws]
    assert _decide("read", {"path": "/etc/passwd"}, "default", ws, roots) is GateVerdict.ALLOW
    assert _decide("write", {"path": "a"}, "default", ws, roots) is GateVerdict.ASK
    assert _decide("write", {"path": "a"}, "acceptEdits", ws, roots) is GateVerdict.ALLOW
    assert _decide("edit", {"path": str(tmp_path / "out")}, "acceptEdits", ws, roots) is GateVerdict.ASK
    assert _decide("write", {"path": "../ws-sibling/x"}, "acceptEdits", ws, roots) is GateVerdict.ASK
    assert _decide("write", {}, "acceptEdits", ws, roots) is GateVerdict.ASK  # no path: ask
    assert _decide("bash", {"command": "ls"}, "acceptEdits", ws, roots) is GateVerdict.ASK
    assert _decide("bash", {"command": "ls"}, "bypassPermissions", ws, roots) is GateVerdict.ALLOW
    # Disabled beats every mode; an unknown tool always asks (never fail open).
    assert _decide("read", {}, "bypassPermissions", ws, roots, frozenset({"read"})) is GateVerdict.DISABLED
    assert _decide("exfiltrate", {}, "bypassPermissions", ws, roots) is GateVerdict.ASK


def test_policy_follows_symlinks(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "out").symlink_to(tmp_path, target_is_directory=True)
    assert _decide("write", {"path": "out/x"}, "acceptEdits", ws, [ws]) is GateVerdict.ASK
    (ws / "in").mkdir()
    assert _decide("write", {"path": "in/x"}, "acceptEdits", ws, [ws]) is GateVerdict.ALLOW


def test_every_builtin_tool_has_a_verdict_in_default_mode(tmp_path: Path) -> None:
    for tool in PI_BUILTIN_TOOLS:
        verdict = _decide(tool.name, {"path": "x", "command": "x"}, "default", tmp_path, [tmp_path])
        assert verdict is (GateVerdict.ASK if tool.requires_approval else GateVerdict.ALLOW), tool.name


def test_gate_protocol() -> None:
    assert "tool_call" in GATE_SOURCE and APPROVAL_TITLE in GATE_SOURCE
    record = {"type": "extension_ui_request", "id": "u1", "method": "input", "title": APPROVAL_TITLE,
              "placeholder": json.dumps({"toolCallId": "t1", "toolName": "bash", "input": {"command": "ls"}})}
    request = parse_gate_request(record)
    assert request is not None and (request.tool_call_id, request.tool_name) == ("t1", "bash")
    assert parse_gate_request({**record, "title": "someone else"}) is None
    garbled = parse_gate_request({**record, "placeholder": "{not json"})
    assert garbled is not None and garbled.tool_name == ""  # asks (unknown tool), never allows
    assert gate_answer("u1", allow=True)["value"] == "allow"
    assert gate_answer("u1", allow=False, reason="no")["value"] == "deny:no"
    assert is_gate_ready({"method": "notify", "message": "cherry-gate:ready"})
    assert not is_gate_ready({"method": "notify", "message": "other"})


def test_resume_tokens_are_validated_before_any_path_is_built(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    (sessions / f"2026-01-01T00-00-00-000Z_{TOKEN}.jsonl").write_text("{}\n")
    assert is_valid_session_id(TOKEN)
    assert find_session_file(sessions, TOKEN) is not None
    for bogus in ("../x", "*", f"{TOKEN}/../../x", "", None, TOKEN.upper() + "0"):
        assert find_session_file(sessions, bogus) is None
    assert pi_model_name("provider::model:tag") == "model:tag"
    assert pi_model_name("plain") == "plain"


def test_launch_keeps_discovery_off_and_the_key_out_of_files(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    input = RuntimeConnectInput(context=make_pi_context(tmp_path, ws, "http://127.0.0.1:9"), resume_token=None,
                                permission_mode="default", disabled_tools=frozenset({"bash"}),
                                get_api_key=lambda: "sk-secret-123", get_last_resume_token=lambda: None)
    node = NodeRuntime(node=tmp_path / "node", npm_command=None, version="v24.0.0", source="path")
    installation = PiInstallation(cli_js=tmp_path / "cli.js", version="0.73.1", source="app", node=node)
    launch = build_pi_launch(input, installation=installation, root=tmp_path / "root",
                             sessions_dir=tmp_path / "sessions", resume_token=None)
    argv = launch.argv
    for flag in ("--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--offline"):
        assert flag in argv
    assert "--no-context-files" not in argv  # AGENTS.md / CLAUDE.md of the workspace may load
    assert argv[argv.index("-e") + 1].startswith(str(launch.home))  # the only extension: Cherry's gate
    assert argv[argv.index("--tools") + 1].split(",") == [t.name for t in PI_BUILTIN_TOOLS if t.name != "bash"]
    assert launch.env["PI_CODING_AGENT_DIR"] == str(launch.home)
    # The key is handed to the gate over the pipe; the environment (which tools inherit) and
    # every repr hold only the placeholder.
    assert launch.env[API_KEY_ENV] == KEY_PLACEHOLDER and launch.api_key == "sk-secret-123"
    assert "sk-secret-123" not in repr(launch) and "sk-secret-123" not in " ".join(launch.env.values())
    config = json.loads((launch.home / "models.json").read_text())
    assert config["providers"]["cherry"]["apiKey"] == API_KEY_ENV
    for path in launch.home.rglob("*"):
        if path.is_file():
            assert "sk-secret-123" not in path.read_text()


@pytest.mark.parametrize("provider_type", ["bogus", "gemini"])
def test_launch_refuses_unsupported_providers(tmp_path: Path, provider_type: str) -> None:
    from dataclasses import replace

    from cherry_desktop.core.ai.runtime.pi.launch import PiLaunchError, models_json

    ctx = make_pi_context(tmp_path, tmp_path, "http://x")
    assert ctx.provider is not None
    ctx.provider = replace(ctx.provider, type=provider_type)
    input = RuntimeConnectInput(context=ctx, resume_token=None, permission_mode="default",
                                disabled_tools=frozenset(), get_api_key=lambda: None,
                                get_last_resume_token=lambda: None)
    with pytest.raises(PiLaunchError):
        models_json(input, "m")


def test_stream_adapter_folds_a_tool_step() -> None:
    adapter = PiStreamAdapter(denied_tool_ids={"t-denied"})
    adapter.start_turn(0.0)
    out = []
    partial = {"content": [{"type": "text"}, {"type": "toolCall", "id": "t1", "name": "write"}]}
    for record, now in [
        ({"type": "turn_start"}, 0.0),
        ({"type": "message_start", "message": {"role": "assistant"}}, 0.01),
        ({"type": "message_update", "assistantMessageEvent": {"type": "text_start", "contentIndex": 0}}, 0.02),
        ({"type": "message_update", "assistantMessageEvent": {"type": "text_delta", "contentIndex": 0,
                                                               "delta": "Hi"}}, 0.05),
        ({"type": "message_update", "assistantMessageEvent": {"type": "text_end", "contentIndex": 0}}, 0.06),
        ({"type": "message_update", "assistantMessageEvent": {"type": "toolcall_start", "contentIndex": 1,
                                                               "partial": partial}}, 0.07),
        ({"type": "message_update", "assistantMessageEvent": {"type": "toolcall_delta", "contentIndex": 1,
                                                               "delta": "{}"}}, 0.08),
        ({"type": "message_update", "assistantMessageEvent": {"type": "toolcall_end", "contentIndex": 1,
                                                               "toolCall": {"id": "t1", "name": "write",
                                                                            "arguments": {"path": "a"}}}}, 0.09),
        ({"type": "message_end", "message": {"role": "assistant", "stopReason": "toolUse",
                                             "usage": {"input": 10, "output": 5}}}, 0.1),
        ({"type": "tool_execution_start", "toolCallId": "t1"}, 0.2),
        ({"type": "tool_execution_end", "toolCallId": "t1", "result": {"content": [{"type": "text", "text": "ok"}]},
          "isError": False}, 0.25),
        ({"type": "tool_execution_end", "toolCallId": "t-denied", "result": {"content": []}, "isError": True}, 0.3),
        ({"type": "tool_execution_end", "toolCallId": "t-failed", "result": {"content": []}, "isError": True}, 0.3),
    ]:
        out += adapter.adapt(record, now)
    chunks = [e.chunk.type for e in out if e.type == "chunk"]
    assert chunks == ["start-step", "text-start", "text-delta", "text-end", "tool-input-start", "tool-input-delta",
                      "tool-input-available", "finish-step", "tool-output-available", "tool-output-denied",
                      "tool-output-error"]
    tool_start = next(e.chunk for e in out if e.type == "chunk" and e.chunk.type == "tool-input-start")
    assert tool_start.tool_call_id == "t1" and tool_start.provider_metadata == {"cherry": {"transport": PI_TRANSPORT}}
    usage = next(e for e in out if e.type == "usage")
    assert (usage.input_tokens, usage.output_tokens, usage.time_first_token_ms) == (10, 5, 50)
    output = next(e.chunk for e in out if e.type == "chunk" and e.chunk.type == "tool-output-available")
    assert output.duration_ms == pytest.approx(50)


def test_stream_adapter_compaction() -> None:
    adapter = PiStreamAdapter()
    assert [e.type for e in adapter.adapt({"type": "compaction_start"}, 0)] == ["compaction-start"]
    done = adapter.adapt({"type": "compaction_end", "result": {"firstKeptEntryId": "e1"}}, 0)
    assert done[0].type == "compaction-complete" and done[0].anchor == "e1"  # type: ignore[union-attr]
    # pi's CompactionResult.tokensBefore and its reason (threshold/overflow: on its own).
    for reason, trigger in (("threshold", "auto"), ("overflow", "auto"), ("manual", "manual"), (None, None)):
        (full,) = adapter.adapt({"type": "compaction_end", "reason": reason,
                                 "result": {"firstKeptEntryId": "e2", "tokensBefore": 90_000, "summary": "s"}}, 0)
        assert (full.tokens_before, full.trigger) == (90_000, trigger)  # type: ignore[union-attr]
    failed = adapter.adapt({"type": "compaction_end", "result": None, "aborted": False, "errorMessage": "quota"}, 0)
    assert failed[0].type == "compaction-error"


@pytest.mark.parametrize(("reported", "accepted"), [("0.73.4", True), ("0.72.0", False), ("1.0.0", False)])
def test_a_pi_on_path_is_used_only_at_a_compatible_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            reported: str, accepted: bool) -> None:
    from cherry_desktop.core.ai.runtime.pi.install import PiUnavailableError, find_node, find_pi

    cli = tmp_path / "pkg" / "dist" / "cli.js"
    cli.parent.mkdir(parents=True)
    cli.write_text(f'console.log("{reported}")\n')
    cli.chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pi").symlink_to(cli)
    node = find_node()
    monkeypatch.setenv("PATH", f"{bin_dir}:{node.node.parent}")
    if accepted:
        found = find_pi(tmp_path / "no-app-install")
        assert (found.source, found.version, found.cli_js) == ("path", reported, cli)
    else:
        with pytest.raises(PiUnavailableError) as caught:
            find_pi(tmp_path / "no-app-install")
        assert caught.value.code == "pi-missing"
