"""The internal Agent continuation normalisation (agent-session-runtime.md).

A request of Cherry's own agent (Claude Code through the gateway) whose converted message list
ends with a text-only assistant message gets an ephemeral user continuation appended: the
agent's loop asking proves it wants another sample, whatever the target provider (many
OpenAI-compatible ones reject or ignore an assistant prefill). The caller's body is not
mutated; the continuation exists only in the upstream request (never stored, never shown).
External callers never get it: they may mean the prefill.
"""

from __future__ import annotations

from cherry_desktop.core.gateway.upstream import Dialect
from cherry_desktop.core.gateway.wire import Wire, WireObject

CONTINUATION_TEXT = "Continue."


def _text_only_assistant(message: Wire, dialect: Dialect) -> bool:
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return False
    content = message.get("content")
    if dialect == "openai":
        return not message.get("tool_calls") and bool(content)
    if isinstance(content, str):
        return bool(content)
    blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    return bool(blocks) and all(b.get("type") == "text" for b in blocks)


def normalize_internal_continuation(body: WireObject, dialect: Dialect) -> WireObject:
    """`body` (an upstream request in `dialect`) with the continuation appended when needed."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages or not _text_only_assistant(messages[-1], dialect):
        return body
    continuation: WireObject = (
        {"role": "user", "content": CONTINUATION_TEXT} if dialect == "openai"
        else {"role": "user", "content": [{"type": "text", "text": CONTINUATION_TEXT}]})
    return {**body, "messages": [*messages, continuation]}


__all__ = ["CONTINUATION_TEXT", "normalize_internal_continuation"]
