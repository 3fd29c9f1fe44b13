"""What a Claude Code ``ResultMessage`` says: failed or not, why, and the turn's totals.

Pure functions of the SDK's result (typed against the SDK, imported for type checking only:
importing this module does not import the SDK). Used by the stream adapter (`finish_result`)
and by the connection (to tell a refused resumed history: `recovery`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cherry_desktop.core.messages.json_value import JsonObject, json_int

if TYPE_CHECKING:
    from claude_agent_sdk import ResultMessage

#: ``terminal_reason`` values of a user-interrupted turn (not an error).
ABORTED_TERMINAL_REASONS = frozenset({"aborted_streaming", "aborted_tools"})

def is_aborted_result(result: ResultMessage) -> bool:
    return result.terminal_reason in ABORTED_TERMINAL_REASONS


def result_error_text(result: ResultMessage) -> str | None:
    """The error of a failed ``ResultMessage``, None when it succeeded or was interrupted.

    A result fails when its subtype is not ``success``, or — the CLI reports API failures inside
    a ``success`` envelope — when ``is_error`` is set, ``terminal_reason`` is ``api_error`` or an
    ``api_error_status`` is present.
    """
    terminal = result.terminal_reason
    if terminal in ABORTED_TERMINAL_REASONS:
        return None
    status = result.api_error_status
    failed = result.subtype != "success" or bool(result.is_error) or terminal == "api_error" or status is not None
    if not failed:
        return None
    errors = result.errors or []
    text = result.result
    parts = [str(e) for e in errors if e] or ([str(text)] if text else [])
    if not parts:
        parts = [f"Claude Code failed ({result.subtype}, {terminal or 'no reason'})"]
    message = "; ".join(parts)
    if status is not None and str(status) not in message:
        message = f"API error {status}: {message}"
    return message


def result_metadata(result: ResultMessage) -> JsonObject:
    """The turn's cumulative totals, as the message metadata the live UI reads (reconciliation
    only: never divided across the turn's requests)."""
    usage: JsonObject = result.usage or {}
    return {
        "usage": {
            "input_tokens": json_int(usage.get("input_tokens")),
            "output_tokens": json_int(usage.get("output_tokens")),
            "cache_read_tokens": json_int(usage.get("cache_read_input_tokens")),
            "cache_write_tokens": json_int(usage.get("cache_creation_input_tokens")),
        },
        "total_cost_usd": result.total_cost_usd,
        "duration_ms": result.duration_ms,
        "num_turns": result.num_turns,
    }


def content_text(content: object) -> str:
    """The text of a tool result's content: a string, or the text blocks of a list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(item.get("text", "")) for item in content
                         if isinstance(item, dict) and item.get("type") == "text")
    return str(content)
