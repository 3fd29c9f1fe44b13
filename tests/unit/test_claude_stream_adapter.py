"""The Claude Code stream adapter with the SDK's own message objects (no CLI)."""

from __future__ import annotations

from claude_agent_sdk import (
    AssistantMessage,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)

from cherry_desktop.core.ai.runtime.claude_code.sdk_messages import result_error_text
from cherry_desktop.core.ai.runtime.claude_code.stream_adapter import ClaudeStreamAdapter


def stream(event: dict) -> StreamEvent:
    return StreamEvent(uuid="u", session_id="s", event=event)


def result(**overrides: object) -> ResultMessage:
    fields: dict = {
        "subtype": "success",
        "duration_ms": 5,
        "duration_api_ms": 4,
        "is_error": False,
        "num_turns": 1,
        "session_id": "sess-1",
        "usage": {"input_tokens": 10, "output_tokens": 3},
    }
    fields.update(overrides)
    return ResultMessage(**fields)


def kinds(events: list) -> list[str]:
    return [e.chunk.type if e.type == "chunk" else e.type for e in events]


def test_partial_text_message_maps_to_chunks_and_one_usage_record() -> None:
    adapter = ClaudeStreamAdapter()
    adapter.start_turn(0.0)
    events = []
    events += adapter.adapt(SystemMessage(subtype="init", data={"session_id": "sess-1"}), 0.0)
    events += adapter.adapt(
        stream({"type": "message_start", "message": {"id": "m1", "model": "x", "usage": {"input_tokens": 7}}}), 0.1
    )
    events += adapter.adapt(
        stream({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}), 0.1
    )
    events += adapter.adapt(
        stream({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}), 0.25
    )
    events += adapter.adapt(stream({"type": "content_block_stop", "index": 0}), 0.3)
    events += adapter.adapt(
        stream({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}), 0.4
    )
    events += adapter.adapt(stream({"type": "message_stop"}), 0.4)
    # The whole-message snapshot of a streamed message adds nothing.
    events += adapter.adapt(AssistantMessage(content=[TextBlock("Hi")], model="x", message_id="m1"), 0.4)
    assert kinds(events) == [
        "resume-token",
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "finish-step",
        "usage",
    ]
    usage = events[-1]
    assert (usage.input_tokens, usage.output_tokens) == (7, 2)
    assert (usage.time_first_token_ms, usage.time_completion_ms) == (250, 400)
    assert adapter.turn_has_output


def test_tool_output_denied_is_told_apart_from_failed() -> None:
    adapter = ClaudeStreamAdapter(denied_tool_ids={"t-denied"}, tool_durations={"t-ok": 12.0})
    events = adapter.adapt(AssistantMessage(content=[ToolUseBlock("t-ok", "Bash", {"command": "ls"})], model="x"), 0.0)
    assert kinds(events) == ["tool-input-available"]
    events = adapter.adapt(
        UserMessage(
            content=[
                ToolResultBlock("t-ok", "fine", False),
                ToolResultBlock("t-denied", "no", True),
                ToolResultBlock("t-failed", "boom", True),
            ]
        ),
        0.0,
    )
    assert kinds(events) == ["tool-output-available", "tool-output-denied", "tool-output-error"]
    assert events[0].chunk.duration_ms == 12.0


def test_success_result_ends_the_turn() -> None:
    adapter = ClaudeStreamAdapter()
    events = adapter.finish_result(result())
    assert kinds(events) == ["resume-token", "message-metadata", "turn-complete"]


def test_api_error_inside_a_success_envelope_is_an_error() -> None:
    failed = result(is_error=True, api_error_status=529, terminal_reason="api_error", result="Overloaded")
    assert result_error_text(failed) == "API error 529: Overloaded"
    events = ClaudeStreamAdapter().finish_result(failed)
    assert kinds(events) == ["resume-token", "message-metadata", "error"]
    assert events[-1].status == 529
    assert result_error_text(result(terminal_reason="aborted_streaming", is_error=True)) is None


def test_compaction_status_events() -> None:
    adapter = ClaudeStreamAdapter()
    start = adapter.adapt(SystemMessage(subtype="status", data={"status": "compacting"}), 0)
    done = adapter.adapt(SystemMessage(subtype="status", data={"status": None, "compact_result": "success"}), 0)
    again = adapter.adapt(SystemMessage(subtype="status", data={"status": None, "compact_result": "success"}), 0)
    failed = adapter.adapt(SystemMessage(subtype="status", data={"compact_result": "failed", "compact_error": "x"}), 0)
    assert kinds(start + done + again + failed) == ["compaction-start", "compaction-complete", "compaction-error"]


def test_a_compact_boundary_says_what_was_compacted() -> None:
    # The CLI's compact_boundary (2.x): compact_metadata {trigger, pre_tokens, post_tokens?}.
    boundary = SystemMessage(subtype="compact_boundary", data={
        "uuid": "b-1", "compact_metadata": {"trigger": "auto", "pre_tokens": 151_000, "post_tokens": 9_000}})
    (event,) = ClaudeStreamAdapter().adapt(boundary, 0)
    assert (event.type, event.anchor, event.tokens_before, event.trigger) == (  # type: ignore[union-attr]
        "compaction-complete", "b-1", 151_000, "auto")
    (bare,) = ClaudeStreamAdapter().adapt(SystemMessage(subtype="compact_boundary", data={"uuid": "b-2"}), 0)
    assert (bare.tokens_before, bare.trigger) == (None, None)  # type: ignore[union-attr]


def test_truncated_stream_closes_open_blocks() -> None:
    adapter = ClaudeStreamAdapter()
    adapter.adapt(stream({"type": "message_start", "message": {"id": "m"}}), 0)
    adapter.adapt(stream({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}}), 0)
    assert kinds(adapter.close_open_blocks()) == ["reasoning-end", "finish-step", "usage"]


def test_the_init_message_announces_the_clis_slash_commands() -> None:
    from cherry_desktop.core.ai.runtime.events import ResumeTokenEvent, SlashCommandsEvent

    adapter = ClaudeStreamAdapter()
    init = SystemMessage(subtype="init", data={"session_id": "sess-1", "slash_commands": [
        "compact", "context", "review", "my-skill", "", "compact", "__remote-workflow"]})
    assert adapter.adapt(init, 0.0) == [ResumeTokenEvent("sess-1"),
                                        SlashCommandsEvent(("/compact", "/context", "/review", "/my-skill"))]
    assert adapter.adapt(SystemMessage(subtype="init", data={"session_id": "sess-2"}), 0.0) == [
        ResumeTokenEvent("sess-2")]  # a CLI that does not list them: the descriptor's stay
